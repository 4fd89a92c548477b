//! The tensor compiler and runner on the command line: `kiln run` of e2e
//! files on the device (lavapipe in CI), `kiln compile` of tensor programs
//! (binaries and manifest, `--explain`), `kiln opt`'s stage flags, and bad
//! input: each case one `error:` line naming what is wrong, exit status 1,
//! nothing written.

use std::path::{Path, PathBuf};

use crate::common::{kiln, kiln_cmd, run, scratch, spirv_val};

fn tensor_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-tests/tests/tensor")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// One `error:` line on stderr.
#[track_caller]
fn one_error_line(err: &str) -> &str {
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    lines[0]
}

/// The bad inputs of the corpus (`gpu-tests/tests/tensor/errors/`): each
/// marks its faulty line with `// ERROR: <text>`; `kiln run` prints one
/// `error:` line with that text and exits with 1.
#[test]
fn corpus_bad_inputs_are_one_error_line() {
    let dir = tensor_dir().join("errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "the bad-input corpus is missing");
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let want = text
            .lines()
            .find_map(|l| {
                l.split_once("// ERROR: ")
                    .map(|(_, t)| t.trim().to_string())
            })
            .expect("an ERROR marker");
        let path = f.display().to_string();
        let (status, _out, err) = kiln(&["run", "--no-timing", &path], b"");
        let line = one_error_line(&err);
        if status != 1 || !line.contains(&want) {
            failures.push(format!("{path}: exit {status}, wanted '{want}' in: {line}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const SUM: &str = r#"func.func @sum() {
  %in = util.unfoldable_constant dense<2> : tensor<1000xi32>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<i32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<i32>) -> tensor<i32>
  %s = linalg.reduce ins(%in : tensor<1000xi32>) outs(%f : tensor<i32>) dimensions = [0]
    (%x: i32, %acc: i32) {
      %a = arith.addi %x, %acc : i32
      linalg.yield %a : i32
    }
  check.expect_eq_const(%s, dense<2000> : tensor<i32>) : tensor<i32>
  return
}
"#;

#[test]
fn runs_on_the_device_as_iree_check_module_prints() {
    let dir = scratch("tensor-run");
    let path = write(&dir, "sum.mlir", SUM);
    let (status, out, err) = kiln(&["run", "--no-timing", "--validation", &path], b"");
    assert_eq!(status, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    assert_eq!(
        out,
        "[==========] Running 1 test from 1 test suite.\n[----------] Global test environment set-up.\n[----------] 1 test from module\n[ RUN      ] module.sum\n[       OK ] module.sum\n[----------] 1 test from module\n\n[----------] Global test environment tear-down\n[==========] 1 test from 1 test suite ran.\n[  PASSED  ] 1 test.\n"
    );
    // A failing check: exit status 1, IREE's message, no error line.
    let bad = write(&dir, "bad.mlir", &SUM.replace("dense<2000>", "dense<2001>"));
    let (status, out, err) = kiln(&["run", "--no-timing", &bad], b"");
    assert_eq!(status, 1);
    assert!(err.is_empty(), "{err}");
    assert!(
        out.contains("The first failure occurs at index 0 as the lhs value 2000 differs from the rhs value 2001."),
        "{out}"
    );
}

/// `KILN_TRACE=FILE.json` and `KILN_PROFILE=1` on a run: when the device
/// is dropped, the profile's per-kernel table goes to stderr and the trace
/// file holds one GPU event per dispatch the table counts.
#[test]
fn trace_and_profile_variables_report_every_dispatch() {
    let dir = scratch("tensor-trace");
    let path = write(&dir, "sum.mlir", SUM);
    let trace = dir.join("trace.json");
    let (status, _out, err) = run(
        kiln_cmd()
            .args(["run", "--no-timing", &path])
            .env("KILN_TRACE", &trace)
            .env("KILN_PROFILE", "1"),
        b"",
    );
    assert_eq!(status, 0, "{err}");
    let table = err
        .split_once("KILN_PROFILE=1: the device's dispatches by kernel:\n")
        .unwrap_or_else(|| panic!("no profile table on stderr: {err}"))
        .1;
    // Rows after the header: kernel, dispatches, timed, GPU time, mean,
    // median; every dispatch of a run is timed.
    let dispatches: u64 = table
        .lines()
        .skip(1)
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let count = |i: usize| {
                cols[i]
                    .parse::<u64>()
                    .unwrap_or_else(|e| panic!("{l}: {e}"))
            };
            assert_eq!(count(1), count(2), "{l}: every dispatch timed");
            count(1)
        })
        .sum();
    assert!(dispatches >= 1, "{err}");
    let text = std::fs::read_to_string(&trace).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let events = json["traceEvents"].as_array().expect("traceEvents");
    let gpu = events.iter().filter(|e| e["cat"] == "gpu").count() as u64;
    assert_eq!(gpu, dispatches, "{text}");
}

const CALLS: &str = r#"func.func private @scale(%x: tensor<?xf32>, %k: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @calls() {
  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> tensor<?xf32>
  %k = arith.constant 2.5 : f32
  %b = func.call @scale(%a, %k) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %c = func.call @scale(%b, %k) : (tensor<?xf32>, f32) -> tensor<?xf32>
  %d = tensor.cast %c : tensor<?xf32> to tensor<3xf32>
  check.expect_eq_const(%d, dense<[6.25, 12.5, 18.75]> : tensor<3xf32>) : tensor<3xf32>
  return
}
"#;

#[test]
fn calls_are_inlined_and_fused() {
    let dir = scratch("tensor-calls");
    let path = write(&dir, "calls.mlir", CALLS);
    let (status, out, err) = kiln(&["run", "--no-timing", &path], b"");
    assert_eq!(status, 0, "{err}\n{out}");
    assert!(out.contains("[       OK ] module.calls\n"), "{out}");
    let (status, out, err) = kiln(&["opt", "--form-dispatch-regions", &path], b"");
    assert_eq!(status, 0, "{err}");
    assert!(
        out.contains("// func @calls: 1 dispatch\ndispatch @calls_dispatch_0 (elementwise) {\n  writes linalg.generic at 5:8 : tensor<?xf32>\n  fuses linalg.generic at 5:8\n}\nviews (no copy): tensor.cast at 18:8\n"),
        "{out}"
    );
}

#[test]
fn compile_writes_binaries_and_a_manifest_and_explains() {
    let dir = scratch("tensor-compile");
    let path = write(&dir, "sum.mlir", SUM);
    let out_dir = dir.join("out");
    let out = out_dir.display().to_string();
    let (status, stdout, err) = kiln(&["compile", &path, "-o", &out, "--explain"], b"");
    assert_eq!(status, 0, "{err}");
    assert!(
        stdout.contains("dispatch @sum_dispatch_0 (linalg.reduce at 6:8):"),
        "{stdout}"
    );
    assert!(stdout.contains("  family: reduction\n"), "{stdout}");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out_dir.join("manifest.json")).unwrap())
            .unwrap();
    let d = &manifest["functions"][0]["dispatches"][0];
    assert_eq!(d["family"], "reduction");
    assert_eq!(d["op"], "linalg.reduce");
    let k = &d["kernels"][0];
    assert_eq!(k["file"], "sum_dispatch_0.spv");
    let spv = out_dir.join("sum_dispatch_0.spv");
    let (code, text) = spirv_val(&spv, "vulkan1.0", &[]);
    assert_eq!(code, 0, "{text}");
    // Recompiling replaces the directory.
    let (status, _, err) = kiln(&["compile", &path, "-o", &out], b"");
    assert_eq!(status, 0, "{err}");
}

#[test]
fn opt_prints_each_stage() {
    let dir = scratch("tensor-opt");
    let path = write(
        &dir,
        "f.mlir",
        "func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {\n  %c = arith.addf %a, %b : tensor<8xf32>\n  %d = arith.mulf %c, %c : tensor<8xf32>\n  return %d : tensor<8xf32>\n}\n",
    );
    let stage = |flag: &str| {
        let (status, out, err) = kiln(&["opt", flag, &path], b"");
        assert_eq!(status, 0, "{flag}: {err}");
        out
    };
    let generic = stage("--convert-elementwise-to-linalg");
    assert_eq!(generic.matches("linalg.generic").count(), 2, "{generic}");
    let regions = stage("--form-dispatch-regions");
    assert!(
        regions.contains("// func @f: 1 dispatch\ndispatch @f_dispatch_0 (elementwise) {\n  writes linalg.generic at 3:8 : tensor<8xf32>\n  fuses linalg.generic at 2:8\n}\n"),
        "{regions}"
    );
    let buffers = stage("--bufferize");
    assert!(buffers.starts_with("// func @f: 3 buffers\n"), "{buffers}");
    let explain = stage("--explain");
    assert!(explain.contains("  family: elementwise\n"), "{explain}");
    let kernels = stage("--tensor-to-kernels");
    assert!(kernels.contains("gpu.func @f_dispatch_0("), "{kernels}");
    assert_eq!(kernels.matches("arith.mulf").count(), 1, "{kernels}");
}

#[test]
fn bad_inputs_of_the_gpu_path() {
    let dir = scratch("tensor-bad");
    // A buffer sized at run time past what its kernels can bind is
    // refused before anything runs: lavapipe's 128 MiB storage range, in
    // chunks of the `_chunked` variant's descriptors (32 per stage over
    // its three storage bindings: 10 chunks, 1,342,177,280 bytes); one of
    // static size is bound as chunks (`split_buffers.mlir` checks those
    // values, `split_buffers_dynamic.mlir` those of run-time sizes).
    let big = write(
        &dir,
        "big.mlir",
        "func.func @big() {\n  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<400000000xf32> -> tensor<?xf32>\n  %b = arith.addf %a, %a : tensor<?xf32>\n  %c0 = arith.constant 0 : index\n  %x = tensor.extract %b[%c0] : tensor<?xf32>\n  %t = tensor.splat %x : tensor<1xf32>\n  check.expect_eq_const(%t, dense<2.0> : tensor<1xf32>) : tensor<1xf32>\n  return\n}\n",
    );
    let (status, _, err) = kiln(&["run", "--no-timing", &big], b"");
    assert_eq!(status, 1, "{err}");
    let line = one_error_line(&err);
    assert!(
        line.contains("1600000000 bytes, more than the 1342177280 bytes its kernels can bind"),
        "{line}"
    );
    // An element type the target cannot handle, at compile time: nothing
    // is written. (i64 without Int64 is emulated; f64 without Float64 is
    // not.)
    let f64_prog = write(
        &dir,
        "f64.mlir",
        "func.func @f(%a: tensor<4xf64>) -> tensor<4xf64> {\n  %b = arith.addf %a, %a : tensor<4xf64>\n  return %b : tensor<4xf64>\n}\n",
    );
    let out = dir.join("out");
    let env = "#spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>";
    let (status, _, err) = kiln(
        &[
            "compile",
            &f64_prog,
            "-o",
            &out.display().to_string(),
            "--target-env",
            env,
        ],
        b"",
    );
    assert_eq!(status, 1);
    let line = one_error_line(&err);
    assert!(
        line.contains("2:8: element type f64 needs capability Float64, which the target env lacks"),
        "{line}"
    );
    assert!(!out.exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 2, "{leftovers:?}");
    // The same program compiles where Float64 is available.
    let env64 = env.replace("[Shader]", "[Shader, Float64]");
    let (status, _, err) = kiln(
        &[
            "compile",
            &f64_prog,
            "-o",
            &out.display().to_string(),
            "--target-env",
            &env64,
        ],
        b"",
    );
    assert_eq!(status, 0, "{err}");
    // A dynamic size that does not fit (a dynamic constant cast to a
    // static type): refused before any device work.
    let cast = write(
        &dir,
        "cast.mlir",
        "func.func @c() {\n  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> tensor<?xf32>\n  %b = tensor.cast %a : tensor<?xf32> to tensor<2xf32>\n  check.expect_eq_const(%b, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>\n  return\n}\n",
    );
    let (status, _, err) = kiln(&["run", "--no-timing", &cast], b"");
    assert_eq!(status, 1);
    let line = one_error_line(&err);
    assert!(
        line.contains("3:8: 'tensor.cast' op size mismatch: result dimension 0 is 3 at run time, but the program needs 2"),
        "{line}"
    );
}
