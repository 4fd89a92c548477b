//! Errors of the serializer.
//!
//! Every failure names the op it is about (its name, handle and source
//! location) and what is wrong with it ([`OpProblem`]). Types that cannot be
//! encoded are reported on the op that needed them, with the offending
//! (innermost) type printed in MLIR syntax.

use thiserror::Error;

use crate::ir::{Location, Op};

/// A module that cannot be serialized.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SerializeError {
    /// Something about one op (or a type, symbol or block it uses) cannot be
    /// encoded.
    #[error("{problem} on spv.{op} at {loc}")]
    Op {
        /// The op's name without dialect prefix (`Constant`, `IAdd`, `mlir.loop`).
        op: String,
        /// The op's handle.
        handle: Op,
        /// The op's source location.
        loc: Location,
        /// What is wrong.
        problem: OpProblem,
    },
}

impl SerializeError {
    /// What is wrong, without the op context.
    pub fn problem(&self) -> &OpProblem {
        match self {
            SerializeError::Op { problem, .. } => problem,
        }
    }

    /// The op the error is about.
    pub fn op(&self) -> Op {
        match self {
            SerializeError::Op { handle, .. } => *handle,
        }
    }
}

/// What is wrong with an op.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum OpProblem {
    /// The module needs more result ids than SPIR-V allows (reported on
    /// the module op).
    #[error("the module needs {ids} result ids, more than SPIR-V's limit of 4,194,303")]
    TooManyIds {
        /// The ids the module needs.
        ids: u64,
    },
    /// A symbol reference names nothing in the module.
    #[error("unknown symbol '@{0}'")]
    UnknownSymbol(String),
    /// A symbol reference names an op of the wrong kind.
    #[error("symbol '@{name}' is not {expected}")]
    WrongSymbol {
        /// The referenced symbol.
        name: String,
        /// What the reference must name (`a spv.GlobalVariable`).
        expected: &'static str,
    },
    /// Two module-level ops define the same symbol.
    #[error("symbol '@{0}' is defined twice")]
    DuplicateSymbol(String),
    /// Symbols reference each other in a cycle (global initializers).
    #[error("symbol '@{0}' depends on itself")]
    SymbolCycle(String),
    /// A required attribute is absent.
    #[error("missing attribute '{0}'")]
    MissingAttr(String),
    /// An attribute has the wrong shape or value.
    #[error("attribute '{name}' must be {expected}")]
    BadAttr {
        /// The attribute's name.
        name: String,
        /// What it must be (`an integer`, `a #spv.storage_class`).
        expected: String,
    },
    /// A type has no SPIR-V encoding.
    #[error("type {ty} cannot be serialized: {reason}")]
    Type {
        /// The offending type, in MLIR syntax.
        ty: String,
        /// Why.
        reason: String,
    },
    /// A constant value does not fit its type.
    #[error("constant {value} cannot be encoded as {ty}: {reason}")]
    Constant {
        /// The attribute (or element) that could not be encoded.
        value: String,
        /// The constant's type, in MLIR syntax.
        ty: String,
        /// Why.
        reason: String,
    },
    /// The op's SSA operands do not match its instruction's grammar.
    #[error("expects {expected} operand(s), has {found}")]
    OperandCount {
        /// What the grammar (and attributes) call for.
        expected: String,
        /// How many the op has.
        found: usize,
    },
    /// The op's results do not match its instruction's grammar.
    #[error("expects {expected} result(s), has {found}")]
    ResultCount {
        /// How many results the instruction produces.
        expected: usize,
        /// How many the op has.
        found: usize,
    },
    /// The op's successors do not match its instruction's grammar.
    #[error("expects {expected} successor(s), has {found}")]
    SuccessorCount {
        /// What the grammar calls for.
        expected: String,
        /// How many the op has.
        found: usize,
    },
    /// A branch passes a different number of values than its target block
    /// has arguments, or two branches from one block pass different values.
    #[error("branch to a block with {expected} argument(s) passes {found}")]
    BlockArgs {
        /// Arguments of the target block.
        expected: usize,
        /// Values passed.
        found: usize,
    },
    /// An SSA value is used but defined nowhere in the same function.
    #[error("uses a value that is not defined in its function")]
    UndefinedValue,
    /// The op or one of its regions does not have the structure the
    /// serializer relies on (a selection without merge block, a block without
    /// terminator, an op at the wrong nesting level, ...).
    #[error("{0}")]
    Structure(String),
    /// Selections and loops nested deeper than the serializer takes
    /// ([`MAX_CONSTRUCT_DEPTH`](super::MAX_CONSTRUCT_DEPTH)).
    #[error("constructs nested more than {0} deep (kiln's deserializer takes {0}; lavapipe ignores selections nested deeper than 80)")]
    TooDeep(usize),
    /// The op's instruction needs more words than a word count holds.
    #[error("needs an instruction of {0} words; SPIR-V's word count allows at most 65,535")]
    TooManyWords(usize),
    /// A well-formed op that the serializer (or its encoder) does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A decoration attribute cannot be encoded.
    #[error("decoration '{name}': {reason}")]
    Decoration {
        /// The attribute's name.
        name: String,
        /// Why it cannot be encoded.
        reason: String,
    },
}
