//! Errors of the tensor compiler: each names the op (and its line) or the
//! dispatch it is about, and what the target env lacks where that is why.

use crate::ir::Location;
use crate::lower::LowerError;

/// Why a tensor program cannot be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// The program does not parse or verify.
    #[error(transparent)]
    Tensor(#[from] crate::tensor::TensorError),
    /// An op (or a use of it) the compiler does not handle.
    #[error("{}'{op}' op {message}", loc_prefix(.loc))]
    Unsupported {
        /// Where the op is.
        loc: Location,
        /// The op's name.
        op: String,
        /// What is not supported.
        message: String,
    },
    /// An element type the target env cannot store or compute.
    #[error("{}element type {ty} needs capability {capability}, which the target env lacks ({what})", loc_prefix(.loc))]
    MissingCapability {
        /// Where the first value of that type is.
        loc: Location,
        /// The element type.
        ty: String,
        /// The capability it needs.
        capability: crate::grammar::Capability,
        /// What needs it.
        what: String,
    },
    /// A device limit the program cannot fit.
    #[error("{}{message}", loc_prefix(.loc))]
    Limit {
        /// Where the op is.
        loc: Location,
        /// Which limit, its value and what exceeds it.
        message: String,
    },
    /// No function of that name.
    #[error("no function '@{0}' in the program")]
    NoFunction(String),
    /// Lowering a dispatch's kernel to SPIR-V failed (a compiler bug, or a
    /// type or op the target env cannot express).
    #[error("dispatch {dispatch}: {source}")]
    Lower {
        /// The dispatch's name.
        dispatch: String,
        /// Why.
        #[source]
        source: Box<LowerError>,
    },
}

fn loc_prefix(loc: &Location) -> String {
    if loc.is_known() {
        format!("{loc}: ")
    } else {
        String::new()
    }
}

impl CodegenError {
    /// An unsupported-op error about `op` of `m`.
    pub(crate) fn unsupported(
        m: &crate::tensor::TensorModule,
        op: crate::tensor::TOp,
        message: impl Into<String>,
    ) -> CodegenError {
        let d = m.op(op);
        CodegenError::Unsupported {
            loc: d.loc,
            op: d.kind.name(),
            message: message.into(),
        }
    }
}
