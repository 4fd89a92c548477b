//! `cargo bench -p kiln-examples --bench transformer_start`: cold vs warm
//! start of the transformer example (`models/transformer.mlir`) on the
//! default device (not run in CI; medians printed).
//!
//! Each run opens a device over a fresh cache directory (cold: empty
//! caches), times `Device::compile` of the block — in its two halves:
//! `Device::compile_program` (kiln: the tensor compiler, lowering,
//! serialization, validation — or the program caches) and `Program::load`
//! (the driver: one pipeline per kernel) — and its first `Program::run`, saves the caches, drops the device, opens a second one
//! over the same directory (warm: the compiled program from the disk
//! cache's `programs/*.kprog`, and the `VkPipelineCache` blob loaded at
//! open) and times the same two steps.
//! Opening the devices and parsing the MLIR are not timed. The target: the
//! warm compile ≤ 10% of the cold one.
//!
//! `KILN_BENCH_RUNS` sets the number of timed runs (default 5, after one
//! warm-up).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kiln_runtime::bench::stats::{ms, Stats};
use kiln_runtime::{CacheLocation, CacheStats, Device, DeviceOptions, Program};

/// A directory removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What one start took.
struct Start {
    /// `Device::compile_program`: kiln's part of compiling.
    kiln: Duration,
    /// `Device::compile`: the above and `Program::load` (pipelines).
    compile: Duration,
    /// The first run.
    run: Duration,
}

/// A start on a fresh device over `dir`, and its cache stats.
fn start(dir: &TempDir) -> (Start, CacheStats) {
    let device = Device::new(&DeviceOptions {
        cache: CacheLocation::Dir(dir.0.clone()),
        ..DeviceOptions::default()
    })
    .expect("a Vulkan device");
    let module = kiln_core::tensor::load(kiln_examples::TRANSFORMER).expect("the model parses");
    let args = kiln_examples::transformer_args(7);
    let t = Instant::now();
    let compiled = device.compile_program(&module).expect("the block compiles");
    let kiln = t.elapsed();
    let program = Program::load(&device, compiled).expect("the block loads");
    let compile = t.elapsed();
    let t = Instant::now();
    program.run("block", &args).expect("the block runs");
    let run = t.elapsed();
    device.save_caches().expect("the caches are written");
    (Start { kiln, compile, run }, device.cache_stats())
}

fn main() {
    let runs: usize = std::env::var("KILN_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let (mut cold_c, mut cold_r, mut warm_c, mut warm_r) = (vec![], vec![], vec![], vec![]);
    let (mut cold_k, mut warm_k) = (vec![], vec![]);
    let mut last = None;
    for run in 0..=runs.max(1) {
        let dir = TempDir(std::env::temp_dir().join(format!(
            "kiln-transformer-start-{}-{run}",
            std::process::id()
        )));
        std::fs::create_dir_all(&dir.0).expect("a temporary directory");
        let (cold, _) = start(&dir);
        let (warm, stats) = start(&dir);
        if run > 0 {
            cold_k.push(cold.kiln);
            cold_c.push(cold.compile);
            cold_r.push(cold.run);
            warm_k.push(warm.kiln);
            warm_c.push(warm.compile);
            warm_r.push(warm.run);
        }
        last = Some(stats);
    }
    let s = |v: &[Duration]| Stats::new(v).expect("runs");
    let (cc, cr, wc, wr) = (s(&cold_c), s(&cold_r), s(&warm_c), s(&warm_r));
    let (ck, wk) = (s(&cold_k), s(&warm_k));
    println!("transformer block (seq 128, width 256, 4 heads), {runs} runs, medians:");
    println!(
        "  cold (empty caches): compile {:8.1} ms, first run {:8.1} ms, total {:8.1} ms",
        cc.median_ms(),
        cr.median_ms(),
        cc.median_ms() + cr.median_ms()
    );
    println!(
        "  warm (disk caches):  compile {:8.1} ms, first run {:8.1} ms, total {:8.1} ms",
        wc.median_ms(),
        wr.median_ms(),
        wc.median_ms() + wr.median_ms()
    );
    println!(
        "  warm/cold compile: {:.1}% (target <= 10%); compile min {:.1} / {:.1} ms",
        100.0 * wc.median_ms() / cc.median_ms(),
        ms(wc.min),
        ms(cc.min)
    );
    println!(
        "  of which kiln (Device::compile_program): cold {:.2} ms, warm {:.2} ms: {:.1}%; \
         the rest is the driver's pipelines (Program::load): cold {:.2} ms, warm {:.2} ms",
        ck.median_ms(),
        wk.median_ms(),
        100.0 * wk.median_ms() / ck.median_ms(),
        cc.median_ms() - ck.median_ms(),
        wc.median_ms() - wk.median_ms()
    );
    println!("  warm device's cache stats: {:?}", last.expect("runs"));
}
