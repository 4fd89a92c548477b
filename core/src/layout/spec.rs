//! Data layout specifications: MLIR's `#dlti.dl_spec<...>` attribute.
//!
//! A specification is an ordered list of entries
//! `#dlti.dl_entry<KEY, VALUE>`. The key is a type (`i32`, `f16`, `index`,
//! `!spirv.ptr<i8, StorageBuffer>`) or an identifier string
//! (`"dlti.endianness"`). Which entries are valid is what MLIR 19's verifier
//! accepts (`mlir::detail::verifyDataLayoutSpec` plus the DLTI dialect's
//! identifier checks), with the messages it prints:
//!
//! * integer and float keys take `dense<[abi, preferred]> : vector<2xi64>`
//!   or `dense<abi> : vector<1xi64>`: alignments in **bits**, preferred at
//!   least ABI;
//! * `index` takes an integer attribute: its bit width;
//! * `!spirv.ptr<T, SC>` keys take `dense<[size, abi, preferred(, index)]> :
//!   vector<3xi64>` (or 4 elements), in bits, like MLIR's `!llvm.ptr`
//!   entries; the key matters only through its storage class (the pointee is
//!   ignored, as the address space is for `!llvm.ptr`);
//! * other built-in types (`vector<...>`, `none`, function types) are
//!   rejected ("unexpected data layout for a built-in type"), and so are the
//!   other `!spirv.*` types ("data layout specified for a type that does not
//!   support it");
//! * identifiers of the `dlti` dialect are `dlti.endianness` (`"big"` or
//!   `"little"`), `dlti.alloca_memory_space`, `dlti.program_memory_space`,
//!   `dlti.global_memory_space` (any value) and `dlti.stack_alignment`;
//!   other `dlti.*` names are errors, identifiers of other dialects are kept
//!   unchecked (MLIR ignores identifiers of dialects it has not loaded);
//! * a key may appear once.
//!
//! Kiln is stricter than MLIR where MLIR's answer would be meaningless or
//! crash later: alignments must be a positive power-of-two number of bytes
//! (MLIR silently divides by 8, so `dense<[12]>` gives alignment 1 and
//! `dense<[0]>` alignment 0), the index width and pointer size must be
//! positive, and `dlti.stack_alignment` must be an integer.
//!
//! Entries keep their source order: integer interpolation (see
//! [`super`]) breaks ties between keys of the same width by it, as MLIR does.

use std::fmt::Write as _;

use crate::grammar::StorageClass;
use crate::ir::{
    AttrKind, AttrStore, DenseValues, FloatKind, Signedness, Type, TypeKind, TypeStore,
};
use crate::text::{self, Prefix};

/// The key of a specification entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EntryKey {
    /// A type: the entry applies to that type's class.
    Type(Type),
    /// An identifier (`"dlti.endianness"`).
    Id(String),
}

/// The value of a specification entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum EntryValue {
    /// `dense<...> : vector<NxiW>`: integer elements (a splat is expanded to
    /// the vector's length, at most [`MAX_SPLAT`] elements: no valid entry
    /// has more).
    Dense {
        /// The vector type of the attribute.
        ty: Type,
        /// The elements, in order.
        values: Vec<i128>,
    },
    /// `42 : i64`.
    Int {
        /// The value.
        value: i128,
        /// Its integer (or `index`) type.
        ty: Type,
    },
    /// `true` / `false`.
    Bool(bool),
    /// `"text"`.
    String(String),
    /// Any other attribute, kept as printed by kiln.
    Other(String),
}

/// One `#dlti.dl_entry<KEY, VALUE>`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecEntry {
    /// The key.
    pub key: EntryKey,
    /// The value.
    pub value: EntryValue,
}

/// A verified `#dlti.dl_spec<...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataLayoutSpec {
    entries: Vec<SpecEntry>,
    classified: Vec<Classified>,
}

/// Why a specification is invalid, or does not combine with an enclosing
/// one. Messages follow MLIR 19's where MLIR has one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The text is not a `#dlti.dl_spec<...>`.
    #[error("column {col}: {message}")]
    Syntax {
        /// 1-based column (character) in the specification text.
        col: usize,
        /// What was expected.
        message: String,
    },
    /// Two entries have the same key.
    #[error("repeated layout entry key: '{key}'")]
    RepeatedKey {
        /// The key as printed.
        key: String,
    },
    /// An integer or float entry whose value is not a dense i64 vector.
    #[error("expected a dense i64 elements attribute in the data layout entry {entry}")]
    NotDenseI64 {
        /// The entry as printed.
        entry: String,
    },
    /// An integer or float entry with a number of alignments other than 1 or 2.
    #[error("expected 1 or 2 elements in the data layout entry {entry}")]
    ElementCount {
        /// The entry as printed.
        entry: String,
    },
    /// Preferred alignment below the ABI alignment.
    #[error("preferred alignment is expected to be greater than or equal to the abi alignment in data layout entry {entry}")]
    PreferredBelowAbi {
        /// The entry as printed.
        entry: String,
    },
    /// An alignment that is not a positive power-of-two number of bytes
    /// (kiln is stricter than MLIR here).
    #[error("alignment of {bits} bits in data layout entry {entry} is not a positive power-of-two number of bytes")]
    BadAlignment {
        /// The entry as printed.
        entry: String,
        /// The offending value, in bits.
        bits: i128,
    },
    /// An `index` entry whose value is not an integer.
    #[error("expected integer attribute in the data layout entry for 'index'")]
    IndexNotInteger,
    /// An `index` entry with a width that is not a positive 32-bit number.
    #[error("index bit width {bits} in data layout entry {entry} must be positive")]
    BadIndexWidth {
        /// The entry as printed.
        entry: String,
        /// The width given.
        bits: i128,
    },
    /// An entry for a built-in type that has no configurable layout
    /// (vectors, `none`, function types).
    #[error("unexpected data layout for a built-in type: {entry}")]
    BuiltinType {
        /// The entry as printed.
        entry: String,
    },
    /// An entry for a `!spirv.*` type other than a pointer.
    #[error("data layout specified for a type that does not support it: {entry}")]
    UnsupportedType {
        /// The entry as printed.
        entry: String,
    },
    /// A pointer entry whose value is not a 3- or 4-element dense vector.
    #[error("expected layout attribute for {key} to be a dense integer elements attribute with 3 or 4 elements")]
    PointerValue {
        /// The key type as printed.
        key: String,
    },
    /// A pointer entry whose elements are not i64.
    #[error("expected i64 parameters for {key}")]
    PointerNotI64 {
        /// The key type as printed.
        key: String,
    },
    /// A pointer entry with preferred alignment below its ABI alignment.
    #[error("preferred alignment is expected to be at least as large as ABI alignment")]
    PointerPreferredBelowAbi,
    /// A pointer entry with a zero size or index width.
    #[error("pointer size and index width in data layout entry {entry} must be positive")]
    PointerSize {
        /// The entry as printed.
        entry: String,
    },
    /// Two pointer entries for the same storage class.
    #[error("repeated data layout entry for pointers in storage class {storage_class}")]
    RepeatedStorageClass {
        /// The storage class.
        storage_class: StorageClass,
    },
    /// A bad `dlti.endianness` value.
    #[error("'dlti.endianness' data layout entry is expected to be either 'big' or 'little'")]
    Endianness,
    /// A `dlti.*` identifier MLIR 19 does not define.
    #[error("unknown data layout entry name: {name}")]
    UnknownDltiEntry {
        /// The identifier.
        name: String,
    },
    /// A `dlti.stack_alignment` whose value is not an integer.
    #[error("'dlti.stack_alignment' data layout entry is expected to be an integer")]
    StackAlignment,
    /// A nested specification that is incompatible with an enclosing one.
    #[error("data layout does not combine with layouts of enclosing ops: {reason}")]
    Incompatible {
        /// Which entry and why.
        reason: String,
    },
}

/// An entry with its meaning decoded (bits for alignments and sizes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Classified {
    /// An integer key (`i32`, `ui8`, `si64`).
    Int {
        key: Type,
        width: u32,
        abi_bits: u64,
        pref_bits: u64,
    },
    /// A float key.
    Float {
        key: Type,
        kind: FloatKind,
        abi_bits: u64,
        pref_bits: u64,
    },
    /// `index`.
    Index { key: Type, bits: u32 },
    /// `!spirv.ptr<_, SC>`.
    Pointer {
        key: Type,
        storage_class: StorageClass,
        size_bits: u64,
        abi_bits: u64,
        pref_bits: u64,
        index_bits: u64,
    },
    /// An identifier.
    Id { name: String, value: EntryValue },
}

/// How many elements a splat `dense<v>` value expands to at most.
pub const MAX_SPLAT: usize = 8;

/// The `dlti` identifiers MLIR 19 accepts.
const DLTI_IDS: &[&str] = &[
    "dlti.endianness",
    "dlti.alloca_memory_space",
    "dlti.program_memory_space",
    "dlti.global_memory_space",
    "dlti.stack_alignment",
];

impl DataLayoutSpec {
    /// The empty specification `#dlti.dl_spec<>`.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Builds a specification from entries (in order), verifying them.
    pub fn new(types: &TypeStore, entries: Vec<SpecEntry>) -> Result<Self, SpecError> {
        let mut classified = Vec::with_capacity(entries.len());
        for (i, entry) in entries.iter().enumerate() {
            if entries[..i].iter().any(|e| e.key == entry.key) {
                return Err(SpecError::RepeatedKey {
                    key: print_key(types, &entry.key, Prefix::Spirv),
                });
            }
            let c = classify(types, entry)?;
            if let Classified::Pointer { storage_class, .. } = c {
                let repeated = classified.iter().any(|p| {
                    matches!(p, Classified::Pointer { storage_class: s, .. } if *s == storage_class)
                });
                if repeated {
                    return Err(SpecError::RepeatedStorageClass { storage_class });
                }
            }
            classified.push(c);
        }
        Ok(Self {
            entries,
            classified,
        })
    }

    /// Parses and verifies `#dlti.dl_spec<...>` text, interning the types it
    /// names in `types`.
    pub fn parse(types: &mut TypeStore, text: &str) -> Result<Self, SpecError> {
        let entries = SpecParser::new(text).parse_spec(types)?;
        Self::new(types, entries)
    }

    /// The entries, in source order.
    pub fn entries(&self) -> &[SpecEntry] {
        &self.entries
    }

    /// Whether the specification has no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Prints the specification as MLIR does (`#dlti.dl_spec<#dlti.dl_entry<i32,
    /// dense<[64, 128]> : vector<2xi64>>>`), types in the given dialect
    /// spelling.
    pub fn print(&self, types: &TypeStore, prefix: Prefix) -> String {
        let mut out = String::from("#dlti.dl_spec<");
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&print_entry(types, e, prefix));
        }
        out.push('>');
        out
    }

    pub(crate) fn classified(&self) -> &[Classified] {
        &self.classified
    }
}

/// Prints one entry as MLIR does.
pub fn print_entry(types: &TypeStore, entry: &SpecEntry, prefix: Prefix) -> String {
    format!(
        "#dlti.dl_entry<{}, {}>",
        print_key(types, &entry.key, prefix),
        print_value(types, &entry.value, prefix)
    )
}

fn print_key(types: &TypeStore, key: &EntryKey, prefix: Prefix) -> String {
    match key {
        EntryKey::Type(t) => text::print_type(types, *t, prefix),
        EntryKey::Id(s) => quote(s),
    }
}

/// Prints an entry value as MLIR does (`dense<64> : vector<1xi64>` for one
/// element or a splat, `dense<[64, 128]> : vector<2xi64>` otherwise).
pub fn print_value(types: &TypeStore, value: &EntryValue, prefix: Prefix) -> String {
    match value {
        EntryValue::Dense { ty, values } => {
            let ty = text::print_type(types, *ty, prefix);
            match values.split_first() {
                Some((first, rest)) if rest.iter().all(|v| v == first) => {
                    format!("dense<{first}> : {ty}")
                }
                _ => {
                    let items: Vec<String> = values.iter().map(i128::to_string).collect();
                    format!("dense<[{}]> : {ty}", items.join(", "))
                }
            }
        }
        EntryValue::Int { value, ty } => {
            format!("{value} : {}", text::print_type(types, *ty, prefix))
        }
        EntryValue::Bool(b) => b.to_string(),
        EntryValue::String(s) => quote(s),
        EntryValue::Other(s) => s.clone(),
    }
}

/// MLIR's string literal form.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The i64 elements of a dense entry value, or `None` when the value is not
/// a dense vector of signless i64.
fn dense_i64(types: &TypeStore, value: &EntryValue) -> Option<Vec<i128>> {
    let EntryValue::Dense { ty, values } = value else {
        return None;
    };
    let TypeKind::Vector { element, .. } = types.kind(*ty) else {
        return None;
    };
    matches!(
        types.kind(*element),
        TypeKind::Int {
            width: 64,
            signedness: Signedness::Signless
        }
    )
    .then(|| values.clone())
}

/// Checks an alignment in bits: a positive power-of-two number of bytes.
fn alignment_bits(bits: i128, entry: impl Fn() -> String) -> Result<u64, SpecError> {
    u64::try_from(bits)
        .ok()
        .filter(|b| *b > 0 && b % 8 == 0 && (b / 8).is_power_of_two())
        .ok_or_else(|| SpecError::BadAlignment {
            entry: entry(),
            bits,
        })
}

/// Verifies one entry and decodes it.
fn classify(types: &TypeStore, entry: &SpecEntry) -> Result<Classified, SpecError> {
    let printed = || print_entry(types, entry, Prefix::Spirv);
    let key = match &entry.key {
        EntryKey::Id(name) => return classify_id(name, &entry.value),
        EntryKey::Type(t) => *t,
    };
    match types.kind(key) {
        TypeKind::Int { width, .. } => {
            let (abi_bits, pref_bits) = int_float_alignments(types, &entry.value, printed)?;
            Ok(Classified::Int {
                key,
                width: *width,
                abi_bits,
                pref_bits,
            })
        }
        TypeKind::Float(kind) => {
            let (abi_bits, pref_bits) = int_float_alignments(types, &entry.value, printed)?;
            Ok(Classified::Float {
                key,
                kind: *kind,
                abi_bits,
                pref_bits,
            })
        }
        TypeKind::Index => {
            let EntryValue::Int { value, .. } = entry.value else {
                return Err(SpecError::IndexNotInteger);
            };
            let bits = u32::try_from(value)
                .ok()
                .filter(|b| *b > 0)
                .ok_or_else(|| SpecError::BadIndexWidth {
                    entry: printed(),
                    bits: value,
                })?;
            Ok(Classified::Index { key, bits })
        }
        TypeKind::Pointer { storage_class, .. } => {
            let key_text = || text::print_type(types, key, Prefix::Spirv);
            let EntryValue::Dense { values, .. } = &entry.value else {
                return Err(SpecError::PointerValue { key: key_text() });
            };
            if values.len() != 3 && values.len() != 4 {
                return Err(SpecError::PointerValue { key: key_text() });
            }
            let values = dense_i64(types, &entry.value)
                .ok_or_else(|| SpecError::PointerNotI64 { key: key_text() })?;
            let size_bits = u64::try_from(values[0])
                .ok()
                .filter(|b| *b > 0)
                .ok_or_else(|| SpecError::PointerSize { entry: printed() })?;
            let abi_bits = alignment_bits(values[1], printed)?;
            let pref_bits = alignment_bits(values[2], printed)?;
            if pref_bits < abi_bits {
                return Err(SpecError::PointerPreferredBelowAbi);
            }
            let index_bits = match values.get(3) {
                Some(&v) => u64::try_from(v)
                    .ok()
                    .filter(|b| *b > 0)
                    .ok_or_else(|| SpecError::PointerSize { entry: printed() })?,
                None => size_bits,
            };
            Ok(Classified::Pointer {
                key,
                storage_class: *storage_class,
                size_bits,
                abi_bits,
                pref_bits,
                index_bits,
            })
        }
        TypeKind::None | TypeKind::Vector { .. } | TypeKind::Function { .. } => {
            Err(SpecError::BuiltinType { entry: printed() })
        }
        _ => Err(SpecError::UnsupportedType { entry: printed() }),
    }
}

/// `dense<[abi, pref]> : vector<2xi64>` or `dense<abi> : vector<1xi64>`.
fn int_float_alignments(
    types: &TypeStore,
    value: &EntryValue,
    printed: impl Fn() -> String + Copy,
) -> Result<(u64, u64), SpecError> {
    let values =
        dense_i64(types, value).ok_or_else(|| SpecError::NotDenseI64 { entry: printed() })?;
    if values.is_empty() || values.len() > 2 {
        return Err(SpecError::ElementCount { entry: printed() });
    }
    let abi = values[0];
    let pref = values.get(1).copied().unwrap_or(abi);
    if pref < abi {
        return Err(SpecError::PreferredBelowAbi { entry: printed() });
    }
    Ok((
        alignment_bits(abi, printed)?,
        alignment_bits(pref, printed)?,
    ))
}

fn classify_id(name: &str, value: &EntryValue) -> Result<Classified, SpecError> {
    if let Some(rest) = name.strip_prefix("dlti.") {
        if !DLTI_IDS.contains(&name) {
            return Err(SpecError::UnknownDltiEntry {
                name: format!("dlti.{rest}"),
            });
        }
        let valid = match name {
            "dlti.endianness" => {
                matches!(value, EntryValue::String(s) if s == "big" || s == "little")
            }
            "dlti.stack_alignment" => matches!(value, EntryValue::Int { value, .. } if *value >= 0),
            _ => true,
        };
        if !valid {
            return Err(if name == "dlti.endianness" {
                SpecError::Endianness
            } else {
                SpecError::StackAlignment
            });
        }
    }
    Ok(Classified::Id {
        name: name.to_string(),
        value: value.clone(),
    })
}

// ---- text ----------------------------------------------------------------

/// A small scanner for `#dlti.dl_spec<...>`: it finds the extent of each key
/// and value and hands them to kiln's type and attribute parsers.
struct SpecParser<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> SpecParser<'a> {
    fn new(src: &'a str) -> Self {
        Self { src, pos: 0 }
    }

    fn err(&self, at: usize, message: impl Into<String>) -> SpecError {
        SpecError::Syntax {
            col: self.src[..at.min(self.src.len())].chars().count() + 1,
            message: message.into(),
        }
    }

    fn skip_ws(&mut self) {
        let rest = &self.src[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.src[self.pos..].starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str, what: &str) -> Result<(), SpecError> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(self.err(self.pos, format!("expected '{s}' {what}")))
        }
    }

    fn parse_spec(&mut self, types: &mut TypeStore) -> Result<Vec<SpecEntry>, SpecError> {
        self.expect("#dlti.dl_spec", "to begin a data layout specification")?;
        self.expect("<", "after '#dlti.dl_spec'")?;
        let mut entries = Vec::new();
        if !self.eat(">") {
            loop {
                entries.push(self.parse_entry(types)?);
                if self.eat(">") {
                    break;
                }
                self.expect(",", "or '>' after a data layout entry")?;
            }
        }
        self.skip_ws();
        if self.pos != self.src.len() {
            return Err(self.err(self.pos, "unexpected text after the specification"));
        }
        Ok(entries)
    }

    fn parse_entry(&mut self, types: &mut TypeStore) -> Result<SpecEntry, SpecError> {
        self.expect("#dlti.dl_entry", "to begin a data layout entry")?;
        self.expect("<", "after '#dlti.dl_entry'")?;
        self.skip_ws();
        let key = if self.src[self.pos..].starts_with('"') {
            let start = self.pos;
            let s = self.string_literal()?;
            if s.is_empty() {
                return Err(self.err(start, "empty data layout entry identifier"));
            }
            EntryKey::Id(s)
        } else {
            let (start, text) = self.balanced_until(',')?;
            let ty = text::parse_type(types, text)
                .map_err(|e| self.err(start, format!("in entry key '{text}': {e}")))?;
            EntryKey::Type(ty)
        };
        self.expect(",", "after the entry key")?;
        self.skip_ws();
        let (start, text) = self.balanced_until('>')?;
        let value = parse_value(types, text)
            .map_err(|e| self.err(start, format!("in entry value '{text}': {e}")))?;
        self.expect(">", "to end the data layout entry")?;
        Ok(SpecEntry { key, value })
    }

    /// A quoted string with MLIR's escapes (`\"`, `\\`, `\n`, `\t`, `\XX`).
    fn string_literal(&mut self) -> Result<String, SpecError> {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut out = Vec::new();
        let mut i = self.pos + 1;
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    self.pos = i + 1;
                    return String::from_utf8(out)
                        .map_err(|_| self.err(start, "string is not valid UTF-8"));
                }
                b'\\' => {
                    let next = bytes.get(i + 1).copied();
                    match next {
                        Some(b'"') | Some(b'\\') => {
                            out.push(bytes[i + 1]);
                            i += 2;
                        }
                        Some(b'n') => {
                            out.push(b'\n');
                            i += 2;
                        }
                        Some(b't') => {
                            out.push(b'\t');
                            i += 2;
                        }
                        _ => {
                            let hex = self
                                .src
                                .get(i + 1..i + 3)
                                .and_then(|h| u8::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.err(i, "unknown escape in string"))?;
                            out.push(hex);
                            i += 3;
                        }
                    }
                }
                b => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        Err(self.err(start, "unterminated string"))
    }

    /// The text from here to the first `stop` character outside brackets and
    /// strings (not consumed), trimmed; with its start position.
    fn balanced_until(&mut self, stop: char) -> Result<(usize, &'a str), SpecError> {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut depth: Vec<u8> = Vec::new();
        let mut i = self.pos;
        while i < bytes.len() {
            let b = bytes[i];
            if depth.is_empty() && b == stop as u8 {
                let text = self.src[start..i].trim();
                if text.is_empty() {
                    return Err(self.err(start, format!("expected text before '{stop}'")));
                }
                self.pos = i;
                return Ok((start, text));
            }
            match b {
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'-' if bytes.get(i + 1) == Some(&b'>') => i += 1,
                b'<' | b'(' | b'[' | b'{' => depth.push(b),
                b'>' | b')' | b']' | b'}' => {
                    let open = match b {
                        b'>' => b'<',
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    if depth.pop() != Some(open) {
                        return Err(self.err(i, format!("unbalanced '{}'", b as char)));
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Err(self.err(
            start,
            format!("expected '{stop}' before the end of the text"),
        ))
    }
}

/// Parses an entry value with kiln's attribute parser.
fn parse_value(types: &mut TypeStore, src: &str) -> Result<EntryValue, text::ParseError> {
    let mut attrs = AttrStore::default();
    let attr = text::parse_attr(&mut attrs, types, src)?;
    Ok(match attrs.kind(attr) {
        AttrKind::Dense {
            ty,
            values: DenseValues::Ints(values),
            splat,
        } => {
            let len = match types.kind(*ty) {
                TypeKind::Vector { len, .. } => *len as usize,
                _ => 1,
            };
            let values = if *splat && values.len() == 1 {
                vec![values[0]; len.min(MAX_SPLAT)]
            } else {
                values.clone()
            };
            EntryValue::Dense { ty: *ty, values }
        }
        AttrKind::Int { value, ty } => EntryValue::Int {
            value: *value,
            ty: *ty,
        },
        AttrKind::Bool(b) => EntryValue::Bool(*b),
        AttrKind::String(s) => EntryValue::String(s.clone()),
        _ => EntryValue::Other(text::print_attr(&attrs, types, attr, Prefix::Spirv)),
    })
}
