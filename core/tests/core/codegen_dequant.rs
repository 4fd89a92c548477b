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

/// The GGUF Q4_0 dequantization `%w` of `%p` (codes, two 4-bit codes per
/// byte: element `j` of a block of 32 in the low nibble of byte `j`,
/// `j + 16` in the high one) and `%d` (one f16 scale per block), `n`
/// rows of `k` (the body of `bench/quant/matvec_q4_0_4096x4096.mlir`).
fn q4_0_weights(n: usize, k: usize) -> String {
    format!(
        r#"  %e = tensor.empty() : tensor<{n}x{k}xf32>
  %w = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 16 + d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
      ins(%p, %d : tensor<{n}x{kb}xi8>, tensor<{n}x{nb}xf16>) outs(%e : tensor<{n}x{k}xf32>) {{
  ^bb0(%pv: i8, %dv: f16, %o: f32):
    %kk = linalg.index 1 : index
    %c32 = arith.constant 32 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %in = arith.remui %kk, %c32 : index
    %hi = arith.divui %in, %c16 : index
    %sh = arith.muli %hi, %c4 : index
    %shi = arith.index_cast %sh : index to i8
    %v = arith.shrui %pv, %shi : i8
    %mk = arith.constant 15 : i8
    %c = arith.andi %v, %mk : i8
    %ci = arith.extui %c : i8 to i32
    %c8 = arith.constant 8 : i32
    %s = arith.subi %ci, %c8 : i32
    %sf = arith.sitofp %s : i32 to f32
    %df = arith.extf %dv : f16 to f32
    %r = arith.mulf %sf, %df : f32
    linalg.yield %r : f32
  }} -> tensor<{n}x{k}xf32>
  %z = arith.constant 0.0 : f32"#,
        kb = k / 2,
        nb = k / 32,
    )
}

/// `@f(codes, scales, x) = matvec(dequant(codes, scales), x)`: Q4_0
/// weights ([`q4_0_weights`]), `n` rows of `k`.
fn q4_0_matvec(n: usize, k: usize) -> String {
    format!(
        r#"func.func @f(%p: tensor<{n}x{kb}xi8>, %d: tensor<{n}x{nb}xf16>, %x: tensor<{k}xf32>) -> tensor<{n}xf32> {{
{w}
  %e2 = tensor.empty() : tensor<{n}xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<{n}xf32>) -> tensor<{n}xf32>
  %y = linalg.matvec ins(%w, %x : tensor<{n}x{k}xf32>, tensor<{k}xf32>) outs(%acc : tensor<{n}xf32>) -> tensor<{n}xf32>
  return %y : tensor<{n}xf32>
}}"#,
        w = q4_0_weights(n, k),
        kb = k / 2,
        nb = k / 32,
    )
}

/// `@f(a, codes, scales) = a @ dequant(codes, scales)^T`: a prefill's
/// projection, `m` rows of activations, Q4_0 weights ([`q4_0_weights`])
/// `n` rows of `k`.
fn q4_0_matmul_transpose_b(m: usize, n: usize, k: usize) -> String {
    format!(
        r#"func.func @f(%a: tensor<{m}x{k}xf32>, %p: tensor<{n}x{kb}xi8>, %d: tensor<{n}x{nb}xf16>) -> tensor<{m}x{n}xf32> {{
{w}
  %e2 = tensor.empty() : tensor<{m}x{n}xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %y = linalg.matmul_transpose_b ins(%a, %w : tensor<{m}x{k}xf32>, tensor<{n}x{k}xf32>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %y : tensor<{m}x{n}xf32>
}}"#,
        w = q4_0_weights(n, k),
        kb = k / 2,
        nb = k / 32,
    )
}

/// The instructions of a SPIR-V binary's functions with an 8-bit integer
/// operand or result: `(zero-extensions to 32 bits, loads of 8 bits)`.
fn byte_ops(words: &[u32]) -> (usize, usize) {
    use rspirv::dr::Operand;
    use std::collections::HashMap;
    let module = rspirv::dr::load_words(words).expect("valid SPIR-V");
    let width: HashMap<u32, u32> = module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::TypeInt)
        .filter_map(|i| match i.operands.first() {
            Some(Operand::LiteralBit32(w)) => Some((i.result_id?, *w)),
            _ => None,
        })
        .collect();
    let insts: Vec<_> = module
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter().flat_map(|b| b.instructions.iter()))
        .collect();
    let type_of: HashMap<u32, u32> = insts
        .iter()
        .filter_map(|i| Some((i.result_id?, i.result_type?)))
        .collect();
    let bits = |t: Option<u32>| t.and_then(|t| width.get(&t).copied());
    let extended = insts
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::UConvert)
        .filter(|i| {
            let from = match i.operands.first() {
                Some(Operand::IdRef(x)) => bits(type_of.get(x).copied()),
                _ => None,
            };
            bits(i.result_type) == Some(32) && from == Some(8)
        })
        .count();
    let loads = insts
        .iter()
        .filter(|i| i.class.opcode == spirv::Op::Load && bits(i.result_type) == Some(8))
        .count();
    (extended, loads)
}

/// A Q4_0 matvec's nibbles are unpacked from their 32-bit words: every
/// wide-read byte's shift, mask and extension to `i32` is done on the
/// word it came from (`kernels/narrow.rs`), so the kernel zero-extends no
/// 8-bit integer (on lavapipe each of those `i8` ops was a pack or
/// unpack around the SIMD lanes; 64 of them in this kernel before). Values: the
/// corpus's Q4_0 matvecs in `gpu-tests/tests/tensor/quantized_weights.mlir`
/// (numpy, exact).
#[test]
fn q4_0_matvec_unpacks_nibbles_from_32_bit_words() {
    let text = q4_0_matvec(256, 512);
    for target in [lavapipe_target(), h200_target()] {
        let f = compile_first(&text, &target);
        let [d] = &f.dispatches[..] else {
            panic!("{} dispatches", f.dispatches.len())
        };
        for k in &d.kernels {
            kiln_core::validate::validate(&k.words, k.validation_env)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            let device = target.env.device.device_type;
            assert_eq!(byte_ops(&k.words), (0, 0), "{} on {device:?}", k.name);
        }
    }
}

/// A prefill's Q4_0 matmul (a register tile per invocation) reads its
/// codes as 16-byte groups of 32-bit words, not byte by byte (on lavapipe
/// a byte load from a storage buffer is a loop over the SIMD lanes), and
/// unpacks them there, as the matvec does (`kernels/tile.rs`; before, the
/// lavapipe kernel loaded bytes one at a time). An H200 computes this
/// size a point per invocation, whose loads stay byte by byte (not
/// covered). Values: the corpus's
/// `q4_0_matmul_transpose_b_gguf_layout_37x256x40_exact` (numpy, exact).
#[test]
fn q4_0_matmul_reads_codes_as_words() {
    let text = q4_0_matmul_transpose_b(37, 40, 256);
    {
        let target = lavapipe_target();
        let f = compile_first(&text, &target);
        let [d] = &f.dispatches[..] else {
            panic!("{} dispatches", f.dispatches.len())
        };
        for k in &d.kernels {
            kiln_core::validate::validate(&k.words, k.validation_env)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            let device = target.env.device.device_type;
            assert_eq!(byte_ops(&k.words), (0, 0), "{} on {device:?}", k.name);
        }
    }
}
