//! Errors of the tensor IR: parsing and verification, each with the line
//! and column of the op (or token) it is about.

use crate::ir::Location;

/// A failure to parse tensor-level text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: {message}")]
pub struct TensorParseError {
    /// Line and column (1-based) of the offending token.
    pub loc: Location,
    /// What went wrong.
    pub message: String,
}

impl TensorParseError {
    /// An error at `loc`.
    pub fn new(loc: Location, message: impl Into<String>) -> Self {
        Self {
            loc,
            message: message.into(),
        }
    }
}

impl crate::text::cursor::SyntaxError for TensorParseError {
    fn at(loc: Location, message: String) -> Self {
        Self::new(loc, message)
    }
}

impl From<crate::text::ParseError> for TensorParseError {
    fn from(e: crate::text::ParseError) -> Self {
        Self {
            loc: e.loc,
            message: e.message,
        }
    }
}

/// One verification failure: the op's location, its name and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: '{op}' op {message}")]
pub struct TensorVerifyError {
    /// Where the op was parsed from.
    pub loc: Location,
    /// The op's name (`linalg.matmul`), or `func.func`.
    pub op: String,
    /// What is wrong, in MLIR's style (`expected ...`).
    pub message: String,
}

/// Every verification failure of a module, in program order.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct TensorVerifyErrors(pub Vec<TensorVerifyError>);

impl TensorVerifyErrors {
    /// The first failure.
    pub fn first(&self) -> Option<&TensorVerifyError> {
        self.0.first()
    }
}

/// A parse or verification failure (what [`load`](super::load) returns).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TensorError {
    /// The text does not parse.
    #[error(transparent)]
    Parse(#[from] TensorParseError),
    /// The program is not valid; the first failure (all are in `.1`).
    #[error("{0}")]
    Verify(TensorVerifyError, TensorVerifyErrors),
}
