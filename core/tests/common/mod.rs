//! Helpers the core integration tests share (`mod common;` in each test).

// Each test crate uses its own subset.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `tool ARGS` with `input` on stdin and returns its output, whatever
/// its exit status. A missing tool panics, naming ci/setup.sh, which
/// installs them (mlir-19-tools, spirv-tools).
pub fn run_tool(tool: &str, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {tool}: {e} (run ci/setup.sh)"));
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .unwrap_or_else(|e| panic!("cannot write to {tool}: {e}"));
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{tool} did not finish: {e}"))
}

/// Runs `mlir-opt-19 ARGS` on `input` and returns what it prints; panics
/// (failing the test) when it rejects the input.
pub fn mlir_opt(args: &[&str], input: &str) -> String {
    let out = run_tool("mlir-opt-19", args, input);
    assert!(
        out.status.success(),
        "mlir-opt-19 {args:?} failed:\n{}\ninput:\n{input}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}
