//! kiln's runtime dispatches MLIR 19's binaries of the runner corpus and
//! prints exactly what it prints with kiln's own binaries.
//!
//! For each file MLIR 19 can lower, the kernels go through
//! `mlir-opt-19 --pass-pipeline='builtin.module(gpu.module(convert-math-to-spirv),
//! map-memref-spirv-storage-class, convert-gpu-to-spirv,
//! spirv.module(spirv-lower-abi-attrs, spirv-update-vce))'` and each
//! resulting `spirv.module` through `mlir-translate-19 --no-implicit-module
//! --serialize-spirv`; the host program then runs twice on the device, once
//! with kiln's compilation and once with MLIR's binaries
//! (`VulkanLauncher::with_binary`). The outputs must be identical (up to
//! `base@` addresses) and satisfy the file's CHECK lines; the validation
//! layer must stay silent. Files MLIR 19 cannot lower are listed in
//! [`MLIR_CANNOT_LOWER`] with the reason, and the test checks that MLIR
//! still rejects them (so the list stays honest).
//!
//! mlir-19-tools is installed by ci/setup.sh: when it is missing this test
//! fails, it never skips.

use crate::filecheck;
use crate::runner_harness as harness;

use std::path::Path;
use std::process::Command;

use harness::{corpus_dir, mlir_files, normalize_addresses, run_module, spirv_val};
use kiln_core::grammar::Version;
use kiln_core::validate::ValidationEnv;
use kiln_gpu_tests::{scratch_dir, test_context, words_from_bytes};

const PIPELINE: &str = "builtin.module(gpu.module(convert-math-to-spirv), \
    map-memref-spirv-storage-class, convert-gpu-to-spirv, \
    spirv.module(spirv-lower-abi-attrs, spirv-update-vce))";

/// Corpus files MLIR 19's pipeline rejects, and why (what it reports).
const MLIR_CANNOT_LOWER: &[(&str, &str)] = &[
    ("gpu_shuffle", "no spirv.target_env: MLIR's default env lacks GroupNonUniformShuffle (and MLIR needs width == subgroup size)"),
    ("index_ops", "failed to legalize operation 'index.casts'"),
    ("int_divfloor", "failed to legalize operation 'arith.ceildivsi' (needs arith-expand first)"),
    ("math_exp_log", "failed to legalize operation 'math.exp2'"),
    ("math_more", "failed to legalize operation 'math.log10'"),
    ("multi_module", "kernel @step has no spirv.entry_point_abi (kiln takes the launch's threads in)"),
    ("private_alloca", "'memref.alloca' op failed to legalize memory space (#gpu.address_space<private>)"),
    ("subgroup_reduce", "no spirv.target_env: MLIR's default env lacks GroupNonUniformArithmetic"),
    ("subgroup_reduce_fallback", "failed to legalize operation 'gpu.subgroup_reduce' (MLIR has no fallback)"),
    ("subview", "failed to legalize operation 'memref.subview'"),
    ("workgroup_reverse", "'memref.store' op failed to legalize memory space (#gpu.address_space<workgroup>)"),
    ("workgroup_tree_reduce", "workgroup attribution: functions in 'spirv.module' can only contain spirv.* ops"),
];

/// Corpus files MLIR 19 lowers to a binary the Vulkan environment rejects
/// (checked: spirv-val must still reject it), and why.
const MLIR_INVALID_BINARY: &[(&str, &str)] = &[(
    "vector_ops",
    "vector.load/store become an OpBitcast of the buffer pointer: 'OpLoad Pointer is not a logical pointer'",
)];

/// The lowest Vulkan environment for a binary's SPIR-V version (header
/// word 1), as `spirv-val --target-env` names it.
fn vulkan_env(words: &[u32]) -> &'static str {
    let version = *words.get(1).expect("a SPIR-V module header");
    ValidationEnv::for_vulkan_module(Version::from_word(version)).name()
}

fn tool(name: &str) -> Command {
    Command::new(name)
}

/// Runs `cmd`; Ok(stdout) or Err(stderr).
fn run(cmd: &mut Command) -> Result<Vec<u8>, String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("cannot run {program}: {e} (install mlir-19-tools: ci/setup.sh)")
    });
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The top-level `spirv.module`s of mlir-opt's output: (gpu.module name,
/// text).
fn spirv_modules(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if let Some(rest) = lines[i].strip_prefix("  spirv.module @") {
            let sym = rest.split_whitespace().next().unwrap_or("");
            let name = sym.strip_prefix("__spv__").unwrap_or(sym).to_owned();
            let start = i;
            while i < lines.len() && lines[i] != "  }" {
                i += 1;
            }
            out.push((
                name,
                lines[start..=i.min(lines.len() - 1)].join("\n") + "\n",
            ));
        }
        i += 1;
    }
    out
}

/// MLIR's binaries for `path`'s gpu.modules, or MLIR's error.
fn mlir_binaries(path: &Path) -> Result<Vec<(String, Vec<u32>)>, String> {
    let lowered = run(tool("mlir-opt-19")
        .arg(format!("--pass-pipeline={PIPELINE}"))
        .arg(path))?;
    let text = String::from_utf8_lossy(&lowered).into_owned();
    let modules = spirv_modules(&text);
    assert!(
        !modules.is_empty(),
        "{}: mlir-opt gave no spirv.module:\n{text}",
        path.display()
    );
    let dir = scratch_dir();
    let mut out = Vec::new();
    for (name, body) in modules {
        let src = dir.join(format!("{name}.mlir"));
        let bin = dir.join(format!("{name}.spv"));
        std::fs::write(&src, body).expect("write spirv.module text");
        run(tool("mlir-translate-19")
            .args(["--no-implicit-module", "--serialize-spirv", "-o"])
            .arg(&bin)
            .arg(&src))
        .map_err(|e| format!("mlir-translate-19 on @{name}: {e}"))?;
        out.push((
            name,
            words_from_bytes(&std::fs::read(&bin).expect("read binary")),
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(out)
}

#[test]
fn mlir_binaries_give_the_same_output() {
    let files = mlir_files(&corpus_dir());
    let ctx = test_context();
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in &files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let expected_failure = MLIR_CANNOT_LOWER.iter().find(|(n, _)| *n == name);
        let binaries = match (mlir_binaries(path), expected_failure) {
            (Ok(b), None) => b,
            (Err(_), Some(_)) => continue,
            (Ok(_), Some((_, why))) => {
                failures.push(format!(
                    "{name}: listed as not lowerable by MLIR 19 ({why}) but it lowers: move it off the list"
                ));
                continue;
            }
            (Err(e), None) => {
                failures.push(format!("{name}: MLIR 19 failed:\n{e}"));
                continue;
            }
        };
        let invalid = binaries.iter().any(|(module, words)| {
            spirv_val(words, vulkan_env(words), &format!("mlir-{name}-{module}")).is_err()
        });
        match (
            invalid,
            MLIR_INVALID_BINARY.iter().find(|(n, _)| *n == name),
        ) {
            (false, None) => {}
            (true, Some(_)) => continue,
            (true, None) => {
                failures.push(format!(
                    "{name}: MLIR's binary fails spirv-val for its Vulkan env"
                ));
                continue;
            }
            (false, Some((_, why))) => {
                failures.push(format!(
                    "{name}: listed as giving an invalid MLIR binary ({why}) but it validates: move it off the list"
                ));
                continue;
            }
        }
        let text = std::fs::read_to_string(path).expect("read corpus file");
        let module = kiln_core::kernel::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = run_module(&ctx, &module, &[]).result;
        let theirs = run_module(&ctx, &module, &binaries).result;
        let messages = ctx.take_validation_messages();
        if !messages.is_empty() {
            let list: Vec<String> = messages.iter().map(|m| format!("  {m}")).collect();
            failures.push(format!("{name}: validation messages:\n{}", list.join("\n")));
        }
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                if normalize_addresses(&a) != normalize_addresses(&b) {
                    failures.push(format!(
                        "{name}: outputs differ\n--- kiln ---\n{a}--- MLIR ---\n{b}"
                    ));
                }
                let checks = filecheck::directives(&text).expect("CHECK lines");
                if let Err(e) = filecheck::check(&b, &checks) {
                    failures.push(format!("{name}: MLIR's binary: {e}"));
                }
                compared += 1;
            }
            (a, b) => failures.push(format!("{name}: kiln: {a:?}\nMLIR: {b:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        compared >= 20,
        "only {compared} files compared; the corpus should have at least 20 MLIR can lower"
    );
}

/// Every corpus and error program is valid MLIR 19 (`mlir-opt-19 FILE`).
#[test]
fn every_runner_file_is_accepted_by_mlir_opt() {
    let mut files = mlir_files(&corpus_dir());
    files.extend(mlir_files(&corpus_dir().join("errors")));
    assert!(
        !files.is_empty(),
        "no .mlir files under {}",
        corpus_dir().display()
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            run(tool("mlir-opt-19").arg(f))
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
