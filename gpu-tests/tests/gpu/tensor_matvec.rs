//! Matrix x vector by row slices (`Distribution::RowSlices`: one output
//! row per slice of a workgroup, combined by subgroup arithmetic or a
//! workgroup-memory tree) at the sizes that exercise its edges — rows
//! unaligned to 4 and to a slice's stride, a row of 1, a single row, a
//! number of rows that is not a multiple of the slices per workgroup,
//! `[M,K] x [K,1]` matmuls, batches, a transposed vector x matrix whose
//! matrix rows are contiguous, a bias init with a ReLU epilogue, f16
//! inputs, integers — each checked exactly against the reference
//! evaluator on small-integer data: with the heuristic's choice on
//! lavapipe's env (a row per invocation) and on a GPU-like env (barriers
//! cheap: a subgroup per row), each with and without
//! `GroupNonUniformArithmetic` (the tree fallback), and with the slice
//! choices `kiln tune` may try. Also: rows beyond one invocation's loop
//! budget take subgroup slices, then a strategy that splits them; rows of
//! dynamic length take row slices where they fit the budget at run time
//! and chunked dispatches past it; and a vector x matrix keeps its vec4
//! register tile.

use std::rc::Rc;

use kiln_core::codegen::strategy::{Choice, Combine, Distribution, ReductionStrategy, Tuning};
use kiln_core::codegen::{compile, CodegenTarget, CompiledProgram};
use kiln_core::grammar::Capability;
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;

use crate::tensor_tiles::{check, device, input, ty};

/// The device's env without `GroupNonUniformArithmetic`.
fn without_subgroup_arithmetic(t: &CodegenTarget) -> CodegenTarget {
    let mut t = t.clone();
    t.env
        .vce
        .capabilities
        .retain(|c| *c != Capability::GroupNonUniformArithmetic);
    assert!(!t.has(Capability::GroupNonUniformArithmetic));
    t
}

/// A tensor of small integers (-4..=4) in i32.
fn input_i32(shape: &[usize], seed: u64) -> Value {
    let n: usize = shape.iter().product();
    let data = (0..n as u64)
        .map(|i| ((i * 5 + seed * 11 + (i / 3) * 2) % 9) as i32 - 4)
        .collect();
    Value::Tensor(Rc::new(Tensor {
        elem: ElemType::I32,
        shape: shape.to_vec(),
        data: Elements::I32(data),
    }))
}

/// `@f(a, x) = matvec(a, x)` for an `m x k` f32 matrix.
fn matvec(m: usize, k: usize) -> String {
    let (a, x, y) = (ty(&[m, k]), ty(&[k]), ty(&[m]));
    format!(
        r#"func.func @f(%a: {a}, %x: {x}) -> {y} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%z : f32) outs(%e : {y}) -> {y}
  %r = linalg.matvec ins(%a, %x : {a}, {x}) outs(%f : {y}) -> {y}
  return %r : {y}
}}"#
    )
}

/// `@f(a, b) = matmul(a, b)` for `m x k` times `k x 1`.
fn matmul_k1(m: usize, k: usize) -> String {
    let (a, b, c) = (ty(&[m, k]), ty(&[k, 1]), ty(&[m, 1]));
    format!(
        r#"func.func @f(%a: {a}, %b: {b}) -> {c} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}
  return %r : {c}
}}"#
    )
}

/// A case: its name, program, input values, its row length, and whether
/// it has rows enough for the heuristic to take row slices (at least 64,
/// or a number known only at run time).
struct Case {
    name: String,
    src: String,
    args: Vec<Value>,
    k: u32,
    many_rows: bool,
}

fn case(name: &str, src: String, shapes: &[&[usize]], k: usize, many_rows: bool) -> Case {
    Case {
        name: name.to_string(),
        src,
        args: shapes
            .iter()
            .enumerate()
            .map(|(s, sh)| input(sh, s as u64))
            .collect(),
        k: k as u32,
        many_rows,
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (m, k) in [
        // Unaligned to 4 (element loads), rows not a multiple of 8 slices.
        (67, 1021),
        // A multiple of 4 but not of a slice's 32-element stride.
        (64, 12),
        (100, 36),
        // Vec4 rows over several full strides plus a partial one.
        (65, 1000),
        // Several rows per lane: 8 lanes x 4 x 130 elements.
        (72, 4160),
    ] {
        out.push(case(
            &format!("matvec {m}x{k}"),
            matvec(m, k),
            &[&[m, k], &[k]],
            k,
            true,
        ));
    }
    // Few rows (the heuristic keeps a workgroup per row or a loop per
    // row), or rows shorter than a subgroup (a loop per row on a GPU).
    for (m, k) in [(1, 300), (1, 1), (5, 33), (70, 1), (80, 5)] {
        out.push(case(
            &format!("matvec {m}x{k}"),
            matvec(m, k),
            &[&[m, k], &[k]],
            k,
            m >= 64,
        ));
    }
    for (m, k) in [(67, 37), (96, 64)] {
        out.push(case(
            &format!("matmul {m}x{k}x1"),
            matmul_k1(m, k),
            &[&[m, k], &[k, 1]],
            k,
            true,
        ));
    }
    // A batch of matvecs: [B,M,K] x [B,K].
    let (a, x, y) = (ty(&[3, 30, 44]), ty(&[3, 44]), ty(&[3, 30]));
    out.push(case(
        "batch matvec 3x30x44",
        format!(
            r#"func.func @f(%a: {a}, %x: {x}) -> {y} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%z : f32) outs(%e : {y}) -> {y}
  %r = linalg.generic {{indexing_maps = [affine_map<(b, m, k) -> (b, m, k)>, affine_map<(b, m, k) -> (b, k)>, affine_map<(b, m, k) -> (b, m)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%a, %x : {a}, {x}) outs(%f : {y}) {{
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %t = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }} -> {y}
  return %r : {y}
}}"#
        ),
        &[&[3, 30, 44], &[3, 44]],
        44,
        true,
    ));
    // A vector times a transposed matrix: [1,K] x [N,K]^T, the matrix's
    // rows contiguous along K.
    let (x, b, c) = (ty(&[1, 45]), ty(&[70, 45]), ty(&[1, 70]));
    out.push(case(
        "vector x transposed matrix 1x45 * (70x45)^T",
        format!(
            r#"func.func @f(%x: {x}, %b: {b}) -> {c} {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {c}
  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}} ins(%x, %b : {x}, {b}) outs(%f : {c}) {{
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %t = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  }} -> {c}
  return %r : {c}
}}"#
        ),
        &[&[1, 45], &[70, 45]],
        45,
        true,
    ));
    // A bias as the initial value and a ReLU epilogue.
    let (a, x, y) = (ty(&[75, 52]), ty(&[52]), ty(&[75]));
    out.push(case(
        "matvec 75x52 with bias init and ReLU epilogue",
        format!(
            r#"func.func @f(%a: {a}, %x: {x}, %bias: {y}) -> {y} {{
  %r = linalg.matvec ins(%a, %x : {a}, {x}) outs(%bias : {y}) -> {y}
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %relu = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}} ins(%r : {y}) outs(%e : {y}) {{
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  }} -> {y}
  return %relu : {y}
}}"#
        ),
        &[&[75, 52], &[52], &[75]],
        52,
        true,
    ));
    // f16 inputs (truncated in the dispatch) into an f32 accumulator.
    let (a, x, y) = (ty(&[66, 40]), ty(&[40]), ty(&[66]));
    out.push(case(
        "matvec 66x40 of f16 inputs, f32 accumulator",
        format!(
            r#"func.func @f(%a: {a}, %x: {x}) -> {y} {{
  %a16 = arith.truncf %a : {a} to tensor<66x40xf16>
  %x16 = arith.truncf %x : {x} to tensor<40xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %f = linalg.fill ins(%z : f32) outs(%e : {y}) -> {y}
  %r = linalg.matvec ins(%a16, %x16 : tensor<66x40xf16>, tensor<40xf16>) outs(%f : {y}) -> {y}
  return %r : {y}
}}"#
        ),
        &[&[66, 40], &[40]],
        40,
        true,
    ));
    // Rows known only at run time.
    out.push(case(
        "matvec ?x52 (dynamic rows)",
        r#"func.func @f(%a: tensor<?x52xf32>, %x: tensor<52xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x52xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.matvec ins(%a, %x : tensor<?x52xf32>, tensor<52xf32>) outs(%f : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}"#
        .into(),
        &[&[70, 52], &[52]],
        52,
        true,
    ));
    // Integers.
    out.push(Case {
        name: "matvec 69x203 i32".into(),
        src: r#"func.func @f(%a: tensor<69x203xi32>, %x: tensor<203xi32>) -> tensor<69xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<69xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<69xi32>) -> tensor<69xi32>
  %r = linalg.matvec ins(%a, %x : tensor<69x203xi32>, tensor<203xi32>) outs(%f : tensor<69xi32>) -> tensor<69xi32>
  return %r : tensor<69xi32>
}"#
        .into(),
        args: vec![input_i32(&[69, 203], 1), input_i32(&[203], 2)],
        k: 203,
        many_rows: true,
    });
    out
}

/// The strategy of the program's dispatch with a reduction.
fn reducing(p: &CompiledProgram) -> (Distribution, Option<ReductionStrategy>, [u32; 3]) {
    let ds: Vec<_> = p.functions[0]
        .dispatches
        .iter()
        .filter(|d| d.strategy.reduction.is_some())
        .collect();
    assert_eq!(
        ds.len(),
        1,
        "{:?}",
        ds.iter().map(|d| &d.name).collect::<Vec<_>>()
    );
    let s = &ds[0].strategy;
    (s.distribution, s.reduction, s.workgroup_size)
}

fn combine_of(r: Option<ReductionStrategy>) -> Option<Combine> {
    match r {
        Some(ReductionStrategy::Cooperative { combine, .. }) => Some(combine),
        _ => None,
    }
}

/// The row-slice choices the tests force: a row per invocation, the
/// device's subgroup (subgroup arithmetic on lavapipe), a half and a
/// double one (trees), in workgroups of 64 and 128.
fn forced(subgroup: u32) -> Vec<Choice> {
    [
        (64, 1),
        (64, subgroup),
        (64, subgroup / 2),
        (128, subgroup * 2),
    ]
    .into_iter()
    .map(|(workgroup, slice)| Choice {
        workgroup,
        distribution: Distribution::RowSlices { slice },
        split_k: None,
    })
    .collect()
}

/// The device's target with barriers as cheap as on a GPU and a device of
/// unknown type (not a CPU): the heuristic's GPU choice, run on lavapipe.
fn gpu_like(t: &CodegenTarget) -> CodegenTarget {
    let mut t = t.clone();
    t.facts.barriers_serialize = false;
    t.env.device.device_type = kiln_core::target::DeviceType::Unknown;
    t
}

#[test]
fn row_slices_are_exact_at_their_edges() {
    let device = device();
    let lavapipe = device_target(&device);
    let sg = lavapipe.subgroup_size();
    assert!(
        lavapipe.has(Capability::GroupNonUniformArithmetic),
        "the CI device has subgroup arithmetic"
    );
    assert!(
        lavapipe.facts.barriers_serialize,
        "the CI device is lavapipe"
    );
    let gpu = gpu_like(&lavapipe);
    let envs = [
        ("device env", lavapipe.clone()),
        (
            "device env without subgroup arithmetic",
            without_subgroup_arithmetic(&lavapipe),
        ),
        ("GPU-like env", gpu.clone()),
        (
            "GPU-like env without subgroup arithmetic",
            without_subgroup_arithmetic(&gpu),
        ),
    ];
    for c in cases() {
        let name = &c.name;
        let module = kiln_core::tensor::load(&c.src).unwrap();
        // The heuristic: on lavapipe a row per invocation (with or without
        // subgroup arithmetic); on a GPU-like env a slice per subgroup,
        // combined by subgroup arithmetic or, without it, a tree.
        for (env, target) in &envs {
            let compiled = compile(&module, target).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (dist, red, wg) = reducing(&compiled);
            let on_gpu = !target.facts.barriers_serialize;
            let want = match (c.many_rows, on_gpu) {
                (false, _) => None,
                (true, false) => Some((1, None)),
                (true, true) if c.k < sg => None,
                (true, true) => Some((
                    sg,
                    Some(if target.has(Capability::GroupNonUniformArithmetic) {
                        Combine::Subgroup
                    } else {
                        Combine::WorkgroupTree
                    }),
                )),
            };
            match want {
                Some((slice, combine)) => {
                    assert_eq!(dist, Distribution::RowSlices { slice }, "{name}, {env}");
                    assert_eq!(wg[0] % slice, 0, "{name}, {env}");
                    if let Some(combine) = combine {
                        assert_eq!(combine_of(red), Some(combine), "{name}, {env}");
                    }
                }
                None => assert!(
                    !matches!(dist, Distribution::RowSlices { .. }),
                    "{name}, {env}: {dist:?}"
                ),
            }
            check(
                &device,
                &format!("{name}, {env}"),
                compiled,
                &c.src,
                &c.args,
            );
        }
        // Every forced slice choice is a candidate, selected, and exact.
        let plain = compile(&module, &lavapipe).unwrap();
        let d = plain.functions[0]
            .dispatches
            .iter()
            .find(|d| d.strategy.reduction.is_some())
            .unwrap();
        for choice in forced(sg) {
            assert!(
                d.candidates.contains(&choice),
                "{name}: {} not a candidate",
                choice.to_text()
            );
            let mut tuning = Tuning::new();
            tuning.insert(&d.tuning_key, choice, "test");
            let target = lavapipe.clone().with_tuning(tuning);
            let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{name}: {e}"));
            let (dist, red, wg) = reducing(&compiled);
            assert_eq!(
                (dist, wg[0]),
                (choice.distribution, choice.workgroup),
                "{name}"
            );
            let Distribution::RowSlices { slice } = dist else {
                unreachable!()
            };
            if slice > 1 {
                let want = if slice == sg {
                    Combine::Subgroup
                } else {
                    Combine::WorkgroupTree
                };
                assert_eq!(combine_of(red), Some(want), "{name}: {}", choice.to_text());
            }
            check(
                &device,
                &format!("{name}, {}", choice.to_text()),
                compiled,
                &c.src,
                &c.args,
            );
        }
    }
    assert_no_validation_messages(device.context());
}

/// Where a row exceeds one invocation's loop budget, the row goes to
/// subgroup slices (each lane a slice's share of the row) and, beyond
/// theirs, to a strategy that splits it (here: chunked dispatches); the
/// results are exact.
#[test]
fn rows_beyond_the_loop_budget_leave_row_slices() {
    let device = device();
    let mut target = device_target(&device);
    // A budget of 256 iterations: 4 x 256 = 1,024 elements for a row per
    // invocation, 8 lanes x 4 x 256 = 8,192 for a subgroup's slice.
    target.facts.loop_iteration_cap = Some(512);
    assert_eq!(target.loop_budget(), 256);
    let sg = target.subgroup_size();
    for (k, slice) in [
        (1000, Some(1)),
        (8000, Some(sg)),
        (3001, None),
        (9000, None),
    ] {
        let src = matvec(70, k);
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &target).unwrap();
        let (dist, _, _) = reducing(&compiled);
        match slice {
            Some(slice) => assert_eq!(dist, Distribution::RowSlices { slice }, "K = {k}"),
            None => assert!(
                !matches!(dist, Distribution::RowSlices { .. }),
                "K = {k}: {dist:?}"
            ),
        }
        let args = [input(&[70, k], 1), input(&[k], 2)];
        check(&device, &format!("matvec 70x{k}"), compiled, &src, &args);
    }
    assert_no_validation_messages(device.context());
}

/// A vector times a matrix whose rows run along the output (`[1,K] x
/// [K,N]`): the reduction is not contiguous in the matrix, so no row
/// slices; the register tile reads the matrix as vec4 along N.
#[test]
fn vector_x_matrix_keeps_vec4_column_tiles() {
    let device = device();
    let target = device_target(&device);
    let (k, n) = (37, 132);
    let src = crate::tensor_tiles::fill_matmul("matmul", &[1, k], &[k, n], &[1, n]);
    let module = kiln_core::tensor::load(&src).unwrap();
    let compiled = compile(&module, &target).unwrap();
    let (dist, _, _) = reducing(&compiled);
    assert!(
        matches!(
            dist,
            Distribution::Tile {
                rows: 1,
                cols: 4,
                ..
            }
        ),
        "{dist:?}"
    );
    let d = &compiled.functions[0].dispatches[0];
    assert!(!d
        .candidates
        .iter()
        .any(|c| matches!(c.distribution, Distribution::RowSlices { .. })));
    let args = [input(&[1, k], 1), input(&[k, n], 2)];
    check(&device, "vecmat", compiled, &src, &args);
    assert_no_validation_messages(device.context());
}

/// `@f(a) = reduce(a)` along the last dimension of `shape` with `combine`
/// (`arith.addf`, `arith.maximumf`, `arith.addi`, ...) from `init`.
fn row_reduce(shape: &[usize], elem: &str, combine: &str, init: &str) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let a = format!("tensor<{}x{elem}>", dims.join("x"));
    let y = format!("tensor<{}x{elem}>", dims[..dims.len() - 1].join("x"));
    let last = shape.len() - 1;
    format!(
        r#"func.func @f(%a: {a}) -> {y} {{
  %z = arith.constant {init} : {elem}
  %e = tensor.empty() : {y}
  %i = linalg.fill ins(%z : {elem}) outs(%e : {y}) -> {y}
  %r = linalg.reduce ins(%a : {a}) outs(%i : {y}) dimensions = [{last}]
    (%x: {elem}, %acc: {elem}) {{
      %s = {combine} %x, %acc : {elem}
      linalg.yield %s : {elem}
    }}
  return %r : {y}
}}"#
    )
}

/// Row reductions (a row sum or maximum: no vector) take row slices of
/// one invocation per row, read as vec4 where the row allows, on
/// lavapipe, and keep their cooperative strategy on a GPU-like env —
/// exact on small integers at the edges (rows unaligned to 4, rows of 4,
/// rows in a batch, integers, a maximum).
#[test]
fn row_reductions_take_a_row_per_invocation_on_lavapipe() {
    let device = device();
    let lavapipe = device_target(&device);
    let cases: Vec<(String, String, Value)> = vec![
        (
            "f32 row sums 64x4096".into(),
            row_reduce(&[64, 4096], "f32", "arith.addf", "0.0"),
            input(&[64, 4096], 1),
        ),
        (
            "f32 row sums 70x1021 (unaligned)".into(),
            row_reduce(&[70, 1021], "f32", "arith.addf", "0.0"),
            input(&[70, 1021], 2),
        ),
        (
            "f32 row sums 100x4".into(),
            row_reduce(&[100, 4], "f32", "arith.addf", "0.0"),
            input(&[100, 4], 3),
        ),
        (
            "f32 row maxima 3x40x300 (batch)".into(),
            row_reduce(&[3, 40, 300], "f32", "arith.maximumf", "-1.0e30"),
            input(&[3, 40, 300], 4),
        ),
        (
            "i32 row sums 66x1000".into(),
            row_reduce(&[66, 1000], "i32", "arith.addi", "7"),
            input_i32(&[66, 1000], 5),
        ),
    ];
    for (name, src, arg) in cases {
        let module = kiln_core::tensor::load(&src).unwrap();
        let compiled = compile(&module, &lavapipe).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (dist, _, _) = reducing(&compiled);
        assert_eq!(dist, Distribution::RowSlices { slice: 1 }, "{name}");
        check(&device, &name, compiled, &src, std::slice::from_ref(&arg));
        let gpu = compile(&module, &gpu_like(&lavapipe)).unwrap();
        let (dist, _, _) = reducing(&gpu);
        assert!(
            !matches!(dist, Distribution::RowSlices { .. }),
            "{name}: {dist:?} on a GPU"
        );
        check(&device, &name, gpu, &src, &[arg]);
    }
    assert_no_validation_messages(device.context());
}

/// Row sums and matvecs over rows of dynamic length take row slices too:
/// on lavapipe a row per invocation, read as vec4 where the length is a
/// multiple of 4 at run time, and past the loop budget (here cut to 256
/// iterations) a second kernel of chunked dispatches; the host gives
/// workgroups to the one the run's row length calls for, and both are
/// exact.
#[test]
fn dynamic_rows_take_row_slices_within_the_budget_and_chunks_past_it() {
    let device = device();
    let real = device_target(&device);
    let mut small = real.clone();
    small.facts.loop_iteration_cap = Some(512);
    assert_eq!(small.loop_budget(), 256);
    let sums = r#"func.func @f(%a: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%a : tensor<?x?xf32>) outs(%i : tensor<?xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}"#;
    let matvec = r#"func.func @f(%a: tensor<?x?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.matvec ins(%a, %x : tensor<?x?xf32>, tensor<?xf32>) outs(%i : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}"#;
    // (target, budget, row shapes).
    type Runs<'a> = (&'a CodegenTarget, u64, &'a [(usize, usize)]);
    let runs: [Runs<'_>; 2] = [
        (
            &small,
            256,
            &[(65, 256), (65, 255), (65, 257), (3, 1000), (2, 4)],
        ),
        (&real, 65_279, &[(70, 4096), (70, 4099), (1, 1), (9, 3)]),
    ];
    for (src, with_vector) in [(sums, false), (matvec, true)] {
        let module = kiln_core::tensor::load(src).unwrap();
        for (target, budget, shapes) in runs {
            let compiled = compile(&module, target).unwrap();
            let (dist, _, _) = reducing(&compiled);
            assert_eq!(dist, Distribution::RowSlices { slice: 1 }, "{src}");
            let f = &compiled.functions[0];
            let kernels = &f.dispatches[0].kernels;
            // The two plain kernels, then their `_chunked` variants (for
            // a matrix past the storage range, which no shape here is).
            assert_eq!(kernels.len(), 4, "{src}");
            assert!(
                kernels[2..]
                    .iter()
                    .all(|k| k.runs_only_past_the_storage_range()),
                "{src}"
            );
            assert!(
                kernels[0].kernel_text.contains("vector<4xf32>"),
                "no vec4 path"
            );
            for &(m, k) in shapes {
                let name = format!("{m}x{k} with a budget of {budget}");
                let vals = f
                    .evaluate_host(
                        &|arg, d| {
                            (if arg == 0 { vec![m, k] } else { vec![k] })
                                .get(d)
                                .map(|&s| s as u64)
                        },
                        &|_| None,
                    )
                    .unwrap();
                let on: Vec<bool> = kernels
                    .iter()
                    .map(|x| !x.launches(&f.host, &vals).is_empty())
                    .collect();
                let long = k as u64 > budget;
                assert_eq!(on, [!long, long, false, false], "{name}");
                let mut args = vec![input(&[m, k], 1)];
                if with_vector {
                    args.push(input(&[k], 2));
                }
                check(&device, &name, compiled.clone(), src, &args);
            }
        }
    }
    assert_no_validation_messages(device.context());
}
