//! The spv level as MLIR 19 takes it (issue 30 §3): small modules of our
//! own that `mlir-opt-19` / `mlir-translate-19` accept (each is checked
//! against the tool first: the oracle), which `kiln opt` and `kiln
//! translate --test-roundtrip` must accept too; and pieces MLIR 19 refuses
//! in its op verifiers, which kiln must refuse with the same reason.
//! `ci/spirv_mlir_conformance.py` runs MLIR 19's own test files the same
//! way.

use std::process::Command;

use crate::common::{kiln, run, spirv_val};

/// The module `mlir-opt-19` reads and verifies.
fn mlir_opt_accepts(src: &str) {
    let (code, _, err) = run(Command::new("mlir-opt-19").arg("-"), src.as_bytes());
    assert_eq!(
        code, 0,
        "mlir-opt-19 refuses the oracle input:\n{err}\n{src}"
    );
}

/// The module `mlir-translate-19 -test-spirv-roundtrip` serializes and reads back.
fn mlir_roundtrip_accepts(src: &str) {
    let (code, _, err) = run(
        Command::new("mlir-translate-19").args([
            "-no-implicit-module",
            "-test-spirv-roundtrip",
            "-",
        ]),
        src.as_bytes(),
    );
    assert_eq!(
        code, 0,
        "mlir-translate-19 refuses the oracle input:\n{err}\n{src}"
    );
}

fn kiln_ok(args: &[&str], src: &str) -> String {
    let (code, out, err) = kiln(args, src.as_bytes());
    assert_eq!(
        code, 0,
        "kiln {args:?} refuses what MLIR 19 accepts:\n{err}\n{src}"
    );
    out
}

/// A global variable with `descriptor_set` and no `binding`, a binding on
/// an Input variable, a variable initialized by another's address, and an
/// entry function with parameters: MLIR 19's verifier takes them all.
const RELAXED_GLOBALS: &str = r#"
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  "spirv.GlobalVariable"() <{descriptor_set = 2 : i32, sym_name = "set_only", type = !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>}> : () -> ()
  spirv.GlobalVariable @in bind(1, 3) : !spirv.ptr<f32, Input>
  spirv.GlobalVariable @alias initializer(@in) : !spirv.ptr<f32, Input>
  spirv.func @entry(%a: !spirv.ptr<f32, Input>) "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @entry, @in
}
"#;

#[test]
fn globals_and_entry_points_mlir_accepts_verify() {
    mlir_opt_accepts(RELAXED_GLOBALS);
    mlir_roundtrip_accepts(RELAXED_GLOBALS);
    kiln_ok(&["opt", "-"], RELAXED_GLOBALS);
    let back = kiln_ok(&["translate", "--test-roundtrip", "-"], RELAXED_GLOBALS);
    assert!(back.contains("descriptor_set = 2"), "{back}");
    assert!(back.contains("bind(1, 3)"), "{back}");
}

/// An i64 index into a StorageBuffer struct of PhysicalStorageBuffer
/// pointers, then a chain through the loaded pointer.
const PSB_I64_INDEX: &str = r#"
!data = !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>
!data_ptr = !spirv.ptr<!data, PhysicalStorageBuffer>
!table = !spirv.struct<(!data_ptr [0], !data_ptr [8])>
spirv.module PhysicalStorageBuffer64 GLSL450 requires #spirv.vce<v1.5, [Shader, Int64, PhysicalStorageBufferAddresses], [SPV_KHR_physical_storage_buffer]> {
  spirv.GlobalVariable @table bind(0, 0) : !spirv.ptr<!table, StorageBuffer>
  spirv.func @copy() "None" {
    %zero = spirv.Constant 0 : i64
    %one = spirv.Constant 1 : i64
    %t = spirv.mlir.addressof @table : !spirv.ptr<!table, StorageBuffer>
    %slot = spirv.AccessChain %t[%one] : !spirv.ptr<!table, StorageBuffer>, i64
    %p = spirv.Load "StorageBuffer" %slot : !data_ptr
    %elem = spirv.AccessChain %p[%zero, %one] : !data_ptr, i64, i64
    %v = spirv.Load "PhysicalStorageBuffer" %elem ["Aligned", 4] : f32
    spirv.Store "PhysicalStorageBuffer" %elem, %v ["Aligned", 4] : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @copy, @table
}
"#;

#[test]
fn physical_storage_buffer_chain_with_i64_indices_verifies() {
    mlir_opt_accepts(PSB_I64_INDEX);
    mlir_roundtrip_accepts(PSB_I64_INDEX);
    kiln_ok(&["opt", "-"], PSB_I64_INDEX);
    let back = kiln_ok(&["translate", "--test-roundtrip", "-"], PSB_I64_INDEX);
    assert!(
        back.contains("spirv.Load \"PhysicalStorageBuffer\""),
        "{back}"
    );
}

/// Decorations written as MLIR's dialect attributes.
const DIALECT_DECORATIONS: &str = r#"
spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Linkage], []> {
  spirv.GlobalVariable @ext {linkage_attributes = #spirv.linkage_attributes<linkage_name = "outside", linkage_type = <Import>>} : !spirv.ptr<f32, CrossWorkgroup>
  spirv.func @fast(%a: f32) -> f32 "None" {
    %0 = spirv.FMul %a, %a {fp_fast_math_mode = #spirv.fastmath_mode<NotNaN|NSZ>} : f32
    spirv.ReturnValue %0 : f32
  }
}
"#;

#[test]
fn linkage_and_fast_math_decorations_serialize() {
    mlir_roundtrip_accepts(DIALECT_DECORATIONS);
    let dir = crate::common::scratch("spv-mlir19-deco");
    let bin = dir.join("d.spv");
    let bin_s = bin.to_str().expect("utf-8 path");
    kiln_ok(
        &["translate", "--serialize", "-", "-o", bin_s],
        DIALECT_DECORATIONS,
    );
    let (code, dis, err) = run(Command::new("spirv-dis").arg(&bin), b"");
    assert_eq!(code, 0, "{err}");
    // LinkageAttributes has a string among its operands: OpDecorate, not
    // OpDecorateString (SPIR-V 1.4), in this SPIR-V 1.0 module.
    assert!(
        dis.contains("OpDecorate %ext LinkageAttributes \"outside\" Import"),
        "{dis}"
    );
    assert!(dis.contains("FPFastMathMode NotNaN|NSZ"), "{dis}");
    let (code, msg) = spirv_val(&bin, "spv1.0", &[]);
    assert_eq!(code, 0, "{msg}");
    // MLIR's binary of the same module, imported and written again by kiln.
    let theirs = dir.join("mlir.spv");
    let (code, _, err) = run(
        Command::new("mlir-translate-19")
            .args(["-no-implicit-module", "-serialize-spirv", "-", "-o"])
            .arg(&theirs),
        DIALECT_DECORATIONS.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let text = kiln_ok(
        &[
            "translate",
            "--deserialize",
            theirs.to_str().expect("utf-8 path"),
        ],
        "",
    );
    let again = dir.join("again.spv");
    kiln_ok(
        &[
            "translate",
            "--serialize",
            "-",
            "-o",
            again.to_str().expect("utf-8 path"),
        ],
        &text,
    );
    let (code, msg) = spirv_val(&again, "spv1.0", &[]);
    assert_eq!(code, 0, "{msg}\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// spv ops in `func.func` bodies, as MLIR's dialect tests write them
/// (`spirv.PtrAccessChain` in its custom form among them), and two modules
/// in one text.
const FUNC_HOSTED: &str = r#"
func.func @fadd(%a: f32, %b: vector<4xf32>) -> vector<4xf32> {
  %0 = spirv.FAdd %b, %b : vector<4xf32>
  %1 = spirv.GL.Sqrt %a : f32
  return %0 : vector<4xf32>
}
func.func private @nothing() {
  spirv.Return
}
func.func @element(%p: !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>, %i: i64, %j: i32) {
  %0 = spirv.PtrAccessChain %p[%i, %j] : !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>, i64, i32
  %1 = spirv.InBoundsPtrAccessChain %p[%i] : !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>, i64
  return
}
spirv.module Logical GLSL450 {
}
spirv.module Logical GLSL450 {
  spirv.func @g() "None" {
    spirv.Return
  }
}
"#;

#[test]
fn spv_ops_in_func_func_and_several_modules_verify() {
    mlir_opt_accepts(FUNC_HOSTED);
    let out = kiln_ok(&["opt", "-"], FUNC_HOSTED);
    assert!(out.contains("spirv.FAdd"), "{out}");
    assert!(
        out.contains("spirv.PtrAccessChain %arg0[%arg1, %arg2] : !spirv.ptr<!spirv.array<4 x f32>, CrossWorkgroup>, i64, i32"),
        "{out}"
    );
    assert_eq!(out.matches("spirv.module").count(), 3, "{out}");
}

/// A piece MLIR 19 refuses in its op verifier (`spirv.FAdd` on integers):
/// kiln's verifier refuses it inside `func.func` too.
#[test]
fn func_hosted_op_errors_are_reported() {
    let src =
        "func.func @bad(%a: i32) -> i32 {\n  %0 = spirv.FAdd %a, %a : i32\n  return %0 : i32\n}\n";
    let (code, _, err) = run(Command::new("mlir-opt-19").arg("-"), src.as_bytes());
    assert_ne!(code, 0, "mlir-opt-19 accepts the oracle's invalid input");
    assert!(err.contains("spirv.FAdd"), "{err}");
    let (code, _, err) = kiln(&["opt", "-"], src.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("2:8") && err.contains("spirv.FAdd") && err.contains("expected a float"),
        "{err}"
    );
}

/// A non-uniform group op in Device scope: MLIR 19 and kiln refuse it.
#[test]
fn non_uniform_group_ops_need_workgroup_or_subgroup_scope() {
    let src = "func.func @sum(%v: f32) -> f32 {\n  %0 = spirv.GroupNonUniformFAdd \"Device\" \"Reduce\" %v : f32\n  return %0 : f32\n}\n";
    let (code, _, err) = run(Command::new("mlir-opt-19").arg("-"), src.as_bytes());
    assert_ne!(code, 0, "mlir-opt-19 accepts the oracle's invalid input");
    assert!(
        err.contains("execution scope must be 'Workgroup' or 'Subgroup'"),
        "{err}"
    );
    let (code, _, err) = kiln(&["opt", "-"], src.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("2:8") && err.contains("execution scope must be 'Workgroup' or 'Subgroup'"),
        "{err}"
    );
    let ok = src.replace("Device", "Subgroup");
    mlir_opt_accepts(&ok);
    kiln_ok(&["opt", "-"], &ok);
}

/// A text holding nothing but comments: MLIR prints nothing and succeeds.
#[test]
fn comment_only_text_is_an_empty_program() {
    let src = "// nothing here\n\n";
    mlir_opt_accepts(src);
    assert_eq!(kiln_ok(&["opt", "-"], src), "");
}

/// Types MLIR 19 refuses when it parses them: kiln refuses them with the
/// same reason; the valid neighbours are accepted by both.
#[test]
fn matrix_and_array_stride_types_are_checked_as_mlir_does() {
    for (ty, why) in [
        (
            "!spirv.matrix<1 x vector<3xf32>>",
            "matrix is expected to have 2, 3, or 4 columns",
        ),
        (
            "!spirv.matrix<4 x i32>",
            "matrix must be composed using vector type",
        ),
        (
            "!spirv.matrix<4 x vector<3xi32>>",
            "matrix columns' elements must be of Float type",
        ),
        ("!spirv.matrix<4 x vector<8xf32>>", "but found 8"),
        (
            "!spirv.array<4 x f32, stride=0>",
            "ArrayStride must be greater than zero",
        ),
    ] {
        let src = format!("func.func private @f({ty}) -> ()\n");
        let (code, _, err) = run(Command::new("mlir-opt-19").arg("-"), src.as_bytes());
        assert_ne!(code, 0, "mlir-opt-19 accepts {ty}");
        assert!(err.contains(why), "mlir-opt-19 on {ty}: {err}");
        let (code, _, err) = kiln(&["opt", "-"], src.as_bytes());
        assert_eq!(code, 1, "kiln accepts {ty}: {err}");
        assert!(err.contains(why), "kiln on {ty}: {err}");
    }
    let ok = "func.func private @f(!spirv.matrix<4 x vector<2xf16>>, !spirv.array<4 x f32, stride=4>) -> ()\n";
    mlir_opt_accepts(ok);
    kiln_ok(&["opt", "-"], ok);
}
