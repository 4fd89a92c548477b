//! Errors of the kernel text form.

use crate::ir::Location;

/// A failure to parse a kernel module: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: {message}")]
pub struct KernelParseError {
    /// Line and column (1-based) of the offending token.
    pub loc: Location,
    /// What went wrong.
    pub message: String,
}

impl KernelParseError {
    /// An error at `loc`.
    pub fn new(loc: Location, message: impl Into<String>) -> Self {
        Self {
            loc,
            message: message.into(),
        }
    }
}

impl crate::text::cursor::SyntaxError for KernelParseError {
    fn at(loc: Location, message: String) -> Self {
        Self::new(loc, message)
    }
}

impl From<crate::text::ParseError> for KernelParseError {
    fn from(e: crate::text::ParseError) -> Self {
        Self {
            loc: e.loc,
            message: e.message,
        }
    }
}
