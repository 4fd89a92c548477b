//! Round trips of the text form: parse -> print -> parse -> print is stable,
//! for both dialect prefixes, on the files `mlir-opt-19` printed
//! (`tests/mlir_ref/`) and on hand-written snippets.

use std::path::Path;

use kiln_core::text::{self, Prefix, PrintOptions};

fn print(m: &kiln_core::ir::Module, prefix: Prefix) -> String {
    text::print(m, &PrintOptions { prefix })
}

/// Parses, prints with both prefixes, and checks each print is a fixpoint.
fn round_trip(name: &str, src: &str) -> String {
    let m = text::parse(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = print(&m, Prefix::Spirv);
    for prefix in [Prefix::Spirv, Prefix::Spv] {
        let first = print(&m, prefix);
        let again = text::parse(&first)
            .unwrap_or_else(|e| panic!("{name} ({prefix:?}) reparse: {e}\n{first}"));
        let second = print(&again, prefix);
        assert_eq!(
            first, second,
            "{name}: print is not a fixpoint with {prefix:?}"
        );
    }
    out
}

#[test]
fn mlir_ref_files_round_trip() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mlir_ref");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/mlir_ref exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
            let src = std::fs::read_to_string(&path).unwrap();
            let out = round_trip(&path.display().to_string(), &src);
            if std::env::var_os("KILN_SHOW").is_some() {
                eprintln!("==== {}\n{out}", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 3, "expected the mlir_ref corpus, found {n} files");
}

/// Builds one op of every grammar instruction the dialect models as an op
/// (core and GLSL.std.450), with attributes named per `ir::schema`, and
/// checks the module prints (custom form where it fits, generic otherwise)
/// and parses back to the same text, with both prefixes.
#[test]
fn every_grammar_instruction_round_trips() {
    use kiln_core::grammar::{
        self, AddressingModel, MemoryModel, OperandCategory, OperandKind, Quantifier,
    };
    use kiln_core::ir::schema::{core_schema, Role};
    use kiln_core::ir::{Module, OpKind, OpSpec};

    let mut m = Module::new(AddressingModel::Logical, MemoryModel::GLSL450, None);
    let i32t = m.types.int(32);
    let f32t = m.types.f32();
    let fty = m.types.function(vec![i32t, i32t, f32t], vec![]);
    let name = m.attrs.string("f");
    let fty_attr = m.attrs.ty(fty);
    let control = m.attrs.enumerant(OperandKind::FunctionControl, 0);
    let body = m.body();
    let func = m.build(
        body,
        OpSpec::new(OpKind::Func)
            .attr("sym_name", name)
            .attr("function_type", fty_attr)
            .attr("function_control", control)
            .regions(1),
    );
    let region = m.op(func).regions[0];
    let entry = m.append_block(region, &[i32t, i32t, f32t]);
    let args = m.block(entry).args.clone();
    let mut built = 0;
    for desc in grammar::core_instructions() {
        let kind = OpKind::Core(desc.opcode);
        if OpKind::from_name(&kind.name()) != Some(kind.clone()) {
            continue; // modelled structurally (OpFunction, OpLabel, ...)
        }
        let Some(schema) = core_schema(desc.opcode) else {
            continue;
        };
        if schema
            .roles
            .iter()
            .any(|r| matches!(r, Role::Successor { .. } | Role::SwitchTargets))
        {
            continue; // branches are covered by the golden corpus
        }
        let mut spec = OpSpec::new(kind);
        for role in &schema.roles {
            match role {
                Role::Value { quantifier } => match quantifier {
                    Quantifier::One => spec.operands.push(args[0]),
                    Quantifier::Optional => spec.operands.push(args[1]),
                    Quantifier::Variadic => spec.operands.extend([args[0], args[1]]),
                },
                Role::Attr {
                    name,
                    kind,
                    quantifier,
                    ..
                } => {
                    let one = match kind.category() {
                        OperandCategory::ValueEnum => m
                            .attrs
                            .enumerant(*kind, kind.enumerants().first().map_or(0, |e| e.value)),
                        OperandCategory::BitEnum => m.attrs.enumerant(*kind, 0),
                        _ if *kind == OperandKind::LiteralString => m.attrs.string("text"),
                        _ if *kind == OperandKind::LiteralFloat => m.attrs.float(0.5, f32t),
                        _ => m.attrs.int(1, i32t),
                    };
                    let value = if *quantifier == Quantifier::Variadic {
                        m.attrs.array(vec![one])
                    } else {
                        one
                    };
                    spec = spec.attr(name.to_string(), value);
                }
                Role::Callee => {
                    let callee = m.attrs.symbol("f");
                    spec = spec.attr("callee", callee);
                }
                _ => {}
            }
        }
        if schema.has_result {
            spec = spec.results(vec![i32t]);
        }
        m.build(entry, spec);
        built += 1;
    }
    for desc in grammar::glsl_instructions() {
        let operands = vec![args[2]; desc.operands.len()];
        m.build(
            entry,
            OpSpec::new(OpKind::Glsl(desc.opcode))
                .operands(operands)
                .results(vec![f32t]),
        );
        built += 1;
    }
    let ret = OpKind::from_name("Return").expect("OpReturn");
    m.build(entry, OpSpec::new(ret));
    assert!(built > 400, "only {built} instructions built");
    for prefix in [Prefix::Spirv, Prefix::Spv] {
        let first = print(&m, prefix);
        let again = text::parse(&first).unwrap_or_else(|e| panic!("{prefix:?}: {e}\n{first}"));
        assert_eq!(
            again.module_ops().len(),
            m.module_ops().len(),
            "module-level op count changed"
        );
        let second = print(&again, prefix);
        assert_eq!(first, second, "print is not a fixpoint with {prefix:?}");
    }
}

/// The seeds' spelling parses to the same module as current MLIR's.
#[test]
fn both_prefixes_parse_to_the_same_module() {
    let spv = r#"
spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], []> {
  spv.GlobalVariable @g : !spv.ptr<!spv.struct<f32 [0], i32 [4]>, Private>
  spv.func @f(%x: f32) -> f32 "None" attributes {spv.entry_point_abi = #spv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    %0 = spv.GLSL.Exp %x : f32
    spv.ReturnValue %0 : f32
  }
}"#;
    let spirv = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @g : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4])>, Private>
  spirv.func @f(%arg0: f32) -> f32 "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
    %0 = spirv.GL.Exp %arg0 : f32
    spirv.ReturnValue %0 : f32
  }
}"#;
    let a = text::parse(spv).unwrap();
    let b = text::parse(spirv).unwrap();
    for prefix in [Prefix::Spirv, Prefix::Spv] {
        assert_eq!(print(&a, prefix), print(&b, prefix));
    }
    let out = print(&a, Prefix::Spv);
    assert!(out.contains("%0 = spv.GLSL.Exp %arg0 : f32"), "{out}");
    assert!(out.contains("#spv.entry_point_abi<"), "{out}");
}

/// Standalone type and attribute helpers.
#[test]
fn type_and_attr_helpers() {
    use kiln_core::ir::{AttrStore, TypeStore};
    let mut types = TypeStore::default();
    let t = text::parse_type(
        &mut types,
        "!spv.ptr<!spv.struct<(vector<4 x f32> [0, NonWritable])>, StorageBuffer>",
    )
    .unwrap();
    assert_eq!(
        text::print_type(&types, t, Prefix::Spirv),
        "!spirv.ptr<!spirv.struct<(vector<4xf32> [0, NonWritable])>, StorageBuffer>"
    );
    let img = text::parse_type(
        &mut types,
        "!spirv.image<f32, 2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>",
    )
    .unwrap();
    assert_eq!(
        text::print_type(&types, img, Prefix::Spv),
        "!spv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>"
    );
    assert!(text::parse_type(&mut types, "i32 extra").is_err());
    let mut attrs = AttrStore::default();
    for (src, printed) in [
        (
            "#spv.storage_class<StorageBuffer>",
            "#spirv.storage_class<StorageBuffer>",
        ),
        (
            "#spirv.memory_access<Aligned|Volatile>",
            "#spirv.memory_access<Volatile|Aligned>",
        ),
        ("0x7FC00000 : f32", "0x7FC00000 : f32"),
        ("1.5 : f16", "1.500000e+00 : f16"),
        ("42", "42 : i64"),
        ("4294967295 : i32", "-1 : i32"),
        (
            "[@a::@b, unit, \"q\\\"\\n\"]",
            "[@a::@b, unit, \"q\\\"\\0A\"]",
        ),
        ("{b = 1 : i8, a}", "{a, b = 1 : i8}"),
        (
            "dense<[1, 2]> : vector<2xi32>",
            "dense<[1, 2]> : vector<2xi32>",
        ),
        ("array<i32: 1, 2>", "array<i32: 1, 2>"),
        (
            "#spv.vce<v1.3, [Shader], [SPV_KHR_8bit_storage]>",
            "#spirv.vce<v1.3, [Shader], [SPV_KHR_8bit_storage]>",
        ),
        ("#spv.resource_limits<>", "#spirv.resource_limits<>"),
        (
            "#gpu.address_space<workgroup>",
            "#gpu.address_space<workgroup>",
        ),
        ("(i32, f32) -> i1", "(i32, f32) -> i1"),
    ] {
        let a =
            text::parse_attr(&mut attrs, &mut types, src).unwrap_or_else(|e| panic!("{src}: {e}"));
        assert_eq!(
            text::print_attr(&attrs, &types, a, Prefix::Spirv),
            printed,
            "{src}"
        );
    }
}

#[test]
fn copy_memory_takes_a_second_memory_access_for_the_source() {
    // MLIR's `spirv.CopyMemory ... [target access], [source access]`: the
    // second list is `source_memory_access` / `source_alignment`, the
    // second memory operand of `OpCopyMemory`.
    let src = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @copy() "None" {
    %0 = spirv.Variable : !spirv.ptr<f32, Function>
    %1 = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.CopyMemory "Function" %0, "Function" %1 ["Aligned", 8], ["Aligned", 4] : f32
    spirv.CopyMemory "Function" %0, "Function" %1 ["Volatile"], ["Volatile"] : f32
    spirv.CopyMemory "Function" %0, "Function" %1 ["Volatile"] : f32
    spirv.Return
  }
}
"#;
    let out = round_trip("copy_memory", src);
    for line in [
        r#"spirv.CopyMemory "Function" %0, "Function" %1 ["Aligned", 8], ["Aligned", 4] : f32"#,
        r#"spirv.CopyMemory "Function" %0, "Function" %1 ["Volatile"], ["Volatile"] : f32"#,
        r#"spirv.CopyMemory "Function" %0, "Function" %1 ["Volatile"] : f32"#,
    ] {
        assert!(out.contains(line), "missing `{line}` in\n{out}");
    }
    let m = text::parse(src).unwrap();
    let words = kiln_core::binary::serialize(&m).unwrap();
    let back = kiln_core::binary::deserialize(&words).unwrap();
    assert_eq!(print(&back, Prefix::Spirv), out);
    // OpCopyMemory %0 %1 Aligned 8 Aligned 4: two memory operands.
    let copy = words
        .windows(7)
        .find(|w| w[0] == (7 << 16 | 63))
        .expect("an OpCopyMemory of 7 words");
    assert_eq!(&copy[3..], &[2, 8, 2, 4]);
}
