//! `cargo bench -p kiln-examples --bench transformer_start`: cold vs warm
//! start of the transformer example (`models/transformer.mlir`) on the
//! default device (not run in CI; medians printed).
//!
//! Each run opens a device over a fresh cache directory (cold: empty
//! caches), times `Device::compile` of the block and its first
//! `Program::run`, saves the caches, drops the device, opens a second one
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
use kiln_runtime::{CacheLocation, CacheStats, Device, DeviceOptions};

/// A directory removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// (compile, first run) on a fresh device over `dir`, and its cache stats.
fn start(dir: &TempDir) -> (Duration, Duration, CacheStats) {
    let device = Device::new(&DeviceOptions {
        cache: CacheLocation::Dir(dir.0.clone()),
        ..DeviceOptions::default()
    })
    .expect("a Vulkan device");
    let module = kiln_core::tensor::load(kiln_examples::TRANSFORMER).expect("the model parses");
    let args = kiln_examples::transformer_args(7);
    let t = Instant::now();
    let program = device.compile(&module).expect("the block compiles");
    let compile = t.elapsed();
    let t = Instant::now();
    program.run("block", &args).expect("the block runs");
    let run = t.elapsed();
    device.save_caches().expect("the caches are written");
    (compile, run, device.cache_stats())
}

fn main() {
    let runs: usize = std::env::var("KILN_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let (mut cold_c, mut cold_r, mut warm_c, mut warm_r) = (vec![], vec![], vec![], vec![]);
    let mut last = None;
    for run in 0..=runs.max(1) {
        let dir = TempDir(std::env::temp_dir().join(format!(
            "kiln-transformer-start-{}-{run}",
            std::process::id()
        )));
        std::fs::create_dir_all(&dir.0).expect("a temporary directory");
        let (c, r, _) = start(&dir);
        let (wc, wr, stats) = start(&dir);
        if run > 0 {
            cold_c.push(c);
            cold_r.push(r);
            warm_c.push(wc);
            warm_r.push(wr);
        }
        last = Some(stats);
    }
    let s = |v: &[Duration]| Stats::new(v).expect("runs");
    let (cc, cr, wc, wr) = (s(&cold_c), s(&cold_r), s(&warm_c), s(&warm_r));
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
    println!("  warm device's cache stats: {:?}", last.expect("runs"));
}
