//! `kiln amber`: one line per file (PASS, FAIL with where and why, SKIP
//! with why), timing lines under timed files, the summary, and exit status
//! 1 exactly when a file failed. Runs kiln's own files from
//! gpu-tests/tests/amber on the default device (lavapipe in CI).

use std::path::PathBuf;

use crate::common::{kiln, scratch};

fn file(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../gpu-tests/tests/amber")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn pass_fail_skip_and_the_summary() {
    let (pass, fail, skip) = (
        file("copy.amber"),
        file("expect_fails.amber"),
        file("skip_missing_property.amber"),
    );
    let (code, out, err) = kiln(&["amber", &pass, &fail, &skip], b"");
    assert_eq!(code, 1, "a failure exits 1\n{out}{err}");
    assert_eq!(
        out,
        format!(
            "PASS {pass}\n\
             FAIL {fail}: line 26: EXPECT out IDX 0 EQ: value 2 (byte 8): expected 5, got 4\n\
             SKIP {skip}: device property FloatControlsProperties.shaderDenormPreserveFloat32 \
             is not supported\n\
             1 passed, 1 failed, 1 skipped\n"
        )
    );
    assert_eq!(err, "");

    // Skips are not failures.
    let (code, out, _) = kiln(&["amber", &pass, &skip], b"");
    assert_eq!(code, 0);
    assert!(out.ends_with("1 passed, 0 failed, 1 skipped\n"), "{out}");
}

#[test]
fn timed_runs_are_reported_under_their_file() {
    let timed = file("timed_execution.amber");
    let (code, out, err) = kiln(&["amber", &timed], b"");
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], format!("PASS {timed}"));
    let t = lines[1];
    assert!(
        t.starts_with("  line 26: RUN TIMED_EXECUTION pipeline: ")
            && t.contains(" ms on the device (submit ")
            && t.ends_with(" ms)"),
        "{t}"
    );
    assert_eq!(lines[2], "1 passed, 0 failed, 0 skipped");
}

#[test]
fn bad_files_fail_with_their_location() {
    let dir = scratch("amber");
    let bad = dir.join("bad.amber");
    std::fs::write(&bad, "#!amber\nFOO bar\n").unwrap();
    let missing = dir.join("missing.amber");
    let (bad, missing) = (bad.display().to_string(), missing.display().to_string());
    let (code, out, _) = kiln(&["amber", &bad, &missing], b"");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "FAIL {bad}:2:1: unknown command 'FOO'\n\
             FAIL {missing}: cannot read the file: No such file or directory (os error 2)\n\
             0 passed, 2 failed, 0 skipped\n"
        )
    );
}

#[test]
fn options() {
    let invalid = file("invalid_shader.amber");
    let (code, out, _) = kiln(&["amber", &invalid], b"");
    assert_eq!(code, 1);
    assert!(
        out.contains("spirv-val (vulkan1.3): [VUID-StandaloneSpirv-PushConstant-06675]"),
        "{out}"
    );
    // Unvalidated, the driver gets the module (and lavapipe runs it).
    let (code, out, _) = kiln(&["amber", "--no-validate", &invalid], b"");
    assert_eq!(
        (code, out),
        (
            0,
            format!("PASS {invalid}\n1 passed, 0 failed, 0 skipped\n")
        )
    );

    let glsl = file("glsl_storage_add.amber");
    let (code, out, _) = kiln(&["amber", "-t", "spv9.9", &glsl], b"");
    assert_eq!(code, 1);
    assert_eq!(
        out,
        format!(
            "FAIL {glsl}: line 5: shader add: unknown target environment 'spv9.9'\n\
             0 passed, 1 failed, 0 skipped\n"
        )
    );
    let (code, out, _) = kiln(
        &["amber", "--target-env", "vulkan1.1", "--validation", &glsl],
        b"",
    );
    assert_eq!(
        (code, out),
        (0, format!("PASS {glsl}\n1 passed, 0 failed, 0 skipped\n"))
    );

    let (code, _, err) = kiln(&["amber"], b"");
    assert_eq!(code, 1);
    assert!(err.starts_with("error: "), "{err}");
}
