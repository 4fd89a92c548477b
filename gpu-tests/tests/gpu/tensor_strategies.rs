//! One tensor program compiled for two target envs — the device's own, and
//! the same without `GroupNonUniformArithmetic`, `Int64` and `Float16` —
//! takes different strategies (subgroup reductions or a workgroup-memory
//! tree; f16 stored natively or as its bits; i64 native or as two 32-bit
//! words) and gives the same results on
//! the device, equal to the reference evaluator's. Long reductions stay
//! within lavapipe's per-invocation loop cap: the 16,777,216-element sum of
//! ones is exact.

use kiln_core::codegen::{compile, explain, CodegenTarget, CompiledProgram};
use kiln_core::grammar::Capability;
use kiln_core::tensor::e2e::compute_module;
use kiln_core::tensor::eval::{self, Value};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Program};

use crate::runtime_support::test_device;

const PROGRAM: &str = r#"
func.func @sum_f16_small_ints() {
  %in = util.unfoldable_constant dense<3.0> : tensor<100003xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%in : tensor<100003xf16>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f16, %acc: f32) {
      %xf = arith.extf %x : f16 to f32
      %a = arith.addf %xf, %acc : f32
      linalg.yield %a : f32
    }
  check.expect_eq_const(%s, dense<300009.0> : tensor<f32>) : tensor<f32>
  return
}

func.func @row_max_i32() {
  %e0 = tensor.empty() : tensor<3x70001xi32>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<3x70001xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %v = arith.index_cast %k : index to i32
    linalg.yield %v : i32
  } -> tensor<3x70001xi32>
  %lo = arith.constant -2147483648 : i32
  %e = tensor.empty() : tensor<3xi32>
  %f = linalg.fill ins(%lo : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %m = linalg.reduce ins(%iota : tensor<3x70001xi32>) outs(%f : tensor<3xi32>) dimensions = [1]
    (%x: i32, %acc: i32) {
      %a = arith.maxsi %x, %acc : i32
      linalg.yield %a : i32
    }
  check.expect_eq_const(%m, dense<[70000, 70001, 70002]> : tensor<3xi32>) : tensor<3xi32>
  return
}

func.func @i64_wrap_and_sum() {
  %a = util.unfoldable_constant dense<[6000000000, -7, 4611686018427387904, -3000000000, 17]> : tensor<5xi64>
  %b = util.unfoldable_constant dense<[3, -2, 4, 1000000007, -5]> : tensor<5xi64>
  %p = arith.muli %a, %b : tensor<5xi64>
  %q = arith.divsi %a, %b : tensor<5xi64>
  %z = arith.constant 0 : i64
  %e = tensor.empty() : tensor<i64>
  %f = linalg.fill ins(%z : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %s = linalg.reduce ins(%p : tensor<5xi64>) outs(%f : tensor<i64>) dimensions = [0]
    (%x: i64, %acc: i64) {
      %y = arith.addi %x, %acc : i64
      linalg.yield %y : i64
    }
  // numpy int64 (wrapping): a * b, a // b toward zero, sum(a * b).
  check.expect_eq_const(%p, dense<[18000000000, 14, 0, -3000000021000000000, -85]> : tensor<5xi64>) : tensor<5xi64>
  check.expect_eq_const(%q, dense<[2000000000, 3, 1152921504606846976, -2, -3]> : tensor<5xi64>) : tensor<5xi64>
  check.expect_eq_const(%s, dense<-3000000003000000071> : tensor<i64>) : tensor<i64>
  return
}

func.func @softmax_long_rows_f32() {
  %e0 = tensor.empty() : tensor<2x5000xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<2x5000xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %r = arith.remui %j, %c7 : index
    %v = arith.index_cast %r : index to i32
    %h = arith.sitofp %v : i32 to f32
    linalg.yield %h : f32
  } -> tensor<2x5000xf32>
  %e1 = tensor.empty() : tensor<2x5000xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x5000xf32>) outs(%e1 : tensor<2x5000xf32>) -> tensor<2x5000xf32>
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %p = tensor.extract %s[%c0, %c6] : tensor<2x5000xf32>
  %t = tensor.splat %p : tensor<1xf32>
  // e^6 / (715 (1 + e) + 714 (e^2 + ... + e^6)), computed in Python.
  check.expect_almost_eq_const(%t, dense<[0.0008861237]> : tensor<1xf32>, atol 1.0e-09, rtol 1.0e-05) : tensor<1xf32>
  return
}
"#;

fn device() -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
}

/// `target` without `caps` (and what implies them).
fn without(target: &CodegenTarget, caps: &[Capability]) -> CodegenTarget {
    let mut t = target.clone();
    let keep: Vec<Capability> = t
        .env
        .capability_closure()
        .into_iter()
        .filter(|c| !caps.contains(c) && !c.implies().iter().any(|i| caps.contains(i)))
        .collect();
    t.env.vce.capabilities = keep;
    t
}

fn run_all(device: &Device, program: CompiledProgram) -> Vec<(String, Vec<Value>)> {
    let names: Vec<String> = program.functions.iter().map(|f| f.name.clone()).collect();
    let p = Program::load(device, program).unwrap();
    names
        .into_iter()
        .map(|n| {
            let r = p.run(&n, &[]).unwrap_or_else(|e| panic!("@{n}: {e}"));
            (n, r)
        })
        .collect()
}

#[test]
fn two_target_envs_take_different_strategies_with_the_same_results() {
    let device = device();
    let module = kiln_core::tensor::load(PROGRAM).unwrap();
    let compute = compute_module(&module).unwrap();
    let full = device_target(&device);
    for cap in [
        Capability::GroupNonUniformArithmetic,
        Capability::Int64,
        Capability::Float16,
    ] {
        assert!(
            full.has(cap),
            "the device lacks {cap:?}: this test needs it"
        );
    }
    let reduced = without(
        &full,
        &[
            Capability::GroupNonUniformArithmetic,
            Capability::Int64,
            Capability::Float16,
        ],
    );
    assert!(!reduced.has(Capability::Float16) && !reduced.has(Capability::Int64));
    let a = compile(&compute, &full).unwrap();
    let b = compile(&compute, &reduced).unwrap();
    let text = |p: &CompiledProgram| p.functions.iter().map(explain).collect::<String>();
    let (ea, eb) = (text(&a), text(&b));
    assert!(
        ea.contains("combined by subgroup reduce (GroupNonUniformArithmetic)"),
        "{ea}"
    );
    assert!(ea.contains("f16: f16 storage (Float16)"), "{ea}");
    assert!(!ea.contains("workgroup-memory tree"), "{ea}");
    assert!(eb.contains("combined by workgroup-memory tree"), "{eb}");
    assert!(eb.contains("f16: emulated: i16 bits"), "{eb}");
    assert!(ea.contains("i64: native"), "{ea}");
    assert!(
        eb.contains("i64: emulated: two i32 words (no Int64)"),
        "{eb}"
    );
    assert!(!eb.contains("subgroup reduce"), "{eb}");
    // What the reduced program's kernels need stays within its env.
    let needs = b.needs();
    for cap in [
        Capability::GroupNonUniformArithmetic,
        Capability::Int64,
        Capability::Float16,
    ] {
        assert!(!needs.capabilities.contains(&cap), "{cap:?} in {needs:?}");
    }
    assert!(a
        .needs()
        .capabilities
        .contains(&Capability::GroupNonUniformArithmetic));
    // The file's own checks pass under both.
    for target in [&full, &reduced] {
        let mut backend = kiln_runtime::e2e::DeviceBackend::with_target(&device, target.clone());
        let report = kiln_core::tensor::e2e::run(
            &module,
            &mut backend as &mut dyn kiln_core::tensor::e2e::Backend,
            &Default::default(),
        )
        .unwrap();
        assert!(report.success(), "{}", report.output);
    }
    let ra = run_all(&device, a);
    let rb = run_all(&device, b);
    assert_no_validation_messages(device.context());
    for ((name, va), (_, vb)) in ra.iter().zip(&rb) {
        let reference = eval::run(&compute, name, &[]).unwrap();
        for ((x, y), r) in va.iter().zip(vb).zip(&reference) {
            let (Value::Tensor(x), Value::Tensor(y), Value::Tensor(r)) = (x, y, r) else {
                panic!("@{name}: expected tensors");
            };
            assert_eq!(x.shape, r.shape, "@{name}");
            assert_eq!(x.elem, y.elem, "@{name}");
            if !x.elem.is_float() {
                assert_eq!(x, r, "@{name}");
                assert_eq!(y, r, "@{name}");
                continue;
            }
            for i in 0..x.len() {
                let (p, q, t) = (x.get(i).float(), y.get(i).float(), r.get(i).float());
                let tol = 1e-3 * t.abs().max(1e-3);
                assert!((p - q).abs() <= tol, "@{name}[{i}]: {p} vs {q}");
                assert!((p - t).abs() <= tol, "@{name}[{i}]: {p} vs reference {t}");
            }
        }
    }
    // The exactly representable results are bit for bit the same.
    assert_eq!(ra[0].1, rb[0].1);
    assert_eq!(ra[1].1, rb[1].1);
    assert_eq!(ra[2].1, rb[2].1);
}

#[test]
fn sum_of_16m_ones_is_exact_within_the_loop_cap() {
    let src = r#"
func.func @sum() -> tensor<f32> {
  %in = util.unfoldable_constant dense<1.0> : tensor<16777216xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%in : tensor<16777216xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %a = arith.addf %x, %acc : f32
      linalg.yield %a : f32
    }
  return %s : tensor<f32>
}"#;
    let device = device();
    let target = device_target(&device);
    let cap = target
        .facts
        .loop_iteration_cap
        .expect("lavapipe's loop cap is known");
    assert_eq!(cap, 65_535);
    let module = kiln_core::tensor::load(src).unwrap();
    let program = compile(&module, &target).unwrap();
    let d = &program.functions[0].dispatches[0];
    // One workgroup cannot cover 2^24 iterations within the cap: partial
    // results and a second kernel.
    assert_eq!(d.kernels.len(), 2, "{}", explain(&program.functions[0]));
    assert!(d.strategy.loop_budget < u64::from(cap));
    let p = Program::load(&device, program).unwrap();
    let r = p.run("sum", &[]).unwrap();
    let Value::Tensor(t) = &r[0] else { panic!() };
    assert_eq!(t.get(0).float(), 16_777_216.0);
    assert_no_validation_messages(device.context());
}
