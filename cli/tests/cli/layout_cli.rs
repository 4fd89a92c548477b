//! `kiln layout`: text and JSON output, and errors.
//!
//! The numbers the command prints must be the library's answers
//! (`DataLayout`, `layout::block`), which core's tests check against
//! `mlir-opt-19 --test-data-layout-query` and glslang; one case here asks
//! the MLIR oracle directly too.

use std::process::Command;

use kiln_core::ir::TypeStore;
use kiln_core::kernel;
use kiln_core::layout::block::{self, BlockRules};
use kiln_core::layout::{DataLayout, DataLayoutSpec};
use kiln_core::text;
use serde_json::Value;

use crate::common;

const SPEC: &str = "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[64, 128]> : vector<2xi64>>, \
                    #dlti.dl_entry<index, 32 : i64>>";

fn kiln(args: &[&str]) -> (i32, String, String) {
    common::run(common::kiln_cmd().arg("layout").args(args), b"")
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (code, out, err) = kiln(&all);
    assert_eq!(code, 0, "kiln layout {args:?}: {err}");
    assert!(err.is_empty(), "{err}");
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["abi_align", "offsets", "preferred_align", "size", "stride"],
        "exactly the documented keys"
    );
    v
}

/// The JSON kiln should print for a spv type under the data layout.
fn expected_default(ty: &str, spec: Option<&str>) -> Value {
    let mut types = TypeStore::default();
    let dl = match spec {
        Some(s) => DataLayout::new(&DataLayoutSpec::parse(&mut types, s).expect("spec")),
        None => DataLayout::default(),
    };
    let t = text::parse_type(&mut types, ty).expect("type");
    let l = dl.layout(&types, t).expect("layout");
    let offsets = dl.struct_offsets(&types, t).ok();
    let stride = dl.element_stride(&types, t).ok();
    serde_json::json!({
        "size": l.size(),
        "abi_align": l.abi_align,
        "preferred_align": l.preferred_align,
        "offsets": offsets,
        "stride": stride,
    })
}

fn expected_block(ty: &str, rules: BlockRules) -> Value {
    let mut types = TypeStore::default();
    let t = text::parse_type(&mut types, ty).expect("type");
    let l = block::layout(&types, t, rules).expect("layout");
    serde_json::json!({
        "size": l.size,
        "abi_align": l.align,
        "preferred_align": l.align,
        "offsets": l.offsets(),
        "stride": l.stride(),
    })
}

#[test]
fn json_matches_the_library_for_spv_types() {
    for ty in [
        "i32",
        "f16",
        "index",
        "vector<3xf32>",
        "!spirv.struct<(i8, i32)>",
        "!spirv.struct<(i8 [0], f64 [8])>",
        "!spirv.array<4 x vector<3xf32>>",
        "!spirv.rtarray<f32>",
        "!spirv.matrix<3 x vector<3xf32>>",
        "!spirv.ptr<f32, StorageBuffer>",
    ] {
        assert_eq!(json(&[ty]), expected_default(ty, None), "{ty}");
        assert_eq!(
            json(&[ty, "--spec", SPEC]),
            expected_default(ty, Some(SPEC)),
            "{ty} with spec"
        );
    }
}

#[test]
fn json_matches_the_library_for_block_rules() {
    for ty in [
        "!spirv.struct<(f32, vector<3xf32>, f32, vector<2xf32>)>",
        "!spirv.array<4 x f32>",
        "!spirv.struct<(!spirv.array<3 x vector<3xf32>>, f32)>",
        "!spirv.matrix<3 x vector<3xf32>>",
        "vector<3xf32>",
    ] {
        for (name, rules) in [
            ("std140", BlockRules::Std140),
            ("std430", BlockRules::Std430),
            ("scalar", BlockRules::Scalar),
        ] {
            assert_eq!(
                json(&[ty, "--rules", name]),
                expected_block(ty, rules),
                "{ty} {name}"
            );
        }
    }
}

#[test]
fn known_block_offsets() {
    // Vulkan's std140 vs scalar rules for { float; vec3; float; vec2 }
    // (core's block_layout test finds the same numbers in glslang's output).
    let ty = "!spirv.struct<(f32, vector<3xf32>, f32, vector<2xf32>)>";
    let v = json(&[ty, "--rules", "std140"]);
    assert_eq!(v["offsets"], serde_json::json!([0, 16, 28, 32]));
    let v = json(&[ty, "--rules", "scalar"]);
    assert_eq!(v["offsets"], serde_json::json!([0, 4, 16, 20]));
    let v = json(&["!spirv.array<4 x f32>", "--rules", "std140"]);
    assert_eq!(v["stride"], 16);
}

#[test]
fn kernel_types_answer_as_the_library_does() {
    for ty in ["memref<4x8xf32>", "memref<*xf16>", "vector<4x3xf32>"] {
        let mut types = TypeStore::default();
        let dl = DataLayout::new(&DataLayoutSpec::parse(&mut types, SPEC).expect("spec"));
        let l = dl
            .kernel_layout(&kernel::parse_type(ty).expect("kernel type"))
            .expect("layout");
        let v = json(&[ty, "--spec", SPEC]);
        assert_eq!(v["size"], l.size(), "{ty}");
        assert_eq!(v["abi_align"], l.abi_align, "{ty}");
        assert_eq!(v["preferred_align"], l.preferred_align, "{ty}");
        assert_eq!(v["offsets"], Value::Null);
        assert_eq!(v["stride"], Value::Null);
    }
}

/// `i32` under SPEC, straight from MLIR's query pass.
#[test]
fn text_output_agrees_with_mlir() {
    let src = format!(
        "module attributes {{dlti.dl_spec = {SPEC}}} {{\n  func.func @q() {{\n    \"test.data_layout_query\"() : () -> i32\n    return\n  }}\n}}\n"
    );
    let (code, mlir, err) = common::run(
        Command::new("mlir-opt-19")
            .args(["--test-data-layout-query", "--allow-unregistered-dialect"]),
        src.as_bytes(),
    );
    assert_eq!(code, 0, "mlir-opt-19 failed: {err}\n{src}");
    let get = |key: &str| {
        // Keys follow `{` or `, ` in the attribute dictionary.
        let at = [format!("{{{key} = "), format!(", {key} = ")]
            .iter()
            .find_map(|k| mlir.find(k.as_str()).map(|i| i + k.len()))
            .expect(key);
        mlir[at..].split(' ').next().expect("value").to_string()
    };
    let (code, text, err) = kiln(&["i32", "--spec", SPEC]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        text,
        format!(
            "size: {}\nabi_align: {}\npreferred_align: {}\n",
            get("size"),
            get("alignment"),
            get("preferred")
        )
    );
}

#[test]
fn text_output_lists_offsets_and_stride() {
    let (code, text, err) = kiln(&["!spirv.struct<(i8, vector<3xf32>)>", "--rules", "std430"]);
    assert_eq!(code, 0, "{err}");
    let v = expected_block("!spirv.struct<(i8, vector<3xf32>)>", BlockRules::Std430);
    assert_eq!(
        text,
        format!(
            "size: {}\nabi_align: {}\npreferred_align: {}\noffsets: 0, {}\n",
            v["size"], v["abi_align"], v["preferred_align"], v["offsets"][1]
        )
    );
    let (code, text, _) = kiln(&["!spirv.array<4 x vector<3xf32>>"]);
    assert_eq!(code, 0);
    assert!(text.ends_with("stride: 16\n"), "{text}");
    assert!(!text.contains("offsets"), "{text}");
}

fn assert_error(args: &[&str], needle: &str) {
    let (code, out, err) = kiln(args);
    assert_eq!(code, 1, "kiln layout {args:?} should fail: {out}");
    assert!(out.is_empty(), "nothing on stdout: {out}");
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "expected '{needle}' in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn errors_are_one_line_and_exit_1() {
    assert_error(&["i33x"], "invalid type 'i33x'");
    assert_error(&["!spirv.struct<(i8"], "invalid type");
    assert_error(&["memref<4xq>"], "unknown or unsupported type 'q'");
    assert_error(&["i32", "--spec", "bad"], "invalid --spec");
    assert_error(
        &[
            "i32",
            "--spec",
            "#dlti.dl_spec<#dlti.dl_entry<i32, dense<[12]> : vector<1xi64>>>",
        ],
        "invalid --spec",
    );
    assert_error(&["i32", "--rules", "std999"], "std999");
    assert_error(&["i32", "--rules", "std430", "--spec", SPEC], "--spec");
    assert_error(&["memref<4xf32>", "--rules", "std140"], "kernel type");
    assert_error(&["!spirv.sampler"], "has no data layout");
    assert_error(
        &["!spirv.struct<(f32, i1)>", "--rules", "std430"],
        "member 1",
    );
    // Explicit offsets that break the rules name the member.
    assert_error(
        &[
            "!spirv.struct<(f32 [0], vector<4xf32> [4])>",
            "--rules",
            "std430",
        ],
        "member 1 at offset 4",
    );
}
