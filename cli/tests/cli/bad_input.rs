//! Bad input gets one `error: ...` line on stderr and exit status 1, never a
//! panic: each case of the issue's list is fed to the real binary.

use common::kiln;

use crate::common;

/// Asserts exit 1, an `error:` first line that mentions `needle`, no panic.
fn assert_rejected(args: &[&str], stdin: &[u8], needle: &str) {
    let (code, _out, err) = kiln(args, stdin);
    assert!(
        !err.contains("panicked"),
        "kiln panicked on {args:?}:\n{err}"
    );
    assert_eq!(code, 1, "exit code for {args:?}, stderr:\n{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(first.starts_with("error: "), "first stderr line: {first:?}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "stderr for {args:?} should mention {needle:?}:\n{err}"
    );
}

const GOOD: &str = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @main() "None" {
    %0 = spirv.Constant 1 : i32
    %1 = spirv.IAdd %0, %0 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
"#;

#[test]
fn good_module_is_accepted() {
    let (code, out, err) = kiln(&["opt", "-"], GOOD.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("spirv.IAdd"));
}

#[test]
fn unknown_op() {
    let src = GOOD.replace("spirv.IAdd %0, %0 : i32", "spirv.IFrobnicate %0, %0 : i32");
    assert_rejected(&["opt", "-"], src.as_bytes(), "IFrobnicate");
}

#[test]
fn type_mismatch() {
    let src = GOOD.replace(
        "%1 = spirv.IAdd %0, %0 : i32",
        "%f = spirv.Constant 1.0 : f32\n    %1 = spirv.IAdd %0, %f : i32",
    );
    assert_rejected(&["opt", "-"], src.as_bytes(), "f32");
}

#[test]
fn malformed_attribute() {
    let src = GOOD.replace(
        "#spirv.vce<v1.0, [Shader], []>",
        "#spirv.vce<v1.0, [Shader, []>",
    );
    assert_rejected(&["opt", "-"], src.as_bytes(), "error");
    let src = GOOD.replace("\"LocalSize\", 1, 1, 1", "\"LocalSize\", 1, x, 1");
    assert_rejected(&["opt", "-"], src.as_bytes(), "expected");
}

#[test]
fn unterminated_region() {
    let src = GOOD.trim_end().trim_end_matches('}');
    assert_rejected(&["opt", "-"], src.as_bytes(), "expected");
}

#[test]
fn selection_without_merge_block() {
    let src = GOOD.replace(
        "    spirv.Return\n  }\n  spirv.EntryPoint",
        "    %c = spirv.Constant true\n    spirv.mlir.selection {\n      spirv.BranchConditional %c, ^bb1, ^bb2\n    ^bb1:\n      spirv.Return\n    ^bb2:\n      spirv.Return\n    }\n    spirv.Return\n  }\n  spirv.EntryPoint",
    );
    assert_rejected(&["opt", "-"], src.as_bytes(), "merge");
}

#[test]
fn truncated_text_file() {
    // `spirv.modu` is an op of its own (as mlir-opt-19 reads it: "custom
    // op 'spirv.modu' is unknown"); the longer cuts end inside the module.
    assert_rejected(
        &["opt", "-"],
        &GOOD.as_bytes()[..10],
        "unknown op 'spirv.modu'",
    );
    for cut in [GOOD.len() / 2, GOOD.len() - 3] {
        assert_rejected(&["opt", "-"], &GOOD.as_bytes()[..cut], "expected");
    }
}

#[test]
fn truncated_binary() {
    // A valid binary cut in the middle of an instruction.
    let (code, spv, err) = {
        let dir = std::env::temp_dir().join(format!("kiln-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("good.spv");
        let (code, _, err) = kiln(
            &["translate", "--serialize", "-", "-o", out.to_str().unwrap()],
            GOOD.as_bytes(),
        );
        (code, std::fs::read(&out).unwrap_or_default(), err)
    };
    assert_eq!(code, 0, "{err}");
    let cut = &spv[..spv.len() - 6];
    assert_rejected(&["validate", "-"], cut, "multiple of 4");
    let cut = &spv[..spv.len() - 8];
    let (code, out, err) = kiln(&["validate", "-"], cut);
    assert!(!err.contains("panicked"));
    assert_eq!(code, 1, "truncated module must not validate: {out}{err}");
    assert_rejected(&["validate", "-"], &spv[..12], "header");
}

#[test]
fn wrong_buffer_type_on_command_line() {
    let dir = std::env::temp_dir().join(format!("kiln-badbuf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("m.spv");
    let (code, _, err) = kiln(
        &["translate", "--serialize", "-", "-o", out.to_str().unwrap()],
        GOOD.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_rejected(
        &[
            "run-spv",
            out.to_str().unwrap(),
            "--entry",
            "main",
            "--grid",
            "1,1,1",
            "--buf",
            "0:0=f33[4]=0",
        ],
        b"",
        "f33",
    );
}

#[test]
fn deserialize_rejects_empty_input() {
    let (code, _, err) = kiln(&["translate", "--deserialize", "-"], b"");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("is not a SPIR-V binary"),
        "{err}"
    );
}

#[test]
fn missing_file() {
    assert_rejected(&["opt", "/nonexistent/kiln/x.mlir"], b"", "cannot read");
}
