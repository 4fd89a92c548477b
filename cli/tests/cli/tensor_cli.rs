//! `kiln run` of IREE's end-to-end test format (on the reference
//! evaluator) and `kiln opt` of tensor programs: output, exit status and
//! one-line errors.

use crate::common::kiln;

fn e2e(name: &str) -> String {
    format!(
        "{}/../core/tests/tensor/e2e/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn corpus(name: &str) -> String {
    format!("{}/../core/tests/tensor/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn runs_passing_e2e_files_with_exit_status_0() {
    let path = e2e("elementwise.mlir");
    let (status, out, err) = kiln(&["run", "--reference", "--no-timing", &path], b"");
    assert_eq!(status, 0, "{err}\n{out}");
    assert!(err.is_empty(), "{err}");
    assert!(out.starts_with("[==========] Running 10 tests from 1 test suite.\n[----------] Global test environment set-up.\n[----------] 10 tests from module\n[ RUN      ] module.addf_mulf_divf_f32\n[       OK ] module.addf_mulf_divf_f32\n"), "{out}");
    assert!(
        out.ends_with("[==========] 10 tests from 1 test suite ran.\n[  PASSED  ] 10 tests.\n"),
        "{out}"
    );
}

#[test]
fn failing_checks_give_exit_status_1_and_iree_messages() {
    let path = e2e("failing.mlir");
    let (status, out, err) = kiln(&["run", "--reference", "--no-timing", &path], b"");
    assert_eq!(status, 1, "{err}\n{out}");
    assert!(err.is_empty(), "{err}");
    let expected = format!(
        "[ RUN      ] module.near_f32\n{path}:19:3: Failure\nExpected near equality of these values. Contents does not match to tolerance parameters atol=0.0001, rtol=0. The first failure occurs at index 0 as the lhs value 1 differs from the rhs value 0.999 by -1.000e-03.\n  lhs:\n    5xf32=1 2 3 4 5\n  rhs:\n    5xf32=0.999 2 3 4 5\n[  FAILED  ] module.near_f32, where GetParam() = 2\n"
    );
    assert!(out.contains(&expected), "{out}");
    assert!(
        out.contains("[  FAILED  ] 6 tests, listed below:\n"),
        "{out}"
    );
    // One function.
    let (status, out, _) = kiln(
        &[
            "run",
            "--reference",
            "--no-timing",
            "--function",
            "passes",
            &path,
        ],
        b"",
    );
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("[       OK ] module.passes\n") && !out.contains("near_f32"),
        "{out}"
    );
    let (status, out, _) = kiln(
        &[
            "run",
            "--reference",
            "--no-timing",
            "--function",
            "exact_i32",
            &path,
        ],
        b"",
    );
    assert_eq!(status, 1, "{out}");
    // Timing lines as googletest prints them by default.
    let (_, out, _) = kiln(&["run", "--reference", "--function", "passes", &path], b"");
    assert!(
        out.lines()
            .any(|l| l.starts_with("[       OK ] module.passes (") && l.ends_with(" ms)")),
        "{out}"
    );
}

#[test]
fn without_reference_the_device_runs_the_tests() {
    // The device's output (lavapipe) is the reference evaluator's.
    let path = e2e("elementwise.mlir");
    let (status, out, err) = kiln(&["run", "--no-timing", &path], b"");
    assert_eq!(status, 0, "{err}\n{out}");
    let (_, reference, _) = kiln(&["run", "--reference", "--no-timing", &path], b"");
    assert_eq!(out, reference);
}

#[test]
fn bad_tensor_input_is_one_located_error_line() {
    let cases: [(&str, &str); 4] = [
        (
            "func.func @f() {\n  %a = util.unfoldable_constant dense<1.0> : tensor<4xf32>\n  %r = arith.addf %a, %b : tensor<4xf32>\n  return\n}\n",
            "error: <stdin>:3:23: use of undefined value '%b'\n",
        ),
        (
            "func.func @f() {\n  %a = util.unfoldable_constant dense<1.0> : tensor<4xf32>\n  %r = linalg.frobnicate %a : tensor<4xf32>\n  return\n}\n",
            "error: <stdin>:3:8: unsupported op 'linalg.frobnicate'; supported linalg ops: ",
        ),
        (
            "func.func @f() {\n  %a = util.unfoldable_constant dense<1.0> : tensor<4x8xf32>\n  %e = tensor.empty() : tensor<4x4xf32>\n  %r = linalg.matmul ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>\n  return\n}\n",
            "error: <stdin>:4:8: 'linalg.matmul' op inferred input/output operand #1 has shape's dimension #0 to be 8, but found 4\n",
        ),
        (
            "func.func @f() {\n  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<5xf32> -> tensor<?xf32>\n  %c = tensor.cast %a : tensor<?xf32> to tensor<4xf32>\n  check.expect_eq_const(%c, dense<1.0> : tensor<4xf32>) : tensor<4xf32>\n  return\n}\n",
            "",
        ),
    ];
    for (src, expected) in cases.iter().take(3) {
        let (status, out, err) = kiln(&["run", "--reference", "-"], src.as_bytes());
        assert_eq!(status, 1, "{src}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(expected), "{err}");
        let (status, _, err2) = kiln(&["opt", "-"], src.as_bytes());
        assert_eq!(status, 1);
        assert_eq!(err, err2);
    }
    // A run-time size that does not fit the program fails its test.
    let (status, out, err) = kiln(
        &["run", "--reference", "--no-timing", "-"],
        cases[3].0.as_bytes(),
    );
    assert_eq!(status, 1, "{err}");
    assert!(out.contains("<stdin>:1:1: Failure\nreference backend: 3:8: 'tensor.cast' op size mismatch: result dimension 0 is 5 at run time, but the program needs 4\n[  FAILED  ] module.f, where GetParam() = 0\n"), "{out}");
}

#[test]
fn opt_prints_tensor_programs() {
    let path = corpus("linalg_structured.mlir");
    let (status, out, err) = kiln(&["opt", &path], b"");
    assert_eq!(status, 0, "{err}");
    let expected = kiln_core::tensor::print(
        &kiln_core::tensor::load(&std::fs::read_to_string(&path).unwrap()).unwrap(),
    );
    assert_eq!(out, expected);
    let (status, again, _) = kiln(&["opt", "-"], out.as_bytes());
    assert_eq!(status, 0);
    assert_eq!(again, out);
}

/// Checks inside the branches of a run-time `scf.if` (IREE's
/// tosa_ops/if.mlir): only the taken branch's count, on every engine.
#[test]
fn only_the_taken_branchs_checks_count() {
    let path = e2e("checks_in_branches.mlir");
    for engine in ["--reference", "--cpu", "--validation"] {
        let (status, out, err) = kiln(&["run", engine, "--no-timing", &path], b"");
        assert_eq!(status, 1, "{engine}: {err}\n{out}");
        assert!(
            out.contains("[       OK ] module.taken_branch_checks_pass\n"),
            "{engine}: {out}"
        );
        // The else branch's check fails (line 36), the then branch's
        // (line 34) is not run.
        assert!(
            out.contains(&format!("{path}:36:5: Failure\n")),
            "{engine}: {out}"
        );
        assert!(!out.contains(":34:5:"), "{engine}: {out}");
        assert!(
            out.contains("[  FAILED  ] 1 test, listed below:\n"),
            "{engine}: {out}"
        );
    }
}
