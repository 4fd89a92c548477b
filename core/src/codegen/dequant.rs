//! Dequantized weights read by a contraction: the fusion rule that keeps
//! block-quantized weights (GGUF Q8_0 / Q4_0, ONNX `MatMulNBits`,
//! `DequantizeLinear` with a block size) in their stored bytes.
//!
//! Dispatch-region formation ([`super::regions`]) fuses an elementwise
//! producer into its consumer only when the consumer reads each of its
//! elements once, so that fusing never repeats work. A matrix product
//! reads each weight once per row of its other operand, and so a
//! dequantization in front of it would be stored: an f32 weight tensor
//! written in full and read back, four to eight times the stored bytes.
//! This module names the exception (what IREE's dequantization fusion and
//! llama.cpp's kernels do): an elementwise op that turns narrow integer
//! codes into floats, reading only data from outside the kernels, is
//! recomputed at each of a contraction's reads of it (once per register
//! tile row in the matmul kernels, once in a matvec), which costs a few
//! integer operations per load instead of a tensor in memory.

use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::{TOp, TValue, ValueDef};

use super::analysis::{FuncInfo, OpClass};

/// The widest integer element, in bits, that counts as a quantized code
/// (i8 codes, or 4-bit codes packed two per byte).
const MAX_CODE_BITS: u32 = 8;

/// Whether `v` is read by contraction `reader` as dequantized weights
/// that the contraction's kernel should compute at each load instead of
/// reading them from memory: `v` is the one result of an all-parallel
/// (elementwise) structured op with a float result, at least one tensor
/// input of integer codes of at most 8 bits (`MAX_CODE_BITS`), and every
/// tensor input data from outside the kernels (an argument, a constant, or
/// a reshape of one); `reader` is a named contraction (matmul family,
/// matvec, vecmat).
pub fn is_fused_dequantization(info: &FuncInfo<'_>, v: TValue, reader: TOp) -> bool {
    let is_contraction = matches!(&info.m.op(reader).kind,
        OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Contraction(_)));
    is_contraction && decodes(info, v, MAX_CODE_BITS)
}

/// Whether `v` decodes integer codes of at most `bits` bits into floats:
/// the one result of an all-parallel (elementwise) structured op with a
/// float result, at least one tensor input of such codes, and every
/// tensor input data from outside the kernels. A matvec's kernel reads
/// the inputs of such a producer of its matrix (which it computes at each
/// element, as it reads each once) as 16-byte groups
/// (`kernels/wide.rs`): 8-bit codes, or 4-bit codes packed in 32-bit
/// words.
pub fn decodes(info: &FuncInfo<'_>, v: TValue, bits: u32) -> bool {
    let m = info.m;
    let ValueDef::Result { op, .. } = m.value(v).def else {
        return false;
    };
    if info.class.get(&op) != Some(&OpClass::Compute) {
        return false;
    }
    let Some(s) = info.structured.get(&op) else {
        return false;
    };
    if s.outputs.len() != 1 || !m.value_kind(v).elem().is_float() {
        return false;
    }
    let tensors: Vec<TValue> = s
        .inputs
        .iter()
        .copied()
        .filter(|&x| info.is_tensor(x))
        .collect();
    let has_codes = tensors.iter().any(|&x| {
        let e = m.value_kind(x).elem();
        e.is_int_or_index() && e.bits() <= bits
    });
    has_codes && tensors.iter().all(|&x| is_outside_data(info, x))
}

/// Whether `v` is data from outside the kernels: a function argument, a
/// source (constant) or a reshape view of one.
fn is_outside_data(info: &FuncInfo<'_>, v: TValue) -> bool {
    let mut v = v;
    loop {
        let ValueDef::Result { op, .. } = info.m.value(v).def else {
            return true;
        };
        match info.class.get(&op) {
            Some(OpClass::Source) => return true,
            Some(OpClass::Alias) => match info.m.op(op).operands.first() {
                Some(&x) => v = x,
                None => return false,
            },
            _ => return false,
        }
    }
}
