//! Static sizes no buffer can hold are refused before anything is emitted:
//! a tensor whose static dimensions alone make more than `i64::MAX`
//! bytes (or more than 2^64 elements) could never be allocated, and the
//! emitter's index arithmetic on such sizes would wrap (it overflowed in a
//! debug build and compiled silently in a release one: `math.exp` on
//! `tensor<2^62 x 2^62 x f32>`, found by the ONNX importer's fuzzing). The
//! reference evaluator refuses such a tensor when it makes one; the
//! compiler now refuses it at compile time, naming the op.

use crate::tensor::TypeKind;

use super::analysis::FuncInfo;
use super::bufferize::element_bytes;
use super::error::CodegenError;

/// The bytes of the static dimensions of a tensor type (dynamic ones
/// counted as 1), `None` past `i64::MAX` bytes; `Some(0)` for
/// non-tensors.
fn static_bytes(ty: &TypeKind) -> Option<u64> {
    let TypeKind::Tensor { shape, elem } = ty else {
        return Some(0);
    };
    crate::host_memory::element_count(shape.iter().map(|d| d.fixed().unwrap_or(1)))?
        .checked_mul(element_bytes(*elem) as u64)
        .filter(|&b| b <= i64::MAX as u64)
}

/// An error for the first argument or top-level result of `info`'s
/// function whose static dimensions hold more than `i64::MAX` bytes.
pub fn check(info: &FuncInfo<'_>) -> Result<(), CodegenError> {
    let m = info.m;
    let too_big = |ty: &TypeKind| {
        static_bytes(ty).is_none().then(|| {
            format!(
                "a {} holds more than 2^63 bytes (no buffer can)",
                ty.to_text()
            )
        })
    };
    for &a in &m.block(info.body).args {
        if let Some(message) = too_big(m.ty(m.value_type(a))) {
            let fd = m.func(info.func);
            return Err(CodegenError::Unsupported {
                loc: fd.loc,
                op: "func.func".into(),
                message: format!("argument of '@{}': {message}", fd.name),
            });
        }
    }
    for &op in &info.ops {
        for &r in &m.op(op).results {
            if let Some(message) = too_big(m.ty(m.value_type(r))) {
                return Err(CodegenError::unsupported(m, op, message));
            }
        }
    }
    Ok(())
}
