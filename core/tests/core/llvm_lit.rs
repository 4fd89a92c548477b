//! The LLVM conversion's lit-style tests: every `core/tests/llvm/*.mlir`.
//!
//! Each file is split at `// -----` lines (MLIR's `--split-input-file`);
//! every chunk is one spv module (a `spirv.module` or spirv ops outside
//! one), converted with the options of the file's `// RUN:` line
//! (`--llvm-abi=kernel`, `--spec=ID=BITS`). A chunk with `// ERROR: text`
//! must fail to convert with an error containing `text`; every other chunk
//! must convert, and then:
//! * the MLIR dialect outputs, joined by `// -----`, match the file's
//!   `CHECK` lines under `FileCheck-19`, and the LLVM IR outputs its `LLVM`
//!   lines (both hand-written from the seed's tables, not from kiln's
//!   output);
//! * `mlir-opt-19` parses the MLIR outputs and `mlir-translate-19
//!   --mlir-to-llvmir` translates them;
//! * `llvm-as-19` accepts every LLVM IR output.
//!
//! The set must hold at least 60 modules.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kiln_core::llvm::{self, Abi, ConvertOptions};

use crate::common::run_tool;

fn lit_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/llvm")
}

fn lit_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(lit_dir())
        .expect("core/tests/llvm exists")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// The conversion options of a file's `// RUN:` line.
fn options(text: &str) -> ConvertOptions {
    let mut opts = ConvertOptions::default();
    let Some(run) = text.lines().find_map(|l| l.strip_prefix("// RUN:")) else {
        return opts;
    };
    for word in run.split_whitespace() {
        if word == "--llvm-abi=kernel" {
            opts.abi = Abi::Kernel;
        } else if let Some(spec) = word.strip_prefix("--spec=") {
            let (id, bits) = spec.split_once('=').expect("--spec=ID=BITS");
            opts.spec_values.insert(
                id.parse().expect("spec id"),
                bits.parse().expect("spec bits"),
            );
        }
    }
    opts
}

/// What the lit files converted to.
struct Outputs {
    mlir: Vec<String>,
    llvm_ir: Vec<String>,
    errors_checked: usize,
}

fn convert_file(path: &Path) -> Outputs {
    let text = std::fs::read_to_string(path).expect("readable lit file");
    let opts = options(&text);
    let mut out = Outputs {
        mlir: Vec::new(),
        llvm_ir: Vec::new(),
        errors_checked: 0,
    };
    for chunk in kiln_core::text::split_input(&text) {
        let expected_error = chunk
            .lines()
            .find_map(|l| l.trim().strip_prefix("// ERROR:"))
            .map(|e| e.trim().to_owned());
        let result = kiln_core::text::parse_modules(&chunk)
            .map_err(|e| e.to_string())
            .and_then(|m| llvm::convert_modules(&m, &opts).map_err(|e| e.to_string()));
        match (expected_error, result) {
            (Some(expected), Err(message)) => {
                assert!(
                    message.contains(&expected),
                    "{}: expected an error containing `{expected}`, got `{message}`",
                    path.display()
                );
                out.errors_checked += 1;
            }
            (Some(expected), Ok(_)) => panic!(
                "{}: a chunk converted but should fail with `{expected}`:\n{chunk}",
                path.display()
            ),
            (None, Err(message)) => {
                panic!("{}: {message}\nin chunk:\n{chunk}", path.display())
            }
            (None, Ok(converted)) => {
                out.mlir.push(llvm::print_mlir(&converted.module));
                out.llvm_ir.push(llvm::print_llvm_ir(&converted.module));
            }
        }
    }
    out
}

fn file_check(check_file: &Path, prefix: &str, input: &str) {
    let out = run_tool(
        "FileCheck-19",
        &[
            &check_file.to_string_lossy(),
            &format!("--check-prefix={prefix}"),
        ],
        input,
    );
    assert!(
        out.status.success(),
        "FileCheck-19 --check-prefix={prefix} {} failed:\n{}\noutput checked:\n{input}",
        check_file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn tool_accepts(tool: &str, args: &[&str], input: &str, what: &str) {
    let out = run_tool(tool, args, input);
    assert!(
        out.status.success(),
        "{tool} {args:?} rejects {what}:\n{}\ninput:\n{input}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn lit_files_match_their_checks_and_the_llvm_tools_accept_them() {
    let files = lit_files();
    assert!(!files.is_empty(), "no lit files in {}", lit_dir().display());
    let mut modules = 0usize;
    let mut counts: HashMap<String, usize> = HashMap::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable lit file");
        let out = convert_file(path);
        modules += out.mlir.len() + out.errors_checked;
        counts.insert(
            path.file_name().unwrap().to_string_lossy().into_owned(),
            out.mlir.len(),
        );
        let name = path.display().to_string();
        if out.mlir.is_empty() {
            continue;
        }
        let mlir = out.mlir.join("// -----\n");
        if text.contains("// CHECK") {
            file_check(path, "CHECK", &mlir);
        }
        if text.contains("// LLVM") {
            file_check(path, "LLVM", &out.llvm_ir.join("; -----\n"));
        }
        tool_accepts(
            "mlir-opt-19",
            &["--split-input-file", "-o", "/dev/null"],
            &mlir,
            &name,
        );
        tool_accepts(
            "mlir-translate-19",
            &["--split-input-file", "--mlir-to-llvmir", "-o", "/dev/null"],
            &mlir,
            &name,
        );
        for ll in &out.llvm_ir {
            tool_accepts("llvm-as-19", &["-o", "/dev/null"], ll, &name);
        }
    }
    assert!(
        modules >= 60,
        "the lit set holds {modules} modules, fewer than 60: {counts:?}"
    );
}

#[test]
fn splitting_keeps_line_numbers() {
    let chunks = kiln_core::text::split_input("a\nb\n// -----\nc\n");
    assert_eq!(chunks.len(), 2);
    assert_eq!(chunks[1], "\n\n\nc\n");
}
