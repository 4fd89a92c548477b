//! Shared by `runner.rs` and `runner_mlir_compare.rs`: running a runner
//! file through kiln's host interpreter and Vulkan launcher, and checking
//! SPIR-V binaries with spirv-val.

use std::path::{Path, PathBuf};
use std::process::Command;

use kiln_core::kernel::KernelModule;
use kiln_runtime::runner::{ModuleBinary, VulkanLauncher};
use kiln_vulkan::Context;

/// `gpu-tests/tests/runner`.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runner")
}

/// The `*.mlir` files directly in `dir`, sorted.
pub fn mlir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// What one run gave.
pub struct RunOutcome {
    /// The printed text, or the error with its source chain.
    pub result: Result<String, String>,
    /// The binaries the launcher used.
    pub binaries: Vec<ModuleBinary>,
}

/// An error and its sources, `: `-joined.
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

/// Runs `module`'s `@main` on `ctx`, with `given` binaries replacing the
/// compilation of the named gpu.modules.
pub fn run_module(
    ctx: &Context,
    module: &KernelModule,
    given: &[(String, Vec<u32>)],
) -> RunOutcome {
    let mut launcher = VulkanLauncher::new(ctx, module);
    for (name, words) in given {
        launcher = launcher.with_binary(name, words.clone());
    }
    let result = kiln_core::host::run_main_to_string(module, &mut launcher).map_err(|e| chain(&e));
    RunOutcome {
        result,
        binaries: launcher.binaries().to_vec(),
    }
}

/// Runs `spirv-val --target-env ENV` on `words`; the error holds its output.
pub fn spirv_val(words: &[u32], env: &str, name: &str) -> Result<(), String> {
    let dir = kiln_gpu_tests::scratch_dir();
    let path = dir.join(format!("{name}.spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let out = Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(&path)
        .output()
        .map_err(|e| format!("cannot run spirv-val (install spirv-tools: ci/setup.sh): {e}"))?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "spirv-val --target-env {env} failed on {name}:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The output with `base@ = 0x...` addresses replaced (they vary per run).
pub fn normalize_addresses(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("base@ = ") {
            Some(i) => {
                let rest = &l[i + 8..];
                let end = rest.find(' ').unwrap_or(rest.len());
                format!("{}base@ = ADDR{}", &l[..i], &rest[end..])
            }
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
