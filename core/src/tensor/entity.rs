//! Typed handles into a [`TensorModule`](super::TensorModule)'s arenas.
//!
//! The tensor IR has its own handle types (not the spv IR's `Op`/`Value`),
//! so a compiler holding both a tensor program and the kernels it produces
//! cannot mix them up. A handle is a non-zero 32-bit index: `Option<TOp>`
//! costs nothing, and two handles are equal when they name the same entity
//! (types are interned, so equal handles are equal types).

use crate::ir::entity::entity;

entity!(
    /// An operation of the tensor IR.
    TOp, "op"
);
entity!(
    /// An SSA value: an op result or a block argument.
    TValue, "v"
);
entity!(
    /// A block: arguments and ops. Every region of the tensor IR is one
    /// block (the IR has no branches), so a region is named by its block.
    TBlock, "bb"
);
entity!(
    /// A function (`func.func`).
    TFunc, "func"
);
entity!(
    /// An interned type.
    TType, "ty"
);
