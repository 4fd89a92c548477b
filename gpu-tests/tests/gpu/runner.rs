//! `kiln run` on the runner corpus (`tests/runner/*.mlir`): MLIR
//! Vulkan-runner programs, each with its expected output as FileCheck
//! lines (computed independently by `tests/runner/gen.py`).
//!
//! For every file: the host program runs through `kiln_core::host`, each
//! kernel is lowered by `kiln_core::lower` and dispatched on the device by
//! `kiln_runtime::runner::VulkanLauncher` with the validation layer on; the
//! printed text must satisfy the file's CHECK lines, the validation layer
//! must stay silent, and every generated binary must pass `spirv-val` for
//! the environment it was compiled for. `tests/runner/errors/*.mlir` are
//! programs that must fail, with `// ERROR:` lines the failure must contain.

use crate::filecheck;
use crate::runner_harness as harness;

use harness::{corpus_dir, mlir_files, run_module, spirv_val};
use kiln_gpu_tests::{assert_no_validation_messages, test_context};

fn parse(path: &std::path::Path) -> (String, kiln_core::kernel::KernelModule) {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let module =
        kiln_core::kernel::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (text, module)
}

fn file_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[test]
fn corpus_runs_and_matches_its_checks() {
    let files = mlir_files(&corpus_dir());
    assert!(
        files.len() >= 25,
        "the runner corpus has {} files; at least 25 expected in {}",
        files.len(),
        corpus_dir().display()
    );
    let ctx = test_context();
    let mut failures = Vec::new();
    for path in &files {
        let name = file_name(path);
        let (text, module) = parse(path);
        let checks = filecheck::directives(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!checks.is_empty(), "{name}: no CHECK lines");
        let outcome = run_module(&ctx, &module, &[]);
        let messages = ctx.take_validation_messages();
        if !messages.is_empty() {
            let list: Vec<String> = messages.iter().map(|m| format!("  {m}")).collect();
            failures.push(format!("{name}: validation messages:\n{}", list.join("\n")));
        }
        match &outcome.result {
            Ok(out) => {
                if let Err(e) = filecheck::check(out, &checks) {
                    failures.push(format!("{name}: {e}"));
                }
            }
            Err(e) => failures.push(format!("{name}: run failed: {e}")),
        }
        if outcome.binaries.is_empty() {
            failures.push(format!("{name}: no kernel was compiled"));
        }
        for bin in &outcome.binaries {
            let Some(env) = bin.validation_env else {
                failures.push(format!("{name}: @{} has no validation env", bin.name));
                continue;
            };
            if let Err(e) = spirv_val(&bin.words, env.name(), &format!("{name}-{}", bin.name)) {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runner files failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

/// The capabilities a binary declares.
fn capabilities(words: &[u32]) -> Vec<String> {
    let module = rspirv::dr::load_words(words).expect("the binary loads");
    module
        .capabilities
        .iter()
        .filter_map(|i| i.operands.first())
        .map(|o| format!("{o}"))
        .collect()
}

/// The binary kiln compiled for corpus file `name` (one gpu.module).
fn compiled_capabilities(ctx: &kiln_vulkan::Context, name: &str) -> Vec<String> {
    let path = corpus_dir().join(format!("{name}.mlir"));
    let (_, module) = parse(&path);
    let outcome = run_module(ctx, &module, &[]);
    outcome.result.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(outcome.binaries.len(), 1, "{name}: one gpu.module");
    capabilities(&outcome.binaries[0].words)
}

/// The target env decides the path: native GroupNonUniformArithmetic on the
/// device's env, the workgroup-memory fallback without it; i8 natively with
/// Int8 + 8-bit storage, emulated in 32-bit words without them. The
/// corpus test checks both give the right numbers; this checks they really
/// took different paths.
#[test]
fn target_env_picks_the_lowering_path() {
    let ctx = test_context();
    let native = compiled_capabilities(&ctx, "subgroup_reduce");
    assert!(
        native.iter().any(|c| c == "GroupNonUniformArithmetic"),
        "device env: expected GroupNonUniformArithmetic, got {native:?}"
    );
    let fallback = compiled_capabilities(&ctx, "subgroup_reduce_fallback");
    assert!(
        !fallback.iter().any(|c| c == "GroupNonUniformArithmetic"),
        "fallback env: GroupNonUniformArithmetic must not be used, got {fallback:?}"
    );
    let emulated = compiled_capabilities(&ctx, "addi8");
    assert!(
        !emulated
            .iter()
            .any(|c| c == "Int8" || c == "StorageBuffer8BitAccess"),
        "addi8's env has no Int8: expected the emulated path, got {emulated:?}"
    );
    let native8 = compiled_capabilities(&ctx, "muli8");
    assert!(
        native8.iter().any(|c| c == "Int8")
            && native8.iter().any(|c| c == "StorageBuffer8BitAccess"),
        "muli8's env has Int8 and 8-bit storage: expected them used, got {native8:?}"
    );
    assert_no_validation_messages(&ctx);
}

#[test]
fn error_programs_fail_with_their_message() {
    let dir = corpus_dir().join("errors");
    let files = mlir_files(&dir);
    assert!(
        files.len() >= 4,
        "expected the error programs in {}",
        dir.display()
    );
    let ctx = test_context();
    let mut failures = Vec::new();
    for path in &files {
        let name = file_name(path);
        let (text, module) = parse(path);
        let wanted: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("// ERROR: "))
            .collect();
        assert!(!wanted.is_empty(), "{name}: no ERROR line");
        match run_module(&ctx, &module, &[]).result {
            Ok(out) => failures.push(format!("{name}: ran, printing:\n{out}")),
            Err(e) => {
                for w in &wanted {
                    if !e.contains(w) {
                        failures.push(format!("{name}: error does not contain {w:?}:\n  {e}"));
                    }
                }
            }
        }
    }
    assert_no_validation_messages(&ctx);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The matcher is not vacuous: a wrong value, a wrong spacing, a missing
/// line and a CHECK-NEXT that skips a line all fail.
#[test]
fn filecheck_rejects_wrong_output() {
    let out = "Unranked Memref base@ = 0x1234 rank = 1 offset = 0 sizes = [2] strides = [1] data = \n[1.5,  2]\n";
    let good = "// CHECK: base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data =\n// CHECK-NEXT: [1.5,  2]\n";
    filecheck::check(out, &filecheck::directives(good).unwrap()).unwrap();
    for bad in [
        "// CHECK: rank = 1\n// CHECK-NEXT: [1.5,  3]\n",
        "// CHECK: rank = 1\n// CHECK-NEXT: [1.5, 2]\n",
        "// CHECK: rank = 2\n",
        "// CHECK: Unranked\n// CHECK-NEXT: rank = 1\n",
        "// CHECK: rank = 1\n// CHECK-NOT: 2]\n",
    ] {
        let d = filecheck::directives(bad).unwrap();
        assert!(filecheck::check(out, &d).is_err(), "accepted: {bad}");
    }
    assert!(filecheck::directives("// CHECK: {{[0-9]+}}\n").is_err());
}

/// The corpus is what its generator writes (expected outputs included):
/// `python3 tests/runner/gen.py --check`.
#[test]
fn corpus_matches_its_generator() {
    kiln_gpu_tests::assert_generator_is_fresh(&corpus_dir().join("gen.py"));
}
