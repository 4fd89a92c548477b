//! The vec4 strategy of elementwise dispatches (`Distribution::Vector4`)
//! at its edges: the smallest space that takes it, a last group cut by
//! the workgroup grid, 2-D spaces whose rows are a multiple of 4 long,
//! operands that are not read at the group's points (a broadcast row, a
//! transposed tensor) next to ones that are, i32, several results — each
//! exactly equal to the reference evaluator. Spaces that must not take it
//! (a last dimension not a multiple of 4) do not; 16-bit elements are in
//! `tensor_f16_rounding` (f16 stored natively takes it, bf16 does not).

use kiln_core::codegen::strategy::{Distribution, ReductionStrategy};
use kiln_core::codegen::{compile, CompiledProgram};
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::{check, device, input, ty};

fn vec4_of(p: &CompiledProgram) -> bool {
    p.functions[0]
        .dispatches
        .iter()
        .any(|d| matches!(d.strategy.distribution, Distribution::Vector4 { .. }))
}

/// `@f(a, b) = (a + b) * a` over `shape`.
pub(crate) fn fused(shape: &[usize]) -> String {
    let t = ty(shape);
    format!(
        r#"func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %s = arith.addf %a, %b : {t}
  %p = arith.mulf %s, %a : {t}
  return %p : {t}
}}"#
    )
}

#[test]
fn vec4_groups_are_exact_at_their_edges() {
    let device = device();
    let target = device_target(&device);
    let mut cases: Vec<(String, String, Vec<Vec<usize>>, bool)> = Vec::new();
    for shape in [
        vec![256],
        vec![260],
        vec![4 * 1024 * 17 + 4],
        vec![3, 1028],
        vec![67, 4, 12],
    ] {
        cases.push((
            format!("fused {shape:?}"),
            fused(&shape),
            vec![shape.clone(), shape.clone()],
            true,
        ));
    }
    // A row broadcast over a 2-D space and a transposed operand, beside a
    // tensor read at the group's own points.
    let (x, row, xt) = (ty(&[24, 36]), ty(&[36]), ty(&[36, 24]));
    cases.push((
        "broadcast row and transposed operand".into(),
        format!(
            r#"func.func @f(%x: {x}, %r: {row}, %y: {xt}) -> {x} {{
  %e = tensor.empty() : {x}
  %o = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%x, %r, %y : {x}, {row}, {xt}) outs(%e : {x}) {{
  ^bb0(%a: f32, %b: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %p = arith.mulf %s, %c : f32
    linalg.yield %p : f32
  }} -> {x}
  return %o : {x}
}}"#
        ),
        vec![vec![24, 36], vec![36], vec![36, 24]],
        true,
    ));
    // Two results, one i32 computed from f32.
    let (f, i) = (ty(&[512]), ty(&[512]).replace("f32", "i32"));
    cases.push((
        "two results, f32 and i32".into(),
        format!(
            r#"func.func @f(%a: {f}, %b: {f}) -> ({f}, {i}) {{
  %m = arith.maximumf %a, %b : {f}
  %c = arith.fptosi %m : {f} to {i}
  %d = arith.muli %c, %c : {i}
  return %m, %d : {f}, {i}
}}"#
        ),
        vec![vec![512], vec![512]],
        true,
    ));
    // Not a multiple of 4 along the last dimension: element by element.
    cases.push((
        "fused [255, 7]".into(),
        fused(&[255, 7]),
        vec![vec![255, 7], vec![255, 7]],
        false,
    ));
    for (name, src, shapes, want) in cases {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(vec4_of(&compiled), want, "{name}");
        let args: Vec<_> = shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| input(sh, s as u64 + 3))
            .collect();
        check(&device, &name, compiled, &src, &args);
    }
    assert_no_validation_messages(device.context());
}

/// Softmax along rows a multiple of 4 long reads and writes them as vec4
/// in two passes (a running maximum with its rescaled sum, then the
/// quotients): rows one workgroup covers exactly, rows with a partial
/// last round, short rows of one invocation each, and rows whose maximum
/// comes last, rising far enough that the running sum is rescaled on the
/// way — within 1e-6 of
/// the reference (the sum's order differs from the reference's serial
/// one). Workgroup rows combine through subgroup operations and, on a
/// target without them, through a workgroup-memory tree. On lavapipe,
/// long rows take a row per subgroup (8 or 32 rows per workgroup, a
/// tail workgroup with fewer), held in registers up to 128 vec4 groups per
/// invocation (a 4,096-long row) and looped over beyond (4,128); a row
/// with a NaN is NaN throughout, as in the reference.
#[test]
fn vec4_softmax_rows_match_the_reference() {
    let device = device();
    let lavapipe = device_target(&device);
    let no_subgroups = crate::tensor_programs::minimal_target(&device);
    for (target, subgroups) in [(lavapipe, true), (no_subgroups, false)] {
        vec4_softmax_on(&device, &target, subgroups);
    }
    assert_no_validation_messages(device.context());
}

/// `@f(a) = softmax(a)` along the rows of an f32 matrix of `shape`.
pub(crate) fn softmax_rows(shape: &[usize]) -> String {
    let t = ty(shape);
    format!(
        r#"func.func @f(%a: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %s = linalg.softmax dimension(1) ins(%a : {t}) outs(%e : {t}) -> {t}
  return %s : {t}
}}"#
    )
}

fn vec4_softmax_on(
    device: &kiln_runtime::Device,
    target: &kiln_core::codegen::CodegenTarget,
    subgroups: bool,
) {
    use kiln_core::codegen::strategy::Distribution;
    use kiln_core::tensor::eval::{self, Value};
    // Rows rising by `step` per element (0: the seeded small integers).
    let rising = |shape: &[usize], step: f32| {
        let n: usize = shape.iter().product();
        let data: Vec<f32> = (0..n).map(|i| (i % shape[1]) as f32 * step - 3.0).collect();
        Value::Tensor(std::rc::Rc::new(kiln_core::tensor::eval::Tensor {
            elem: kiln_core::tensor::types::ElemType::F32,
            shape: shape.to_vec(),
            data: kiln_core::tensor::attr::Elements::F32(data),
        }))
    };
    for (shape, step) in [
        ([2usize, 1024], 0.0),
        ([3, 1028], 0.0),
        ([70, 8], 0.0),
        ([5, 4], 0.0),
        ([2, 1024], 0.01),
        ([66, 600], 0.01),
        // Rows spanning 80: the reference point moves a few times.
        ([66, 800], 0.1),
        ([2, 2048], 0.04),
        ([70, 4096], 0.001),
        ([67, 4128], 0.0),
        ([9, 256], 0.5),
        // 32 rows per workgroup of 256, the last with 4.
        ([260, 512], 0.02),
    ] {
        let module = kiln_core::tensor::load(&softmax_rows(&shape)).unwrap();
        let compiled = compile(&module, target).unwrap();
        let s = &compiled.functions[0].dispatches[0].strategy;
        let per_subgroup = subgroups && shape[0] >= 64 && shape[1] > 256 && shape[1] % 32 == 0;
        assert_eq!(
            matches!(s.distribution, Distribution::RowSlices { slice: 8 }),
            per_subgroup,
            "{shape:?}: {s}"
        );
        let mut arg = if step != 0.0 {
            rising(&shape, step)
        } else {
            input(&shape, 7)
        };
        // A NaN in the middle of the second row.
        if let Value::Tensor(t) = &mut arg {
            let t = std::rc::Rc::make_mut(t);
            if let kiln_core::tensor::attr::Elements::F32(d) = &mut t.data {
                d[shape[1] + shape[1] / 2] = f32::NAN;
            }
        }
        let args = [arg];
        let reference = eval::run(&module, "f", &args).unwrap();
        let program = kiln_runtime::Program::load(device, compiled).unwrap();
        let got = program.run("f", &args).unwrap();
        let (Value::Tensor(g), Value::Tensor(r)) = (&got[0], &reference[0]) else {
            panic!("expected tensors");
        };
        assert_eq!(g.shape, r.shape);
        // Rows of more than 2,048: an f32 sum of 4,000 exponentials is
        // further from the reference's (measured: 1e-6 held in registers
        // in 4 chains per invocation, 1e-5 looped over by a subgroup,
        // 3e-5 serially by one invocation); a row of 1,024 over the 8
        // lanes of a one-subgroup workgroup: 1.03e-6.
        let tol = if shape[1] > 2048 { 5e-5 } else { 2e-6 };
        for i in 0..g.len() {
            let (x, y) = (g.get(i).float(), r.get(i).float());
            let nan_row = i / shape[1] == 1;
            assert_eq!(y.is_nan(), nan_row, "{shape:?}[{i}]: reference {y}");
            assert!(
                (x.is_nan() && y.is_nan()) || (x - y).abs() <= tol * y.abs().max(1e-3),
                "{shape:?}[{i}]: {x} vs {y}"
            );
        }
    }
}

/// Cooperative reductions over a multiple of 4 read groups of 4 adjacent
/// elements as vec4: a tiny one, one with a partial last round, one split
/// over several workgroups with a tail, and rows of a 2-D tensor — exact
/// on small integers. Both forms run: every invocation folding its own
/// span with a second dispatch combining (lavapipe's, where barriers
/// serialize a workgroup) and the workgroup combining its invocations'
/// strided folds through subgroup operations (a GPU's).
#[test]
fn vec4_cooperative_sums_are_exact() {
    let device = device();
    let lavapipe = device_target(&device);
    assert!(
        lavapipe.facts.barriers_serialize,
        "the CI device is lavapipe"
    );
    let mut gpu_like = lavapipe.clone();
    gpu_like.facts.barriers_serialize = false;
    for target in [lavapipe, gpu_like] {
        vec4_sums_on(&device, &target);
    }
    assert_no_validation_messages(device.context());
}

fn vec4_sums_on(device: &kiln_runtime::Device, target: &kiln_core::codegen::CodegenTarget) {
    for (shape, dims, out) in [
        (vec![16usize], "[0]", vec![]),
        (vec![1028], "[0]", vec![]),
        (vec![262_148], "[0]", vec![]),
        (vec![3, 70_004], "[1]", vec![3usize]),
    ] {
        let (t, o) = (
            ty(&shape),
            if out.is_empty() {
                "tensor<f32>".to_string()
            } else {
                ty(&out)
            },
        );
        let src = format!(
            r#"func.func @f(%a: {t}) -> {o} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {o}
  %f = linalg.fill ins(%z : f32) outs(%e : {o}) -> {o}
  %s = linalg.reduce ins(%a : {t}) outs(%f : {o}) dimensions = {dims}
    (%x: f32, %acc: f32) {{
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }}
  return %s : {o}
}}"#
        );
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, target).unwrap();
        let coop: Vec<bool> = compiled.functions[0]
            .dispatches
            .iter()
            .filter_map(|d| match d.strategy.reduction {
                Some(ReductionStrategy::Cooperative { per_invocation, .. }) => Some(per_invocation),
                _ => None,
            })
            .collect();
        // The 16-element sum is short enough for one invocation.
        assert_eq!(coop.is_empty(), shape == [16], "{shape:?}");
        for p in coop {
            assert_eq!(p, target.facts.barriers_serialize, "{shape:?}");
        }
        let name = format!(
            "sum {shape:?}, barriers serialize: {}",
            target.facts.barriers_serialize
        );
        check(device, &name, compiled, &src, &[input(&shape, 5)]);
    }
}

/// Every softmax candidate `kiln tune` may time (a row per invocation,
/// a workgroup per row of one subgroup up to 256 invocations, a row per
/// subgroup in workgroups of 64 and 256), forced
/// through a tuned choice, matches the reference within 1e-5 (a row's
/// thousand exponentials are summed in another order and relative to
/// another reference point than the reference evaluator's), on rows a
/// multiple of 4 long (vec4) and rows that are not.
#[test]
fn softmax_candidates_match_the_reference() {
    use kiln_core::codegen::strategy::{Distribution, ReductionStrategy, Tuning};
    use kiln_core::tensor::eval::{self, Value};
    let device = device();
    let target = device_target(&device);
    for shape in [[64usize, 1028], [65, 301]] {
        let module = kiln_core::tensor::load(&softmax_rows(&shape)).unwrap();
        let compiled = compile(&module, &target).unwrap();
        let d = &compiled.functions[0].dispatches[0];
        assert!(d.candidates.len() >= 3, "{shape:?}: {:?}", d.candidates);
        let args = [input(&shape, 5)];
        let reference = eval::run(&module, "f", &args).unwrap();
        for choice in d.candidates.clone() {
            let mut tuning = Tuning::new();
            tuning.insert(&d.tuning_key, choice, "test");
            let tuned = target.clone().with_tuning(tuning);
            let compiled = compile(&module, &tuned).unwrap();
            let s = &compiled.functions[0].dispatches[0].strategy;
            assert_eq!(s.distribution, choice.distribution, "{shape:?}");
            assert_eq!(s.workgroup_size[0], choice.workgroup, "{shape:?}");
            let split = matches!(
                s.reduction,
                Some(ReductionStrategy::Rows { combine: Some(_) })
            );
            assert_eq!(
                split,
                matches!(
                    choice.distribution,
                    Distribution::WorkgroupPerPoint | Distribution::RowSlices { .. }
                ),
                "{shape:?}"
            );
            let program = kiln_runtime::Program::load(&device, compiled).unwrap();
            let got = program.run("f", &args).unwrap();
            let (Value::Tensor(g), Value::Tensor(r)) = (&got[0], &reference[0]) else {
                panic!("expected tensors");
            };
            for i in 0..g.len() {
                let (x, y) = (g.get(i).float(), r.get(i).float());
                assert!(
                    (x - y).abs() <= 1e-5 * y.abs().max(1e-3),
                    "{shape:?} {}: [{i}] {x} vs {y}",
                    choice.to_text()
                );
            }
        }
    }
    assert_no_validation_messages(device.context());
}
