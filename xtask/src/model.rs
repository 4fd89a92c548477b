//! The machine-readable SPIR-V grammar, parsed and checked.
//!
//! Parsing is strict: unknown keys, unknown operand kinds and unresolvable
//! capability names are errors, so a grammar update that changes the format
//! fails loudly here instead of producing subtly wrong tables.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::{anyhow, bail, ensure, Context, Result};
use serde_json::{Map, Value};

/// A SPIR-V version; [`Version::NONE`] is the grammar's `"None"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u8,
    pub minor: u8,
}

impl Version {
    pub const V1_0: Version = Version { major: 1, minor: 0 };
    pub const NONE: Version = Version {
        major: 255,
        minor: 255,
    };

    fn parse(s: &str) -> Result<Version> {
        if s == "None" {
            return Ok(Version::NONE);
        }
        let (major, minor) = s
            .split_once('.')
            .ok_or_else(|| anyhow!("bad version {s:?}"))?;
        let version = Version {
            major: major
                .parse()
                .with_context(|| format!("bad version {s:?}"))?,
            minor: minor
                .parse()
                .with_context(|| format!("bad version {s:?}"))?,
        };
        ensure!(
            version != Version::NONE,
            "version {s:?} collides with the None sentinel"
        );
        Ok(version)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    One,
    Optional,
    Variadic,
}

#[derive(Clone, Debug)]
pub struct Operand {
    pub kind: String,
    pub quantifier: Quantifier,
    /// Quotes stripped; empty when absent.
    pub name: String,
}

#[derive(Clone, Debug)]
pub struct Availability {
    pub min_version: Version,
    pub last_version: Option<Version>,
    /// Canonical capability names.
    pub capabilities: Vec<String>,
    pub extensions: Vec<String>,
    pub provisional: bool,
}

#[derive(Clone, Debug)]
pub struct Instruction {
    /// Without the `Op` prefix.
    pub opname: String,
    pub opcode: u16,
    pub class: String,
    /// Without the `Op` prefix.
    pub aliases: Vec<String>,
    pub operands: Vec<Operand>,
    pub availability: Availability,
}

#[derive(Clone, Debug)]
pub struct Enumerant {
    pub name: String,
    pub value: u32,
    pub aliases: Vec<String>,
    pub parameters: Vec<Operand>,
    pub availability: Availability,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Id,
    Literal,
    ValueEnum,
    BitEnum,
    Composite,
}

impl Category {
    pub fn rust_name(self) -> &'static str {
        match self {
            Category::Id => "Id",
            Category::Literal => "Literal",
            Category::ValueEnum => "ValueEnum",
            Category::BitEnum => "BitEnum",
            Category::Composite => "Composite",
        }
    }
}

#[derive(Clone, Debug)]
pub struct OperandKind {
    pub name: String,
    pub category: Category,
    pub doc: Option<String>,
    /// Sorted by value; values unique (duplicates folded into aliases).
    pub enumerants: Vec<Enumerant>,
    pub bases: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct ExtInstruction {
    pub opname: String,
    pub opcode: u16,
    pub operands: Vec<Operand>,
    /// Canonical capability names.
    pub capabilities: Vec<String>,
}

/// The core grammar.
#[derive(Debug)]
pub struct CoreGrammar {
    pub major: u8,
    pub minor: u8,
    pub revision: u32,
    /// Sorted by opcode.
    pub instructions: Vec<Instruction>,
    /// In grammar order.
    pub operand_kinds: Vec<OperandKind>,
    /// Every extension named by an instruction or enumerant, sorted.
    pub extensions: Vec<String>,
}

/// An extended instruction set grammar.
#[derive(Debug)]
pub struct ExtGrammar {
    pub version: u32,
    pub revision: u32,
    /// Sorted by opcode.
    pub instructions: Vec<ExtInstruction>,
}

impl CoreGrammar {
    pub fn kind(&self, name: &str) -> Option<&OperandKind> {
        self.operand_kinds.iter().find(|k| k.name == name)
    }
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>> {
    value
        .as_object()
        .ok_or_else(|| anyhow!("{what}: expected an object"))
}

fn check_keys(map: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<()> {
    for key in map.keys() {
        ensure!(
            allowed.contains(&key.as_str()),
            "{what}: unknown key {key:?} (the generator needs updating for this grammar)"
        );
    }
    Ok(())
}

fn string(map: &Map<String, Value>, key: &str, what: &str) -> Result<String> {
    map.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| anyhow!("{what}: missing string {key:?}"))
}

fn uint(map: &Map<String, Value>, key: &str, what: &str) -> Result<u64> {
    map.get(key)
        .and_then(Value::as_u64)
        .ok_or_else(|| anyhow!("{what}: missing unsigned integer {key:?}"))
}

fn string_list(map: &Map<String, Value>, key: &str, what: &str) -> Result<Vec<String>> {
    let Some(value) = map.get(key) else {
        return Ok(Vec::new());
    };
    value
        .as_array()
        .ok_or_else(|| anyhow!("{what}: {key:?} is not an array"))?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| anyhow!("{what}: {key:?} holds a non-string"))
        })
        .collect()
}

fn array<'a>(map: &'a Map<String, Value>, key: &str, what: &str) -> Result<&'a [Value]> {
    match map.get(key) {
        None => Ok(&[]),
        Some(v) => v
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| anyhow!("{what}: {key:?} is not an array")),
    }
}

fn strip_quotes(name: &str) -> String {
    let name = name.trim();
    let name = name
        .strip_prefix('\'')
        .and_then(|n| n.strip_suffix('\''))
        .unwrap_or(name);
    name.to_owned()
}

fn operands(map: &Map<String, Value>, key: &str, what: &str) -> Result<Vec<Operand>> {
    array(map, key, what)?
        .iter()
        .map(|op| {
            let op = object(op, what)?;
            check_keys(op, &["kind", "name", "quantifier"], what)?;
            let quantifier = match op.get("quantifier").map(|q| q.as_str()) {
                None => Quantifier::One,
                Some(Some("?")) => Quantifier::Optional,
                Some(Some("*")) => Quantifier::Variadic,
                Some(q) => bail!("{what}: bad quantifier {q:?}"),
            };
            let name = match op.get("name") {
                None => String::new(),
                Some(n) => strip_quotes(
                    n.as_str()
                        .ok_or_else(|| anyhow!("{what}: operand name is not a string"))?,
                ),
            };
            Ok(Operand {
                kind: string(op, "kind", what)?,
                quantifier,
                name,
            })
        })
        .collect()
}

fn availability(map: &Map<String, Value>, what: &str) -> Result<Availability> {
    let min_version = match map.get("version") {
        None => Version::V1_0,
        Some(v) => Version::parse(
            v.as_str()
                .ok_or_else(|| anyhow!("{what}: version is not a string"))?,
        )
        .with_context(|| what.to_owned())?,
    };
    let last_version = match map.get("lastVersion") {
        None => None,
        Some(v) => match v.as_str() {
            Some("None") => None,
            Some(s) => Some(Version::parse(s).with_context(|| what.to_owned())?),
            None => bail!("{what}: lastVersion is not a string"),
        },
    };
    let provisional = match map.get("provisional") {
        None => false,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| anyhow!("{what}: provisional is not a bool"))?,
    };
    Ok(Availability {
        min_version,
        last_version,
        capabilities: string_list(map, "capabilities", what)?,
        extensions: string_list(map, "extensions", what)?,
        provisional,
    })
}

fn enum_value(value: Option<&Value>, what: &str) -> Result<u32> {
    let value = match value {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(s)) => match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => s.parse().ok(),
        },
        _ => None,
    };
    let value = value.ok_or_else(|| anyhow!("{what}: missing or bad value"))?;
    u32::try_from(value).with_context(|| format!("{what}: value {value} does not fit u32"))
}

fn strip_op(name: &str, what: &str) -> Result<String> {
    name.strip_prefix("Op")
        .map(str::to_owned)
        .ok_or_else(|| anyhow!("{what}: opname {name:?} does not start with Op"))
}

/// Parses `spirv.core.grammar.json`.
pub fn parse_core(text: &str) -> Result<CoreGrammar> {
    let root: Value = serde_json::from_str(text).context("parsing the core grammar")?;
    let root = object(&root, "core grammar")?;
    check_keys(
        root,
        &[
            "copyright",
            "magic_number",
            "major_version",
            "minor_version",
            "revision",
            "instruction_printing_class",
            "instructions",
            "operand_kinds",
        ],
        "core grammar",
    )?;
    let major = u8::try_from(uint(root, "major_version", "core grammar")?)?;
    let minor = u8::try_from(uint(root, "minor_version", "core grammar")?)?;
    let revision = u32::try_from(uint(root, "revision", "core grammar")?)?;

    let mut instructions = Vec::new();
    for inst in array(root, "instructions", "core grammar")? {
        let inst = object(inst, "instruction")?;
        let raw_name = string(inst, "opname", "instruction")?;
        let what = format!("instruction {raw_name}");
        check_keys(
            inst,
            &[
                "opname",
                "class",
                "opcode",
                "operands",
                "capabilities",
                "extensions",
                "version",
                "lastVersion",
                "provisional",
                "aliases",
            ],
            &what,
        )?;
        instructions.push(Instruction {
            opname: strip_op(&raw_name, &what)?,
            opcode: u16::try_from(uint(inst, "opcode", &what)?)
                .with_context(|| format!("{what}: opcode"))?,
            class: string(inst, "class", &what)?,
            aliases: string_list(inst, "aliases", &what)?
                .iter()
                .map(|a| strip_op(a, &what))
                .collect::<Result<_>>()?,
            operands: operands(inst, "operands", &what)?,
            availability: availability(inst, &what)?,
        });
    }
    instructions.sort_by_key(|i| i.opcode);

    let mut operand_kinds = Vec::new();
    for kind in array(root, "operand_kinds", "core grammar")? {
        let kind = object(kind, "operand kind")?;
        let name = string(kind, "kind", "operand kind")?;
        let what = format!("operand kind {name}");
        check_keys(
            kind,
            &["category", "kind", "enumerants", "doc", "bases"],
            &what,
        )?;
        let category = match string(kind, "category", &what)?.as_str() {
            "Id" => Category::Id,
            "Literal" => Category::Literal,
            "ValueEnum" => Category::ValueEnum,
            "BitEnum" => Category::BitEnum,
            "Composite" => Category::Composite,
            other => bail!("{what}: unknown category {other:?}"),
        };
        let mut enumerants: Vec<Enumerant> = Vec::new();
        for e in array(kind, "enumerants", &what)? {
            let e = object(e, &what)?;
            let ename = string(e, "enumerant", &what)?;
            let what = format!("{what} enumerant {ename}");
            check_keys(
                e,
                &[
                    "enumerant",
                    "value",
                    "aliases",
                    "parameters",
                    "capabilities",
                    "extensions",
                    "version",
                    "lastVersion",
                    "provisional",
                ],
                &what,
            )?;
            enumerants.push(Enumerant {
                value: enum_value(e.get("value"), &what)?,
                aliases: string_list(e, "aliases", &what)?,
                parameters: operands(e, "parameters", &what)?,
                availability: availability(e, &what)?,
                name: ename,
            });
        }
        ensure!(
            matches!(category, Category::ValueEnum | Category::BitEnum) || enumerants.is_empty(),
            "{what}: enumerants on a non-enum kind"
        );
        // Sort by value; an enumerant sharing its value with an earlier one
        // (the pre-"aliases" grammar format) becomes an alias of the first.
        enumerants.sort_by_key(|e| e.value);
        let mut folded: Vec<Enumerant> = Vec::with_capacity(enumerants.len());
        for e in enumerants {
            match folded.last_mut() {
                Some(prev) if prev.value == e.value => {
                    prev.aliases.push(e.name);
                    prev.aliases.extend(e.aliases);
                }
                _ => folded.push(e),
            }
        }
        if category == Category::BitEnum {
            for e in &folded {
                ensure!(
                    e.value.count_ones() <= 1,
                    "{what}: bit enumerant {} has several bits set",
                    e.name
                );
            }
        }
        let bases = string_list(kind, "bases", &what)?;
        ensure!(
            (category == Category::Composite) != bases.is_empty(),
            "{what}: bases only (and always) on Composite kinds"
        );
        operand_kinds.push(OperandKind {
            doc: kind.get("doc").and_then(Value::as_str).map(str::to_owned),
            name,
            category,
            enumerants: folded,
            bases,
        });
    }

    let mut grammar = CoreGrammar {
        major,
        minor,
        revision,
        instructions,
        operand_kinds,
        extensions: Vec::new(),
    };
    resolve_core(&mut grammar)?;
    Ok(grammar)
}

/// Maps every capability name and alias to its canonical name.
fn capability_names(grammar: &CoreGrammar) -> Result<HashMap<String, String>> {
    let caps = grammar
        .kind("Capability")
        .ok_or_else(|| anyhow!("the grammar has no Capability kind"))?;
    let mut map = HashMap::new();
    for e in &caps.enumerants {
        for name in std::iter::once(&e.name).chain(&e.aliases) {
            ensure!(
                map.insert(name.clone(), e.name.clone()).is_none(),
                "capability name {name} is not unique"
            );
        }
    }
    Ok(map)
}

fn canonical_caps(caps: &mut [String], names: &HashMap<String, String>, what: &str) -> Result<()> {
    for cap in caps {
        *cap = names
            .get(cap.as_str())
            .ok_or_else(|| anyhow!("{what}: unknown capability {cap}"))?
            .clone();
    }
    Ok(())
}

/// Checks cross references, canonicalizes capability names and collects the
/// extension list.
fn resolve_core(grammar: &mut CoreGrammar) -> Result<()> {
    let kinds: BTreeSet<String> = grammar
        .operand_kinds
        .iter()
        .map(|k| k.name.clone())
        .collect();
    ensure!(
        kinds.len() == grammar.operand_kinds.len(),
        "duplicate operand kind names"
    );
    let check_operands = |ops: &[Operand], what: &str| -> Result<()> {
        for op in ops {
            ensure!(
                kinds.contains(&op.kind),
                "{what}: unknown operand kind {}",
                op.kind
            );
        }
        Ok(())
    };
    let caps = capability_names(grammar)?;
    let mut extensions = BTreeSet::new();

    let mut opcodes = BTreeSet::new();
    let mut names = BTreeSet::new();
    for inst in &mut grammar.instructions {
        let what = format!("instruction Op{}", inst.opname);
        ensure!(
            opcodes.insert(inst.opcode),
            "{what}: duplicate opcode {}",
            inst.opcode
        );
        for name in std::iter::once(&inst.opname).chain(&inst.aliases) {
            ensure!(names.insert(name.clone()), "{what}: duplicate name {name}");
        }
        check_operands(&inst.operands, &what)?;
        canonical_caps(&mut inst.availability.capabilities, &caps, &what)?;
        extensions.extend(inst.availability.extensions.iter().cloned());
    }
    for kind in &mut grammar.operand_kinds {
        for base in &kind.bases {
            ensure!(
                kinds.contains(base),
                "kind {}: unknown base {base}",
                kind.name
            );
        }
        let mut names = BTreeSet::new();
        for e in &mut kind.enumerants {
            let what = format!("{} enumerant {}", kind.name, e.name);
            for name in std::iter::once(&e.name).chain(&e.aliases) {
                ensure!(names.insert(name.clone()), "{what}: duplicate name {name}");
            }
            check_operands(&e.parameters, &what)?;
            canonical_caps(&mut e.availability.capabilities, &caps, &what)?;
            extensions.extend(e.availability.extensions.iter().cloned());
        }
    }
    grammar.extensions = extensions.into_iter().collect();
    Ok(())
}

/// Parses an extended instruction set grammar
/// (`extinst.glsl.std.450.grammar.json`) against the core grammar.
pub fn parse_ext(text: &str, core: &CoreGrammar) -> Result<ExtGrammar> {
    let root: Value = serde_json::from_str(text).context("parsing the extended grammar")?;
    let root = object(&root, "extended grammar")?;
    check_keys(
        root,
        &["copyright", "version", "revision", "instructions"],
        "extended grammar",
    )?;
    let caps = capability_names(core)?;
    let mut instructions = Vec::new();
    let mut seen: BTreeMap<u16, String> = BTreeMap::new();
    let mut names = BTreeSet::new();
    for inst in array(root, "instructions", "extended grammar")? {
        let inst = object(inst, "extended instruction")?;
        let opname = string(inst, "opname", "extended instruction")?;
        let what = format!("extended instruction {opname}");
        check_keys(
            inst,
            &["opname", "opcode", "operands", "capabilities"],
            &what,
        )?;
        let opcode = u16::try_from(uint(inst, "opcode", &what)?)?;
        ensure!(
            seen.insert(opcode, opname.clone()).is_none(),
            "{what}: duplicate opcode"
        );
        ensure!(names.insert(opname.clone()), "{what}: duplicate name");
        let operands = operands(inst, "operands", &what)?;
        for op in &operands {
            ensure!(
                core.kind(&op.kind).is_some(),
                "{what}: unknown kind {}",
                op.kind
            );
        }
        let mut capabilities = string_list(inst, "capabilities", &what)?;
        canonical_caps(&mut capabilities, &caps, &what)?;
        instructions.push(ExtInstruction {
            opname,
            opcode,
            operands,
            capabilities,
        });
    }
    instructions.sort_by_key(|i| i.opcode);
    Ok(ExtGrammar {
        version: u32::try_from(uint(root, "version", "extended grammar")?)?,
        revision: u32::try_from(uint(root, "revision", "extended grammar")?)?,
        instructions,
    })
}
