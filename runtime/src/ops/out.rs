//! `out=` forms: an op's result written into a tensor the caller already
//! has ([`binary_out`], [`unary_out`]), as frameworks' `out=` arguments
//! and in-place ops (`a += b` is `binary_out(s, Binary::Add, &a, &b, &a)`)
//! need.
//!
//! The op computes its result into a new tensor and a copy command moves
//! it into `out`, ordered after every read of `out`'s bytes (see
//! `hazard`): `out` may be, or overlap, an operand, and the result is the
//! one the operands held before the call. The copy costs one transfer of
//! the result's bytes.

use crate::error::{Error, Result};
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::elementwise::{binary, unary, Binary, Unary};

/// [`binary`] of `a` and `b` written into `out` (contiguous, of the
/// result's shape and element type).
pub fn binary_out(stream: &Stream, op: Binary, a: &Tensor, b: &Tensor, out: &Tensor) -> Result<()> {
    let r = binary(stream, op, a, b)?;
    write(stream, op.what(), &r, out)
}

/// [`unary`] of `x` written into `out` (contiguous, of the result's shape
/// and element type).
pub fn unary_out(stream: &Stream, op: Unary, x: &Tensor, out: &Tensor) -> Result<()> {
    let r = unary(stream, op, x)?;
    write(stream, op.what(), &r, out)
}

/// Copies the result `r` of op `what` into `out`.
pub(crate) fn write(stream: &Stream, what: &'static str, r: &Tensor, out: &Tensor) -> Result<()> {
    if !std::sync::Arc::ptr_eq(&r.storage.device, &out.storage.device) {
        return Err(Error::ForeignDevice { what: "out" });
    }
    if r.shape() != out.shape() || r.dtype() != out.dtype() {
        return Err(Error::Shape {
            what,
            reason: format!(
                "out is {} {:?}, the result {} {:?}",
                out.dtype(),
                out.shape(),
                r.dtype(),
                r.shape()
            ),
        });
    }
    if !out.is_contiguous() {
        return Err(Error::NotContiguous {
            what,
            shape: out.shape().to_vec(),
            strides: out.strides().to_vec(),
        });
    }
    stream.copy(r, out)
}
