//! Dequantized weights fused into a contraction's loads
//! (`codegen::dequant`): a 4-bit weight matrix packed two codes per byte
//! with f32 block scales, dequantized by a `linalg.generic` and read by
//! `linalg.matmul_transpose_b` (ONNX's `MatMulNBits` for a prefill of 5
//! rows), compiles to one dispatch reading the packed bytes (no f32 weight
//! tensor stored), on lavapipe's and an H200's targets; an f32 -> f32
//! producer read by the same matmul is still stored, as is any
//! elementwise producer a contraction reads more than once per element.
//! Values: `gpu-tests/tests/tensor/quantized_weights.mlir` (numpy).

use crate::common::{compile_first, h200_target, lavapipe_target};

/// `@f(packed, scales, a) = a @ dequant(packed)^T`; `body` maps the
/// producer's `(%p: IN, %s: f32, %o: f32)` to the weight value `%w`.
fn program(input: &str, body: &str) -> String {
    format!(
        r#"func.func @f(%p: tensor<24x{k}x{input}>, %s: tensor<24x4xf32>, %a: tensor<5x64xf32>) -> tensor<5x24xf32> {{
  %e = tensor.empty() : tensor<24x64xf32>
  %w = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, {pk})>, affine_map<(d0, d1) -> (d0, d1 floordiv 16)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%p, %s : tensor<24x{k}x{input}>, tensor<24x4xf32>) outs(%e : tensor<24x64xf32>) {{
  ^bb0(%pv: {input}, %sv: f32, %o: f32):
{body}
    linalg.yield %w0 : f32
  }} -> tensor<24x64xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<5x24xf32>
  %c = linalg.fill ins(%z : f32) outs(%e2 : tensor<5x24xf32>) -> tensor<5x24xf32>
  %r = linalg.matmul_transpose_b ins(%a, %w : tensor<5x64xf32>, tensor<24x64xf32>) outs(%c : tensor<5x24xf32>) -> tensor<5x24xf32>
  return %r : tensor<5x24xf32>
}}"#,
        k = if input == "i8" { 32 } else { 64 },
        pk = if input == "i8" { "d1 floordiv 2" } else { "d1" },
    )
}

const UNPACK_4BIT: &str = r#"    %k = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %odd = arith.remui %k, %c2 : index
    %sh = arith.muli %odd, %c4 : index
    %shi = arith.index_cast %sh : index to i8
    %v = arith.shrui %pv, %shi : i8
    %m = arith.constant 15 : i8
    %q = arith.andi %v, %m : i8
    %qi = arith.extui %q : i8 to i32
    %c8 = arith.constant 8 : i32
    %qs = arith.subi %qi, %c8 : i32
    %qf = arith.sitofp %qs : i32 to f32
    %w0 = arith.mulf %qf, %sv : f32"#;

#[test]
fn a_4bit_dequantization_is_fused_into_the_matmul_that_reads_it() {
    let text = program("i8", UNPACK_4BIT);
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(&text, &target);
        let [d] = &f.dispatches[..] else {
            panic!(
                "{} dispatches: the f32 weights were stored",
                f.dispatches.len()
            )
        };
        assert!(!d.kernels.is_empty());
        for k in &d.kernels {
            kiln_core::validate::validate(&k.words, k.validation_env)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
        }
    }
}

#[test]
fn a_float_producer_read_several_times_by_a_matmul_is_still_stored() {
    let text = program("f32", "    %w0 = arith.mulf %pv, %sv : f32");
    let f = compile_first(&text, &lavapipe_target());
    assert_eq!(f.dispatches.len(), 2);
}
