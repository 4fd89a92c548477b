//! Split-K (`ReductionStrategy::SplitK`) on lavapipe. The heuristic takes
//! it only where the device's fill is known, so the cases compile for a
//! discrete-GPU-like target (the device's env with a discrete GPU's type
//! and barriers as cheap as on a GPU) whose small outputs and long
//! reductions make it split: unaligned rows, columns and reductions, a
//! reduction that the slices do not divide, a single output, a single
//! row, a batch, a bias init with a ReLU epilogue and an f16 cast
//! epilogue (applied after the whole sum), f16 operands. Each is checked exactly against the reference
//! evaluator on small-integer data (every partial and total sum is exact
//! in f32), with the heuristic's workgroup-memory tile and, through
//! tuned choices, other split counts; every kernel validated by
//! spirv-val and run under the validation layer. Also: lavapipe's own
//! target never splits, `kiln tune`'s candidates there include split
//! register tiles and split workgroup-memory tiles (each case run exact
//! with both), and the tuner times them (their reassociated float sums
//! agree with the heuristic's within the tuner's bound).

use std::rc::Rc;

use kiln_core::codegen::strategy::{Choice, Distribution, ReductionStrategy, Tuning};
use kiln_core::codegen::{compile, CodegenTarget, CompiledDispatch, CompiledProgram};
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::{CacheLocation, DeviceOptions};

use crate::runtime_support::test_device;
use crate::tensor_tiles::{
    bias_relu_matmul, check, device, f16_operand_matmul, fill_matmul, input, ty,
};

/// The device's target as a discrete GPU's: its fill known, barriers
/// cheap.
fn discrete_like(device: &kiln_runtime::Device) -> CodegenTarget {
    let mut t = device_target(device);
    assert!(t.facts.barriers_serialize, "the CI device is lavapipe");
    t.facts.barriers_serialize = false;
    t.env.device.device_type = kiln_core::target::DeviceType::DiscreteGpu;
    t
}

/// The programs (`@f`), their names and input shapes.
fn cases() -> Vec<(String, String, Vec<Vec<usize>>)> {
    let mut out = Vec::new();
    for (m, k, n) in [
        (1, 600, 1),
        (1, 777, 300),
        (8, 2050, 9),
        (33, 1000, 17),
        (32, 2048, 32),
    ] {
        out.push((
            format!("matmul {m}x{k}x{n}"),
            fill_matmul("matmul", &[m, k], &[k, n], &[m, n]),
            vec![vec![m, k], vec![k, n]],
        ));
    }
    out.push((
        "batch_matmul 3x9x1500x10".into(),
        fill_matmul("batch_matmul", &[3, 9, 1500], &[3, 1500, 10], &[3, 9, 10]),
        vec![vec![3, 9, 1500], vec![3, 1500, 10]],
    ));
    // B transposed in the maps, the accumulator starting from a bias
    // broadcast, a ReLU fused after it: split-K's second kernel adds the
    // bias to the whole sum and applies the ReLU only then.
    out.push((
        "matmul with transposed B, bias init, ReLU epilogue".into(),
        bias_relu_matmul(19, 1200, 45),
        vec![vec![19, 1200], vec![45, 1200], vec![45]],
    ));
    // An f16 cast fused after the matmul: rounded once, from the whole
    // sum (which exceeds f16's exact integers).
    let (a, b, c) = (ty(&[21, 1300]), ty(&[1300, 30]), ty(&[21, 30]));
    out.push((
        "matmul with an f16 cast epilogue".into(),
        format!(
            r#"func.func @f(%a: {a}, %b: {b}) -> tensor<21x30xf16> {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  %h = arith.truncf %r : {c} to tensor<21x30xf16>
  return %h : tensor<21x30xf16>
}}"#
        ),
        vec![vec![21, 1300], vec![1300, 30]],
    ));
    // f16 operands made by fused producers, accumulated in f32.
    out.push((
        "matmul of f16 operands, f32 accumulator".into(),
        f16_operand_matmul(37, 1100, 20),
        vec![vec![37, 1100], vec![1100, 20]],
    ));
    out
}

fn args_for(shapes: &[Vec<usize>]) -> Vec<Value> {
    shapes
        .iter()
        .enumerate()
        .map(|(s, sh)| input(sh, s as u64))
        .collect()
}

/// The program's one dispatch with a reduction.
fn reducing(p: &CompiledProgram) -> &CompiledDispatch {
    let ds: Vec<&CompiledDispatch> = p.functions[0]
        .dispatches
        .iter()
        .filter(|d| d.strategy.reduction.is_some())
        .collect();
    assert_eq!(ds.len(), 1, "{:?}", ds.len());
    ds[0]
}

fn slices(d: &CompiledDispatch) -> Option<(u32, u64)> {
    match d.strategy.reduction {
        Some(ReductionStrategy::SplitK { slices, slice }) => Some((slices, slice)),
        _ => None,
    }
}

#[test]
fn split_k_is_exact_at_its_edges() {
    let device = device();
    let target = discrete_like(&device);
    for (name, src, shapes) in cases() {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = reducing(&compiled);
        let (n, len) = slices(d).unwrap_or_else(|| panic!("{name}: {}", d.strategy));
        assert!(n >= 2 && len >= 256, "{name}: {}", d.strategy);
        assert_eq!(d.kernels.len(), 2, "{name}");
        let key = d.tuning_key.clone();
        // A split register tile too where one exists (the heuristic's
        // is a workgroup-memory tile here), and a second split count
        // where the reduction allows one.
        let mut others: Vec<Choice> = Vec::new();
        for c in &d.candidates[1..] {
            let new_kind = matches!(c.distribution, Distribution::Tile { .. })
                && !others
                    .iter()
                    .any(|o| matches!(o.distribution, Distribution::Tile { .. }));
            let new_split = c.distribution == d.strategy.distribution
                && c.split_k.is_some_and(|s| s != n)
                && !others.iter().any(|o| o.distribution == c.distribution);
            if c.split_k.is_some() && (new_kind || new_split) {
                others.push(*c);
            }
        }
        let args = args_for(&shapes);
        check(&device, &name, compiled.clone(), &src, &args);
        for other in others {
            let mut tuning = Tuning::new();
            tuning.insert(&key, other, "test");
            let tuned = target.clone().with_tuning(tuning);
            let compiled = compile(&module, &tuned).unwrap_or_else(|e| panic!("{name}: {e}"));
            let d = reducing(&compiled);
            assert_eq!(d.strategy.distribution, other.distribution, "{name}");
            assert_eq!(slices(d).map(|s| s.0), other.split_k, "{name}");
            check(
                &device,
                &format!("{name}, {}", other.to_text()),
                compiled,
                &src,
                &args,
            );
        }
    }
    assert_no_validation_messages(device.context());
}

/// On lavapipe's own target no case splits, but `kiln tune`'s candidates
/// include a split register tile (the heuristic's tile there) and a split
/// workgroup-memory tile; both, selected by a tuned choice, are exact.
#[test]
fn lavapipe_never_splits_but_tune_may() {
    let device = device();
    let lavapipe = device_target(&device);
    for (name, src, shapes) in cases() {
        let module = kiln_core::tensor::load(&src).unwrap();
        let plain = compile(&module, &lavapipe).unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = reducing(&plain);
        assert!(slices(d).is_none(), "{name}: {}", d.strategy);
        let tile = d
            .candidates
            .iter()
            .find(|c| c.split_k.is_some() && matches!(c.distribution, Distribution::Tile { .. }));
        let shared = d.candidates.iter().find(|c| {
            c.split_k.is_some() && matches!(c.distribution, Distribution::SharedTile { .. })
        });
        // A single output has no register tile; every case has a
        // workgroup-memory tile.
        let single = name == "matmul 1x600x1";
        assert_eq!(tile.is_some(), !single, "{name}: {:?}", d.candidates);
        let shared = shared.unwrap_or_else(|| panic!("{name}: {:?}", d.candidates));
        let args = args_for(&shapes);
        for choice in tile.into_iter().chain([shared]) {
            assert_eq!(Choice::parse(&choice.to_text()), Ok(*choice));
            let mut tuning = Tuning::new();
            tuning.insert(&d.tuning_key, *choice, "test");
            let tuned = lavapipe.clone().with_tuning(tuning);
            let compiled = compile(&module, &tuned).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got = reducing(&compiled);
            assert_eq!(got.strategy.distribution, choice.distribution, "{name}");
            assert_eq!(slices(got).map(|s| s.0), choice.split_k, "{name}");
            assert!(got.strategy.to_string().contains("split-K"));
            check(
                &device,
                &format!("{name} on lavapipe, {}", choice.to_text()),
                compiled,
                &src,
                &args,
            );
        }
    }
    assert_no_validation_messages(device.context());
}

/// A tensor of non-integer values (sums that round, so reassociating
/// them changes low bits).
fn fractional(shape: &[usize], seed: u64) -> Value {
    let n: usize = shape.iter().product();
    let data = (0..n as u64)
        .map(|i| (((i * 37 + seed * 11) % 101) as f32 - 50.0) / 7.3)
        .collect();
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::F32,
        shape: shape.to_vec(),
        data: Elements::F32(data),
    }))
}

#[test]
fn the_tuner_times_split_k_candidates() {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        profile: true,
        ..DeviceOptions::default()
    });
    let (m, k, n) = (8, 1024, 12);
    let src = fill_matmul("matmul", &[m, k], &[k, n], &[m, n]);
    let module = kiln_core::tensor::load(&src).unwrap();
    let args = [fractional(&[m, k], 1), fractional(&[k, n], 2)];
    let results =
        kiln_runtime::tune::tune_function(&device, &module, "f", &args, 1, |_| {}).unwrap();
    let [d] = &results[..] else {
        panic!("{}", results.len())
    };
    let split: Vec<_> = d
        .results
        .iter()
        .filter(|r| r.choice.split_k.is_some())
        .collect();
    assert!(!split.is_empty(), "{:?}", d.results);
    for r in split {
        assert!(r.gpu.is_some(), "{}: {:?}", r.choice.to_text(), r.error);
    }
    assert_no_validation_messages(device.context());
}

/// An i32 tensor of values in -50..50, different for each `seed`.
fn ints(shape: &[usize], seed: u64) -> Value {
    let n: usize = shape.iter().product();
    let data = (0..n as u64)
        .map(|i| ((i * 29 + seed * 17 + i / 7) % 101) as i32 - 50)
        .collect();
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::I32,
        shape: shape.to_vec(),
        data: Elements::I32(data),
    }))
}

/// An integer matmul splits too (its sums are exact in any order).
#[test]
fn integer_matmuls_split_exactly() {
    let device = device();
    let target = discrete_like(&device);
    let (m, k, n) = (13, 3000, 22);
    let src = format!(
        r#"func.func @f(%a: tensor<{m}x{k}xi32>, %b: tensor<{k}x{n}xi32>) -> tensor<{m}x{n}xi32> {{
  %z = arith.constant 7 : i32
  %e = tensor.empty() : tensor<{m}x{n}xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xi32>, tensor<{k}x{n}xi32>) outs(%f : tensor<{m}x{n}xi32>) -> tensor<{m}x{n}xi32>
  return %r : tensor<{m}x{n}xi32>
}}"#
    );
    let module = kiln_core::tensor::load(&src).unwrap();
    let compiled = compile(&module, &target).unwrap();
    let d = reducing(&compiled);
    assert!(slices(d).is_some(), "{}", d.strategy);
    let args = [ints(&[m, k], 1), ints(&[k, n], 2)];
    check(&device, "i32 matmul", compiled, &src, &args);
    assert_no_validation_messages(device.context());
}
