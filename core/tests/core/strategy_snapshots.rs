//! Golden strategy snapshots: the `--explain` plan text of every program of
//! the tensor corpus (`gpu-tests/tests/tensor`), the bench programs
//! (`bench/programs`, dynamic ones included) and the example models
//! (`examples/models`) on four target envs, committed under
//! `core/tests/strategy/ENV/` (one file per program), as IREE pins its
//! per-vendor configs (`test/config_*.mlir`): a heuristic change is then a
//! reviewable diff.
//!
//! The envs (`core/tests/lower/envs`), each with the driver facts a compile
//! on that device (or offline) uses:
//! * `lavapipe`: `lavapipe.env` with llvmpipe's facts (loop cap, barriers
//!   serialize, texel reads, word stores);
//! * `h200`: `nvidia-h200.env` with NVIDIA's (none of those);
//! * `minimal`: MLIR's default env (Vulkan 1.0 `Shader`, default limits),
//!   offline (conservative facts);
//! * `mobile`: `mobile.env` (a hand-written Mali-class env with small
//!   limits) with an Arm driver's facts.
//!
//! The plans come from [`plan_function`], which stops before lowering (a
//! fifth of the work of compiling): a function whose strategy or kernels
//! cannot be made for an env is recorded with its error (an internal
//! error, a kiln bug, fails the test instead); one whose kernels would not
//! lower there (a capability the env lacks) shows its plans.
//! `KILN_BLESS=1 cargo test -p kiln-core --test core strategy_snapshots`
//! rewrites the snapshots (and removes those of programs that are gone).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use kiln_core::codegen::{compile_function, explain, plan_function, CodegenTarget, DriverFacts};

use crate::common::{env_file, mlir_files, prepared_tensor_module};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/strategy")
}

fn bless() -> bool {
    std::env::var("KILN_BLESS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The four targets, by snapshot folder name.
fn targets() -> Vec<(&'static str, CodegenTarget)> {
    vec![
        (
            "lavapipe",
            CodegenTarget::new(
                env_file("lavapipe.env"),
                DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", Some("llvmpipe"))
                    .within_texel_limit(DriverFacts::LAVAPIPE_TEXEL_ELEMENTS),
            ),
        ),
        (
            "h200",
            CodegenTarget::new(
                env_file("nvidia-h200.env"),
                DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA")),
            ),
        ),
        (
            "minimal",
            CodegenTarget::new(kiln_core::lower::default_env(), DriverFacts::conservative()),
        ),
        (
            "mobile",
            CodegenTarget::new(
                env_file("mobile.env"),
                DriverFacts::for_driver("Mali-G78", Some("Mali")),
            ),
        ),
    ]
}

/// The programs, by snapshot file name (`tensor.matmul`, `bench.dynamic.softmax`,
/// `models.mlp`). Memref-level bench programs are not tensor programs.
fn programs() -> BTreeMap<String, PathBuf> {
    let r = root();
    let mut out = BTreeMap::new();
    for (prefix, dir) in [
        ("tensor", r.join("gpu-tests/tests/tensor")),
        ("bench", r.join("bench/programs")),
        ("bench.dynamic", r.join("bench/programs/dynamic")),
        ("models", r.join("examples/models")),
    ] {
        for path in mlir_files(&dir) {
            let stem = path.file_stem().expect("a file name").to_string_lossy();
            if stem.ends_with(".memref") {
                continue;
            }
            out.insert(format!("{prefix}.{stem}"), path);
        }
    }
    out
}

/// The plans of every function of `path` for `target`: `explain`'s text
/// (without lowering the kernels: [`plan_function`]), or the error.
fn plans(path: &Path, target: &CodegenTarget) -> String {
    let prepared = prepared_tensor_module(path);
    let mut text = String::new();
    for &f in prepared.funcs() {
        if prepared.func(f).body.is_none() {
            continue;
        }
        match plan_function(&prepared, f, target) {
            Ok(plans) => text.push_str(&plans),
            Err(e) => {
                text.push_str(&format!("func @{}: error: {e}\n", prepared.func(f).name));
            }
        }
    }
    text
}

#[test]
fn strategy_snapshots_match_the_committed_plans() {
    let programs = programs();
    assert!(programs.len() >= 80, "corpus files are missing");
    let targets = targets();
    // One thread per target env: the compiles are independent.
    let results: Vec<(&str, Vec<(String, String)>)> = std::thread::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|(env, target)| {
                let programs = &programs;
                s.spawn(move || {
                    let texts = programs
                        .iter()
                        .map(|(name, path)| (name.clone(), plans(path, target)))
                        .collect::<Vec<_>>();
                    (*env, texts)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a snapshot thread panicked"))
            .collect()
    });
    let bless = bless();
    let mut problems = Vec::new();
    // An internal error is a kiln bug on every env, never a plan to pin:
    // the strategy chose what its kernels cannot make (a matmul read
    // through a transpose was refused so on every env but the H200's).
    for (env, texts) in &results {
        for (name, text) in texts {
            for line in text.lines().filter(|l| l.contains(" op internal: ")) {
                problems.push(format!("{env}/{name}: {line}"));
            }
        }
    }
    for (env, texts) in &results {
        let dir = snapshot_dir().join(env);
        if bless {
            std::fs::create_dir_all(&dir).expect("snapshot folder");
        }
        let mut expected_files: Vec<String> = Vec::new();
        for (name, text) in texts {
            let file = format!("{name}.txt");
            let path = dir.join(&file);
            expected_files.push(file);
            if bless {
                std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(committed) if committed == *text => {}
                Ok(committed) => {
                    let first = committed
                        .lines()
                        .zip(text.lines())
                        .position(|(a, b)| a != b)
                        .unwrap_or(committed.lines().count().min(text.lines().count()));
                    problems.push(format!(
                        "{env}/{name}.txt differs from the plans at line {}: committed {:?}, now {:?}",
                        first + 1,
                        committed.lines().nth(first).unwrap_or("<end>"),
                        text.lines().nth(first).unwrap_or("<end>")
                    ));
                }
                Err(e) => problems.push(format!("{env}/{name}.txt: {e}")),
            }
        }
        // Snapshots of programs that are gone.
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries {
                let entry = entry.expect("a folder entry");
                let file = entry.file_name().to_string_lossy().into_owned();
                if !expected_files.contains(&file) {
                    if bless {
                        std::fs::remove_file(entry.path()).expect("removable");
                    } else {
                        problems.push(format!("{env}/{file}: no such program any more"));
                    }
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} strategy snapshot(s) out of date; if the change is intended, rerun with \
         KILN_BLESS=1 and review the diff of core/tests/strategy/:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn plans_without_lowering_are_the_explain_text_of_the_compiled_function() {
    let path = root().join("examples/models/mlp.mlir");
    let prepared = prepared_tensor_module(&path);
    for (env, target) in targets() {
        for &f in prepared.funcs() {
            if prepared.func(f).body.is_none() {
                continue;
            }
            let compiled = compile_function(&prepared, f, &target).expect("compiles");
            let plans = plan_function(&prepared, f, &target).expect("plans");
            assert_eq!(
                plans,
                explain(&compiled),
                "{env}: @{}",
                prepared.func(f).name
            );
        }
    }
}

/// Buffers past `maxStorageBufferRange`: `split_buffers.mlir` and
/// `split_buffers_dynamic.mlir` planned for lavapipe with the range
/// lowered to 4 KiB (their tensors span chunks). The planner decides
/// which buffers are bound in chunks (each plan carries them; `--explain`
/// prints a `binding N (buffer B): D descriptors` line per kernel
/// binding), and for buffers sized at run time adds `_chunked` variants
/// with their guards, pinned in `lavapipe-4k/tensor.<file>.txt`; the plans
/// equal the `--explain` text of the compiled kernels, whose lines come
/// from the arrays of descriptors in their SPIR-V (so what the plan says
/// is what the binary binds). Costs about three seconds (eleven functions
/// compiled).
#[test]
fn split_buffer_plans_match_their_snapshot_and_the_binaries() {
    let mut env = env_file("lavapipe.env");
    env.limits.max_storage_buffer_range = 4096;
    let target = CodegenTarget::new(
        env,
        DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", Some("llvmpipe"))
            .within_texel_limit(DriverFacts::LAVAPIPE_TEXEL_ELEMENTS),
    );
    for name in ["split_buffers", "split_buffers_dynamic"] {
        let path = root().join(format!("gpu-tests/tests/tensor/{name}.mlir"));
        let text = plans(&path, &target);
        assert!(
            text.contains("descriptors, one per chunk"),
            "{name}: no binding in chunks:\n{text}"
        );
        if name == "split_buffers_dynamic" {
            assert!(
                text.contains("_chunked: "),
                "{name}: no chunked variant:\n{text}"
            );
        }
        let snapshot = snapshot_dir().join(format!("lavapipe-4k/tensor.{name}.txt"));
        if bless() {
            std::fs::create_dir_all(snapshot.parent().expect("a folder")).expect("snapshot folder");
            std::fs::write(&snapshot, &text).expect("writable");
        }
        let committed = std::fs::read_to_string(&snapshot)
            .unwrap_or_else(|e| panic!("{}: {e}", snapshot.display()));
        assert_eq!(
            committed,
            text,
            "{} is out of date (KILN_BLESS=1 rewrites it)",
            snapshot.display()
        );
        let prepared = prepared_tensor_module(&path);
        for &f in prepared.funcs() {
            if prepared.func(f).body.is_none() {
                continue;
            }
            let compiled = compile_function(&prepared, f, &target).expect("compiles");
            let plans = plan_function(&prepared, f, &target).expect("plans");
            assert_eq!(plans, explain(&compiled), "@{}", prepared.func(f).name);
        }
    }
}

/// Cooperative-matrix plans: the corpus's f16 matmul files, its f16
/// convolutions as implicit GEMMs, its f16 attention and the f16 bench
/// matmuls planned for the two committed envs with
/// `SPV_KHR_cooperative_matrix` (which `targets` leaves out), pinned in
/// `h200-coop/` and `coop-sg16/`: which tiles, grids and staging
/// (`--explain`'s distribution line: whole blocks staged in workgroup
/// memory or loading straight from memory) each matmul gets. Costs well
/// under a second (plans only).
#[test]
fn coop_matrix_plans_match_their_snapshots() {
    let targets = [
        (
            "h200-coop",
            CodegenTarget::new(
                env_file("nvidia-h200-coop.env"),
                DriverFacts::for_driver("NVIDIA H200", Some("NVIDIA")),
            ),
        ),
        (
            "coop-sg16",
            CodegenTarget::new(env_file("coop-sg16.env"), DriverFacts::conservative()),
        ),
    ];
    let programs = [
        (
            "tensor.matmul_f16_tiles",
            "gpu-tests/tests/tensor/matmul_f16_tiles.mlir",
        ),
        (
            "tensor.matmul_f16_coop",
            "gpu-tests/tests/tensor/matmul_f16_coop.mlir",
        ),
        (
            "tensor.matmul_f16_coop_staged",
            "gpu-tests/tests/tensor/matmul_f16_coop_staged.mlir",
        ),
        (
            "tensor.conv_f16_coop",
            "gpu-tests/tests/tensor/conv_f16_coop.mlir",
        ),
        (
            "tensor.attention_f16_coop",
            "gpu-tests/tests/tensor/attention_f16_coop.mlir",
        ),
        ("bench.matmul_512_f16", "bench/programs/matmul_512_f16.mlir"),
        (
            "bench.matmul_4096_f16",
            "bench/programs/matmul_4096_f16.mlir",
        ),
    ];
    let mut problems = Vec::new();
    for (env, target) in &targets {
        for (name, path) in programs {
            let text = plans(&root().join(path), target);
            assert!(
                text.contains("cooperative matrices"),
                "{env} {name}:\n{text}"
            );
            let snapshot = snapshot_dir().join(format!("{env}/{name}.txt"));
            if bless() {
                std::fs::create_dir_all(snapshot.parent().expect("a folder"))
                    .expect("snapshot folder");
                std::fs::write(&snapshot, &text).expect("writable");
            }
            match std::fs::read_to_string(&snapshot) {
                Ok(committed) if committed == text => {}
                Ok(_) => problems.push(format!("{} differs from the plans", snapshot.display())),
                Err(e) => problems.push(format!("{}: {e}", snapshot.display())),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} (KILN_BLESS=1 rewrites them)",
        problems.join("\n")
    );
}
