//! Why a conversion to LLVM failed.

use crate::ir::Location;

/// A failure of [`super::convert`], naming the op or type it is about.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// The input is not a well-formed spv module.
    #[error("the module fails verification: {0}")]
    Verify(#[from] crate::ir::verify::VerifyErrors),
    /// An op that has no conversion.
    #[error("{loc}: 'spirv.{op}' has no conversion to LLVM{}", reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    UnsupportedOp {
        /// The op's name (`GroupNonUniformIAdd`, `GL.Frexp`).
        op: String,
        /// Where it is.
        loc: Location,
        /// What in particular is not supported, when it is one form of it.
        reason: Option<String>,
    },
    /// A type that has no conversion.
    #[error("{ty} has no conversion to LLVM: {reason}")]
    UnsupportedType {
        /// The type as printed.
        ty: String,
        /// Why.
        reason: String,
    },
    /// A struct member at an offset no LLVM struct puts it.
    #[error(
        "{ty}: member #{member} {} but an LLVM struct puts it at {natural} (or back to back when packed); only natural or packed offsets convert",
        match offset { Some(o) => format!("is at offset {o}"), None => "has no offset while others do".to_owned() }
    )]
    UnnaturalOffset {
        /// The struct type as printed.
        ty: String,
        /// The member's index.
        member: usize,
        /// Its decorated offset.
        offset: Option<u64>,
        /// Where the natural layout puts it.
        natural: u64,
    },
    /// An array stride that is not the element's natural stride.
    #[error("{ty}: stride {stride} is not the natural stride {natural} of its element; only natural strides convert")]
    UnnaturalStride {
        /// The array type as printed.
        ty: String,
        /// The decorated stride.
        stride: u32,
        /// The natural stride.
        natural: u64,
    },
    /// An op that is malformed in a way the verifier does not catch.
    #[error("{loc}: 'spirv.{op}': {message}")]
    Malformed {
        /// The op's name.
        op: String,
        /// Where it is.
        loc: Location,
        /// What is wrong.
        message: String,
    },
    /// Something the kernel ABI needs is missing or inconsistent.
    #[error("kernel ABI: {0}")]
    Kernel(String),
}
