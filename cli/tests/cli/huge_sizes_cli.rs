//! Huge sizes under a 1 GiB address-space limit (`ulimit -v`): `kiln`
//! answers with an error line and exit status 1, never a signal or a
//! panic. Before sizes were counted without overflow and checked against
//! the host, `--input 4611686018427387904x1xf32=1` panicked ("capacity
//! overflow"), `--input 100000x100000xf32=1` aborted allocating 40 GB, and
//! a 400 GB `tensor.empty` aborted the reference evaluator.

use std::process::Command;

use crate::common::{run, scratch};

/// Runs `kiln ARGS` under `ulimit -v 1048576` (KiB): exit code (-1 when
/// killed by a signal), stderr after stdout.
fn kiln_limited(args: &[&str]) -> (i32, String) {
    let mut line = format!("ulimit -v 1048576; exec '{}'", env!("CARGO_BIN_EXE_kiln"));
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    let (code, out, err) = run(Command::new("sh").args(["-c", &line]), b"");
    (code, out + &err)
}

const PROGRAM: &str = "func.func @f(%a: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %r = arith.addf %a, %a : tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}
";

#[test]
fn huge_inputs_are_error_lines_under_a_1_gib_limit() {
    let dir = scratch("huge-inputs");
    let file = dir.join("add.mlir");
    std::fs::write(&file, PROGRAM).expect("writes");
    let file = file.to_str().expect("utf-8");
    for verb in ["bench", "profile", "tune"] {
        for (input, says) in [
            ("4611686018427387904x1xf32=1", "its size overflows 64 bits"),
            (
                "100000x100000xf32=1",
                "it needs 40000000000 bytes of host memory, more than the 1073741824",
            ),
        ] {
            let (code, err) = kiln_limited(&[verb, file, "--input", input]);
            assert_eq!(code, 1, "kiln {verb} --input {input}:\n{err}");
            assert!(!err.contains("panicked"), "{err}");
            let first = err.lines().next().unwrap_or("");
            // (nothing on stdout: the error line is the first line)
            assert!(first.starts_with("error: --input"), "{err}");
            assert!(err.contains(says), "kiln {verb} --input {input}:\n{err}");
        }
    }
}

#[test]
fn a_400_gb_tensor_is_a_failure_line_under_a_1_gib_limit() {
    let dir = scratch("huge-tensor");
    let file = dir.join("empty.mlir");
    std::fs::write(
        &file,
        "func.func @f() {
  %a = tensor.empty() : tensor<100000x1000000xf32>
  %c = arith.constant 1.0 : f32
  %d = linalg.fill ins(%c : f32) outs(%a : tensor<100000x1000000xf32>) -> tensor<100000x1000000xf32>
  %i0 = arith.constant 0 : index
  %e = tensor.extract %d[%i0, %i0] : tensor<100000x1000000xf32>
  %t = arith.cmpf oeq, %e, %c : f32
  check.expect_true(%t) : i1
  return
}
",
    )
    .expect("writes");
    let (code, err) = kiln_limited(&["run", "--reference", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains("'tensor.empty' op cannot hold a tensor<100000x1000000xf32>: it needs 400000000000 bytes of host memory, more than the 1073741824"),
        "{err}"
    );
}

#[test]
fn a_400_gb_memref_alloc_is_an_error_line_under_a_1_gib_limit() {
    let dir = scratch("huge-alloc");
    let file = dir.join("alloc.mlir");
    std::fs::write(
        &file,
        "module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%out : memref<100000x1000000xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %out = memref.alloc() : memref<100000x1000000xf32>
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<100000x1000000xf32>)
    return
  }
}
",
    )
    .expect("writes");
    let (code, err) = kiln_limited(&["run", "--no-timing", file.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(
            "is too large: it needs 400000000000 bytes of host memory, more than the 1073741824"
        ),
        "{err}"
    );
}
