//! Typed handles into a [`KernelModule`](super::KernelModule)'s arenas.
//!
//! The kernel IR has handles of its own, distinct from the spv IR's
//! ([`crate::ir::entity`]): lowering maps kernel values to spv values, and a
//! kernel handle where an spv handle is expected (or the other way round)
//! is a type error instead of an index into the wrong arena. Their `Debug`
//! form carries a `k` prefix (`kv3`, `kop7`) to tell them apart from spv
//! handles in diagnostics.
//!
//! ```compile_fail
//! // A kernel op is not an spv op.
//! let kernels = kiln_core::kernel::KernelModule::new();
//! let op: kiln_core::ir::Op = kernels.top();
//! ```

use crate::ir::entity::entity;

entity!(
    /// A kernel op.
    KOp, "kop"
);
entity!(
    /// A kernel SSA value: an op result or a block argument.
    KValue, "kv"
);
entity!(
    /// A kernel block: arguments and a list of ops.
    KBlock, "kbb"
);
entity!(
    /// A kernel region: an ordered list of blocks owned by an op.
    KRegion, "kregion"
);
