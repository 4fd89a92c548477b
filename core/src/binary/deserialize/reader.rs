//! The decoder: words -> header + instructions with typed operands.
//!
//! This is the one place that reads raw SPIR-V words. It checks
//!
//! * the header: magic number (a byte-swapped module is swapped back),
//!   version 1.0 up to the grammar's, an id bound between 1 and the SPIR-V
//!   universal limit (4,194,304), the reserved word 0;
//! * every instruction: a non-zero word count, no running past the end of
//!   the module, an opcode the grammar knows, operands that fit their kinds
//!   exactly (required operands present, no words left over, strings
//!   terminated and UTF-8, enumerants known, with their parameters), ids
//!   non-zero and below the bound. The width of `OpConstant` /
//!   `OpSpecConstant` literals and of `OpSwitch` case literals comes from
//!   the (scalar) type of the result or selector, tracked as instructions
//!   go by; `OpSpecConstantOp` names one of the opcodes the specification
//!   allows and its operands are decoded with that opcode's grammar.
//!
//! Operands are decoded generically from the grammar tables
//! ([`crate::grammar`]): the reader never knows what an instruction means.
//! It never panics and never allocates in proportion to the header's bound
//! (only to the module's size), so it is safe on any input; [`check_words`]
//! runs it over a whole module for tools that hand the words to another
//! decoder afterwards.

use super::error::{At, DeserializeError};
use crate::binary::serialize::tables::FxHashMap;
use crate::binary::words::MAGIC;
use crate::grammar::{self, InstDesc, Opcode, OperandCategory, OperandKind, Quantifier, Version};

/// Result of the reader's steps.
pub(super) type Result<T, E = DeserializeError> = std::result::Result<T, E>;

/// The largest id bound accepted: SPIR-V's universal limit on result ids
/// is 4,194,303.
pub const MAX_BOUND: u32 = 0x40_0000;

/// The five header words, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Header {
    /// The SPIR-V version.
    pub version: Version,
    /// The generator word.
    pub generator: u32,
    /// The id bound.
    pub bound: u32,
}

/// One decoded operand value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Val {
    /// An `<id>`.
    Id(u32),
    /// A one-word literal or enum value.
    Word(u32),
    /// A two-word literal (low word first in the binary).
    Wide(u64),
    /// A literal string.
    Str(String),
}

/// One operand: which grammar operand it belongs to and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Operand {
    /// Index of the grammar operand (in [`InstDesc::operands`]) it belongs
    /// to; for `OpSpecConstantOp`, operands of the wrapped instruction have
    /// `slot >= desc.operands.len()`.
    pub slot: u16,
    /// Its kind (for an enumerant's parameter, the parameter's kind).
    pub kind: OperandKind,
    /// Whether it is a parameter of the enum operand decoded before it.
    pub param: bool,
    /// The value.
    pub val: Val,
}

/// One instruction with its operands decoded.
#[derive(Clone, Debug)]
pub(super) struct Inst {
    /// Word offset and opcode.
    pub at: At,
    /// The grammar entry.
    pub desc: &'static InstDesc,
    /// `IdResultType`, when the instruction has one.
    pub result_type: Option<u32>,
    /// `IdResult`, when the instruction has one.
    pub result: Option<u32>,
    /// The other operands, in binary order (composites flattened, enum
    /// parameters right after their enum).
    pub operands: Vec<Operand>,
}

impl Inst {
    /// The opcode.
    pub fn opcode(&self) -> u16 {
        self.at.opcode
    }

    /// The ids among the operands from the `start`-th on.
    pub fn ids_from(&self, start: usize) -> impl Iterator<Item = u32> + '_ {
        self.operands
            .get(start..)
            .unwrap_or_default()
            .iter()
            .filter_map(|o| match o.val {
                Val::Id(id) => Some(id),
                _ => None,
            })
    }

    /// The `i`-th operand's id.
    pub fn id(&self, i: usize) -> Option<u32> {
        match self.operands.get(i)?.val {
            Val::Id(id) => Some(id),
            _ => None,
        }
    }

    /// The `i`-th operand's one-word value.
    pub fn word(&self, i: usize) -> Option<u32> {
        match self.operands.get(i)?.val {
            Val::Word(w) => Some(w),
            _ => None,
        }
    }

    /// The `i`-th operand's string.
    pub fn string(&self, i: usize) -> Option<&str> {
        match &self.operands.get(i)?.val {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Reads the header of `words` (which must already be in host order) and
/// returns it with a reader positioned at the first instruction.
pub(super) fn read_header(words: &[u32]) -> Result<(Header, Reader<'_>)> {
    if words.is_empty() {
        return Err(DeserializeError::Empty);
    }
    if words[0] != MAGIC {
        return Err(DeserializeError::BadMagic { found: words[0] });
    }
    if words.len() < 5 {
        return Err(DeserializeError::ShortHeader { words: words.len() });
    }
    let version_word = words[1];
    let version = Version::from_word(version_word);
    let valid_shape = version_word & 0xff00_00ff == 0;
    if !valid_shape || version < Version::V1_0 || version > grammar::GRAMMAR_VERSION {
        return Err(DeserializeError::Version {
            word: version_word,
            max: grammar::GRAMMAR_VERSION,
        });
    }
    let bound = words[3];
    if bound == 0 || bound > MAX_BOUND {
        return Err(DeserializeError::Bound {
            bound,
            max: MAX_BOUND,
        });
    }
    if words[4] != 0 {
        return Err(DeserializeError::Reserved { found: words[4] });
    }
    let header = Header {
        version,
        generator: words[2],
        bound,
    };
    Ok((
        header,
        Reader {
            words,
            pos: 5,
            bound,
            scalar_widths: FxHashMap::default(),
            value_types: FxHashMap::default(),
        },
    ))
}

/// Returns `words` in host order: as they are, or byte-swapped when the
/// module was written in the other byte order. `None` when the first word
/// is not the magic number either way (the header check reports it).
pub(super) fn host_order(words: &[u32]) -> Option<Vec<u32>> {
    match words.first() {
        Some(&w) if w == MAGIC.swap_bytes() && w != MAGIC => {
            Some(words.iter().map(|w| w.swap_bytes()).collect())
        }
        _ => None,
    }
}

/// Checks the header and every instruction of `words` (see the module
/// documentation) without building anything: after `Ok`, any decoder can
/// walk the instructions without running off the end, and every operand
/// fits its kind.
pub fn check_words(words: &[u32]) -> Result<()> {
    let swapped = host_order(words);
    let words = swapped.as_deref().unwrap_or(words);
    let (_, mut reader) = read_header(words)?;
    while let Some(inst) = reader.next_inst() {
        inst?;
    }
    Ok(())
}

/// The integer widths `words` declares with both signedness 0 and 1
/// (`OpTypeInt`), by a quick scan that skips anything malformed (the
/// decoder reports it).
pub(super) fn mixed_signedness(words: &[u32]) -> Vec<u32> {
    const TYPE_INT: u32 = 21;
    let mut signed: Vec<u32> = Vec::new();
    let mut unsigned: Vec<u32> = Vec::new();
    let mut pos = 5;
    while let Some(&first) = words.get(pos) {
        let count = (first >> 16) as usize;
        if count == 0 {
            break;
        }
        if first & 0xffff == TYPE_INT && count == 4 {
            if let (Some(&w), Some(&s)) = (words.get(pos + 2), words.get(pos + 3)) {
                let list = if s == 1 { &mut signed } else { &mut unsigned };
                if !list.contains(&w) {
                    list.push(w);
                }
            }
        }
        pos += count;
    }
    signed.retain(|w| unsigned.contains(w));
    signed
}

/// Walks the instructions after the header.
pub(super) struct Reader<'w> {
    words: &'w [u32],
    pos: usize,
    bound: u32,
    /// Bit width of every `OpTypeInt` / `OpTypeFloat` so far.
    scalar_widths: FxHashMap<u32, u32>,
    /// Result type of every instruction with one so far.
    value_types: FxHashMap<u32, u32>,
}

impl<'w> Reader<'w> {
    /// Decodes the next instruction; `None` at the end of the module.
    pub fn next_inst(&mut self) -> Option<Result<Inst>> {
        if self.pos >= self.words.len() {
            return None;
        }
        let offset = self.pos;
        let first = self.words[offset];
        let count = (first >> 16) as usize;
        let opcode = (first & 0xffff) as u16;
        let at = At { offset, opcode };
        if count == 0 {
            // Nothing after this can be found: stop here.
            self.pos = self.words.len();
            return Some(Err(DeserializeError::WordCountZero { at }));
        }
        let left = self.words.len() - offset;
        if count > left {
            self.pos = self.words.len();
            return Some(Err(DeserializeError::Truncated { at, count, left }));
        }
        self.pos = offset + count;
        let operand_words = &self.words[offset + 1..offset + count];
        Some(self.decode(at, operand_words))
    }

    fn decode(&mut self, at: At, words: &[u32]) -> Result<Inst> {
        let Some(desc) = grammar::core_inst(at.opcode) else {
            return Err(DeserializeError::UnknownOpcode {
                at,
                opcode: at.opcode,
            });
        };
        let mut d = Decoding {
            at,
            words,
            pos: 0,
            bound: self.bound,
            result_type: None,
            result: None,
            operands: Vec::with_capacity(words.len()),
            scalar_widths: &self.scalar_widths,
            value_types: &self.value_types,
        };
        d.operands_of(desc, 0)?;
        if d.pos < words.len() {
            return Err(DeserializeError::TrailingWords {
                at,
                extra: words.len() - d.pos,
            });
        }
        let inst = Inst {
            at,
            desc,
            result_type: d.result_type,
            result: d.result,
            operands: d.operands,
        };
        self.track(&inst);
        Ok(inst)
    }

    /// Records what later literals' widths depend on.
    fn track(&mut self, inst: &Inst) {
        let (Some(result), op) = (inst.result, inst.desc.op) else {
            return;
        };
        match op {
            Opcode::TypeInt | Opcode::TypeFloat => {
                if let Some(w) = inst.word(0) {
                    self.scalar_widths.insert(result, w);
                }
            }
            _ => {
                if let Some(ty) = inst.result_type {
                    self.value_types.insert(result, ty);
                }
            }
        }
    }
}

/// The state of decoding one instruction's operands.
struct Decoding<'a> {
    at: At,
    words: &'a [u32],
    pos: usize,
    bound: u32,
    result_type: Option<u32>,
    result: Option<u32>,
    operands: Vec<Operand>,
    scalar_widths: &'a FxHashMap<u32, u32>,
    value_types: &'a FxHashMap<u32, u32>,
}

/// Opcodes `OpSpecConstantOp` may wrap (SPIR-V 1.6, section 3.56.5, for
/// the Shader and Kernel capabilities).
const SPEC_CONSTANT_OPS: &[Opcode] = &[
    Opcode::SConvert,
    Opcode::UConvert,
    Opcode::FConvert,
    Opcode::SNegate,
    Opcode::Not,
    Opcode::IAdd,
    Opcode::ISub,
    Opcode::IMul,
    Opcode::UDiv,
    Opcode::SDiv,
    Opcode::UMod,
    Opcode::SRem,
    Opcode::SMod,
    Opcode::ShiftRightLogical,
    Opcode::ShiftRightArithmetic,
    Opcode::ShiftLeftLogical,
    Opcode::BitwiseOr,
    Opcode::BitwiseXor,
    Opcode::BitwiseAnd,
    Opcode::VectorShuffle,
    Opcode::CompositeExtract,
    Opcode::CompositeInsert,
    Opcode::LogicalOr,
    Opcode::LogicalAnd,
    Opcode::LogicalNot,
    Opcode::LogicalEqual,
    Opcode::LogicalNotEqual,
    Opcode::Select,
    Opcode::IEqual,
    Opcode::INotEqual,
    Opcode::ULessThan,
    Opcode::SLessThan,
    Opcode::UGreaterThan,
    Opcode::SGreaterThan,
    Opcode::ULessThanEqual,
    Opcode::SLessThanEqual,
    Opcode::UGreaterThanEqual,
    Opcode::SGreaterThanEqual,
    Opcode::QuantizeToF16,
    Opcode::ConvertFToS,
    Opcode::ConvertSToF,
    Opcode::ConvertFToU,
    Opcode::ConvertUToF,
    Opcode::ConvertPtrToU,
    Opcode::ConvertUToPtr,
    Opcode::GenericCastToPtr,
    Opcode::PtrCastToGeneric,
    Opcode::Bitcast,
    Opcode::FNegate,
    Opcode::FAdd,
    Opcode::FSub,
    Opcode::FMul,
    Opcode::FDiv,
    Opcode::FRem,
    Opcode::FMod,
    Opcode::AccessChain,
    Opcode::InBoundsAccessChain,
    Opcode::PtrAccessChain,
    Opcode::InBoundsPtrAccessChain,
];

impl Decoding<'_> {
    fn left(&self) -> usize {
        self.words.len() - self.pos
    }

    fn word(&mut self) -> u32 {
        let w = self.words[self.pos];
        self.pos += 1;
        w
    }

    fn push(&mut self, slot: usize, kind: OperandKind, param: bool, val: Val) {
        self.operands.push(Operand {
            slot: slot.min(usize::from(u16::MAX)) as u16,
            kind,
            param,
            val,
        });
    }

    /// Decodes the operands of `desc`; `slot_base` offsets the slots (for
    /// the instruction wrapped by `OpSpecConstantOp`).
    fn operands_of(&mut self, desc: &'static InstDesc, slot_base: usize) -> Result<()> {
        for (i, od) in desc.operands.iter().enumerate() {
            let slot = slot_base + i;
            if slot_base > 0 && matches!(od.kind, OperandKind::IdResultType | OperandKind::IdResult)
            {
                continue;
            }
            loop {
                if self.left() == 0 {
                    if od.quantifier == Quantifier::One {
                        return Err(DeserializeError::MissingOperand {
                            at: self.at,
                            operand: if od.name.is_empty() {
                                od.kind.name().to_string()
                            } else {
                                od.name.to_string()
                            },
                            kind: od.kind.name(),
                        });
                    }
                    break;
                }
                self.operand(od.kind, slot, false)?;
                if desc.op == Opcode::SpecConstantOp
                    && od.kind == OperandKind::LiteralSpecConstantOpInteger
                {
                    self.spec_constant_op(slot + 1)?;
                }
                if od.quantifier != Quantifier::Variadic {
                    break;
                }
            }
        }
        Ok(())
    }

    /// The operands of the instruction `OpSpecConstantOp` wraps.
    fn spec_constant_op(&mut self, slot_base: usize) -> Result<()> {
        let Some(Operand {
            val: Val::Word(opcode),
            ..
        }) = self.operands.last().cloned()
        else {
            return Ok(());
        };
        let inner = u16::try_from(opcode)
            .ok()
            .and_then(grammar::core_inst)
            .filter(|d| SPEC_CONSTANT_OPS.contains(&d.op));
        let Some(inner) = inner else {
            return Err(DeserializeError::Invalid {
                at: self.at,
                reason: format!("opcode {opcode} is not one OpSpecConstantOp may use"),
            });
        };
        self.operands_of(inner, slot_base)
    }

    fn check_id(&self, id: u32) -> Result<u32> {
        if id == 0 || id >= self.bound {
            return Err(DeserializeError::IdOutOfBound {
                at: self.at,
                id,
                bound: self.bound,
            });
        }
        Ok(id)
    }

    /// One operand of `kind` (and, for enums, its parameters).
    fn operand(&mut self, kind: OperandKind, slot: usize, param: bool) -> Result<()> {
        match kind.category() {
            OperandCategory::Id => {
                let id = self.word();
                let id = self.check_id(id)?;
                match kind {
                    OperandKind::IdResultType if !param => self.result_type = Some(id),
                    OperandKind::IdResult if !param => self.result = Some(id),
                    _ => self.push(slot, kind, param, Val::Id(id)),
                }
            }
            OperandCategory::Literal => match kind {
                OperandKind::LiteralString => {
                    let s = self.string()?;
                    self.push(slot, kind, param, Val::Str(s));
                }
                OperandKind::LiteralContextDependentNumber => {
                    let width = self
                        .result_type
                        .and_then(|t| self.scalar_widths.get(&t).copied());
                    let val = self.number(width, "result type")?;
                    self.push(slot, kind, param, val);
                }
                _ => {
                    let w = self.word();
                    self.push(slot, kind, param, Val::Word(w));
                }
            },
            OperandCategory::ValueEnum => {
                let value = self.word();
                let Some(e) = grammar::enumerant(kind, value) else {
                    return Err(DeserializeError::UnknownEnumerant {
                        at: self.at,
                        kind: kind.name(),
                        value,
                    });
                };
                self.push(slot, kind, param, Val::Word(value));
                self.parameters(e.parameters, slot)?;
            }
            OperandCategory::BitEnum => {
                let value = self.word();
                let known = kind.enumerants().iter().fold(0u32, |acc, e| acc | e.value);
                if value & !known != 0 {
                    return Err(DeserializeError::UnknownEnumerant {
                        at: self.at,
                        kind: kind.name(),
                        value: value & !known,
                    });
                }
                self.push(slot, kind, param, Val::Word(value));
                for e in kind.enumerants() {
                    if e.value != 0 && value & e.value == e.value {
                        self.parameters(e.parameters, slot)?;
                    }
                }
            }
            OperandCategory::Composite => {
                if kind == OperandKind::PairLiteralIntegerIdRef {
                    // OpSwitch: the literal is as wide as the selector.
                    let width = self
                        .operands
                        .first()
                        .and_then(|o| match o.val {
                            Val::Id(id) => self.value_types.get(&id),
                            _ => None,
                        })
                        .and_then(|t| self.scalar_widths.get(t).copied());
                    let val = self.number(width.or(Some(32)), "selector type")?;
                    self.push(slot, OperandKind::LiteralInteger, param, val);
                    if self.left() == 0 {
                        return Err(self.missing(OperandKind::IdRef));
                    }
                    let id = self.word();
                    let id = self.check_id(id)?;
                    self.push(slot, OperandKind::IdRef, param, Val::Id(id));
                    return Ok(());
                }
                for (i, &base) in kind.bases().iter().enumerate() {
                    if i > 0 && self.left() == 0 {
                        return Err(self.missing(base));
                    }
                    self.operand(base, slot, param)?;
                }
            }
        }
        Ok(())
    }

    fn missing(&self, kind: OperandKind) -> DeserializeError {
        DeserializeError::MissingOperand {
            at: self.at,
            operand: kind.name().to_string(),
            kind: kind.name(),
        }
    }

    /// The parameters of one enumerant.
    fn parameters(&mut self, params: &'static [grammar::OperandDesc], slot: usize) -> Result<()> {
        for p in params {
            loop {
                if self.left() == 0 {
                    if p.quantifier == Quantifier::One {
                        return Err(DeserializeError::MissingOperand {
                            at: self.at,
                            operand: if p.name.is_empty() {
                                p.kind.name().to_string()
                            } else {
                                p.name.to_string()
                            },
                            kind: p.kind.name(),
                        });
                    }
                    break;
                }
                self.operand(p.kind, slot, true)?;
                if p.quantifier != Quantifier::Variadic {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A literal number `width` bits wide (one word up to 32 bits, two up
    /// to 64); `what` names where the width comes from.
    fn number(&mut self, width: Option<u32>, what: &str) -> Result<Val> {
        let Some(width) = width else {
            return Err(DeserializeError::Invalid {
                at: self.at,
                reason: format!("the {what} is not a scalar integer or float type defined before"),
            });
        };
        match width {
            1..=32 => Ok(Val::Word(self.word())),
            33..=64 => {
                if self.left() < 1 {
                    return Err(self.missing(OperandKind::LiteralContextDependentNumber));
                }
                let lo = u64::from(self.word());
                if self.left() == 0 {
                    return Err(self.missing(OperandKind::LiteralContextDependentNumber));
                }
                let hi = u64::from(self.word());
                Ok(Val::Wide(lo | (hi << 32)))
            }
            _ => Err(DeserializeError::Unsupported {
                at: self.at,
                what: format!("{width}-bit literal numbers"),
            }),
        }
    }

    /// A NUL-terminated UTF-8 string packed into words.
    fn string(&mut self) -> Result<String> {
        let mut bytes = Vec::new();
        loop {
            if self.left() == 0 {
                return Err(DeserializeError::UnterminatedString { at: self.at });
            }
            let w = self.word();
            for b in w.to_le_bytes() {
                if b == 0 {
                    return String::from_utf8(bytes)
                        .map_err(|_| DeserializeError::BadString { at: self.at });
                }
                bytes.push(b);
            }
        }
    }
}
