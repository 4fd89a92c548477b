//! `kiln bench`: the `--quick` smoke run (what CI runs of the benchmarks:
//! JSON shape, every correctness check passed, the chart written), a
//! user's memref kernel with `.npy` and splat inputs, a tensor program
//! (compiled by kiln), bad inputs, and the benchmark programs parsed
//! by mlir-opt-19 (the MLIR 19 syntax they are written in).

use std::path::Path;

use serde_json::Value;

use crate::common::{kiln, scratch};

const PROGRAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/programs");

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}

fn implementation<'a>(bench: &'a Value, label: &str) -> &'a Value {
    bench["implementations"]
        .as_array()
        .expect("implementations")
        .iter()
        .find(|i| i["implementation"] == label)
        .unwrap_or_else(|| panic!("no {label} in {bench}"))
}

fn assert_timed(v: &Value, runs: u64) {
    assert_eq!(v["runs"], runs, "{v}");
    let (min, med, max) = (
        v["min_ms"].as_f64().unwrap(),
        v["median_ms"].as_f64().unwrap(),
        v["max_ms"].as_f64().unwrap(),
    );
    assert!(0.0 < min && min <= med && med <= max, "{v}");
}

#[test]
fn quick_run_checks_everything_it_times() {
    let dir = scratch("bench-quick");
    let chart = dir.join("chart.svg");
    let (code, out, err) = kiln(
        &[
            "bench",
            "--quick",
            "--json",
            "--chart",
            chart.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    assert_eq!(doc["mode"], "quick");
    assert_eq!(doc["runs"], 3);
    let benches = doc["benchmarks"].as_array().expect("benchmarks");
    let names: Vec<&str> = benches
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "add_16m",
            "sum_16m",
            "sum_16m_2stage",
            "matmul_512",
            "matmul_1024",
            "matmul_512_f16",
            "softmax_1024x4096",
            "layer_norm_1024x4096",
            "conv2d_56x56x64_3x3x64"
        ]
    );
    for b in benches {
        for key in [
            "name",
            "runs",
            "median_ms",
            "min_ms",
            "max_ms",
            "gpu_median_ms",
        ] {
            assert!(b.get(key).is_some(), "{key} missing in {b}");
        }
        // kiln's own row: the tensor program compiled by kiln, its
        // output checked against the set's host reference, then timed.
        let kiln_row = implementation(b, "kiln");
        assert!(kiln_row.get("error").is_none(), "{b}");
        let checked = kiln_row["checked"].as_str().unwrap();
        assert!(!checked.contains("not checked"), "{checked}");
        assert_timed(kiln_row, 3);
        assert!(kiln_row["gpu_median_ms"].as_f64().unwrap() > 0.0, "{b}");
    }
    // What kiln runs today was checked, then timed.
    for label in ["kiln memref kernel", "hand-written GLSL"] {
        let row = implementation(&benches[0], label);
        assert!(row.get("error").is_none(), "{row}");
        assert!(!row["checked"].as_str().unwrap().is_empty());
        assert_timed(row, 3);
        assert!(row["gpu_median_ms"].as_f64().unwrap() > 0.0, "{row}");
        assert!(row["fraction_of_device_limit"].as_f64().unwrap() > 0.0);
    }
    for (side, what) in [
        ("device", "copy"),
        ("device", "read"),
        ("device", "fma"),
        ("host", "stream_add"),
        ("host", "read_sum"),
    ] {
        let m = &doc["limits"][side][what];
        assert!(m.get("error").is_none(), "{side} {what}: {m}");
        assert_timed(m, 3);
        assert!(m["throughput"].as_f64().unwrap() > 0.0);
    }
    assert!(doc["limits"]["host"]["numpy_sgemm"]["error"].is_string());
    let o = &doc["dispatch_overhead"];
    assert!(o["runtime_per_extra_us"].as_f64().unwrap() > 0.0, "{o}");
    for key in ["lower", "cold", "warm"] {
        assert_timed(&doc["compile"][key], 3);
    }
    assert!(doc["iree"]["error"].is_string(), "no IREE with --quick");
    let svg = std::fs::read_to_string(&chart).expect("chart written");
    assert!(svg.contains("<svg") && svg.contains("hand-written GLSL"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quick_table_has_kiln_rows() {
    let (code, out, err) = kiln(&["bench", "--quick", "--runs", "1"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("device (hand-written GLSL through kiln-runtime)"));
    assert!(!out.contains("not yet"), "{out}");
    assert!(out.contains("each extra dispatch in a batch of 100"));
}

/// A `.npy` file of f32 written by hand from the format's description
/// (magic, version 1.0, header length, a dict padded to 64 bytes, data).
fn npy_f32(values: &[f32]) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        values.len()
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

#[test]
fn memref_kernel_with_npy_and_splat_inputs() {
    let dir = scratch("bench-memref");
    let kernel = dir.join("add.mlir");
    let text = std::fs::read_to_string(Path::new(PROGRAMS).join("add_16m.memref.mlir")).unwrap();
    std::fs::write(&kernel, text.replace("16777216", "8192")).unwrap();
    let a = dir.join("a.npy");
    std::fs::write(&a, npy_f32(&vec![1.5; 8192])).unwrap();
    let (code, out, err) = kiln(
        &[
            "bench",
            kernel.to_str().unwrap(),
            "--grid",
            "2,1,1",
            "--input",
            &format!("@{}", a.display()),
            "--input",
            "8192xf32=2",
            "--input",
            "8192xf32=0",
            "--runs",
            "2",
            "--json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let b = &doc["benchmarks"][0];
    assert_eq!(b["name"], "add");
    assert_timed(b, 2);
    assert!(b["gpu_median_ms"].as_f64().unwrap() > 0.0);
    // Without --grid: a clear error in the kiln row and exit status 1.
    let (code, _, err) = kiln(
        &["bench", kernel.to_str().unwrap(), "--input", "8192xf32=1"],
        b"",
    );
    assert_eq!(code, 1);
    assert!(err.contains("--grid"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tensor_program_runs_through_kiln() {
    // 16x16 ones times 16x16 twos: every element is 16 * 2 = 32 (by hand).
    let dir = scratch("bench-tensor");
    let file = dir.join("matmul.mlir");
    let text = std::fs::read_to_string(Path::new(PROGRAMS).join("matmul_512.mlir")).unwrap();
    std::fs::write(&file, text.replace("512", "16")).unwrap();
    let (code, out, err) = kiln(
        &[
            "bench",
            file.to_str().unwrap(),
            "--input",
            "16x16xf32=1",
            "--input",
            "16x16xf32=2",
            "--no-iree",
            "--runs",
            "2",
            "--json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let b = &doc["benchmarks"][0];
    assert_eq!(b["name"], "main");
    assert_timed(b, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn iree_modules_compiled_elsewhere_are_looked_up_by_program_and_flags() {
    // A folder with IREE's runtime tools but no iree-compile (the tools
    // are never reached: the module is missing), and a modules folder
    // without the program's module: kiln's row is measured, IREE's says
    // which module it looked for and why it could not make it.
    let dir = scratch("bench-iree-modules");
    let tools = dir.join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    for t in ["iree-run-module", "iree-benchmark-module"] {
        std::fs::write(tools.join(t), "#!/bin/sh\nexit 1\n").unwrap();
    }
    let modules = dir.join("modules");
    let file = dir.join("matmul.mlir");
    let text = std::fs::read_to_string(Path::new(PROGRAMS).join("matmul_512.mlir")).unwrap();
    std::fs::write(&file, text.replace("512", "8")).unwrap();
    let (code, out, err) = kiln(
        &[
            "bench",
            file.to_str().unwrap(),
            "--input",
            "8x8xf32=1",
            "--input",
            "8x8xf32=2",
            "--iree",
            tools.to_str().unwrap(),
            "--iree-modules",
            modules.to_str().unwrap(),
            "--iree-target",
            "vulkan",
            "--iree-flag=--iree-vulkan-target=ampere",
            "--runs",
            "2",
            "--json",
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let doc = json(&out);
    let b = &doc["benchmarks"][0];
    assert_timed(b, 2);
    assert!(
        doc["iree"].to_string().contains("no iree-compile here"),
        "{}",
        doc["iree"]
    );
    let row = implementation(b, "IREE vulkan").to_string();
    assert!(
        row.contains("no module")
            && row.contains("program.vulkan.")
            && row.contains("no iree-compile"),
        "{row}"
    );
    // No CPU row: only the vulkan target was asked for.
    assert!(!b.to_string().contains("IREE llvm-cpu"), "{b}");
    // --iree-compile-only needs a modules folder.
    let (code, _, err) = kiln(&["bench", "--iree-compile-only"], b"");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--iree-modules"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_inputs_are_one_error_line() {
    let file = Path::new(PROGRAMS).join("add_16m.mlir");
    for (input, says) in [
        ("4xq7=1", "unknown element type"),
        ("4xf32=1 2", "2 values for 4 elements"),
        ("@/nonexistent.npy", "cannot read"),
    ] {
        let (code, out, err) = kiln(
            &[
                "bench",
                file.to_str().unwrap(),
                "--input",
                input,
                "--no-iree",
            ],
            b"",
        );
        assert_eq!((code, out.as_str()), (1, ""), "{input}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(says),
            "{input}: {err}"
        );
    }
}

#[test]
fn benchmark_programs_are_mlir_19() {
    let mut seen = 0;
    for entry in std::fs::read_dir(PROGRAMS).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "mlir") {
            let out = std::process::Command::new("mlir-opt-19")
                .arg(&path)
                .output()
                .expect("mlir-opt-19 (ci/setup.sh)");
            assert!(
                out.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 12);
}
