//! `cargo bench -p kiln-core --bench compile_deferred`: what the `_chunked`
//! variants of dynamic programs cost the tensor compiler (issue 32), and
//! what deferring them saves. For each corpus file below, compiled for
//! lavapipe's env (its 128 MiB `maxStorageBufferRange`: every dispatch
//! binding a buffer sized at run time gets a variant), the median of
//! `KILN_BENCH_RUNS` runs (default 5), alternated, of a compile that lowers
//! every kernel (`Lowering::All`, what `compile` did for every caller) and
//! of one that defers the variants (`Lowering::DeferRunTimeVariants`, what
//! the runtime and the CPU runner now do), with the share of the first
//! spent on the variants and the kernel counts. The load average is
//! printed with them (the machine may be shared).
//!
//! Measured 2026-11-30 (`--profile dev`, 2 shared cores, load average
//! 13.8), medians of 5: dynamic_programs 694 -> 195 ms (12 variants of 24
//! kernels), split_buffers_dynamic 986 -> 453 ms (9 of 18),
//! linalg_reduce 657 -> 359 ms (12 of 41), matmul_dynamic 91.2 -> 16.4 s
//! (16 of 32): the variants were 45-82 % of these compiles.
#![forbid(unsafe_code)]

use std::time::{Duration, Instant};

use kiln_core::codegen::{compile_with, CodegenTarget, DriverFacts, Lowering};

const FILES: &[&str] = &[
    "dynamic_programs.mlir",
    "split_buffers_dynamic.mlir",
    "linalg_reduce.mlir",
    "matmul_dynamic.mlir",
];

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let env_text = std::fs::read_to_string(root.join("core/tests/lower/envs/lavapipe.env"))
        .expect("lavapipe.env");
    let env = env_text.trim().parse().expect("an env");
    let target = CodegenTarget::new(
        env,
        DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", Some("llvmpipe")),
    );
    let runs: usize = std::env::var("KILN_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "lavapipe env, {runs} runs each, load average {}",
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "{:<28} {:>8} {:>8} {:>10} {:>10} {:>7}",
        "file", "plain", "chunked", "all (ms)", "defer (ms)", "saved"
    );
    for file in FILES {
        let text = std::fs::read_to_string(root.join("gpu-tests/tests/tensor").join(file))
            .expect("a corpus file");
        let m = kiln_core::tensor::load(&text).expect("parses");
        let m = kiln_core::tensor::e2e::compute_module(&m).expect("an e2e file");
        let (mut all, mut defer) = (Vec::new(), Vec::new());
        let mut counts = (0, 0);
        for _ in 0..runs {
            let t = Instant::now();
            let p = compile_with(&m, &target, Lowering::All).expect("compiles");
            all.push(t.elapsed());
            let t = Instant::now();
            let q = compile_with(&m, &target, Lowering::DeferRunTimeVariants).expect("compiles");
            defer.push(t.elapsed());
            let kernels = p
                .functions
                .iter()
                .flat_map(|f| &f.dispatches)
                .flat_map(|d| &d.kernels);
            let chunked = kernels
                .clone()
                .filter(|k| k.runs_only_past_the_storage_range());
            counts = (kernels.count() - chunked.count(), 0);
            counts.1 = q
                .functions
                .iter()
                .flat_map(|f| &f.dispatches)
                .flat_map(|d| &d.kernels)
                .filter(|k| k.is_deferred())
                .count();
        }
        let (a, d) = (median(all), median(defer));
        println!(
            "{:<28} {:>8} {:>8} {:>10.1} {:>10.1} {:>6.0}%",
            file,
            counts.0,
            counts.1,
            a.as_secs_f64() * 1e3,
            d.as_secs_f64() * 1e3,
            100.0 * (1.0 - d.as_secs_f64() / a.as_secs_f64())
        );
    }
}
