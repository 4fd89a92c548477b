//! `kiln opt --update-vce`: a module that adds 64-bit integers fails under a
//! target env without Int64 (naming the op and Int64) and gains Int64 under
//! one that has it; the result serializes and validates.

use crate::common;

const I64_ADD: &str = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @main() "None" {
    %0 = spirv.Constant 1 : i64
    %1 = spirv.IAdd %0, %0 : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
"#;

fn kiln(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    common::run_bytes(common::kiln_cmd().args(args), stdin)
}

#[test]
fn update_vce_without_int64_names_op_and_capability() {
    let (code, _, err) = kiln(&["opt", "--update-vce", "-"], I64_ADD.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains("Int64"), "{err}");
    assert!(
        err.contains("spirv.Constant") || err.contains("spirv.IAdd"),
        "{err}"
    );
    assert!(err.contains("3:"), "the message names the location: {err}");
}

#[test]
fn update_vce_with_int64_gains_it_and_validates() {
    let env = "#spirv.target_env<#spirv.vce<v1.0, [Shader, Int64], []>, #spirv.resource_limits<>>";
    let (code, out, err) = kiln(
        &["opt", "--update-vce", "--target-env", env, "-"],
        I64_ADD.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("requires #spirv.vce<v1.0, [Int64, Shader], []>"),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("kiln-uvce-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join("m.spv");
    let (code, _, err) = kiln(
        &["translate", "--serialize", "-", "-o", spv.to_str().unwrap()],
        text.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = kiln(
        &[
            "validate",
            spv.to_str().unwrap(),
            "--target-env",
            "vulkan1.0",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(String::from_utf8(out).unwrap().trim(), "valid");
    let _ = std::fs::remove_dir_all(&dir);
}
