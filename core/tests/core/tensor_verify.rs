//! The tensor IR's verifier and parser on bad input: each case asserts the
//! exact one-line message (`LINE:COL: 'op' op message`). Where MLIR 19
//! rejects the same program, the message is the one `mlir-opt-19` gives.

use kiln_core::tensor;

fn error_of(src: &str) -> String {
    match tensor::load(src) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => e.to_string(),
    }
}

#[track_caller]
fn rejects(src: &str, expected: &str) {
    assert_eq!(error_of(src), expected, "for:\n{src}");
}

#[test]
fn matmul_shape_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}",
        "2:8: 'linalg.matmul' op inferred input/output operand #1 has shape's dimension #0 to be 8, but found 4",
    );
}

#[test]
fn indexing_map_rank_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}",
        "2:8: 'linalg.generic' op expected operand rank (2) to match the result rank of indexing_map #0 (1)",
    );
}

#[test]
fn iterator_count_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\"]} ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}",
        "2:8: 'linalg.generic' op expected indexing_map #0 to have 1 dim(s) to match the number of loops",
    );
}

#[test]
fn yield_type_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %i = arith.fptosi %x : f32 to i32
    linalg.yield %i : i32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}",
        "5:5: 'linalg.yield' op type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')",
    );
}

#[test]
fn unindexed_loop() {
    rejects(
        "func.func @f(%a: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]} ins(%a : tensor<4xf32>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}",
        "2:8: 'linalg.generic' op expected every loop to be indexed by a bare dimension of some operand, but loop d1 is not",
    );
}

#[test]
fn window_out_of_bounds() {
    rejects(
        "func.func @f(%x: tensor<10xf32>, %k: tensor<3xf32>, %o: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 3 + d1 * 2)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]} ins(%x, %k : tensor<10xf32>, tensor<3xf32>) outs(%o : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}",
        "2:8: 'linalg.generic' op inferred input/output operand #0 has shape's dimension #0 to be greater than or equal to 11, but found 10",
    );
}

#[test]
fn float_op_on_integers() {
    rejects(
        "func.func @f(%a: tensor<4xi32>) -> tensor<4xi32> {
  %r = arith.addf %a, %a : tensor<4xi32>
  return %r : tensor<4xi32>
}",
        "2:8: 'arith.addf' op operand #0 must be floating-point-like, but got 'tensor<4xi32>'",
    );
}

#[test]
fn return_type_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xi32> {
  return %a : tensor<4x8xf32>
}",
        "2:3: 'func.return' op type of return operand 0 ('tensor<4x8xf32>') doesn't match function result type ('tensor<4x8xi32>') in function @f",
    );
}

#[test]
fn collapse_shape_size_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>) -> tensor<30xf32> {
  %r = tensor.collapse_shape %a [[0, 1]] : tensor<4x8xf32> into tensor<30xf32>
  return %r : tensor<30xf32>
}",
        "2:8: 'tensor.collapse_shape' op expected dimension 0 of collapsed type to be static value of 32",
    );
}

#[test]
fn transpose_shape_mismatch() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x16xf32>) permutation = [1, 0]
  return %t : tensor<8x16xf32>
}",
        "2:8: 'linalg.transpose' op dim(result, 1) = 16 doesn't match dim(input, permutation[1]) = 4",
    );
}

#[test]
fn fill_needs_a_scalar() {
    rejects(
        "func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %t = linalg.fill ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}",
        "2:8: 'linalg.fill' op expected op with scalar input",
    );
}

#[test]
fn slice_out_of_bounds() {
    rejects(
        "func.func @f(%a: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %r = tensor.extract_slice %a[3, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}",
        "2:8: 'tensor.extract_slice' op slice along dimension 0 runs out of bounds: offset 3 + (size 2 - 1) * stride 1 >= dimension size 4",
    );
}

#[test]
fn unsupported_element_type() {
    rejects(
        "func.func @f(%a: tensor<4xi4>) -> tensor<4xi4> {
  %r = arith.addi %a, %a : tensor<4xi4>
  return %r : tensor<4xi4>
}",
        "1:1: 'func.func' op element type i4 is not supported (f16, bf16, f32, f64, i1, i8, i16, i32, i64, index are)",
    );
}

#[test]
fn unknown_ops_name_the_supported_ones() {
    let e = error_of("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %r = linalg.frobnicate ins(%a : tensor<4xf32>)\n  return %r : tensor<4xf32>\n}");
    assert!(
        e.starts_with("2:8: unsupported op 'linalg.frobnicate'; supported linalg ops: linalg.abs, linalg.add, linalg.batch_matmul,"),
        "{e}"
    );
    assert!(
        e.contains("linalg.softmax") && e.contains("linalg.conv_2d_nhwc_hwcf"),
        "{e}"
    );
    let e = error_of("func.func @f() {\n  memref.dealloc\n}");
    assert_eq!(
        e,
        "2:3: unsupported op 'memref.dealloc': tensor programs use the dialects func, arith, math, linalg, tensor, util, flow, check, cf (assert), affine (apply, min, max), ml_program (global, global_load, global_load_const), scf (for, if, yield)"
    );
    let e = error_of("func.func @f() {\n  scf.yield\n}");
    assert_eq!(e, "2:3: 'scf.yield' outside an scf.for or scf.if region");
}

#[test]
fn malformed_text_is_located() {
    assert_eq!(
        error_of("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %r = arith.addf %a, %b : tensor<4xf32>\n  return %r : tensor<4xf32>\n}"),
        "2:23: use of undefined value '%b'"
    );
    assert_eq!(
        error_of("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  %c = arith.constant dense<[1.0, 2.0]> : tensor<3xf32>\n  return %a : tensor<4xf32>\n}"),
        "2:29: inferred shape of elements literal ([2] at depth 0) does not match type ([3])"
    );
}

/// Every failure of a module is reported, in order.
#[test]
fn all_errors_are_collected() {
    let src = "func.func @f(%a: tensor<4xi32>, %b: tensor<4xf32>) -> tensor<4xi32> {
  %r = arith.addf %a, %a : tensor<4xi32>
  %s = arith.addi %b, %b : tensor<4xf32>
  return %r : tensor<4xi32>
}";
    let m = tensor::parse(src).unwrap();
    let errs = tensor::verify(&m).unwrap_err();
    let lines: Vec<String> = errs.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "2:8: 'arith.addf' op operand #0 must be floating-point-like, but got 'tensor<4xi32>'",
            "3:8: 'arith.addi' op operand #0 must be signless-integer-like, but got 'tensor<4xf32>'",
        ]
    );
}

/// A region's values cannot take a name an enclosing region binds (as
/// `mlir-opt-19` says); sibling regions and functions may reuse names.
#[test]
fn a_nested_region_cannot_rebind_an_outer_name() {
    rejects(
        "func.func @f(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<f32> {
  %s = arith.constant 1.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = [\"reduction\"]} ins(%a : tensor<4xf32>) outs(%c : tensor<f32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}",
        "5:5: redefinition of SSA value '%s'",
    );
    let siblings = "func.func @f(%a: tensor<4xf32>, %c: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = [\"reduction\"]} ins(%a : tensor<4xf32>) outs(%c : tensor<f32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = [\"reduction\"]} ins(%a : tensor<4xf32>) outs(%r : tensor<f32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %t : tensor<f32>
}
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}";
    tensor::load(siblings).unwrap_or_else(|e| panic!("{e}"));
}

/// `math.fpowi`'s operand rules, with mlir-opt-19's messages.
#[test]
fn fpowi_operands() {
    rejects(
        "func.func @f(%a: f32, %b: f32) -> f32 {\n  %r = math.fpowi %a, %b : f32, f32\n  return %r : f32\n}",
        "2:8: 'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'",
    );
    rejects(
        "func.func @f(%a: tensor<4xf32>, %b: tensor<3xi32>) -> tensor<4xf32> {\n  %r = math.fpowi %a, %b : tensor<4xf32>, tensor<3xi32>\n  return %r : tensor<4xf32>\n}",
        "2:8: 'math.fpowi' op requires the same shape for all operands and results",
    );
    rejects(
        "func.func @f(%a: i32, %b: i32) -> i32 {\n  %r = math.fpowi %a, %b : i32, i32\n  return %r : i32\n}",
        "2:8: 'math.fpowi' op operand #0 must be floating-point-like, but got 'i32'",
    );
}

/// A program using several ops kiln does not support is refused with all
/// of them listed, each with its line, at once — not only the first; the
/// importers' attributes (dotted names on `func.func`, its arguments and
/// results) are not taken for ops.
#[test]
fn every_unsupported_op_is_listed_at_once() {
    let src = r#"func.func @f(%a: tensor<1x1x4x4xf32> {torch.arg = 1 : i64}, %s: tensor<1xi64>) -> (tensor<16xf32> {torch.result}) attributes {torch.onnx_meta.ir_version = 8 : si64,
    torch.onnx_meta.producer_name = "pytorch"} {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %k = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_min ins(%a, %k : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %r = tensor.bitcast %a : tensor<1x1x4x4xf32> to tensor<16xf32>
  %g = "tensor.frobnicate"(%r) : (tensor<16xf32>) -> tensor<16xf32>
  return %g : tensor<16xf32>
}"#;
    assert_eq!(
        error_of(src),
        "6:8: the program uses 3 unsupported ops:
  6:8: unsupported op 'linalg.pooling_nchw_min'
  7:8: unsupported op 'tensor.bitcast'
  8:8: unsupported op 'tensor.frobnicate'"
    );
}

/// Function, argument and result attributes (what the importers attach)
/// are read and printed back as written.
#[test]
fn function_attributes_round_trip() {
    let src = r#"func.func @f(%arg0: tensor<4xf32> {torch.arg = 1 : i64}, %arg1: tensor<4xf32>) -> (tensor<4xf32> {torch.result}) attributes {torch.onnx_meta.ir_version = 8 : si64, torch.onnx_meta.producer_name = "pytorch"} {
  %0 = arith.addf %arg0, %arg1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"#;
    let m = tensor::load(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tensor::print(&m), src);
}

/// MLIR's generic op form (as `mlir-opt-19 --mlir-print-op-generic`
/// prints it) gives the program its custom syntax gives.
/// A `}` closing no region in a program read as MLIR's generic op form
/// was a statement that consumed nothing: the translator looped forever
/// (found by the `tensor_compile` fuzz target).
#[test]
fn generic_form_with_a_stray_closing_brace_is_an_error() {
    let src = "\"func.func\"() <{function_type = () -> (), sym_name = \"f\"}> ({\n  \"func.return\"() : () -> ()\n}) : () -> ()\n}\n";
    let e = error_of(src);
    assert!(e.contains("unexpected '}' closing no region"), "{e}");
}

#[test]
fn generic_form_reads_as_the_custom_syntax() {
    let custom = r#"#map = affine_map<(d0) -> (d0)>
module {
  func.func @f(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>) -> (tensor<4xf32>, tensor<2xi32>) {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg0 : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.mulf %in, %cst fastmath<fast> : f32
      linalg.yield %3 : f32
    } -> tensor<4xf32>
    %2 = tensor.extract_slice %arg1[1] [2] [1] : tensor<4xi32> to tensor<2xi32>
    %4 = arith.cmpi slt, %2, %2 : tensor<2xi32>
    %5 = arith.select %4, %2, %2 : tensor<2xi1>, tensor<2xi32>
    return %1, %5 : tensor<4xf32>, tensor<2xi32>
  }
}"#;
    let generic = r#"#map = affine_map<(d0) -> (d0)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>, tensor<4xi32>) -> (tensor<4xf32>, tensor<2xi32>), sym_name = "f"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<4xi32>):
    %0 = "arith.constant"() <{value = 2.000000e+00 : f32}> : () -> f32
    %1 = "tensor.empty"() : () -> tensor<4xf32>
    %2 = "linalg.generic"(%arg0, %1) <{indexing_maps = [#map, #map], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg2: f32, %arg3: f32):
      %6 = "arith.mulf"(%arg2, %0) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
      "linalg.yield"(%6) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %3 = "tensor.extract_slice"(%arg1) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>}> : (tensor<4xi32>) -> tensor<2xi32>
    %4 = "arith.cmpi"(%3, %3) <{predicate = 2 : i64}> : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = "arith.select"(%4, %3, %3) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    "func.return"(%2, %5) : (tensor<4xf32>, tensor<2xi32>) -> ()
  }) : () -> ()
}) : () -> ()"#;
    let a = tensor::load(custom).unwrap_or_else(|e| panic!("custom: {e}"));
    let b = tensor::load(generic).unwrap_or_else(|e| panic!("generic: {e}"));
    assert_eq!(tensor::print(&a), tensor::print(&b));
}

/// An error in a generic-form op names the op's line.
#[test]
fn generic_form_errors_keep_their_line() {
    let src = r#""builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    %0 = "arith.addf"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "arith.cmpi"(%0, %0) <{predicate = 42 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()"#;
    let e = error_of(src);
    assert!(e.starts_with("5:"), "{e}");
    assert!(
        e.contains("'arith.cmpi' (generic form): expected a known 'predicate'"),
        "{e}"
    );
}

/// scf at the tensor level: a loop whose bounds come from tensor data, a
/// while loop, and an if whose condition only the run knows with an op
/// that can fail in a branch (an assert, at any depth; an extract at a
/// run-time index) are refused with the op's line: both branches are
/// computed, and the one not taken must not fail the call.
#[test]
fn scf_ops_kiln_cannot_resolve_are_refused_with_their_line() {
    let for_src = "func.func @f(%t: tensor<i64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n64 = tensor.extract %t[] : tensor<i64>
  %n = arith.index_cast %n64 : i64 to index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}";
    let e = error_of(for_src);
    assert!(
        e.starts_with("6:8: unsupported 'scf.for': its bounds are not known at compile time"),
        "{e}"
    );
    // A while loop whose condition reads tensor data is refused with its
    // line; one whose condition is known on every trip is unrolled, up to
    // the unroll limit (this one never ends).
    let while_src = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.while (%a = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    %c0 = arith.constant 0 : index
    %v = tensor.extract %a[%c0] : tensor<4xf32>
    %z = arith.constant 0.0 : f32
    %go = arith.cmpf olt, %v, %z : f32
    scf.condition(%go) %a : tensor<4xf32>
  } do {
  ^bb0(%b: tensor<4xf32>):
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}";
    let e = error_of(while_src);
    assert!(
        e.starts_with("2:8: unsupported 'scf.while': its condition is not known at compile time"),
        "{e}"
    );
    let forever = while_src.replace(
        "%go = arith.cmpf olt, %v, %z : f32",
        "%go = arith.constant true",
    );
    let e = error_of(&forever);
    assert!(
        e.starts_with("2:8: unsupported 'scf.while': more than 4096 iterations"),
        "{e}"
    );
    // A run-time scf.if whose branch holds a top-level assert, or an
    // extract or slice at a run-time index, is guarded (scf_guard.rs) and
    // runs: corpus scf_tensor.mlir checks its values. What stays refused:
    // an assert inside a generic's body, in the branch the run may not
    // take.
    let body_assert = r#"func.func @f(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %nz = arith.cmpf one, %a, %z : f32
      cf.assert %nz, "nonzero"
      linalg.yield %a : f32
    } -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}"#;
    let e = error_of(body_assert);
    assert!(
        e.starts_with("2:8: unsupported 'scf.if'") && e.contains("'cf.assert'"),
        "{e}"
    );
}
