//! Cooperative matrices (`SPV_KHR_cooperative_matrix`) in the spv IR:
//! `tests/coop_matrix/tiles.mlir` (an f16 and an i8 tile kernel) through
//! the text form, the binary form and SPIRV-Tools, compared with MLIR 19
//! (`mlir-opt-19`, `mlir-translate-19`), plus the verifier's rules and the
//! capabilities `update-vce` derives.
//!
//! The system `spirv-val` (SPIRV-Tools 2023.1 here) predates the extension,
//! so only the in-process validator (the spirv-tools crate's newer
//! SPIRV-Tools) checks these binaries; no test runs them on a device.

use crate::common;

use kiln_core::grammar::{Capability, Extension};
use kiln_core::ir::{AttrKind, Module};
use kiln_core::target::TargetEnv;
use kiln_core::text::{self, Prefix, PrintOptions};
use kiln_core::validate::{validate, ValidationEnv};

fn tiles() -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/coop_matrix/tiles.mlir");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(src: &str) -> Module {
    text::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn print(m: &Module, prefix: Prefix) -> String {
    text::print(m, &PrintOptions { prefix })
}

#[test]
fn tiles_print_and_parse_back_in_both_spellings() {
    let m = parse(&tiles());
    kiln_core::ir::verify::verify(&m).unwrap();
    for prefix in [Prefix::Spirv, Prefix::Spv] {
        let printed = print(&m, prefix);
        let again = print(&parse(&printed), prefix);
        assert_eq!(printed, again);
    }
    let printed = print(&m, Prefix::Spirv);
    assert!(printed.contains(
        "spirv.KHR.CooperativeMatrixLoad %10, %2, <ColumnMajor>, <Nontemporal> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>"
    ), "{printed}");
    assert!(
        printed.contains("<ASigned|BSigned|CSigned|ResultSigned|AccSat>"),
        "{printed}"
    );
    assert!(
        printed.contains(
            "spirv.KHR.CooperativeMatrixLength : !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>"
        ),
        "{printed}"
    );
}

/// MLIR 19 reads kiln's print, and prints what kiln prints (after a kiln
/// round trip of its output, which renames values alike).
#[test]
fn tiles_text_agrees_with_mlir_opt() {
    let m = parse(&tiles());
    let ours = print(&m, Prefix::Spirv);
    let theirs = common::mlir_opt(&[], &ours);
    assert_eq!(
        unwrapped(&ours),
        unwrapped(&print(&parse(&theirs), Prefix::Spirv))
    );
    // MLIR's generic form names the attributes as kiln stores them.
    let generic = common::mlir_opt(&["--mlir-print-op-generic"], &ours);
    assert_eq!(
        unwrapped(&ours),
        unwrapped(&print(&parse(&generic), Prefix::Spirv))
    );
}

/// The trimmed lines of a printed module, without a builtin `module { }`
/// around it.
fn unwrapped(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(|l| l.trim().to_string()).collect();
    if lines.first().is_some_and(|l| l == "module {") {
        lines.remove(0);
        lines.pop();
    }
    lines
}

#[test]
fn tiles_serialize_validate_and_round_trip_through_the_binary() {
    let m = parse(&tiles());
    let words = kiln_core::binary::serialize(&m).unwrap();
    validate(&words, ValidationEnv::Vulkan1_3).unwrap_or_else(|e| panic!("{e}"));
    let back = kiln_core::binary::deserialize(&words).unwrap_or_else(|e| panic!("{e}"));
    kiln_core::ir::verify::verify(&back).unwrap_or_else(|e| panic!("{e}"));
    let again = kiln_core::binary::serialize(&back).unwrap();
    assert_eq!(words, again, "{}", print(&back, Prefix::Spirv));
    // The deserialized module prints the same ops and types.
    let text = print(&back, Prefix::Spirv);
    for needle in [
        "!spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>",
        "!spirv.coopmatrix<16x16xi8, Subgroup, MatrixB>",
        "<RowMajor>, <Volatile>",
        "spirv.KHR.CooperativeMatrixMulAdd",
        "spirv.KHR.CooperativeMatrixStore",
        "spirv.KHR.CooperativeMatrixLength",
        "spirv.FConvert",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
}

/// `mlir-translate-19 --deserialize-spirv` reads kiln's binary (as SPIR-V
/// 1.5: MLIR 19's deserializer stops there) into a module with the same
/// cooperative-matrix ops, which kiln reads and serializes to a valid binary.
#[test]
fn mlir_translate_reads_kiln_binary() {
    let m = parse(&tiles().replace("#spirv.vce<v1.6", "#spirv.vce<v1.5"));
    let words = kiln_core::binary::serialize(&m).unwrap();
    validate(&words, ValidationEnv::Vulkan1_2).unwrap_or_else(|e| panic!("{e}"));
    let path = std::env::temp_dir().join(format!("kiln-coop-{}.spv", std::process::id()));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).unwrap();
    let out = common::run_tool(
        "mlir-translate-19",
        &["--deserialize-spirv", path.to_str().unwrap()],
        "",
    );
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs = String::from_utf8(out.stdout).unwrap();
    assert!(
        theirs.contains("spirv.KHR.CooperativeMatrixMulAdd"),
        "{theirs}"
    );
    let module = parse(&theirs);
    let again = kiln_core::binary::serialize(&module).unwrap();
    validate(&again, ValidationEnv::Vulkan1_2).unwrap_or_else(|e| panic!("{e}"));
    let back = kiln_core::binary::deserialize(&again).unwrap();
    let ours = kiln_core::binary::deserialize(&words).unwrap();
    assert_eq!(
        ops_of(&print(&back, Prefix::Spirv)),
        ops_of(&print(&ours, Prefix::Spirv))
    );
}

/// The op names of a printed module, in order.
fn ops_of(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.split_once(" = ").map_or(l, |(_, r)| r);
            l.starts_with("spirv.KHR.")
                .then(|| l.split(' ').next().unwrap().to_string())
        })
        .collect()
}

#[test]
fn update_vce_derives_the_cooperative_matrix_capability() {
    let src = tiles();
    let mut m = parse(&src);
    let env: TargetEnv = "#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16, Int8, StorageBuffer16BitAccess, StorageBuffer8BitAccess, VulkanMemoryModel, CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix]>, #spirv.resource_limits<>>"
        .parse()
        .unwrap();
    kiln_core::passes::update_vce(&mut m, &env).unwrap();
    let Some(AttrKind::Vce(vce)) = m.attr_kind(m.top(), "vce_triple") else {
        panic!("no triple");
    };
    assert!(
        vce.capabilities.contains(&Capability::VulkanMemoryModel),
        "{vce:?}"
    );
    assert!(
        vce.capabilities.contains(&Capability::CooperativeMatrixKHR),
        "{vce:?}"
    );
    assert!(
        vce.extensions.contains(&Extension::SpvKhrCooperativeMatrix),
        "{vce:?}"
    );
    // Without the capability in the env the module is refused.
    let env: TargetEnv = "#spirv.target_env<#spirv.vce<v1.6, [Shader, Float16, Int8, StorageBuffer16BitAccess, StorageBuffer8BitAccess], [SPV_KHR_cooperative_matrix]>, #spirv.resource_limits<>>"
        .parse()
        .unwrap();
    let mut m = parse(&src);
    let err = kiln_core::passes::update_vce(&mut m, &env).unwrap_err();
    assert!(err.to_string().contains("CooperativeMatrixKHR"), "{err}");
}

/// One function body (with `%a`, `%b`, `%c` f16/f16/f32 tiles loaded) for
/// the verifier cases.
fn with_body(body: &str) -> String {
    format!(
        r#"spirv.module Logical GLSL450 {{
  spirv.GlobalVariable @h bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @f bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @k() "None" {{
    %z = spirv.Constant 0 : i32
    %s = spirv.Constant 16 : i32
    %h = spirv.mlir.addressof @h : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %f = spirv.mlir.addressof @f : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %hp = spirv.AccessChain %h[%z, %z] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %fp = spirv.AccessChain %f[%z, %z] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %a = spirv.KHR.CooperativeMatrixLoad %hp, %s, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x8xf16, Subgroup, MatrixA>
    %b = spirv.KHR.CooperativeMatrixLoad %hp, %s, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<8x16xf16, Subgroup, MatrixB>
    %c = spirv.KHR.CooperativeMatrixLoad %fp, %s, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
{body}
    spirv.Return
  }}
}}"#
    )
}

fn verify_error(body: &str) -> String {
    let m = parse(&with_body(body));
    match kiln_core::ir::verify::verify(&m) {
        Ok(()) => panic!("verified:\n{body}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn verifier_accepts_a_well_formed_mul_add() {
    let m = parse(&with_body(
        "    %d = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c : !spirv.coopmatrix<16x8xf16, Subgroup, MatrixA>, !spirv.coopmatrix<8x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>\n    %e = spirv.FMul %d, %d : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>\n    spirv.KHR.CooperativeMatrixStore %fp, %e, %s, <ColumnMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32",
    ));
    kiln_core::ir::verify::verify(&m).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn verifier_rejects_malformed_cooperative_matrix_ops() {
    let cases = [
        // A and B swapped: wrong uses.
        (
            "    %d = spirv.KHR.CooperativeMatrixMulAdd %b, %a, %c : !spirv.coopmatrix<8x16xf16, Subgroup, MatrixB>, !spirv.coopmatrix<16x8xf16, Subgroup, MatrixA> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>",
            "A has use MatrixB, expected MatrixA",
        ),
        // Signedness flags on float matrices.
        (
            "    %d = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c, <ASigned> : !spirv.coopmatrix<16x8xf16, Subgroup, MatrixA>, !spirv.coopmatrix<8x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>",
            "need integer matrices",
        ),
        // An integer op on float elements.
        (
            "    %d = spirv.IAdd %c, %c : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>",
            "expected integer elements",
        ),
        // GLSL ops are not defined on matrices.
        (
            "    %d = spirv.GL.Exp %c : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>",
            "not defined on cooperative matrices",
        ),
        // A conversion that changes the use.
        (
            "    %d = spirv.FConvert %c : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc> to !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>",
            "expected the same shape, scope and use",
        ),
        // Storing a matrix through a pointer into Function memory.
        (
            "    %v = spirv.Variable : !spirv.ptr<f32, Function>\n    spirv.KHR.CooperativeMatrixStore %v, %c, %s, <RowMajor> : !spirv.ptr<f32, Function>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32",
            "StorageBuffer, Workgroup or PhysicalStorageBuffer",
        ),
    ];
    for (body, want) in cases {
        let err = verify_error(body);
        assert!(err.contains(want), "{body}\nexpected {want:?}, got:\n{err}");
    }
}

#[test]
fn text_parser_rejects_malformed_coopmatrix_types() {
    for (ty, want) in [
        (
            "!spirv.coopmatrix<16x16xi1, Subgroup, MatrixA>",
            "integers or floats",
        ),
        (
            "!spirv.coopmatrix<16x16xf16, Nowhere, MatrixA>",
            "unknown scope",
        ),
        (
            "!spirv.coopmatrix<16x16xf16, Subgroup, MatrixC>",
            "unknown cooperative matrix use",
        ),
    ] {
        let src = format!(
            "spirv.module Logical GLSL450 {{\n  spirv.func @f(%x: {ty}) \"None\" {{\n    spirv.Return\n  }}\n}}"
        );
        let err = text::parse(&src).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(want), "{ty}: {err}");
    }
}

/// A module declaring one cooperative matrix type whose rows are `rows`
/// (`%3`: a specialization constant when `spec`) and whose use is `usage`.
fn coop_type_module(spec: bool, usage: u32) -> Vec<u32> {
    use spirv::Op;
    let mut a = common::Asm::preamble(8);
    a.op(Op::TypeFloat, &[1, 16]);
    a.op(Op::TypeInt, &[2, 32, 0]);
    a.op(
        if spec { Op::SpecConstant } else { Op::Constant },
        &[2, 3, 16],
    );
    a.op(Op::Constant, &[2, 4, 3]); // Subgroup
    a.op(Op::Constant, &[2, 5, usage]);
    a.op(Op::TypeCooperativeMatrixKHR, &[6, 1, 4, 3, 3, 5]);
    a.words
}

#[test]
fn deserializer_reads_and_refuses_cooperative_matrix_types() {
    let m = kiln_core::binary::deserialize(&coop_type_module(false, 2))
        .unwrap_or_else(|e| panic!("{e}"));
    let types = &m.types;
    let found = (0..types.len())
        .filter_map(|i| types.coop_matrix(kiln_core::ir::Type::from_index(i)))
        .collect::<Vec<_>>();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].rows, found[0].columns), (16, 16));
    assert_eq!(found[0].usage, kiln_core::ir::CoopMatrixUse::MatrixAcc);
    for (words, want) in [
        (
            coop_type_module(true, 2),
            "row count %3 is a specialization constant",
        ),
        (
            coop_type_module(false, 7),
            "unknown cooperative matrix use 7",
        ),
    ] {
        let err = kiln_core::binary::deserialize(&words)
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{err}");
    }
}
