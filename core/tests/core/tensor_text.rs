//! The tensor IR's text form: kiln's printer and parser round-trip every
//! file of `core/tests/tensor/`, and agree with `mlir-opt-19` both ways
//! (mlir-opt parses kiln's output; kiln parses mlir-opt's output back to
//! the same IR). Named ops generalize to the bodies and maps
//! `mlir-opt-19 --linalg-generalize-named-ops` gives.

use kiln_core::tensor;

use crate::common::mlir_opt;

/// The `.mlir` files of `core/tests/tensor/` (not the `e2e/` folder).
pub fn corpus() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tensor");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("core/tests/tensor exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "the tensor corpus is missing files");
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

fn load(name: &str, text: &str) -> tensor::TensorModule {
    tensor::load(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The e2e files (IREE's ops, which mlir-opt does not know).
fn e2e_files() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tensor/e2e");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("core/tests/tensor/e2e exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

#[test]
fn kiln_round_trip() {
    for (name, text) in corpus().into_iter().chain(e2e_files()) {
        let m = load(&name, &text);
        let printed = tensor::print(&m);
        let again = tensor::print(&load(&name, &printed));
        assert_eq!(printed, again, "{name}: print(parse(print(x))) differs");
    }
}

#[test]
fn mlir_opt_parses_kiln_output_and_kiln_parses_mlir_opt_output() {
    for (name, text) in corpus() {
        let printed = tensor::print(&load(&name, &text));
        let from_mlir = mlir_opt(&[], &printed);
        let back = tensor::print(&load(&name, &from_mlir));
        assert_eq!(
            printed, back,
            "{name}: kiln -> mlir-opt-19 -> kiln changed the IR\nmlir-opt printed:\n{from_mlir}"
        );
    }
}

#[test]
fn named_ops_generalize_as_mlir_does() {
    for name in ["linalg_named.mlir", "linalg_structured.mlir"] {
        let text = corpus().into_iter().find(|(n, _)| n == name).unwrap().1;
        let mut m = load(name, &text);
        let ops: Vec<_> = (0..m.num_ops()).map(tensor::TOp::from_index).collect();
        for op in ops {
            // MLIR's pass leaves linalg.map as it is.
            let is_map = matches!(&m.op(op).kind, tensor::OpKind::Linalg(l) if l.kind == tensor::LinalgKind::Map);
            if !is_map {
                tensor::structured::generalize(&mut m, op);
            }
        }
        let ours = tensor::print(&m);
        // Generalize with MLIR (from kiln's own text) and read it back.
        let theirs = mlir_opt(
            &["--linalg-generalize-named-ops"],
            &tensor::print(&load(name, &text)),
        );
        let theirs = tensor::print(&load(name, &theirs));
        assert_eq!(ours, theirs, "{name}: generalized forms differ");
    }
}

/// The parser never panics: every prefix of every corpus file is either
/// a program or a located error (and verification of what parses does
/// not panic either).
#[test]
fn prefixes_never_panic() {
    for (name, text) in corpus() {
        let bounds: Vec<usize> = (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .collect();
        // Every byte near the start, then a sample: the files are long.
        for &i in bounds
            .iter()
            .take(400)
            .chain(bounds.iter().skip(400).step_by(7))
        {
            if let Ok(m) = tensor::parse(&text[..i]) {
                let _ = tensor::verify(&m);
            }
        }
        let _ = name;
    }
}

/// `decompose_softmax` gives the ops MLIR 19's
/// `transform.structured.decompose_interface` gives.
#[test]
fn softmax_decomposes_as_mlir_does() {
    let program = "module attributes {transform.with_named_sequence} {
  func.func @s(%a: tensor<3x5x4xf32>) -> tensor<3x5x4xf32> {
    %e = tensor.empty() : tensor<3x5x4xf32>
    %r = linalg.softmax dimension(1) ins(%a : tensor<3x5x4xf32>) outs(%e : tensor<3x5x4xf32>) -> tensor<3x5x4xf32>
    return %r : tensor<3x5x4xf32>
  }
}
";
    let mut m = tensor::load(program).unwrap();
    let softmax = (0..m.num_ops())
        .map(tensor::TOp::from_index)
        .find(|&o| matches!(&m.op(o).kind, tensor::OpKind::Linalg(l) if matches!(l.kind, tensor::LinalgKind::Softmax { .. })))
        .unwrap();
    tensor::structured::decompose_softmax(&mut m, softmax).unwrap();
    tensor::verify(&m).unwrap();
    let ours = tensor::print(&m);
    let schedule = "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{[\"linalg.softmax\"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.decompose_interface %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
";
    let with_schedule = program.trim_end().trim_end_matches('}').to_string() + schedule;
    let theirs = mlir_opt(
        &[
            "--transform-interpreter",
            "--test-transform-dialect-erase-schedule",
        ],
        &with_schedule,
    );
    let theirs = tensor::print(&load("softmax", &theirs));
    assert_eq!(ours, theirs);
    // The evaluator gives the same bits for softmax and its decomposition.
    use tensor::eval::{self, Value};
    let data: Vec<f32> = (0..60)
        .map(|i| ((i * 37 % 23) as f32 - 11.0) * 0.37)
        .collect();
    let arg = Value::Tensor(
        eval::Tensor {
            elem: tensor::ElemType::F32,
            shape: vec![3, 5, 4],
            data: tensor::Elements::F32(data),
        }
        .into(),
    );
    let direct = eval::run(
        &tensor::load(program).unwrap(),
        "s",
        std::slice::from_ref(&arg),
    )
    .unwrap();
    let decomposed = eval::run(&m, "s", &[arg]).unwrap();
    assert_eq!(direct, decomposed);
}

/// IREE's `util.assume.int` reads as its operands (the program prints back
/// without it); assumptions that cannot hold, or are not written as IREE
/// writes them, are errors on their line.
#[test]
fn assume_int_reads_as_its_operand_and_checks_its_facts() {
    let program = |assume: &str| {
        format!(
            "func.func @f(%t: tensor<?xf32>, %k: i64) -> (index, i64) {{\n  \
             %c0 = arith.constant 0 : index\n  \
             %d = tensor.dim %t, %c0 : tensor<?xf32>\n  \
             {assume}\n  \
             return %a, %b : index, i64\n}}\n"
        )
    };
    let good = program(
        "%a, %b = util.assume.int %d[<umin = 1, umax = 64>, <udiv = 16>, <>], %k<umax = 7> : index, i64",
    );
    let printed = tensor::print(&load("assume", &good));
    assert!(!printed.contains("assume"), "{printed}");
    // A discardable attribute dictionary before the types.
    let with_attrs = program(
        "%a, %b = util.assume.int %d<umin = 1>, %k<> {note = \"x\", n = [1, 2]} : index, i64",
    );
    assert_eq!(tensor::print(&load("assume attrs", &with_attrs)), printed);
    assert!(
        printed.contains("return %1, %arg1 : index, i64"),
        "{printed}"
    );
    for (assume, error) in [
        (
            "%a, %b = util.assume.int %d<umin = 9, umax = 8>, %k<> : index, i64",
            "4:30: 'util.assume.int' op umin 9 is above umax 8",
        ),
        (
            "%a, %b = util.assume.int %d<udiv = 0>, %k<> : index, i64",
            "4:31: 'util.assume.int' op udiv must be positive",
        ),
        (
            "%a, %b = util.assume.int %d<umin = 1, umin = 2>, %k<> : index, i64",
            "4:41: 'umin' given twice",
        ),
        (
            "%a, %b = util.assume.int %d<smin = 1>, %k<> : index, i64",
            "4:31: unknown int assumption 'smin'",
        ),
        (
            "%a, %b = util.assume.int %d<>, %k : index, i64",
            "4:37: expected '<'",
        ),
        ("%a, %b = util.assume.int %d<>, %k<> : index, f32", "type"),
        (
            "%a = util.assume.int %d<>, %k<> : index, i64",
            "operation defines 2 results but was provided 1 to bind",
        ),
        (
            "%a, %b = util.assume.int %d<>, %k<> {note = } : index, i64",
            "4:47: expected an attribute value, found '}'",
        ),
    ] {
        let e = tensor::load(&program(assume))
            .expect_err(assume)
            .to_string();
        assert!(e.contains(error), "{assume}: {e}");
    }
}

/// IREE's `util` and `check` ops in MLIR's generic form (what `mlir-opt-19
/// --allow-unregistered-dialect` prints for them, IREE's dialects being
/// unregistered there) read as their custom syntax: the same program.
#[test]
fn util_and_check_ops_in_generic_form_read_as_their_custom_syntax() {
    let custom = "func.func @t() {\n  \
        %0 = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>\n  \
        %1 = util.unfoldable_constant dense<[3, 4]> : tensor<2xi32>\n  \
        %2 = util.unfoldable_constant 1 : i32\n  \
        %3 = util.optimization_barrier %0 : tensor<2xf32>\n  \
        check.expect_true(%2) : i32\n  \
        check.expect_false(%2) : i32\n  \
        check.expect_eq(%1, %1) : tensor<2xi32>\n  \
        check.expect_almost_eq(%0, %3, atol 0.5, rtol 0.25) : tensor<2xf32>\n  \
        check.expect_eq_const(%1, dense<[3, 4]> : tensor<2xi32>) : tensor<2xi32>\n  \
        check.expect_almost_eq_const(%3, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>\n  \
        check.expect_almost_eq_const(%3, dense<[1.0, 2.0]> : tensor<2xf32>, atol 0.125) : tensor<2xf32>\n  \
        return\n}\n";
    // As mlir-opt-19 prints them (discardable attributes), and with
    // properties and a `check` op's empty device operand segment.
    let generic = "func.func @t() {\n  \
        %0 = \"util.unfoldable_constant\"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>\n  \
        %1 = \"util.unfoldable_constant\"() <{value = dense<[3, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>\n  \
        %2 = \"util.unfoldable_constant\"() {value = 1 : i32} : () -> i32\n  \
        %3 = \"util.optimization_barrier\"(%0) : (tensor<2xf32>) -> tensor<2xf32>\n  \
        \"check.expect_true\"(%2) : (i32) -> ()\n  \
        \"check.expect_false\"(%2) : (i32) -> ()\n  \
        \"check.expect_eq\"(%1, %1) <{operandSegmentSizes = array<i32: 0, 1, 1>}> : (tensor<2xi32>, tensor<2xi32>) -> ()\n  \
        \"check.expect_almost_eq\"(%0, %3) {atol = 5.000000e-01 : f32, rtol = 2.500000e-01 : f32} : (tensor<2xf32>, tensor<2xf32>) -> ()\n  \
        \"check.expect_eq_const\"(%1) {value = dense<[3, 4]> : tensor<2xi32>} : (tensor<2xi32>) -> ()\n  \
        \"check.expect_almost_eq_const\"(%3) <{operandSegmentSizes = array<i32: 0, 1>, value = dense<[1.0, 2.0]> : tensor<2xf32>}> : (tensor<2xf32>) -> ()\n  \
        \"check.expect_almost_eq_const\"(%3) {atol = 1.250000e-01 : f32, value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xf32>) -> ()\n  \
        \"func.return\"() : () -> ()\n}\n";
    let want = tensor::print(&load("custom", custom));
    assert_eq!(tensor::print(&load("generic", generic)), want);
    // A device operand (IREE's HAL) is refused on its line, as in custom
    // syntax.
    // (An i32 stands in for the `!hal.device` kiln has no type for.)
    let device = "func.func @t(%d: i32, %x: tensor<2xi32>) {\n  \
        \"check.expect_eq\"(%d, %x, %x) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, tensor<2xi32>, tensor<2xi32>) -> ()\n  \
        return\n}\n";
    let e = tensor::load(device)
        .expect_err("device operand")
        .to_string();
    assert!(
        e.starts_with("2:") && e.contains("check ops with a device operand are not supported"),
        "{e}"
    );
}

/// IREE's `flow.tensor.tie_shape` reads as its operand (custom and generic
/// form, IREE's tests/e2e/tensor_ops use it), and
/// `flow.tensor.dynamic_constant` reads in generic form as in custom.
#[test]
fn flow_tie_shape_and_dynamic_constant_read_in_both_forms() {
    let custom = "func.func @f(%h: index) -> tensor<?x2xi32> {\n  \
        %0 = flow.tensor.dynamic_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32> -> tensor<?x2xi32>\n  \
        %1 = flow.tensor.tie_shape %0 : tensor<?x2xi32>{%h}\n  \
        return %1 : tensor<?x2xi32>\n}\n";
    let generic = "func.func @f(%h: index) -> tensor<?x2xi32> {\n  \
        %0 = \"flow.tensor.dynamic_constant\"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<?x2xi32>\n  \
        %1 = \"flow.tensor.tie_shape\"(%0, %h) : (tensor<?x2xi32>, index) -> tensor<?x2xi32>\n  \
        \"func.return\"(%1) : (tensor<?x2xi32>) -> ()\n}\n";
    let without = custom
        .replace(
            "  %1 = flow.tensor.tie_shape %0 : tensor<?x2xi32>{%h}\n",
            "",
        )
        .replace("return %1", "return %0");
    let want = tensor::print(&load("without", &without));
    assert_eq!(tensor::print(&load("custom", custom)), want);
    assert_eq!(tensor::print(&load("generic", generic)), want);
    for (bad, error) in [
        ("{%h, %h}", "3:8: 'flow.tensor.tie_shape' op 2 dynamic dimension value(s) for a type with 1 dynamic dimension(s)"),
        ("", "expected '{'"),
    ] {
        let src = custom.replace("{%h}", bad);
        let e = tensor::load(&src).expect_err(bad).to_string();
        assert!(e.contains(error), "{bad}: {e}");
    }
}
