//! `tensor.cast` between a root and its elementwise consumer does not
//! keep them apart: the MLP that runtime `ops::capture` assembles from op
//! programs of different shape classes (a static `tensor<?x128xf32>`
//! matmul result cast to the all-dynamic `tensor<?x?xf32>` of the bias
//! add) compiles to the dispatches of the same MLP written without casts
//! (matmul + bias + ReLU, matmul + bias, softmax), with valid kernels.

use kiln_core::codegen::CompiledFunction;

use crate::common::{compile_first, kernels_validate, lavapipe_target};

/// `softmax(relu(x W1 + b1) W2 + b2)`, `[?, 64]` -> 128 -> 10, one
/// program (as a user writes it).
const WHOLE: &str = r#"
func.func @mlp(%x: tensor<?x64xf32>, %w1: tensor<64x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<?x10xf32> {
  %z = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e1 = tensor.empty(%n) : tensor<?x128xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f1 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<?x128xf32>, tensor<128xf32>) outs(%e1 : tensor<?x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<?x128xf32>
  %e2 = tensor.empty(%n) : tensor<?x10xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<?x128xf32>, tensor<128x10xf32>) outs(%f2 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<?x10xf32>, tensor<10xf32>) outs(%e2 : tensor<?x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x10xf32>
  %e3 = tensor.empty(%n) : tensor<?x10xf32>
  %y = linalg.softmax dimension(1) ins(%l : tensor<?x10xf32>) outs(%e3 : tensor<?x10xf32>) -> tensor<?x10xf32>
  return %y : tensor<?x10xf32>
}
"#;

/// The same MLP as `ops::capture` assembles it from six op programs
/// (`matmul` static in K and N, `add`/`relu`/`softmax` all-dynamic),
/// joined by casts.
const CAPTURED: &str = r#"
func.func @graph(%in0: tensor<?x64xf32>, %c0: tensor<64x128xf32>, %c1: tensor<?xf32>, %c2: tensor<128x10xf32>, %c3: tensor<?xf32>) -> (tensor<?x?xf32>) {
  %r0_1 = arith.constant 0 : index
  %r0_2 = tensor.dim %in0, %r0_1 : tensor<?x64xf32>
  %r0_3 = tensor.empty(%r0_2) : tensor<?x128xf32>
  %r0_4 = arith.constant 0.0 : f32
  %r0_5 = linalg.fill ins(%r0_4 : f32) outs(%r0_3 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %r0_6 = linalg.matmul ins(%in0, %c0 : tensor<?x64xf32>, tensor<64x128xf32>) outs(%r0_5 : tensor<?x128xf32>) -> tensor<?x128xf32>
  %cast1 = tensor.cast %r0_6 : tensor<?x128xf32> to tensor<?x?xf32>
  %r1_1 = arith.constant 0 : index
  %r1_2 = tensor.dim %cast1, %r1_1 : tensor<?x?xf32>
  %r1_3 = arith.constant 1 : index
  %r1_4 = tensor.dim %cast1, %r1_3 : tensor<?x?xf32>
  %r1_5 = tensor.empty(%r1_2, %r1_4) : tensor<?x?xf32>
  %r1_6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cast1, %c1 : tensor<?x?xf32>, tensor<?xf32>) outs(%r1_5 : tensor<?x?xf32>) {
  ^bb0(%r1_7: f32, %r1_8: f32, %r1_9: f32):
    %r1_10 = arith.addf %r1_7, %r1_8 : f32
    linalg.yield %r1_10 : f32
  } -> tensor<?x?xf32>
  %r2_1 = arith.constant 0 : index
  %r2_2 = tensor.dim %r1_6, %r2_1 : tensor<?x?xf32>
  %r2_3 = arith.constant 1 : index
  %r2_4 = tensor.dim %r1_6, %r2_3 : tensor<?x?xf32>
  %r2_5 = tensor.empty(%r2_2, %r2_4) : tensor<?x?xf32>
  %r2_6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r1_6 : tensor<?x?xf32>) outs(%r2_5 : tensor<?x?xf32>) {
  ^bb0(%r2_7: f32, %r2_8: f32):
    %r2_9 = arith.constant 0x00000000 : f32
    %r2_10 = arith.maximumf %r2_7, %r2_9 : f32
    linalg.yield %r2_10 : f32
  } -> tensor<?x?xf32>
  %cast2 = tensor.cast %r2_6 : tensor<?x?xf32> to tensor<?x128xf32>
  %r3_1 = arith.constant 0 : index
  %r3_2 = tensor.dim %cast2, %r3_1 : tensor<?x128xf32>
  %r3_3 = tensor.empty(%r3_2) : tensor<?x10xf32>
  %r3_4 = arith.constant 0.0 : f32
  %r3_5 = linalg.fill ins(%r3_4 : f32) outs(%r3_3 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %r3_6 = linalg.matmul ins(%cast2, %c2 : tensor<?x128xf32>, tensor<128x10xf32>) outs(%r3_5 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %cast3 = tensor.cast %r3_6 : tensor<?x10xf32> to tensor<?x?xf32>
  %r4_1 = arith.constant 0 : index
  %r4_2 = tensor.dim %cast3, %r4_1 : tensor<?x?xf32>
  %r4_3 = arith.constant 1 : index
  %r4_4 = tensor.dim %cast3, %r4_3 : tensor<?x?xf32>
  %r4_5 = tensor.empty(%r4_2, %r4_4) : tensor<?x?xf32>
  %r4_6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%cast3, %c3 : tensor<?x?xf32>, tensor<?xf32>) outs(%r4_5 : tensor<?x?xf32>) {
  ^bb0(%r4_7: f32, %r4_8: f32, %r4_9: f32):
    %r4_10 = arith.addf %r4_7, %r4_8 : f32
    linalg.yield %r4_10 : f32
  } -> tensor<?x?xf32>
  %r5_1 = arith.constant 0 : index
  %r5_2 = tensor.dim %r4_6, %r5_1 : tensor<?x?xf32>
  %r5_3 = arith.constant 1 : index
  %r5_4 = tensor.dim %r4_6, %r5_3 : tensor<?x?xf32>
  %r5_5 = tensor.empty(%r5_2, %r5_4) : tensor<?x?xf32>
  %r5_6 = linalg.softmax dimension(1) ins(%r4_6 : tensor<?x?xf32>) outs(%r5_5 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r5_6 : tensor<?x?xf32>
}
"#;

/// Each dispatch's family and the op it writes.
fn dispatches(f: &CompiledFunction) -> Vec<(&'static str, String)> {
    f.dispatches
        .iter()
        .map(|d| (d.family.name(), d.op.clone()))
        .collect()
}

#[test]
fn a_captured_mlp_compiles_to_the_dispatches_of_the_whole_program() {
    // Dispatch regions do not depend on the target: lavapipe's env stands
    // for all.
    let target = lavapipe_target();
    let whole = compile_first(WHOLE, &target);
    let captured = compile_first(CAPTURED, &target);
    let want = [
        ("contraction", "linalg.generic".to_owned()),
        ("contraction", "linalg.generic".to_owned()),
        ("softmax", "linalg.softmax".to_owned()),
    ];
    assert_eq!(dispatches(&whole), want, "the whole program");
    assert_eq!(dispatches(&captured), want, "the captured graph");
    kernels_validate(&captured);
}
