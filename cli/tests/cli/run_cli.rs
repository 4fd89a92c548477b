//! `kiln run FILE.mlir`: prints exactly mlir-vulkan-runner's text for the
//! runner corpus (gpu-tests/tests/runner, expected output from its
//! independent generator), accepts `--device` and `--kernel-binary`, and
//! reports bad programs as one `error:` line with exit status 1. Needs
//! lavapipe and the validation layer (ci/setup.sh); fails, never skips,
//! without them.

use crate::filecheck;

use std::path::PathBuf;

use crate::common;

fn corpus(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../gpu-tests/tests/runner")
        .join(name)
}

/// Runs kiln with `args` and `stdin`; returns (status, stdout, stderr).
fn kiln(args: &[&str], stdin: &str) -> (i32, String, String) {
    common::run(
        common::kiln_cmd()
            .args(args)
            .env_remove("KILN_DEVICE")
            .env_remove("KILN_VALIDATION"),
        stdin.as_bytes(),
    )
}

fn checks_of(path: &PathBuf) -> Vec<filecheck::Directive> {
    let text = std::fs::read_to_string(path).expect("corpus file");
    filecheck::directives(&text).expect("CHECK lines")
}

#[test]
fn prints_the_runner_utils_text() {
    for name in [
        "addf.mlir",
        "mulf_2d.mlir",
        "grid_3d.mlir",
        "host_loops.mlir",
    ] {
        let path = corpus(name);
        let (status, out, err) = kiln(&["run", "--validation", path.to_str().unwrap()], "");
        assert_eq!(status, 0, "{name}: {err}");
        assert!(err.is_empty(), "{name}: stderr: {err}");
        filecheck::check(&out, &checks_of(&path)).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Every print starts with the unranked header and a real address.
        for header in out.lines().filter(|l| l.contains("rank =")) {
            assert!(
                header.starts_with("Unranked Memref base@ = 0x") && header.ends_with(" data = "),
                "{name}: header {header:?}"
            );
        }
    }
}

#[test]
fn reads_stdin_and_takes_a_device() {
    let text = std::fs::read_to_string(corpus("addf.mlir")).unwrap();
    let (status, out, err) = kiln(&["run", "--device", "0", "-"], &text);
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains("\n[3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3]\n"),
        "{out}"
    );
    let (status, _, err) = kiln(&["run", "--device", "no-such-device-xyz", "-"], &text);
    assert_eq!(status, 1);
    assert!(err.starts_with("error: "), "{err}");
}

/// `--kernel-binary` runs a given binary: `kiln compile`'s output for the
/// same module gives the same text as compiling in `kiln run`, on the
/// device and with `--cpu`.
#[test]
fn runs_a_given_kernel_binary() {
    let path = corpus("scf_for_iter.mlir");
    let dir = std::env::temp_dir().join(format!("kiln-run-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spv = dir.join("kernels.spv");
    let (status, _, err) = kiln(
        &[
            "compile",
            path.to_str().unwrap(),
            "--device",
            "0",
            "-o",
            spv.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 0, "kiln compile: {err}");
    let given = format!("kernels={}", spv.display());
    let (status, out, err) = kiln(
        &[
            "run",
            "--validation",
            "--kernel-binary",
            &given,
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 0, "{err}");
    filecheck::check(&out, &checks_of(&path)).unwrap();
    // The CPU runner takes the same binary (imported by the deserializer)
    // and prints the same.
    let (status, cpu_out, err) = kiln(
        &[
            "run",
            "--cpu",
            "--no-timing",
            "--kernel-binary",
            &given,
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 0, "{err}");
    filecheck::check(&cpu_out, &checks_of(&path)).unwrap();
    // A file that is not SPIR-V: one error naming the module.
    let junk = dir.join("junk.spv");
    std::fs::write(&junk, [0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0, 9, 9, 9, 9]).unwrap();
    let (status, _, err) = kiln(
        &[
            "run",
            "--cpu",
            "--kernel-binary",
            &format!("kernels={}", junk.display()),
            path.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(status, 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("kernels"),
        "{err}"
    );
    let (status, _, err) = kiln(
        &["run", "--kernel-binary", "kernels", path.to_str().unwrap()],
        "",
    );
    assert_eq!(status, 1);
    assert!(err.contains("expected NAME=FILE"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_programs_are_one_error_line() {
    // An unknown host function names the callee, with file, line and column.
    let path = corpus("errors/unknown_callee.mlir");
    let (status, out, err) = kiln(&["run", path.to_str().unwrap()], "");
    assert_eq!(status, 1);
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ")
            && err.contains("unknown_callee.mlir:9:5: call to unknown function @myHelper"),
        "{err}"
    );
    // A parse error points at the token.
    let (status, _, err) = kiln(
        &["run", "-"],
        "module {\n  func.func @main() {\n    %x = arith.bogus\n",
    );
    assert_eq!(status, 1);
    assert!(err.starts_with("error: <stdin>:3:"), "{err}");
    // No @main.
    let (status, _, err) = kiln(
        &["run", "-"],
        "module attributes {gpu.container_module} {\n}\n",
    );
    assert_eq!(status, 1);
    assert!(err.contains("no `func.func @main`"), "{err}");
    // Output printed before a failing launch is kept.
    let src = r#"module attributes { gpu.container_module } {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<2xi32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [2, 1, 1]> } {
      gpu.return
    }
  }
  func.func @main() {
    %a = memref.alloc() : memref<2xi32>
    %v = arith.constant 7 : i32
    %b = memref.cast %a : memref<2xi32> to memref<?xi32>
    call @fillResource1DInt(%b, %v) : (memref<?xi32>, i32) -> ()
    %p = memref.cast %a : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<2xi32>)
    return
  }
  func.func private @fillResource1DInt(%0 : memref<?xi32>, %1 : i32)
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
"#;
    let (status, out, err) = kiln(&["run", "-"], src);
    assert_eq!(status, 1);
    assert!(out.ends_with(" data = \n[7,  7]\n"), "{out}");
    assert!(
        err.contains(
            "launched with threads in [1, 1, 1] but compiled with workgroup size [2, 1, 1]"
        ),
        "{err}"
    );
}

#[test]
fn prints_the_runner_timing_lines_after_each_launch_unless_asked_not_to() {
    // As mlir-vulkan-runner's time.mlir checks: after the launch, the GPU
    // time (lavapipe's compute queue has timestamps), the submit time and
    // the wait time; then the printed memref.
    let path = corpus("addf.mlir");
    let (status, out, err) = kiln(&["run", "--validation", path.to_str().unwrap()], "");
    assert_eq!(status, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 5, "{out}");
    let number = |line: &str, prefix: &str| -> f64 {
        let rest = line
            .strip_prefix(prefix)
            .and_then(|r| r.strip_suffix("us"))
            .unwrap_or_else(|| panic!("{line:?} is not `{prefix}<N>us`"));
        rest.parse()
            .unwrap_or_else(|e| panic!("{line:?}: {rest:?} is not a number: {e}"))
    };
    assert!(
        number(lines[0], "Compute shader execution time: ") > 0.0,
        "{out}"
    );
    assert!(
        number(lines[1], "Command buffer submit time: ") >= 0.0,
        "{out}"
    );
    assert!(number(lines[2], "Wait idle time: ") >= 0.0, "{out}");
    assert!(lines[3].starts_with("Unranked Memref base@ = 0x"), "{out}");

    let (status, out, err) = kiln(&["run", "--no-timing", path.to_str().unwrap()], "");
    assert_eq!(status, 0, "{err}");
    assert!(out.starts_with("Unranked Memref base@ = 0x"), "{out}");
    assert!(!out.contains(" time: "), "{out}");
}

#[test]
fn an_invalid_program_is_refused_before_any_of_it_runs() {
    // The first print is fine, the second calls a runner function with the
    // wrong type: as mlir-vulkan-runner, nothing runs (no output), and the
    // error names the call's place.
    let src = r#"module attributes {gpu.container_module} {
  func.func @main() {
    %a = memref.alloc() : memref<4xi32>
    %b = memref.cast %a : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%b) : (memref<*xi32>) -> ()
    call @printMemrefF32(%b) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
"#;
    let (status, out, err) = kiln(&["run", "-"], src);
    assert_eq!(status, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.starts_with("error: <stdin>:6:5: 'func.call'"), "{err}");
}
