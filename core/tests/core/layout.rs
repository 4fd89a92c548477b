//! `DataLayout` against MLIR 19's data layout query pass.
//!
//! Every expected value comes from `mlir-opt-19 --test-data-layout-query
//! --allow-unregistered-dialect`, run here on a module that carries the same
//! `#dlti.dl_spec` as kiln's scope and holds one `"test.data_layout_query"`
//! op per type. MLIR has no layout for SPIR-V types nor for memrefs, so the
//! oracle is asked about the LLVM dialect type each converts to, and that
//! type is itself produced by MLIR: `--convert-spirv-to-llvm` for `!spirv.*`
//! types (the type of a converted `spirv.GlobalVariable`),
//! `--convert-func-to-llvm` for memrefs (the descriptor a function returns).
//! mlir-19-tools is installed by ci/setup.sh: when it is missing the test
//! fails, it never skips.

use kiln_core::ir::TypeStore;
use kiln_core::kernel;
use kiln_core::layout::{DataLayout, DataLayoutSpec, LayoutError, SpecError, TypeLayout};
use kiln_core::text;

/// Built-in types: kiln and MLIR spell them the same.
const BUILTIN: &[&str] = &[
    "i1",
    "i7",
    "i8",
    "i16",
    "i24",
    "i32",
    "i48",
    "i64",
    "i65",
    "i128",
    "si32",
    "ui16",
    "si8",
    "f16",
    "bf16",
    "f32",
    "f64",
    "index",
    "vector<2xi8>",
    "vector<3xf32>",
    "vector<4xf16>",
    "vector<5xi32>",
    "vector<3xf64>",
    "vector<16xi1>",
    "vector<3xi1>",
    "vector<2xindex>",
    "vector<3xi7>",
];

/// SPIR-V types whose LLVM form `--convert-spirv-to-llvm` gives.
const SPIRV: &[&str] = &[
    "!spirv.array<4 x i32>",
    "!spirv.array<3 x vector<3xf32>>",
    "!spirv.array<2 x !spirv.array<3 x i16>>",
    "!spirv.array<5 x i1>",
    "!spirv.array<2 x f64>",
    "!spirv.rtarray<f32>",
    "!spirv.rtarray<vector<4xf16>>",
    "!spirv.struct<(i8, i32)>",
    "!spirv.struct<(f32, f64, i8)>",
    "!spirv.struct<(i8, !spirv.array<3 x i16>, f64)>",
    "!spirv.struct<(i8 [0], i32 [4])>",
    "!spirv.struct<(f64 [0], i8 [8])>",
    "!spirv.struct<(i16 [0], vector<4xf32> [16], i8 [32])>",
    "!spirv.struct<(i8, !spirv.struct<(i32 [0], i8 [4])>)>",
    "!spirv.struct<(i32 [0], !spirv.struct<(i8 [0], f64 [8])> [8])>",
    "!spirv.ptr<f32, StorageBuffer>",
    "!spirv.ptr<i8, Workgroup>",
    "!spirv.ptr<!spirv.struct<(f32)>, Function>",
    "!spirv.array<3 x !spirv.ptr<i32, Function>>",
    "!spirv.struct<(i8, !spirv.ptr<i32, CrossWorkgroup>)>",
    "!spirv.struct<(i64 [0], i32 [8])>",
];

/// Structs whose decorated offsets are not the natural ones under a spec
/// (there `i32` and the `f64` have other alignments than by default). The
/// conversion accepts them because they are natural under the default
/// layout; MLIR's converted struct would move the member, kiln keeps the
/// decorated offset. For these the test checks the decorations are kept.
const NOT_NATURAL: &[(&str, &str, &[u64])] = &[
    ("spec A", "!spirv.struct<(i8 [0], i32 [4])>", &[0, 4]),
    ("spec B", "!spirv.struct<(i8 [0], i32 [4])>", &[0, 4]),
    (
        "spec B",
        "!spirv.struct<(i32 [0], !spirv.struct<(i8 [0], f64 [8])> [8])>",
        &[0, 8],
    ),
];

/// Kernel types: memrefs (their LLVM descriptor from `--convert-func-to-llvm`)
/// and multi-dimensional vectors (asked directly).
const KERNEL: &[&str] = &[
    "memref<4x8xf32>",
    "memref<?xf16>",
    "memref<f32>",
    "memref<2x3x4xi8>",
    "memref<*xi32>",
    "memref<4xf32, 3>",
    "memref<?x8xf32, strided<[?, 1], offset: ?>>",
    "memref<16xvector<4xf32>, 3>",
    "vector<4x3xf32>",
    "vector<2x2x5xi16>",
    "i32",
    "index",
    "vector<3xindex>",
];

/// The specifications: (kiln's form, the oracle's form). Pointer entries
/// are keyed by `!spirv.ptr<_, Function>` in kiln and by `!llvm.ptr` (address
/// space 0, where the SPIR-V-to-LLVM conversion puts every storage class)
/// in MLIR.
fn specs() -> Vec<(&'static str, String, String)> {
    let a = "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 128]> : vector<2xi64>>, \
             #dlti.dl_entry<i8, dense<16> : vector<1xi64>>, \
             #dlti.dl_entry<f16, dense<[32, 64]> : vector<2xi64>>, \
             #dlti.dl_entry<index, 32 : i64>>";
    let b = |ptr: &str| {
        format!(
            "#dlti.dl_spec<#dlti.dl_entry<i16, dense<[32, 64]> : vector<2xi64>>, \
             #dlti.dl_entry<i64, dense<[64, 128]> : vector<2xi64>>, \
             #dlti.dl_entry<ui16, dense<[8, 16]> : vector<2xi64>>, \
             #dlti.dl_entry<f64, dense<[32, 64]> : vector<2xi64>>, \
             #dlti.dl_entry<bf16, dense<[64, 64]> : vector<2xi64>>, \
             #dlti.dl_entry<{ptr}, dense<[32, 32, 64, 32]> : vector<4xi64>>, \
             #dlti.dl_entry<index, 16 : i64>, \
             #dlti.dl_entry<\"dlti.endianness\", \"big\">>"
        )
    };
    vec![
        ("default", String::new(), String::new()),
        ("spec A", a.to_string(), a.to_string()),
        ("spec B", b("!spirv.ptr<i8, Function>"), b("!llvm.ptr")),
    ]
}

use common::mlir_opt;

use crate::common;

fn module_attrs(spec: &str) -> String {
    if spec.is_empty() {
        String::new()
    } else {
        format!(" attributes {{dlti.dl_spec = {spec}}}")
    }
}

/// The text after the last `: ` or `-> ` of a line that ends in a type
/// (the types here contain no `: ` or `-> ` themselves).
fn trailing_type<'a>(line: &'a str, sep: &str) -> &'a str {
    let at = line.rfind(sep).expect("line has a type") + sep.len();
    line[at..].trim()
}

/// The LLVM dialect type `--convert-spirv-to-llvm` gives each SPIR-V type.
fn llvm_types_of_spirv(types: &[&str]) -> Vec<String> {
    let mut src = String::from("spirv.module Logical GLSL450 {\n");
    for (i, t) in types.iter().enumerate() {
        src.push_str(&format!(
            "  spirv.GlobalVariable @v{i} : !spirv.ptr<{t}, Private>\n"
        ));
    }
    src.push_str("}\n");
    let out = mlir_opt(&["--convert-spirv-to-llvm"], &src);
    let mut found: Vec<Option<String>> = vec![None; types.len()];
    for line in out.lines().filter(|l| l.contains("llvm.mlir.global")) {
        let name = line.split('@').nth(1).expect("global name");
        let index: usize = name[1..name.find('(').expect("(")].parse().expect("index");
        found[index] = Some(trailing_type(line, " : ").to_string());
    }
    found
        .into_iter()
        .zip(types)
        .map(|(f, t)| f.unwrap_or_else(|| panic!("no converted global for {t}:\n{out}")))
        .collect()
}

/// The LLVM type `--convert-func-to-llvm` gives each kernel type under
/// `spec` (memref descriptors depend on the index width).
fn llvm_types_of_kernel(types: &[&str], spec: &str) -> Vec<String> {
    let mut src = format!("module{} {{\n", module_attrs(spec));
    for (i, t) in types.iter().enumerate() {
        if t.starts_with("memref") {
            src.push_str(&format!("  func.func private @f{i}() -> {t}\n"));
        }
    }
    src.push_str("}\n");
    let out = mlir_opt(
        &["--finalize-memref-to-llvm", "--convert-func-to-llvm"],
        &src,
    );
    let mut found: Vec<Option<String>> = vec![None; types.len()];
    for line in out.lines().filter(|l| l.contains("llvm.func @f")) {
        let name = line.split('@').nth(1).expect("func name");
        let index: usize = name[1..name.find('(').expect("(")].parse().expect("index");
        let ty = trailing_type(line, "-> ");
        let ty = ty.split(" attributes").next().expect("type");
        found[index] = Some(ty.to_string());
    }
    found
        .into_iter()
        .zip(types)
        .map(|(f, t)| match f {
            Some(f) => f,
            // Built-in types: MLIR answers for them directly.
            None if !t.starts_with("memref") => t.to_string(),
            None => panic!("no converted function for {t}:\n{out}"),
        })
        .collect()
}

/// MLIR's answers: (size in bytes, size in bits, ABI alignment, preferred
/// alignment) per type, in order.
fn oracle(types: &[String], spec: &str) -> Vec<TypeLayout> {
    let mut src = format!("module{} {{\n  func.func @q() {{\n", module_attrs(spec));
    for t in types {
        src.push_str(&format!("    \"test.data_layout_query\"() : () -> {t}\n"));
    }
    src.push_str("    return\n  }\n}\n");
    let out = mlir_opt(
        &["--test-data-layout-query", "--allow-unregistered-dialect"],
        &src,
    );
    let answers: Vec<TypeLayout> = out
        .lines()
        .filter(|l| l.contains("\"test.data_layout_query\"() {"))
        .map(|line| {
            let dict = &line[line.find('{').expect("{") + 1..line.find('}').expect("}")];
            let get = |key: &str| -> u64 {
                dict.split(", ")
                    .find_map(|kv| kv.strip_prefix(&format!("{key} = ")))
                    .and_then(|v| v.strip_suffix(" : index"))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("no {key} in {line}"))
            };
            let l = TypeLayout {
                size_in_bits: get("bitsize"),
                abi_align: get("alignment"),
                preferred_align: get("preferred"),
            };
            assert_eq!(l.size(), get("size"), "size vs bitsize in {line}");
            l
        })
        .collect();
    assert_eq!(answers.len(), types.len(), "one answer per query:\n{out}");
    answers
}

fn layout_for(types: &mut TypeStore, spec: &str) -> DataLayout {
    if spec.is_empty() {
        DataLayout::default()
    } else {
        let spec = DataLayoutSpec::parse(types, spec).expect("valid spec");
        DataLayout::new(&spec)
    }
}

#[test]
fn spv_types_agree_with_mlir_under_default_and_two_specs() {
    let mut kiln_types: Vec<&str> = BUILTIN.to_vec();
    kiln_types.extend_from_slice(SPIRV);
    let mut oracle_types: Vec<String> = BUILTIN.iter().map(|t| t.to_string()).collect();
    oracle_types.extend(llvm_types_of_spirv(SPIRV));
    assert!(kiln_types.len() >= 40);
    let mut failures = Vec::new();
    for (name, kiln_spec, oracle_spec) in specs() {
        let expected = oracle(&oracle_types, &oracle_spec);
        let mut store = TypeStore::default();
        let dl = layout_for(&mut store, &kiln_spec);
        for ((kt, ot), want) in kiln_types.iter().zip(&oracle_types).zip(&expected) {
            let ty = text::parse_type(&mut store, kt)
                .unwrap_or_else(|e| panic!("kiln cannot parse {kt}: {e}"));
            let got = dl.layout(&store, ty);
            if let Some((_, _, offsets)) = NOT_NATURAL.iter().find(|n| n.0 == name && n.1 == *kt) {
                assert_eq!(
                    dl.struct_offsets(&store, ty).as_deref(),
                    Ok(*offsets),
                    "{kt}"
                );
                continue;
            }
            if got.as_ref() != Ok(want) {
                failures.push(format!(
                    "{name}: {kt} (as {ot}): kiln {got:?}, MLIR {want:?}"
                ));
            }
        }
        assert!(dl.cached_types() >= kiln_types.len());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kernel_types_agree_with_mlir_under_default_and_two_specs() {
    let mut failures = Vec::new();
    for (name, kiln_spec, oracle_spec) in specs() {
        let oracle_types = llvm_types_of_kernel(KERNEL, &oracle_spec);
        let expected = oracle(&oracle_types, &oracle_spec);
        let mut store = TypeStore::default();
        let dl = layout_for(&mut store, &kiln_spec);
        for ((kt, ot), want) in KERNEL.iter().zip(&oracle_types).zip(&expected) {
            let ty = kernel::parse_type(kt).unwrap_or_else(|e| panic!("{kt}: {e}"));
            let got = dl.kernel_layout(&ty);
            if got.as_ref() != Ok(want) {
                failures.push(format!(
                    "{name}: {kt} (as {ot}): kiln {got:?}, MLIR {want:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Kernel scalars and vectors answer exactly as the spv types spelt alike.
#[test]
fn kernel_and_spv_scalars_agree() {
    for (_, kiln_spec, _) in specs() {
        let mut store = TypeStore::default();
        let dl = layout_for(&mut store, &kiln_spec);
        for t in [
            "i1",
            "i7",
            "i32",
            "i64",
            "f16",
            "bf16",
            "f64",
            "index",
            "vector<3xf32>",
        ] {
            let spv = text::parse_type(&mut store, t).expect("spv type");
            let k = kernel::parse_type(t).expect("kernel type");
            assert_eq!(dl.layout(&store, spv), dl.kernel_layout(&k), "{t}");
        }
    }
}

#[test]
fn types_without_layout_are_errors() {
    let mut store = TypeStore::default();
    let dl = DataLayout::default();
    for t in ["none", "!spirv.sampler", "!spirv.struct<(i32 [0], f32)>"] {
        let ty = text::parse_type(&mut store, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        let err = dl.layout(&store, ty).expect_err(t);
        assert!(err.to_string().contains("has no data layout"), "{t}: {err}");
    }
    let f = kernel::parse_type("(i32) -> f32").expect("function type");
    assert!(matches!(
        dl.kernel_layout(&f),
        Err(LayoutError::Unsupported { .. })
    ));
}

/// A nested scope: the inner spec combines with the outer one as MLIR
/// combines a nested module's spec with its parent's. (MLIR 19 crashes when
/// both scopes have entries for one built-in type class, so the keys here
/// are disjoint; kiln's rule for shared keys is checked below.)
#[test]
fn nested_scopes_agree_with_mlir() {
    let outer = "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 128]> : vector<2xi64>>, \
                 #dlti.dl_entry<f16, dense<[32, 64]> : vector<2xi64>>>";
    let inner = "#dlti.dl_spec<#dlti.dl_entry<f64, dense<[32, 128]> : vector<2xi64>>, \
                 #dlti.dl_entry<index, 32 : i64>>";
    let types = [
        "i8",
        "i16",
        "i32",
        "i64",
        "f16",
        "f32",
        "index",
        "vector<3xi32>",
    ];
    let mut src = format!(
        "module attributes {{dlti.dl_spec = {outer}}} {{\n  module attributes {{dlti.dl_spec = {inner}}} {{\n    func.func @q() {{\n"
    );
    for t in types {
        src.push_str(&format!("      \"test.data_layout_query\"() : () -> {t}\n"));
    }
    src.push_str("      return\n    }\n  }\n}\n");
    let out = mlir_opt(
        &[
            "--pass-pipeline=builtin.module(builtin.module(func.func(test-data-layout-query)))",
            "--allow-unregistered-dialect",
        ],
        &src,
    );
    let mut store = TypeStore::default();
    let o = DataLayoutSpec::parse(&mut store, outer).expect("outer");
    let i = DataLayoutSpec::parse(&mut store, inner).expect("inner");
    let dl = DataLayout::nested(&store, &[&o, &i]).expect("compatible");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("\"test.data_layout_query\"() {"))
        .collect();
    assert_eq!(lines.len(), types.len());
    for (t, line) in types.iter().zip(lines) {
        let ty = text::parse_type(&mut store, t).expect("type");
        let l = dl.layout(&store, ty).expect("layout");
        for (key, value) in [
            ("alignment", l.abi_align),
            ("bitsize", l.size_in_bits),
            ("preferred", l.preferred_align),
            ("size", l.size()),
        ] {
            let want = format!(", {key} = {value} : index");
            let want_first = format!("{{{key} = {value} : index");
            assert!(
                line.contains(&want) || line.contains(&want_first),
                "{t}: kiln {key} = {value}, MLIR: {line}"
            );
        }
    }
}

/// A nested scope may relax an alignment but not tighten it, nor change the
/// index width.
#[test]
fn nested_scope_compatibility() {
    let mut store = TypeStore::default();
    let outer = DataLayoutSpec::parse(
        &mut store,
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[32, 64]> : vector<2xi64>>, #dlti.dl_entry<index, 32 : i64>>",
    )
    .expect("outer");
    let tighter = DataLayoutSpec::parse(
        &mut store,
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 64]> : vector<2xi64>>>",
    )
    .expect("tighter");
    let err = DataLayout::nested(&store, &[&outer, &tighter]).expect_err("tighter alignment");
    assert!(matches!(err, SpecError::Incompatible { .. }));
    assert!(err.to_string().contains("i32"), "{err}");
    let index = DataLayoutSpec::parse(&mut store, "#dlti.dl_spec<#dlti.dl_entry<index, 64 : i64>>")
        .expect("index");
    let err = DataLayout::nested(&store, &[&outer, &index]).expect_err("index width");
    assert!(err.to_string().contains("index"), "{err}");
}

/// Specs print back as MLIR prints them (mlir-opt round-trips the module
/// attribute; kiln's printed form must equal it).
#[test]
fn spec_prints_as_mlir_does() {
    for (_, kiln_spec, oracle_spec) in specs().into_iter().skip(1) {
        if kiln_spec != oracle_spec {
            continue;
        }
        let out = mlir_opt(
            &[],
            &format!("module{} {{\n}}\n", module_attrs(&oracle_spec)),
        );
        let mlir = out
            .split("dlti.dl_spec = ")
            .nth(1)
            .and_then(|s| s.rsplit_once("} {"))
            .map(|(s, _)| s)
            .expect("spec in output");
        let mut store = TypeStore::default();
        let spec = DataLayoutSpec::parse(&mut store, &kiln_spec).expect("spec");
        assert_eq!(spec.print(&store, kiln_core::text::Prefix::Spirv), mlir);
    }
}

/// The cache answers repeated queries without recomputing.
#[test]
fn answers_are_cached() {
    let mut store = TypeStore::default();
    let dl = DataLayout::default();
    let ty = text::parse_type(&mut store, "!spirv.struct<(i8, !spirv.array<4 x f32>)>").expect("t");
    let first = dl.layout(&store, ty).expect("layout");
    let cached = dl.cached_types();
    assert!(cached >= 4, "struct, array, i8, f32 cached: {cached}");
    assert_eq!(dl.layout(&store, ty).expect("layout"), first);
    assert_eq!(dl.cached_types(), cached);
    let k = kernel::parse_type("memref<4xf32>").expect("memref");
    let gpu = kernel::parse_type("memref<4xf32, #gpu.address_space<workgroup>>").expect("gpu");
    let three = kernel::parse_type("memref<4xf32, 3>").expect("int space");
    assert_eq!(dl.kernel_layout(&gpu), dl.kernel_layout(&three));
    let fresh = DataLayout::default();
    fresh.kernel_layout(&k).expect("memref layout");
    fresh.kernel_layout(&k).expect("memref layout");
    assert_eq!(fresh.cached_kernel_types(), 1);
}

/// The scope of a `spirv.module`: the builtin module wrapper's spec
/// combined with the `spirv.module`'s own, as `DataLayout::nested` does.
#[test]
fn for_module_combines_wrapper_and_spirv_module_specs() {
    let outer = "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 128]> : vector<2xi64>>>";
    let inner = "#dlti.dl_spec<#dlti.dl_entry<index, 32 : i64>>";
    let src = format!(
        "module attributes {{dlti.dl_spec = {outer}}} {{\n  spirv.module Logical GLSL450 attributes {{dlti.dl_spec = {inner}}} {{\n  }}\n}}\n"
    );
    let mut module = text::parse(&src).expect("module");
    let dl = DataLayout::for_module(&mut module).expect("layout");
    let o = DataLayoutSpec::parse(&mut module.types, outer).expect("outer");
    let i = DataLayoutSpec::parse(&mut module.types, inner).expect("inner");
    let nested = DataLayout::nested(&module.types, &[&o, &i]).expect("nested");
    for t in BUILTIN.iter().chain(SPIRV) {
        let ty = text::parse_type(&mut module.types, t).expect("type");
        assert_eq!(
            dl.layout(&module.types, ty),
            nested.layout(&module.types, ty),
            "{t}"
        );
    }
    let index = text::parse_type(&mut module.types, "index").expect("index");
    assert_eq!(dl.size_in_bits(&module.types, index), Ok(32));

    // A spirv.module spec that tightens the wrapper's i32 alignment.
    let bad = src.replace(
        inner,
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[128, 128]> : vector<2xi64>>>",
    );
    let mut module = text::parse(&bad).expect("module");
    let err = DataLayout::for_module(&mut module).expect_err("incompatible");
    assert!(
        matches!(
            err,
            LayoutError::Spec {
                scope: "spirv.module",
                ..
            }
        ),
        "{err:?}"
    );
}

/// Specs MLIR 19 rejects are rejected by kiln with MLIR's message.
#[test]
fn invalid_specs_are_rejected_as_mlir_rejects_them() {
    let bad = [
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 32]> : vector<2xi64>>>",
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 32, 16]> : vector<3xi64>>>",
        "#dlti.dl_spec<#dlti.dl_entry<vector<2xi32>, dense<[64]> : vector<1xi64>>>",
        "#dlti.dl_spec<#dlti.dl_entry<index, dense<[64]> : vector<1xi64>>>",
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64]> : vector<1xi64>>, #dlti.dl_entry<i32, dense<[64]> : vector<1xi64>>>",
        "#dlti.dl_spec<#dlti.dl_entry<\"dlti.endianness\", \"middle\">>",
        "#dlti.dl_spec<#dlti.dl_entry<\"dlti.foo\", 1 : i64>>",
        "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64]> : vector<1xi32>>>",
    ];
    for spec in bad {
        let out = common::run_tool(
            "mlir-opt-19",
            &[],
            &format!("module attributes {{dlti.dl_spec = {spec}}} {{}}\n"),
        );
        assert!(!out.status.success(), "MLIR accepts {spec}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mlir = stderr
            .lines()
            .find_map(|l| l.split_once("error: ").map(|(_, m)| m.trim().to_string()))
            .expect("an error line");
        let mut store = TypeStore::default();
        let err = DataLayoutSpec::parse(&mut store, spec).expect_err(spec);
        assert!(
            err.to_string().contains(&mlir),
            "{spec}:\n  kiln: {err}\n  MLIR: {mlir}"
        );
    }
    // Where MLIR accepts an alignment it cannot honour, kiln is stricter.
    let mut store = TypeStore::default();
    let spec = "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[12]> : vector<1xi64>>>";
    assert!(matches!(
        DataLayoutSpec::parse(&mut store, spec),
        Err(SpecError::BadAlignment { bits: 12, .. })
    ));
}
