//! Differential test against MLIR 19: gpu kernels of our own are lowered by
//! `mlir-opt-19`; kiln parses, serializes and validates the resulting
//! `spirv.module`, and `kiln run-spv` must give the same buffers for kiln's
//! binary as for `mlir-translate-19 --serialize-spirv`'s binary of the same
//! module. mlir-19-tools is installed by ci/setup.sh: when it is missing the
//! test fails, it never skips.

use std::path::{Path, PathBuf};
use std::process::Command;

const PIPELINE: &str = "builtin.module(gpu.module(convert-math-to-spirv),convert-gpu-to-spirv,spirv.module(spirv-lower-abi-attrs,spirv-update-vce))";

fn kiln() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kiln"))
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/kernels")
}

fn run_ok(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e} (run ci/setup.sh)"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// The text of the first `spirv.module` op (up to its matching brace).
fn extract_spirv_module(text: &str) -> &str {
    let start = text
        .find("spirv.module")
        .expect("mlir-opt output has a spirv.module");
    let open = start + text[start..].find('{').expect("module body");
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[start..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced braces in mlir-opt output");
}

/// The `// run:` arguments of a kernel file.
fn run_args(src: &str) -> Vec<String> {
    let line = src
        .lines()
        .find_map(|l| l.trim().strip_prefix("// run:"))
        .expect("kernel file has a `// run:` line");
    line.split_whitespace().map(str::to_string).collect()
}

fn check_kernel(path: &Path, tmp: &Path) {
    let name = path.file_stem().unwrap().to_str().unwrap();
    let src = std::fs::read_to_string(path).unwrap();
    let lowered = run_ok(
        Command::new("mlir-opt-19")
            .arg(path)
            .arg(format!("--pass-pipeline={PIPELINE}")),
        &format!("mlir-opt-19 on {name}"),
    );
    // kiln reads mlir-opt's whole output (the gpu.module beside the
    // spirv.module is skipped).
    let lowered_path = tmp.join(format!("{name}.lowered.mlir"));
    std::fs::write(&lowered_path, &lowered).unwrap();
    let kiln_spv = tmp.join(format!("{name}.kiln.spv"));
    run_ok(
        kiln()
            .args(["translate", "--serialize"])
            .arg(&lowered_path)
            .arg("-o")
            .arg(&kiln_spv),
        &format!("kiln translate {name}"),
    );
    let verdict = run_ok(
        kiln()
            .arg("validate")
            .arg(&kiln_spv)
            .args(["--target-env", "vulkan1.0"]),
        &format!("kiln validate {name}"),
    );
    assert_eq!(verdict.trim(), "valid");

    // MLIR's own binary of the same module.
    let only = tmp.join(format!("{name}.spirv.mlir"));
    std::fs::write(&only, extract_spirv_module(&lowered)).unwrap();
    let mlir_spv = tmp.join(format!("{name}.mlir.spv"));
    run_ok(
        Command::new("mlir-translate-19")
            .args(["--no-implicit-module", "--serialize-spirv"])
            .arg(&only)
            .arg("-o")
            .arg(&mlir_spv),
        &format!("mlir-translate-19 {name}"),
    );

    let args = run_args(&src);
    let run = |spv: &Path| {
        run_ok(
            kiln()
                .arg("run-spv")
                .arg(spv)
                .args(["--entry", name, "--validation"])
                .args(&args),
            &format!("kiln run-spv {}", spv.display()),
        )
    };
    let ours = run(&kiln_spv);
    let theirs = run(&mlir_spv);
    assert!(
        ours.lines().any(|l| l.contains(" = [")),
        "{name}: run-spv printed no buffer:\n{ours}"
    );
    assert_eq!(ours, theirs, "{name}: kiln's binary and MLIR's disagree");
}

#[test]
fn kiln_and_mlir_binaries_agree() {
    let tmp = std::env::temp_dir().join(format!("kiln-mlir-compare-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .expect("cli/tests/kernels exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    kernels.sort();
    assert!(kernels.len() >= 5, "kernel corpus is missing");
    for k in &kernels {
        check_kernel(k, &tmp);
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
