//! `Vector4` where the last dimension is not a static multiple of 4: a
//! 1-D space of any length (whole groups as vectors, its last 0 to 3
//! points one by one) and dynamic spaces (N-D: vectors where the rows are
//! a multiple of 4 long at run time, point by point where not). Each
//! program compiles once and runs, at sizes that exercise the edges —
//! empty, fewer than 4 points, one past a group, rows of 7 and of 8, a
//! broadcast operand, many workgroups — exactly as the reference
//! evaluator does (small integers), in f32, i32, f16 stored natively and
//! bf16 (`i16` bits);
//! and every such dispatch takes the vec4 distribution.

use std::rc::Rc;

use kiln_core::codegen::compile;
use kiln_core::codegen::strategy::Distribution;
use kiln_core::tensor::attr::Elements;
use kiln_core::tensor::eval::{self, Tensor, Value};
use kiln_core::tensor::types::ElemType;
use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::e2e::device_target;
use kiln_runtime::Program;

use crate::tensor_texel::{f16_input, i32_input};
use crate::tensor_tiles::{device, input};

/// `(a + b) * a` over tensors of type `t`, `b` of type `bt` broadcast
/// along the rows where it is 1-D and `t` 2-D.
fn program(t: &str, bt: &str, rank: usize, elem: &str) -> String {
    let (add, mul) = if elem == "i32" {
        ("arith.addi", "arith.muli")
    } else {
        ("arith.addf", "arith.mulf")
    };
    let dims: Vec<String> = (0..rank)
        .map(|i| format!("%d{i} = tensor.dim %a, %c{i} : {t}"))
        .collect();
    let consts: Vec<String> = (0..rank)
        .map(|i| format!("%c{i} = arith.constant {i} : index"))
        .collect();
    let dyn_dims: Vec<String> = t
        .trim_start_matches("tensor<")
        .split('x')
        .take(rank)
        .enumerate()
        .filter(|(_, d)| *d == "?")
        .map(|(i, _)| format!("%d{i}"))
        .collect();
    let (bmap, iters) = if rank == 2 && bt != t {
        ("affine_map<(i, j) -> (j)>", r#"["parallel", "parallel"]"#)
    } else if rank == 2 {
        (
            "affine_map<(i, j) -> (i, j)>",
            r#"["parallel", "parallel"]"#,
        )
    } else {
        ("affine_map<(i) -> (i)>", r#"["parallel"]"#)
    };
    let id = if rank == 2 {
        "affine_map<(i, j) -> (i, j)>"
    } else {
        "affine_map<(i) -> (i)>"
    };
    format!(
        r#"func.func @f(%a: {t}, %b: {bt}) -> {t} {{
  {consts}
  {dims}
  %e = tensor.empty({dyn}) : {t}
  %r = linalg.generic {{indexing_maps = [{id}, {bmap}, {id}], iterator_types = {iters}}}
      ins(%a, %b : {t}, {bt}) outs(%e : {t}) {{
  ^bb0(%x: {elem}, %y: {elem}, %o: {elem}):
    %s = {add} %x, %y : {elem}
    %p = {mul} %s, %x : {elem}
    linalg.yield %p : {elem}
  }} -> {t}
  return %r : {t}
}}"#,
        consts = consts.join("\n  "),
        dims = dims.join("\n  "),
        dyn = dyn_dims.join(", "),
    )
}

fn data(elem: &str, shape: &[usize], seed: usize) -> Value {
    let seed = seed as u64;
    match elem {
        "f16" => f16_input(shape, seed),
        "bf16" => crate::tensor_word_stores::bf16_input(shape, seed),
        "i32" => i32_input(&input(shape, seed)),
        _ => input(shape, seed),
    }
}

/// A program's name, tensor type, second operand's type, rank, element
/// type, and the shapes of its operands in each run.
type Case = (
    &'static str,
    String,
    String,
    usize,
    &'static str,
    Vec<(Vec<usize>, Vec<usize>)>,
);

#[test]
fn groups_with_tails_and_dynamic_rows_match_the_reference() {
    let device = device();
    let target = device_target(&device);
    let big = 4 * 1024 * 3 + 5;
    // (what, tensor type, broadcast operand type, rank, element, runs'
    // shapes of a, b)
    let cases: Vec<Case> = vec![
        (
            "1-D dynamic f32",
            "tensor<?xf32>".into(),
            "tensor<?xf32>".into(),
            1,
            "f32",
            [0, 1, 3, 4, 5, 255, 257, big]
                .iter()
                .map(|&n| (vec![n], vec![n]))
                .collect(),
        ),
        (
            "1-D static odd f32",
            format!("tensor<{big}xf32>"),
            format!("tensor<{big}xf32>"),
            1,
            "f32",
            vec![(vec![big], vec![big])],
        ),
        (
            "1-D dynamic i32",
            "tensor<?xi32>".into(),
            "tensor<?xi32>".into(),
            1,
            "i32",
            [2, 1027].iter().map(|&n| (vec![n], vec![n])).collect(),
        ),
        (
            "1-D dynamic f16",
            "tensor<?xf16>".into(),
            "tensor<?xf16>".into(),
            1,
            "f16",
            [3, 1030, big].iter().map(|&n| (vec![n], vec![n])).collect(),
        ),
        (
            "1-D dynamic bf16",
            "tensor<?xbf16>".into(),
            "tensor<?xbf16>".into(),
            1,
            "bf16",
            [3, 1030, big].iter().map(|&n| (vec![n], vec![n])).collect(),
        ),
        (
            "2-D dynamic f32",
            "tensor<?x?xf32>".into(),
            "tensor<?x?xf32>".into(),
            2,
            "f32",
            [(5, 7), (5, 8), (1, 3), (300, 64), (33, 129)]
                .iter()
                .map(|&(m, n)| (vec![m, n], vec![m, n]))
                .collect(),
        ),
        (
            "2-D dynamic rows, static last, broadcast",
            "tensor<?x64xf32>".into(),
            "tensor<64xf32>".into(),
            2,
            "f32",
            [1, 7, 500]
                .iter()
                .map(|&m| (vec![m, 64], vec![64]))
                .collect(),
        ),
        (
            "2-D dynamic, broadcast of a dynamic row",
            "tensor<?x?xf32>".into(),
            "tensor<?xf32>".into(),
            2,
            "f32",
            [(9, 6), (40, 12)]
                .iter()
                .map(|&(m, n)| (vec![m, n], vec![n]))
                .collect(),
        ),
    ];
    for (what, t, bt, rank, elem, runs) in cases {
        let src = program(&t, &bt, rank, elem);
        let module = kiln_core::tensor::load(&src).unwrap_or_else(|e| panic!("{what}: {e}\n{src}"));
        let compiled = compile(&module, &target).unwrap_or_else(|e| panic!("{what}: {e}"));
        let d = &compiled.functions[0].dispatches[0];
        assert!(
            matches!(d.strategy.distribution, Distribution::Vector4 { .. }),
            "{what}: {}",
            d.strategy
        );
        let p = Program::load(&device, compiled).unwrap_or_else(|e| panic!("{what}: {e}"));
        for (sa, sb) in runs {
            let args = [data(elem, &sa, 0), data(elem, &sb, 1)];
            let got = p
                .run("f", &args)
                .unwrap_or_else(|e| panic!("{what} {sa:?}: {e}"));
            let want = eval::run(&module, "f", &args).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(got, want, "{what} {sa:?}");
        }
    }
    assert_no_validation_messages(device.context());
}

/// A softmax over rows of dynamic length reads and writes them as vec4
/// groups where the length is a multiple of 4 at run time, element by
/// element where it is not; compiled once, every run is within the
/// softmax tests' tolerance of the reference, NaN rows included.
#[test]
fn dynamic_softmax_rows_match_the_reference() {
    const SOFTMAX: &str = r#"func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}"#;
    let device = device();
    let module = kiln_core::tensor::load(SOFTMAX).unwrap();
    let compiled = compile(&module, &device_target(&device)).unwrap();
    let vec4 = compiled.functions[0].dispatches[0]
        .kernels
        .iter()
        .any(|k| k.kernel_text.contains("vector<4xf32>"));
    assert!(vec4, "no vec4 path for dynamic rows");
    let p = Program::load(&device, compiled).unwrap();
    for (rows, len) in [
        (3, 8),
        (3, 7),
        (2, 1),
        (5, 4),
        (4, 1028),
        (4, 1027),
        (65, 4096),
        (3, 4099),
        // A workgroup of 256 per row past the subgroup's loop budget
        // (174,072 elements for three passes over 8 lanes).
        (2, 180_000),
        (2, 180_003),
    ] {
        let n = rows * len;
        let mut data: Vec<f32> = (0..n)
            .map(|i| ((i * 7 + i / 5) % 13) as f32 * 0.25 - 1.5)
            .collect();
        if rows > 1 {
            data[len + len / 2] = f32::NAN;
        }
        let args = [Value::Tensor(Rc::new(Tensor {
            elem: ElemType::F32,
            shape: vec![rows, len],
            data: Elements::F32(data),
        }))];
        let got = p
            .run("f", &args)
            .unwrap_or_else(|e| panic!("{rows}x{len}: {e}"));
        let want = eval::run(&module, "f", &args).unwrap();
        let (Value::Tensor(g), Value::Tensor(w)) = (&got[0], &want[0]) else {
            panic!("tensors");
        };
        assert_eq!(g.shape, w.shape);
        // The online normaliser over a workgroup's lanes (a rescale's
        // rounding per reference-point move): 2.2e-6 measured at 1,028.
        let tol = if len > 100_000 {
            2e-4
        } else if len > 2048 {
            5e-5
        } else {
            1e-5
        };
        for i in 0..g.len() {
            let (x, y) = (g.get(i).float(), w.get(i).float());
            assert_eq!(x.is_nan(), y.is_nan(), "{rows}x{len}[{i}]: {x} vs {y}");
            assert!(
                x.is_nan() || (x - y).abs() <= tol * y.abs().max(1e-3),
                "{rows}x{len}[{i}]: {x} vs {y}"
            );
        }
    }
    assert_no_validation_messages(device.context());
}
