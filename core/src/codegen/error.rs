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
    /// A broken invariant of the compiler itself (a bug in kiln, never the
    /// program's fault): the stages disagree about a dispatch.
    #[error("{}'{op}' op internal: {invariant}", loc_prefix(.loc))]
    Internal {
        /// Where the op is.
        loc: Location,
        /// The op's name (or the construct's, where no op is at fault).
        op: String,
        /// What does not hold.
        invariant: Invariant,
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
    /// A kernel whose lowering was deferred
    /// ([`CompiledKernel::deferred`](super::CompiledKernel::deferred)) has
    /// a memref-level text that does not parse: an archive altered, or a
    /// printer bug.
    #[error("kernel {kernel}: its deferred memref-level text does not parse: {error}")]
    DeferredText {
        /// The kernel's name.
        kernel: String,
        /// The parse error.
        error: Box<crate::kernel::KernelParseError>,
    },
}

fn loc_prefix(loc: &Location) -> String {
    if loc.is_known() {
        format!("{loc}: ")
    } else {
        String::new()
    }
}

/// The invariants the stages of the tensor compiler rely on: what
/// dispatch-region formation, bufferization and the strategy promise the
/// kernel emitter. Each is a compiler bug when broken.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Invariant {
    /// A plan that folds or tiles the dispatch's root, for a dispatch
    /// without one (what plan).
    #[error("{0} without a root")]
    NoRoot(&'static str),
    /// A plan that combines partial results across invocations, for a
    /// root whose reduction has no combiner (what plan).
    #[error("{0} of a reduction that is not combinable")]
    NotCombinable(&'static str),
    /// A value kept in memory without a buffer (which value).
    #[error("{0} has no buffer")]
    NoBuffer(&'static str),
    /// A `cf.assert` in a structured op's body that bufferize gave no
    /// fault site.
    #[error("a body assert has no fault site")]
    NoFaultSite,
    /// A value regions.rs marked dead is read.
    #[error("a dead value is read")]
    DeadValueRead,
    /// A host scalar not defined by any op.
    #[error("unknown scalar")]
    UnknownScalar,
    /// A scalar op read as a tensor.
    #[error("a scalar op read as a tensor")]
    ScalarReadAsTensor,
    /// A value computed elsewhere read at one point (which value).
    #[error("{0} read at a point outside its dispatch")]
    ReadOutsideItsDispatch(&'static str),
    /// A softmax plan for a dispatch whose root is not a softmax.
    #[error("not softmax")]
    NotSoftmax,
    /// The root is not reachable from the dispatch's op through
    /// structured ops.
    #[error("the root is not reachable from its dispatch")]
    RootUnreachable,
    /// The dispatch's stores read a root value its plan did not compute.
    #[error("root not prepared")]
    RootNotPrepared,
    /// Per-row outputs in a dispatch of another family than a row group
    /// (the family): only the row-group kernel writes them.
    #[error("per-row outputs in a {0} dispatch")]
    RowOutputsOutsideRowGroup(&'static str),
    /// No kernel is written for this distribution and reduction strategy.
    #[error("no kernel for distribution {distribution} with reduction {reduction}")]
    NoKernel {
        /// The distribution (Debug form).
        distribution: String,
        /// The reduction strategy (Debug form).
        reduction: String,
    },
    /// A plan's sizes that the kernel cannot take (what, with the sizes).
    #[error("{0}")]
    PlanSizes(String),
    /// A dispatch whose ops are not what its plan's kernel is written for
    /// (what kernel, and what of the dispatch does not fit it).
    #[error("{kernel}: {what}")]
    PlanMismatch {
        /// The kernel.
        kernel: &'static str,
        /// What does not fit.
        what: &'static str,
    },
}

impl CodegenError {
    /// A broken invariant at `op` of `m`.
    pub(crate) fn internal(
        m: &crate::tensor::TensorModule,
        op: crate::tensor::TOp,
        invariant: Invariant,
    ) -> CodegenError {
        let d = m.op(op);
        CodegenError::Internal {
            loc: d.loc,
            op: d.kind.name(),
            invariant,
        }
    }

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
