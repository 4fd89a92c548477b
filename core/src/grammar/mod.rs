//! The SPIR-V grammar as static tables.
//!
//! Everything here but [`promotions`] is generated from the machine-readable
//! grammar vendored in `xtask/grammar/` (`spirv.core.grammar.json`, SPIR-V
//! 1.6 revision 4, and `extinst.glsl.std.450.grammar.json`) by
//! `cargo run -p xtask -- gen-grammar`; the generated half lives in
//! `generated/` and must not be edited by hand.
//! `cargo run -p xtask -- gen-grammar --check` fails when it is stale.
//!
//! * Instructions: [`core_instructions`], [`core_inst`], [`core_inst_by_name`]
//!   (opnames without the `Op` prefix: `"IAdd"`).
//! * `GLSL.std.450` extended instructions: [`glsl_instructions`],
//!   [`glsl_inst`], [`glsl_inst_by_name`].
//! * Typed `#[repr(u16)]` instruction enums: [`Opcode`] (every core
//!   instruction) and [`GlslOp`] (every `GLSL.std.450` one), so code that
//!   emits an instruction names it at compile time, not by a string.
//! * Operand kinds: [`OperandKind`] (every kind of the grammar) with its
//!   enumerants ([`OperandKind::enumerants`], [`enumerant`],
//!   [`enumerant_by_name`]); bit enums print and parse MLIR-style with
//!   [`format_bits`] / [`parse_bits`].
//! * Typed `#[repr(u32)]` enums for the value enums the IR uses most:
//!   [`Capability`], [`StorageClass`], [`Decoration`], [`BuiltIn`],
//!   [`ExecutionModel`], [`ExecutionMode`], [`AddressingModel`],
//!   [`MemoryModel`], [`Scope`], [`Dim`], [`ImageFormat`], [`GroupOperation`];
//!   plus [`Extension`], every extension the core grammar names.
//!
//! * [`promotions`]: the extensions folded into each core version, the one
//!   hand-written table here. It comes from the specification's change log,
//!   which the machine-readable grammar does not carry; a test checks it
//!   against the grammar's availability.
//!
//! Availability ([`Availability`]) is reported exactly as the grammar states
//! it; deciding whether something is usable in a given target environment is
//! the caller's business.
//!
//! Enumerant tables are sorted by value and instruction tables by opcode, so
//! every lookup here is a binary search over static data; name lookups go
//! through generated name-sorted indexes that include the grammar's aliases.

use std::fmt;

/// Implements the shared API of a generated typed value enum (`name`,
/// `from_name`, `from_u32`, `all`, `desc`, `availability`, `Display`).
///
/// The generated enum must be named like its [`OperandKind`] variant, list its
/// variants in the order of that kind's enumerant table (ascending value) and
/// provide `const ALL: &'static [Self]` in that same order.
macro_rules! value_enum_impl {
    ($ty:ident) => {
        impl $ty {
            /// The operand kind this enum mirrors.
            pub const KIND: $crate::grammar::OperandKind = $crate::grammar::OperandKind::$ty;

            /// Every variant, in ascending value order.
            pub fn all() -> &'static [$ty] {
                Self::ALL
            }

            /// The grammar's description of this enumerant (parameters,
            /// availability, aliases).
            pub fn desc(self) -> &'static $crate::grammar::EnumerantDesc {
                $crate::grammar::enumerant(Self::KIND, self as u32)
                    .expect("generated typed enum matches its enumerant table")
            }

            /// The enumerant's canonical grammar name (`"StorageBuffer"`).
            pub fn name(self) -> &'static str {
                self.desc().name
            }

            /// Looks an enumerant up by its grammar name or one of its aliases.
            pub fn from_name(name: &str) -> Option<$ty> {
                $crate::grammar::enumerant_index_by_name(Self::KIND, name).map(|i| Self::ALL[i])
            }

            /// Converts a raw grammar value; `None` if no enumerant has it.
            pub fn from_u32(value: u32) -> Option<$ty> {
                Self::KIND
                    .enumerants()
                    .binary_search_by_key(&value, |e| e.value)
                    .ok()
                    .map(|i| Self::ALL[i])
            }

            /// The enumerant's availability as the grammar states it.
            pub fn availability(self) -> &'static $crate::grammar::Availability {
                &self.desc().availability
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

mod generated;
pub mod promotions;

pub use generated::enums::{
    AddressingModel, BuiltIn, Capability, Decoration, Dim, ExecutionMode, ExecutionModel,
    Extension, GroupOperation, ImageFormat, MemoryModel, Scope, StorageClass,
};
pub use generated::glsl::GlslOp;
pub use generated::instructions::Opcode;
pub use generated::operand_kinds::OperandKind;
pub use generated::{GLSL_STD_450_REVISION, GRAMMAR_REVISION, GRAMMAR_VERSION};

/// A SPIR-V version, ordered.
///
/// [`Version::NONE`] (`255.255`) is the sentinel for "in no core version"
/// (the grammar's `"version": "None"`): it compares greater than every real
/// version, so `availability.min_version <= target` is false for it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Version {
    /// Major version number.
    pub major: u8,
    /// Minor version number.
    pub minor: u8,
}

impl Version {
    /// SPIR-V 1.0.
    pub const V1_0: Version = Version::new(1, 0);
    /// SPIR-V 1.1.
    pub const V1_1: Version = Version::new(1, 1);
    /// SPIR-V 1.2.
    pub const V1_2: Version = Version::new(1, 2);
    /// SPIR-V 1.3.
    pub const V1_3: Version = Version::new(1, 3);
    /// SPIR-V 1.4.
    pub const V1_4: Version = Version::new(1, 4);
    /// SPIR-V 1.5.
    pub const V1_5: Version = Version::new(1, 5);
    /// SPIR-V 1.6.
    pub const V1_6: Version = Version::new(1, 6);
    /// Sentinel for "not in any core version" (extension-only).
    pub const NONE: Version = Version::new(255, 255);

    /// A version from its parts.
    pub const fn new(major: u8, minor: u8) -> Version {
        Version { major, minor }
    }

    /// Parses `"v1.3"` or `"1.3"`; `None` for anything else.
    pub fn parse(s: &str) -> Option<Version> {
        let s = s.strip_prefix('v').unwrap_or(s);
        let (major, minor) = s.split_once('.')?;
        let num = |part: &str| -> Option<u8> {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            part.parse().ok()
        };
        Some(Version::new(num(major)?, num(minor)?))
    }

    /// The version word of a SPIR-V module header (`0x00MMmm00`).
    pub const fn word(self) -> u32 {
        ((self.major as u32) << 16) | ((self.minor as u32) << 8)
    }

    /// Decodes a SPIR-V module header version word.
    pub const fn from_word(word: u32) -> Version {
        Version::new((word >> 16) as u8, (word >> 8) as u8)
    }
}

impl fmt::Display for Version {
    /// Prints `v1.3` (and `none` for [`Version::NONE`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Version::NONE {
            f.write_str("none")
        } else {
            write!(f, "v{}.{}", self.major, self.minor)
        }
    }
}

/// How many times an operand may occur.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// Zero or one time (grammar `"?"`).
    Optional,
    /// Zero or more times (grammar `"*"`).
    Variadic,
}

/// The grammar category of an [`OperandKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandCategory {
    /// An `<id>` (`IdRef`, `IdResult`, `IdScope`, ...).
    Id,
    /// A literal (`LiteralInteger`, `LiteralString`, ...).
    Literal,
    /// An enumeration whose operand holds exactly one enumerant.
    ValueEnum,
    /// A bit mask of enumerants.
    BitEnum,
    /// A tuple of other kinds (see [`OperandKind::bases`]).
    Composite,
}

/// One operand of an instruction or of an enumerant's parameter list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperandDesc {
    /// The operand's kind.
    pub kind: OperandKind,
    /// How many times it occurs.
    pub quantifier: Quantifier,
    /// The grammar's name for it with quotes stripped (`"Memory Access"`);
    /// `""` when the grammar gives none.
    pub name: &'static str,
}

/// Availability of an instruction or enumerant as the grammar states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Availability {
    /// First core version (grammar `"version"`, default 1.0);
    /// [`Version::NONE`] when it is in no core version.
    pub min_version: Version,
    /// Last core version (grammar `"lastVersion"`), if any.
    pub last_version: Option<Version>,
    /// Enabling capabilities; any one of them suffices. Empty: none needed.
    pub capabilities: &'static [Capability],
    /// Enabling extensions; any one of them suffices (outside the core
    /// versions in which it is available).
    pub extensions: &'static [Extension],
    /// The grammar marks it `"provisional"`.
    pub provisional: bool,
}

impl Availability {
    /// Whether the grammar puts this in core `version`
    /// (`min_version <= version <= last_version`), ignoring capabilities.
    pub fn in_version(&self, version: Version) -> bool {
        self.min_version <= version && self.last_version.is_none_or(|last| version <= last)
    }
}

/// A core SPIR-V instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstDesc {
    /// Name without the `Op` prefix (`"IAdd"`).
    pub opname: &'static str,
    /// The opcode number (`op as u16`).
    pub opcode: u16,
    /// The instruction, typed: compare and match on this, not on `opname`.
    pub op: Opcode,
    /// The grammar's instruction class (`"Arithmetic"`).
    pub class: &'static str,
    /// Other names of the instruction, without `Op` (`"SDotKHR"` for `SDot`).
    pub aliases: &'static [&'static str],
    /// The operands in order, including the `IdResultType` / `IdResult`
    /// entries as the grammar lists them.
    pub operands: &'static [OperandDesc],
    /// Availability.
    pub availability: Availability,
}

impl InstDesc {
    /// Whether the instruction defines a result `<id>`.
    pub fn has_result(&self) -> bool {
        self.operands
            .iter()
            .take(2)
            .any(|o| o.kind == OperandKind::IdResult)
    }

    /// Whether the instruction has a result type operand.
    pub fn has_result_type(&self) -> bool {
        self.operands
            .first()
            .is_some_and(|o| o.kind == OperandKind::IdResultType)
    }
}

/// One enumerant of a value or bit enum operand kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnumerantDesc {
    /// Canonical name (`"StorageBuffer16BitAccess"`).
    pub name: &'static str,
    /// The value (a single bit for bit enums, `0` for their `None`).
    pub value: u32,
    /// Other names with the same value (`"StorageUniformBufferBlock16"`).
    pub aliases: &'static [&'static str],
    /// Operands that follow when this enumerant is used
    /// (`Aligned` → one `LiteralInteger`).
    pub parameters: &'static [OperandDesc],
    /// Availability. For [`Capability`] enumerants, `capabilities` lists the
    /// capabilities it implicitly declares (see [`Capability::implies`]).
    pub availability: Availability,
}

/// A `GLSL.std.450` extended instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtInstDesc {
    /// Name (`"Sqrt"`).
    pub opname: &'static str,
    /// The extended-instruction number.
    pub opcode: u16,
    /// The operands after `OpExtInst`'s result type, result id, set and
    /// instruction number.
    pub operands: &'static [OperandDesc],
    /// Required capabilities (any of); usually empty.
    pub capabilities: &'static [Capability],
}

/// Per-kind data of the generated tables, indexed by `OperandKind as usize`.
#[derive(Debug)]
pub(crate) struct KindInfo {
    name: &'static str,
    category: OperandCategory,
    /// Sorted by value.
    enumerants: &'static [EnumerantDesc],
    /// `(name or alias, index into enumerants)`, sorted by name.
    names: &'static [(&'static str, u16)],
    bases: &'static [OperandKind],
}

impl OperandKind {
    fn info(self) -> &'static KindInfo {
        &generated::operand_kinds::KINDS[self as usize]
    }

    /// The grammar's name of the kind (`"StorageClass"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks a kind up by its grammar name.
    pub fn from_name(name: &str) -> Option<OperandKind> {
        let names = generated::operand_kinds::KIND_NAMES;
        let i = names.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        Some(names[i].1)
    }

    /// The kind's category.
    pub fn category(self) -> OperandCategory {
        self.info().category
    }

    /// The enumerants of a value or bit enum, sorted by value; empty for the
    /// other categories.
    pub fn enumerants(self) -> &'static [EnumerantDesc] {
        self.info().enumerants
    }

    /// The component kinds of a [`OperandCategory::Composite`] kind
    /// (`PairIdRefLiteralInteger` → `[IdRef, LiteralInteger]`); empty otherwise.
    pub fn bases(self) -> &'static [OperandKind] {
        self.info().bases
    }

    /// Every operand kind, in grammar order.
    pub fn all() -> &'static [OperandKind] {
        OperandKind::ALL
    }
}

impl fmt::Display for OperandKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Capability {
    /// The capabilities this one implicitly declares (the grammar's
    /// `"capabilities"` of the enumerant): `Shader` → `[Matrix]`. Not transitive.
    pub fn implies(self) -> &'static [Capability] {
        self.availability().capabilities
    }
}

impl Extension {
    /// The extension's name (`"SPV_KHR_16bit_storage"`).
    pub fn name(self) -> &'static str {
        Extension::NAMES[self as usize]
    }

    /// Looks an extension up by its exact name.
    pub fn from_name(name: &str) -> Option<Extension> {
        let i = Extension::NAMES.binary_search(&name).ok()?;
        Some(Extension::ALL[i])
    }

    /// Every extension named in the core grammar, sorted by name.
    pub fn all() -> &'static [Extension] {
        Extension::ALL
    }
}

impl fmt::Display for Extension {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every core instruction, sorted by opcode.
pub fn core_instructions() -> &'static [InstDesc] {
    generated::instructions::INSTRUCTIONS
}

/// The core instruction with `opcode`.
pub fn core_inst(opcode: u16) -> Option<&'static InstDesc> {
    let table = core_instructions();
    let i = table.binary_search_by_key(&opcode, |d| d.opcode).ok()?;
    Some(&table[i])
}

/// The core instruction named `opname` (without `Op`: `"IAdd"`), or one of
/// its aliases (`"SDotKHR"`).
pub fn core_inst_by_name(opname: &str) -> Option<&'static InstDesc> {
    let names = generated::instructions::INSTRUCTION_NAMES;
    let i = names.binary_search_by(|(n, _)| (*n).cmp(opname)).ok()?;
    Some(&core_instructions()[usize::from(names[i].1)])
}

impl Opcode {
    /// The opcode number.
    pub const fn opcode(self) -> u16 {
        self as u16
    }

    /// The grammar's description of this instruction.
    pub fn desc(self) -> &'static InstDesc {
        core_inst(self as u16).expect("generated opcode enum matches its instruction table")
    }

    /// The instruction's canonical name without `Op` (`"IAdd"`).
    pub fn name(self) -> &'static str {
        self.desc().opname
    }

    /// Whether the instruction declares a type: its name starts with
    /// `Type` (`OpTypeInt`, `OpTypeForwardPointer`: the grammar's
    /// `Type-Declaration` class, and vendor types it classes elsewhere,
    /// `OpTypeAvc*INTEL`, `OpTypeNodePayloadArrayAMDX`).
    pub fn declares_type(self) -> bool {
        self.name().starts_with("Type")
    }

    /// Whether the instruction creates a constant or a specialization
    /// constant: its name starts with `Constant` or `SpecConstant`
    /// (`OpConstant`, `OpSpecConstantOp`: the grammar's `Constant-Creation`
    /// class, and `OpConstantPipeStorage`, `OpConstantStringAMDX`, ...).
    pub fn creates_constant(self) -> bool {
        let name = self.name();
        name.starts_with("Constant") || name.starts_with("SpecConstant")
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl GlslOp {
    /// The instruction's number in `GLSL.std.450`.
    pub const fn opcode(self) -> u16 {
        self as u16
    }

    /// The grammar's description of this instruction.
    pub fn desc(self) -> &'static ExtInstDesc {
        glsl_inst(self as u16).expect("generated GLSL.std.450 enum matches its table")
    }

    /// The instruction's name (`"Sqrt"`).
    pub fn name(self) -> &'static str {
        self.desc().opname
    }
}

impl fmt::Display for GlslOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every `GLSL.std.450` extended instruction, sorted by number.
pub fn glsl_instructions() -> &'static [ExtInstDesc] {
    generated::glsl::GLSL_INSTRUCTIONS
}

/// The `GLSL.std.450` instruction with number `opcode`.
pub fn glsl_inst(opcode: u16) -> Option<&'static ExtInstDesc> {
    let table = glsl_instructions();
    let i = table.binary_search_by_key(&opcode, |d| d.opcode).ok()?;
    Some(&table[i])
}

/// The `GLSL.std.450` instruction named `opname` (`"Sqrt"`).
pub fn glsl_inst_by_name(opname: &str) -> Option<&'static ExtInstDesc> {
    let names = generated::glsl::GLSL_INSTRUCTION_NAMES;
    let i = names.binary_search_by(|(n, _)| (*n).cmp(opname)).ok()?;
    Some(&glsl_instructions()[usize::from(names[i].1)])
}

/// The enumerant of `kind` with `value` (the canonical one when several
/// names share it); `None` for unknown values and non-enum kinds.
pub fn enumerant(kind: OperandKind, value: u32) -> Option<&'static EnumerantDesc> {
    let table = kind.enumerants();
    let i = table.binary_search_by_key(&value, |e| e.value).ok()?;
    Some(&table[i])
}

/// The enumerant of `kind` named `name`; aliases resolve to their canonical
/// enumerant (`"StorageUniformBufferBlock16"` → `StorageBuffer16BitAccess`).
pub fn enumerant_by_name(kind: OperandKind, name: &str) -> Option<&'static EnumerantDesc> {
    enumerant_index_by_name(kind, name).map(|i| &kind.enumerants()[i])
}

/// Index into `kind.enumerants()` of the enumerant named `name` (or aliased).
fn enumerant_index_by_name(kind: OperandKind, name: &str) -> Option<usize> {
    let names = kind.info().names;
    let i = names.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    Some(usize::from(names[i].1))
}

/// Formats `bits` of a bit-enum `kind` MLIR-style: set flags by canonical
/// name in ascending bit order joined by `|` (`"Volatile|Aligned"`), `"None"`
/// for 0, and bits the grammar does not know as one trailing hex literal
/// (`"Volatile|0x80000000"`).
///
/// For a value-enum kind this prints the single enumerant's name (or the
/// decimal value when unknown); for other kinds, the decimal value.
pub fn format_bits(kind: OperandKind, bits: u32) -> String {
    if kind.category() != OperandCategory::BitEnum {
        return match enumerant(kind, bits) {
            Some(e) => e.name.to_owned(),
            None => bits.to_string(),
        };
    }
    if bits == 0 {
        return "None".to_owned();
    }
    let mut out = String::new();
    let mut rest = bits;
    for e in kind.enumerants() {
        if e.value != 0 && rest & e.value == e.value {
            if !out.is_empty() {
                out.push('|');
            }
            out.push_str(e.name);
            rest &= !e.value;
        }
    }
    if rest != 0 {
        if !out.is_empty() {
            out.push('|');
        }
        out.push_str(&format!("{rest:#x}"));
    }
    out
}

/// Parses what [`format_bits`] prints: `|`-separated enumerant names or
/// aliases of a bit-enum `kind` (whitespace around names allowed; `"None"`
/// is 0 for every bit enum) and hex literals (`0x10`). `None` on an unknown name, an empty
/// string or an empty item.
///
/// For a value-enum kind it parses a single enumerant name.
pub fn parse_bits(kind: OperandKind, s: &str) -> Option<u32> {
    if kind.category() != OperandCategory::BitEnum {
        return enumerant_by_name(kind, s.trim()).map(|e| e.value);
    }
    let mut bits = 0;
    for item in s.split('|') {
        let item = item.trim();
        bits |= match item.strip_prefix("0x").or_else(|| item.strip_prefix("0X")) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => match enumerant_by_name(kind, item) {
                Some(e) => e.value,
                // `format_bits` prints 0 as `None` even for kinds whose zero
                // enumerant has another name (`NoneKHR`) or that have none.
                None if item == "None" => 0,
                None => return None,
            },
        };
    }
    Some(bits)
}

/// Constructors the generated tables use to stay compact. Private to the
/// grammar module.
mod build {
    use super::{
        Availability, EnumerantDesc, ExtInstDesc, InstDesc, KindInfo, Opcode, OperandCategory,
        OperandDesc, OperandKind, Quantifier, Version,
    };

    pub(crate) use super::{Capability as C, Extension as E, OperandKind as K};

    pub(crate) const V1_0: Version = Version::V1_0;
    pub(crate) const V1_1: Version = Version::V1_1;
    pub(crate) const V1_2: Version = Version::V1_2;
    pub(crate) const V1_3: Version = Version::V1_3;
    pub(crate) const V1_4: Version = Version::V1_4;
    pub(crate) const V1_5: Version = Version::V1_5;
    pub(crate) const V1_6: Version = Version::V1_6;
    pub(crate) const NONE: Version = Version::NONE;

    /// An operand that occurs exactly once.
    pub(crate) const fn one(kind: OperandKind, name: &'static str) -> OperandDesc {
        OperandDesc {
            kind,
            quantifier: Quantifier::One,
            name,
        }
    }

    /// An optional (`?`) operand.
    pub(crate) const fn opt(kind: OperandKind, name: &'static str) -> OperandDesc {
        OperandDesc {
            kind,
            quantifier: Quantifier::Optional,
            name,
        }
    }

    /// A variadic (`*`) operand.
    pub(crate) const fn many(kind: OperandKind, name: &'static str) -> OperandDesc {
        OperandDesc {
            kind,
            quantifier: Quantifier::Variadic,
            name,
        }
    }

    /// Availability from `min_version` on, with no other conditions.
    pub(crate) const fn av(min_version: Version) -> Availability {
        Availability {
            min_version,
            last_version: None,
            capabilities: &[],
            extensions: &[],
            provisional: false,
        }
    }

    impl Availability {
        pub(in crate::grammar) const fn last(self, last: Version) -> Availability {
            Availability {
                last_version: Some(last),
                ..self
            }
        }

        pub(in crate::grammar) const fn caps(self, caps: &'static [C]) -> Availability {
            Availability {
                capabilities: caps,
                ..self
            }
        }

        pub(in crate::grammar) const fn exts(self, exts: &'static [E]) -> Availability {
            Availability {
                extensions: exts,
                ..self
            }
        }

        pub(in crate::grammar) const fn provisional(self) -> Availability {
            Availability {
                provisional: true,
                ..self
            }
        }
    }

    /// A core instruction row.
    pub(crate) const fn inst(
        op: Opcode,
        opname: &'static str,
        class: &'static str,
        aliases: &'static [&'static str],
        operands: &'static [OperandDesc],
        availability: Availability,
    ) -> InstDesc {
        InstDesc {
            opname,
            opcode: op as u16,
            op,
            class,
            aliases,
            operands,
            availability,
        }
    }

    /// An enumerant row.
    pub(crate) const fn enm(
        name: &'static str,
        value: u32,
        aliases: &'static [&'static str],
        parameters: &'static [OperandDesc],
        availability: Availability,
    ) -> EnumerantDesc {
        EnumerantDesc {
            name,
            value,
            aliases,
            parameters,
            availability,
        }
    }

    /// A `GLSL.std.450` instruction row.
    pub(crate) const fn glsl(
        opcode: u16,
        opname: &'static str,
        operands: &'static [OperandDesc],
        capabilities: &'static [C],
    ) -> ExtInstDesc {
        ExtInstDesc {
            opname,
            opcode,
            operands,
            capabilities,
        }
    }

    /// An operand-kind row.
    pub(crate) const fn kind(
        name: &'static str,
        category: OperandCategory,
        enumerants: &'static [EnumerantDesc],
        names: &'static [(&'static str, u16)],
        bases: &'static [OperandKind],
    ) -> KindInfo {
        KindInfo {
            name,
            category,
            enumerants,
            names,
            bases,
        }
    }
}
