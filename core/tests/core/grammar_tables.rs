//! Checks the generated grammar tables against the vendored JSON grammar,
//! read independently of the generator.

use std::collections::BTreeSet;

use kiln_core::grammar::{
    self, AddressingModel, BuiltIn, Capability, Decoration, Dim, ExecutionMode, ExecutionModel,
    Extension, GroupOperation, ImageFormat, MemoryModel, OperandCategory, OperandDesc, OperandKind,
    Quantifier, Scope, StorageClass, Version,
};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!("{}/../xtask/grammar/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"))
}

fn core_json() -> Value {
    load("spirv.core.grammar.json")
}

fn glsl_json() -> Value {
    load("extinst.glsl.std.450.grammar.json")
}

fn arr(v: &Value, key: &str) -> Vec<Value> {
    v.get(key)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

fn strs(v: &Value, key: &str) -> Vec<String> {
    arr(v, key)
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect()
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} missing in {v}"))
}

fn json_version(v: &Value, key: &str, default: Option<Version>) -> Option<Version> {
    match v.get(key).and_then(Value::as_str) {
        None => default,
        Some("None") => Some(Version::NONE),
        Some(text) => Some(Version::parse(text).unwrap_or_else(|| panic!("bad version {text}"))),
    }
}

fn json_value(v: &Value) -> u32 {
    match v {
        Value::Number(n) => u32::try_from(n.as_u64().unwrap()).unwrap(),
        Value::String(text) => {
            u32::from_str_radix(text.strip_prefix("0x").expect("hex value"), 16).unwrap()
        }
        _ => panic!("bad value {v}"),
    }
}

/// Capabilities of a JSON object, resolved (aliases included) to the typed enum.
fn json_caps(v: &Value) -> Vec<Capability> {
    strs(v, "capabilities")
        .iter()
        .map(|c| Capability::from_name(c).unwrap_or_else(|| panic!("unknown capability {c}")))
        .collect()
}

fn json_exts(v: &Value) -> Vec<String> {
    strs(v, "extensions")
}

fn table_exts(exts: &[Extension]) -> Vec<String> {
    exts.iter().map(|e| e.name().to_owned()).collect()
}

/// Compares a JSON operand list against a table operand list.
fn check_operands(what: &str, json: &[Value], table: &[OperandDesc]) {
    assert_eq!(json.len(), table.len(), "{what}: operand count");
    for (i, (j, t)) in json.iter().zip(table).enumerate() {
        assert_eq!(s(j, "kind"), t.kind.name(), "{what}: operand {i} kind");
        let quantifier = match j.get("quantifier").and_then(Value::as_str) {
            None => Quantifier::One,
            Some("?") => Quantifier::Optional,
            Some("*") => Quantifier::Variadic,
            Some(q) => panic!("{what}: bad quantifier {q}"),
        };
        assert_eq!(quantifier, t.quantifier, "{what}: operand {i} quantifier");
        let name = j.get("name").and_then(Value::as_str).unwrap_or("");
        let name = name
            .strip_prefix('\'')
            .and_then(|n| n.strip_suffix('\''))
            .unwrap_or(name);
        assert_eq!(name, t.name, "{what}: operand {i} name");
    }
}

/// Compares the availability fields of a JSON instruction or enumerant.
fn check_availability(what: &str, json: &Value, table: &grammar::Availability) {
    assert_eq!(
        json_version(json, "version", Some(Version::V1_0)),
        Some(table.min_version),
        "{what}: version"
    );
    assert_eq!(
        json_version(json, "lastVersion", None),
        table.last_version,
        "{what}: lastVersion"
    );
    assert_eq!(json_caps(json), table.capabilities, "{what}: capabilities");
    assert_eq!(
        json_exts(json),
        table_exts(table.extensions),
        "{what}: extensions"
    );
    assert_eq!(
        json.get("provisional")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        table.provisional,
        "{what}: provisional"
    );
}

#[test]
fn every_core_instruction_matches_the_grammar() {
    let json = core_json();
    let insts = arr(&json, "instructions");
    assert_eq!(insts.len(), 808);
    assert_eq!(grammar::core_instructions().len(), insts.len());
    let opcodes: Vec<u16> = grammar::core_instructions()
        .iter()
        .map(|i| i.opcode)
        .collect();
    assert!(opcodes.windows(2).all(|w| w[0] < w[1]), "sorted by opcode");

    for j in &insts {
        let raw = s(j, "opname");
        let opname = raw.strip_prefix("Op").unwrap();
        let opcode = u16::try_from(j["opcode"].as_u64().unwrap()).unwrap();
        let inst =
            grammar::core_inst(opcode).unwrap_or_else(|| panic!("{raw}: no opcode {opcode}"));
        assert_eq!(inst.opname, opname);
        assert_eq!(inst.opcode, opcode);
        assert_eq!(inst.class, s(j, "class"), "{raw}: class");
        let aliases: Vec<String> = strs(j, "aliases")
            .iter()
            .map(|a| a.strip_prefix("Op").unwrap().to_owned())
            .collect();
        assert_eq!(aliases, inst.aliases, "{raw}: aliases");
        check_operands(raw, &arr(j, "operands"), inst.operands);
        check_availability(raw, j, &inst.availability);

        let by_name =
            grammar::core_inst_by_name(opname).unwrap_or_else(|| panic!("{raw}: by name"));
        assert_eq!(by_name.opcode, opcode);
        for alias in &aliases {
            assert_eq!(
                grammar::core_inst_by_name(alias).unwrap().opcode,
                opcode,
                "{alias}"
            );
        }

        let operands = arr(j, "operands");
        let kinds: Vec<&str> = operands.iter().map(|o| s(o, "kind")).collect();
        assert_eq!(
            inst.has_result(),
            kinds.contains(&"IdResult"),
            "{raw}: has_result"
        );
        assert_eq!(
            inst.has_result_type(),
            kinds.contains(&"IdResultType"),
            "{raw}: has_result_type"
        );
    }
    assert!(grammar::core_inst(9).is_none());
    assert!(grammar::core_inst(u16::MAX).is_none());
    assert!(grammar::core_inst_by_name("OpIAdd").is_none());
    assert!(grammar::core_inst_by_name("NoSuchInstruction").is_none());
}

#[test]
fn every_operand_kind_and_enumerant_matches_the_grammar() {
    let json = core_json();
    let kinds = arr(&json, "operand_kinds");
    assert_eq!(OperandKind::all().len(), kinds.len());
    for (j, &kind) in kinds.iter().zip(OperandKind::all()) {
        let name = s(j, "kind");
        assert_eq!(kind.name(), name, "grammar order");
        assert_eq!(OperandKind::from_name(name), Some(kind));
        assert_eq!(kind.to_string(), name);
        let category = match s(j, "category") {
            "Id" => OperandCategory::Id,
            "Literal" => OperandCategory::Literal,
            "ValueEnum" => OperandCategory::ValueEnum,
            "BitEnum" => OperandCategory::BitEnum,
            "Composite" => OperandCategory::Composite,
            other => panic!("{name}: category {other}"),
        };
        assert_eq!(kind.category(), category, "{name}: category");
        let bases: Vec<&str> = kind.bases().iter().map(|b| b.name()).collect();
        assert_eq!(strs(j, "bases"), bases, "{name}: bases");

        let enumerants = arr(j, "enumerants");
        assert_eq!(
            kind.enumerants().len(),
            enumerants.len(),
            "{name}: enumerant count"
        );
        let values: Vec<u32> = kind.enumerants().iter().map(|e| e.value).collect();
        assert!(
            values.windows(2).all(|w| w[0] < w[1]),
            "{name}: sorted by value"
        );
        for e in &enumerants {
            let ename = s(e, "enumerant");
            let what = format!("{name}.{ename}");
            let value = json_value(&e["value"]);
            let desc =
                grammar::enumerant(kind, value).unwrap_or_else(|| panic!("{what}: by value"));
            assert_eq!(desc.name, ename, "{what}: canonical name");
            assert_eq!(desc.value, value);
            assert_eq!(strs(e, "aliases"), desc.aliases, "{what}: aliases");
            check_operands(&what, &arr(e, "parameters"), desc.parameters);
            check_availability(&what, e, &desc.availability);
            let by_name = grammar::enumerant_by_name(kind, ename).unwrap();
            assert_eq!(by_name.value, value, "{what}: by name");
            for alias in strs(e, "aliases") {
                let by_alias = grammar::enumerant_by_name(kind, &alias).unwrap();
                assert_eq!(by_alias.name, ename, "{what}: alias {alias}");
            }
        }
        assert!(grammar::enumerant_by_name(kind, "NoSuchEnumerant").is_none());
    }
    assert!(OperandKind::from_name("NoSuchKind").is_none());
    let names: BTreeSet<&str> = OperandKind::all().iter().map(|k| k.name()).collect();
    for expected in [
        "IdRef",
        "IdResultType",
        "IdResult",
        "IdMemorySemantics",
        "IdScope",
        "LiteralInteger",
        "LiteralString",
        "LiteralFloat",
        "LiteralContextDependentNumber",
        "LiteralExtInstInteger",
        "LiteralSpecConstantOpInteger",
        "PairIdRefIdRef",
        "PairLiteralIntegerIdRef",
        "PairIdRefLiteralInteger",
        "StorageClass",
        "Decoration",
        "Capability",
    ] {
        assert!(names.contains(expected), "{expected}");
    }
}

/// Checks a typed enum against its operand kind's table.
macro_rules! check_typed_enum {
    ($ty:ident) => {{
        let kind = OperandKind::$ty;
        assert_eq!($ty::KIND, kind);
        assert_eq!(kind.category(), OperandCategory::ValueEnum);
        assert_eq!($ty::all().len(), kind.enumerants().len(), stringify!($ty));
        for (&v, e) in $ty::all().iter().zip(kind.enumerants()) {
            assert_eq!(v as u32, e.value, "{}::{:?}", stringify!($ty), v);
            assert_eq!(v.name(), e.name);
            assert_eq!(v.to_string(), e.name);
            assert_eq!(v.desc(), e);
            assert_eq!(v.availability(), &e.availability);
            assert_eq!($ty::from_u32(e.value), Some(v));
            assert_eq!($ty::from_name(e.name), Some(v));
            for alias in e.aliases {
                assert_eq!($ty::from_name(alias), Some(v), "alias {alias}");
            }
        }
        assert_eq!($ty::from_name("NoSuchEnumerant"), None);
        assert_eq!($ty::from_u32(0xdead_beef), None);
    }};
}

#[test]
fn typed_enums_mirror_their_tables() {
    check_typed_enum!(Capability);
    check_typed_enum!(StorageClass);
    check_typed_enum!(Decoration);
    check_typed_enum!(BuiltIn);
    check_typed_enum!(ExecutionModel);
    check_typed_enum!(ExecutionMode);
    check_typed_enum!(AddressingModel);
    check_typed_enum!(MemoryModel);
    check_typed_enum!(Scope);
    check_typed_enum!(Dim);
    check_typed_enum!(ImageFormat);
    check_typed_enum!(GroupOperation);

    assert_eq!(Dim::Dim2D as u32, 1);
    assert_eq!(Dim::from_name("2D"), Some(Dim::Dim2D));
    assert_eq!(Dim::Dim2D.name(), "2D");
    assert_eq!(StorageClass::StorageBuffer as u32, 12);
    assert_eq!(Decoration::from_name("Block"), Some(Decoration::Block));
    assert_eq!(BuiltIn::from_u32(28), Some(BuiltIn::GlobalInvocationId));
    assert_eq!(ExecutionModel::GLCompute as u32, 5);
    assert_eq!(ExecutionMode::LocalSize as u32, 17);
    assert_eq!(MemoryModel::Vulkan as u32, 3);
    assert_eq!(AddressingModel::PhysicalStorageBuffer64 as u32, 5348);
    assert_eq!(Scope::Subgroup as u32, 3);
    assert_eq!(ImageFormat::Rgba32f as u32, 1);
    assert_eq!(GroupOperation::Reduce as u32, 0);
}

#[test]
fn extensions_are_every_extension_the_grammar_names() {
    let json = core_json();
    let mut expected = BTreeSet::new();
    for inst in arr(&json, "instructions") {
        expected.extend(json_exts(&inst));
    }
    for kind in arr(&json, "operand_kinds") {
        for e in arr(&kind, "enumerants") {
            expected.extend(json_exts(&e));
        }
    }
    let names: Vec<String> = Extension::all()
        .iter()
        .map(|e| e.name().to_owned())
        .collect();
    assert_eq!(names, expected.into_iter().collect::<Vec<_>>());
    for &ext in Extension::all() {
        assert_eq!(Extension::from_name(ext.name()), Some(ext));
        assert_eq!(ext.to_string(), ext.name());
    }
    assert_eq!(
        Extension::SpvKhr16bitStorage.name(),
        "SPV_KHR_16bit_storage"
    );
    assert_eq!(
        Extension::from_name("SPV_KHR_storage_buffer_storage_class"),
        Some(Extension::SpvKhrStorageBufferStorageClass)
    );
    assert_eq!(Extension::from_name("SPV_NOT_a_real_extension"), None);
}

#[test]
fn glsl_instructions_match_the_grammar() {
    let json = glsl_json();
    let insts = arr(&json, "instructions");
    assert_eq!(grammar::glsl_instructions().len(), insts.len());
    for j in &insts {
        let opname = s(j, "opname");
        let opcode = u16::try_from(j["opcode"].as_u64().unwrap()).unwrap();
        let inst = grammar::glsl_inst(opcode).unwrap_or_else(|| panic!("{opname}"));
        assert_eq!(inst.opname, opname);
        assert_eq!(inst.opcode, opcode);
        check_operands(opname, &arr(j, "operands"), inst.operands);
        assert_eq!(json_caps(j), inst.capabilities, "{opname}: capabilities");
        assert_eq!(grammar::glsl_inst_by_name(opname).unwrap().opcode, opcode);
    }
    let sqrt = grammar::glsl_inst_by_name("Sqrt").unwrap();
    assert_eq!(sqrt.opcode, 31);
    assert_eq!(sqrt.operands.len(), 1);
    assert_eq!(
        grammar::glsl_inst_by_name("FMix").unwrap().operands.len(),
        3
    );
    assert_eq!(
        grammar::glsl_inst_by_name("PackDouble2x32")
            .unwrap()
            .capabilities,
        &[Capability::Float64]
    );
    assert!(grammar::glsl_inst(0).is_none());
    assert!(grammar::glsl_inst_by_name("NoSuchInstruction").is_none());
}

#[test]
fn capability_implications() {
    let json = core_json();
    let kinds = arr(&json, "operand_kinds");
    let caps = kinds.iter().find(|k| s(k, "kind") == "Capability").unwrap();
    for e in arr(caps, "enumerants") {
        let cap = Capability::from_name(s(&e, "enumerant")).unwrap();
        assert_eq!(cap.implies(), json_caps(&e).as_slice(), "{cap}");
    }
    assert_eq!(Capability::Shader.implies(), &[Capability::Matrix]);
    assert_eq!(Capability::Matrix.implies(), &[]);
    assert_eq!(Capability::Kernel.implies(), &[]);
    assert_eq!(Capability::Geometry.implies(), &[Capability::Shader]);
    assert_eq!(Capability::Float16Buffer.implies(), &[Capability::Kernel]);
    assert_eq!(
        Capability::GroupNonUniformArithmetic.implies(),
        &[Capability::GroupNonUniform]
    );
    assert_eq!(
        Capability::VariablePointers.implies(),
        &[Capability::VariablePointersStorageBuffer]
    );
    // Aliases resolve to the canonical variant.
    assert_eq!(
        Capability::from_name("StorageUniformBufferBlock16"),
        Some(Capability::StorageBuffer16BitAccess)
    );
    assert_eq!(
        Capability::from_name("StorageUniform16"),
        Some(Capability::UniformAndStorageBuffer16BitAccess)
    );
    assert_eq!(
        Capability::UniformAndStorageBuffer16BitAccess.implies(),
        &[Capability::StorageBuffer16BitAccess]
    );
    assert_eq!(Capability::StorageBuffer16BitAccess as u32, 4433);
    assert_eq!(
        Capability::StorageBuffer16BitAccess.name(),
        "StorageBuffer16BitAccess"
    );
    assert_eq!(
        grammar::enumerant(OperandKind::Capability, 4433)
            .unwrap()
            .name,
        "StorageBuffer16BitAccess"
    );
}

#[test]
fn hand_picked_facts() {
    let iadd = grammar::core_inst_by_name("IAdd").unwrap();
    assert_eq!(iadd.opcode, 128);
    assert_eq!(iadd.class, "Arithmetic");
    assert!(iadd.has_result() && iadd.has_result_type());
    assert_eq!(iadd.operands.len(), 4);
    assert_eq!(iadd.availability.min_version, Version::V1_0);
    assert!(iadd.availability.capabilities.is_empty());
    assert_eq!(grammar::core_inst(128).unwrap().opname, "IAdd");

    let gadd = grammar::core_inst_by_name("GroupNonUniformIAdd").unwrap();
    assert_eq!(gadd.opcode, 349);
    assert_eq!(gadd.availability.min_version, Version::V1_3);
    assert!(gadd
        .availability
        .capabilities
        .contains(&Capability::GroupNonUniformArithmetic));
    assert_eq!(gadd.operands[5].quantifier, Quantifier::Optional);

    let sb = StorageClass::StorageBuffer.availability();
    assert_eq!(sb.min_version, Version::V1_3);
    assert!(sb
        .extensions
        .contains(&Extension::SpvKhrStorageBufferStorageClass));

    let store = grammar::core_inst_by_name("Store").unwrap();
    assert!(!store.has_result() && !store.has_result_type());
    assert_eq!(store.operands[2].kind, OperandKind::MemoryAccess);
    assert_eq!(store.operands[2].quantifier, Quantifier::Optional);
    let label = grammar::core_inst_by_name("Label").unwrap();
    assert!(label.has_result() && !label.has_result_type());

    // lastVersion and "None" versions.
    let weak = grammar::core_inst_by_name("AtomicCompareExchangeWeak").unwrap();
    assert_eq!(weak.availability.last_version, Some(Version::V1_3));
    assert!(weak.availability.in_version(Version::V1_3));
    assert!(!weak.availability.in_version(Version::V1_4));
    let sparse = grammar::core_inst_by_name("ImageSparseSampleProjImplicitLod").unwrap();
    assert_eq!(sparse.availability.min_version, Version::NONE);
    assert!(!sparse.availability.in_version(Version::V1_6));
    let buffer_block = Decoration::BufferBlock.availability();
    assert_eq!(buffer_block.last_version, Some(Version::V1_3));

    // Aliased instruction names.
    let sdot = grammar::core_inst_by_name("SDotKHR").unwrap();
    assert_eq!(sdot.opname, "SDot");
    assert_eq!(sdot.aliases, &["SDotKHR"]);

    // Enumerant parameters.
    let aligned = grammar::enumerant_by_name(OperandKind::MemoryAccess, "Aligned").unwrap();
    assert_eq!(aligned.value, 2);
    assert_eq!(aligned.parameters.len(), 1);
    assert_eq!(aligned.parameters[0].kind, OperandKind::LiteralInteger);
    let spec_id = Decoration::SpecId.desc();
    assert_eq!(spec_id.parameters[0].kind, OperandKind::LiteralInteger);
    assert_eq!(spec_id.parameters[0].name, "Specialization Constant ID");

    // Composite kinds.
    assert_eq!(
        OperandKind::PairIdRefLiteralInteger.bases(),
        &[OperandKind::IdRef, OperandKind::LiteralInteger]
    );
    assert!(OperandKind::IdRef.enumerants().is_empty());
    assert_eq!(
        OperandKind::FunctionControl.category(),
        OperandCategory::BitEnum
    );

    // Version of the vendored grammar.
    assert_eq!(grammar::GRAMMAR_VERSION, Version::V1_6);
    assert_eq!(grammar::GRAMMAR_REVISION, 4);
}

#[test]
fn bit_formatting_round_trips() {
    use grammar::{format_bits, parse_bits};
    let ma = OperandKind::MemoryAccess;
    assert_eq!(format_bits(ma, 0), "None");
    assert_eq!(format_bits(ma, 1), "Volatile");
    assert_eq!(format_bits(ma, 3), "Volatile|Aligned");
    assert_eq!(format_bits(ma, 0x8000_0001), "Volatile|0x80000000");
    assert_eq!(parse_bits(ma, "Volatile|Aligned"), Some(3));
    assert_eq!(parse_bits(ma, "Volatile | Aligned"), Some(3));
    assert_eq!(parse_bits(ma, "None"), Some(0));
    assert_eq!(parse_bits(ma, "Volatile|0x80000000"), Some(0x8000_0001));
    assert_eq!(parse_bits(ma, "MakePointerAvailableKHR"), Some(8));
    assert_eq!(parse_bits(ma, "Bogus"), None);
    assert_eq!(parse_bits(ma, ""), None);
    assert_eq!(parse_bits(ma, "Volatile|"), None);

    let fc = OperandKind::FunctionControl;
    assert_eq!(format_bits(fc, 0b11), "Inline|DontInline");
    assert_eq!(parse_bits(fc, "Pure|Const"), Some(0b1100));

    let sem = OperandKind::MemorySemantics;
    assert_eq!(format_bits(sem, 0), "None");
    assert_eq!(parse_bits(sem, "Relaxed"), Some(0));
    assert_eq!(format_bits(sem, 0x2 | 0x40), "Acquire|UniformMemory");

    // Zero is "None" even where the grammar names it otherwise (or not at all).
    let rf = OperandKind::RayFlags;
    assert_eq!(format_bits(rf, 0), "None");
    assert_eq!(parse_bits(rf, "NoneKHR"), Some(0));
    assert_eq!(parse_bits(rf, "None"), Some(0));
    assert_eq!(
        parse_bits(OperandKind::FragmentShadingRate, "None"),
        Some(0)
    );

    for &kind in OperandKind::all() {
        if kind.category() != OperandCategory::BitEnum {
            continue;
        }
        let mut all = 0;
        for e in kind.enumerants() {
            assert_eq!(parse_bits(kind, &format_bits(kind, e.value)), Some(e.value));
            all |= e.value;
        }
        assert_eq!(
            parse_bits(kind, &format_bits(kind, all)),
            Some(all),
            "{kind}"
        );
    }

    // Value enums format and parse a single enumerant.
    let sc = OperandKind::StorageClass;
    assert_eq!(format_bits(sc, 12), "StorageBuffer");
    assert_eq!(parse_bits(sc, "StorageBuffer"), Some(12));
}

#[test]
fn versions() {
    assert_eq!(Version::parse("v1.3"), Some(Version::V1_3));
    assert_eq!(Version::parse("1.3"), Some(Version::V1_3));
    assert_eq!(Version::parse("1.10"), Some(Version::new(1, 10)));
    for bad in [
        "", "v", "1", "1.", ".3", "v1.3.0", "x1.3", "1.-3", "1.3 ", "300.1",
    ] {
        assert_eq!(Version::parse(bad), None, "{bad:?}");
    }
    assert_eq!(Version::V1_3.to_string(), "v1.3");
    assert_eq!(Version::NONE.to_string(), "none");
    assert!(Version::V1_0 < Version::V1_6);
    assert!(Version::V1_6 < Version::NONE);
    assert_eq!(Version::V1_5.word(), 0x0001_0500);
    assert_eq!(Version::from_word(0x0001_0300), Version::V1_3);
}
