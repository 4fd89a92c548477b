//! Errors of the deserializer.
//!
//! Every failure after the header names the instruction it is about by its
//! word offset in the module (word 0 is the magic number) and its opcode
//! name (`word 27 (OpTypePointer): ...`), so a message can be matched
//! against `spirv-dis --offsets` output. Header failures name the header
//! word. The messages are part of the tests: change them with care.

use std::fmt;

use thiserror::Error;

use crate::grammar;

/// Where in the module an error is: an instruction's first word and opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct At {
    /// Word offset of the instruction's first word (0 is the magic number).
    pub offset: usize,
    /// The instruction's opcode (the low half of its first word).
    pub opcode: u16,
}

impl At {
    /// The instruction's name with the `Op` prefix (`OpTypeInt`), or
    /// `opcode N` when the grammar does not know it.
    pub fn opname(&self) -> String {
        opname(self.opcode)
    }
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {} ({})", self.offset, self.opname())
    }
}

/// `OpName` for a known opcode, `opcode N` otherwise.
pub(crate) fn opname(opcode: u16) -> String {
    match grammar::core_inst(opcode) {
        Some(d) => format!("Op{}", d.opname),
        None => format!("opcode {opcode}"),
    }
}

/// Why a SPIR-V binary cannot be read into the IR.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DeserializeError {
    /// No words at all.
    #[error("empty module: a SPIR-V module needs at least the 5-word header")]
    Empty,
    /// Fewer words than the header has.
    #[error("only {words} word(s): a SPIR-V module needs at least the 5-word header")]
    ShortHeader {
        /// How many words there are.
        words: usize,
    },
    /// Word 0 is not the magic number in either byte order.
    #[error("word 0: bad magic number {found:#010x} (expected 0x07230203)")]
    BadMagic {
        /// The first word.
        found: u32,
    },
    /// Word 1 names a version this grammar does not describe.
    #[error("word 1: unsupported SPIR-V version word {word:#010x} (expected 1.0 to {max})")]
    Version {
        /// The version word.
        word: u32,
        /// The newest version kiln reads.
        max: grammar::Version,
    },
    /// Word 3 (the id bound) is 0 or above the SPIR-V limit.
    #[error("word 3: id bound {bound} is out of range (1 to {max})")]
    Bound {
        /// The bound.
        bound: u32,
        /// The largest bound accepted.
        max: u32,
    },
    /// Word 4 (reserved, the "schema") is not 0.
    #[error("word 4: reserved header word is {found:#x}, expected 0")]
    Reserved {
        /// The word.
        found: u32,
    },
    /// No `OpMemoryModel` in the whole module.
    #[error("the module ({words} words) has no OpMemoryModel")]
    NoMemoryModel {
        /// The module's size.
        words: usize,
    },
    /// An instruction whose word count is 0.
    #[error("{at}: word count is 0")]
    WordCountZero {
        /// The instruction.
        at: At,
    },
    /// An instruction running past the end of the module.
    #[error(
        "{at}: instruction of {count} words runs past the end of the module ({left} word(s) left)"
    )]
    Truncated {
        /// The instruction.
        at: At,
        /// Its word count.
        count: usize,
        /// Words left from its first word to the end.
        left: usize,
    },
    /// An opcode the grammar does not know.
    #[error("{at}: unknown opcode {opcode}")]
    UnknownOpcode {
        /// The instruction.
        at: At,
        /// The opcode.
        opcode: u16,
    },
    /// The instruction ends before a required operand.
    #[error("{at}: missing operand '{operand}' ({kind})")]
    MissingOperand {
        /// The instruction.
        at: At,
        /// The operand's name in the grammar (or its kind).
        operand: String,
        /// Its operand kind.
        kind: &'static str,
    },
    /// Words left over after every operand the grammar allows.
    #[error("{at}: {extra} word(s) left after the last operand")]
    TrailingWords {
        /// The instruction.
        at: At,
        /// How many.
        extra: usize,
    },
    /// A literal string without its terminating NUL.
    #[error("{at}: literal string is not terminated within the instruction")]
    UnterminatedString {
        /// The instruction.
        at: At,
    },
    /// A literal string that is not UTF-8.
    #[error("{at}: literal string is not valid UTF-8")]
    BadString {
        /// The instruction.
        at: At,
    },
    /// An enum operand with a value (or bits) its kind does not define.
    #[error("{at}: {value:#x} is not a {kind} value")]
    UnknownEnumerant {
        /// The instruction.
        at: At,
        /// The operand kind.
        kind: &'static str,
        /// The value (unknown bits only, for bit enums).
        value: u32,
    },
    /// An id of 0 or not below the header's bound.
    #[error("{at}: id {id} is out of range (the bound is {bound})")]
    IdOutOfBound {
        /// The instruction.
        at: At,
        /// The id.
        id: u32,
        /// The header's bound.
        bound: u32,
    },
    /// A result id defined twice.
    #[error("{at}: %{id} is already defined")]
    Redefined {
        /// The instruction.
        at: At,
        /// The id.
        id: u32,
    },
    /// A use of an id that nothing defines.
    #[error("{at}: %{id} is never defined")]
    Undefined {
        /// The instruction using it.
        at: At,
        /// The id.
        id: u32,
    },
    /// An id used where something else (a type, a constant, a function...)
    /// is required.
    #[error("{at}: %{id} is not {expected}")]
    WrongId {
        /// The instruction.
        at: At,
        /// The id.
        id: u32,
        /// What it must be (`a type defined before this instruction`).
        expected: &'static str,
    },
    /// An instruction in a section where it may not be (the logical layout).
    #[error("{at}: {reason}")]
    Layout {
        /// The instruction.
        at: At,
        /// What is out of place.
        reason: String,
    },
    /// A function without `OpFunctionEnd` before the end of the module.
    #[error("{at}: function %{function} has no OpFunctionEnd")]
    MissingFunctionEnd {
        /// The `OpFunction`.
        at: At,
        /// The function's id.
        function: u32,
    },
    /// Fewer `OpFunctionParameter`s than the function type has inputs.
    #[error("{at}: function %{function} has {found} OpFunctionParameter(s), its type has {expected} input(s)")]
    MissingFunctionParameter {
        /// The instruction after the last parameter.
        at: At,
        /// The function's id.
        function: u32,
        /// Inputs of the function type.
        expected: usize,
        /// Parameters found.
        found: usize,
    },
    /// An instruction in a function body outside any block.
    #[error("{at}: instruction outside a block in function %{function} (missing OpLabel)")]
    MissingLabel {
        /// The instruction.
        at: At,
        /// The function's id.
        function: u32,
    },
    /// A block whose control flow the region form cannot express.
    #[error("{at}: block %{block} cannot be structured: {reason}")]
    Unstructurable {
        /// The block's `OpLabel`.
        at: At,
        /// The block's label id.
        block: u32,
        /// Why.
        reason: String,
    },
    /// A well-formed instruction the IR cannot represent.
    #[error("{at}: unsupported: {what}")]
    Unsupported {
        /// The instruction.
        at: At,
        /// What is not supported.
        what: String,
    },
    /// A well-formed instruction with operands that make no sense.
    #[error("{at}: {reason}")]
    Invalid {
        /// The instruction.
        at: At,
        /// What is wrong.
        reason: String,
    },
}

impl DeserializeError {
    /// The instruction the error is about, when it is about one.
    pub fn at(&self) -> Option<At> {
        use DeserializeError::*;
        match self {
            Empty
            | ShortHeader { .. }
            | BadMagic { .. }
            | Version { .. }
            | Bound { .. }
            | Reserved { .. }
            | NoMemoryModel { .. } => None,
            WordCountZero { at }
            | Truncated { at, .. }
            | UnknownOpcode { at, .. }
            | MissingOperand { at, .. }
            | TrailingWords { at, .. }
            | UnterminatedString { at }
            | BadString { at }
            | UnknownEnumerant { at, .. }
            | IdOutOfBound { at, .. }
            | Redefined { at, .. }
            | Undefined { at, .. }
            | WrongId { at, .. }
            | Layout { at, .. }
            | MissingFunctionEnd { at, .. }
            | MissingFunctionParameter { at, .. }
            | MissingLabel { at, .. }
            | Unstructurable { at, .. }
            | Unsupported { at, .. }
            | Invalid { at, .. } => Some(*at),
        }
    }
}
