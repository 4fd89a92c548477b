//! `cargo bench -p kiln-runtime`: the runtime's overheads beside a baseline
//! measured in the same run (not run in CI; medians printed).
//!
//! - Dispatch overhead ([`kiln_runtime::bench::overhead`], shared with
//!   `kiln bench`): one tiny dispatch end to end (enqueue, submit, wait),
//!   and the cost of each extra dispatch in a batch of 100 in one submit
//!   ((T(100) − T(1)) / 99), for the runtime's `Stream` and for
//!   kiln-vulkan's `DirectDispatchLoop` (a plain record + `vkQueueSubmit` +
//!   fence loop written directly against the driver). Targets: ≤ 25 µs per
//!   extra dispatch on lavapipe, within 1.5× of the direct loop.
//! - Upload (`Tensor::from_slice`) and readback (`Tensor::to_vec`, and
//!   `Tensor::read_into` an existing buffer) of
//!   `KILN_BENCH_MIB` MiB (default 64) against a host memcpy of the same
//!   size into an existing buffer in the same run (each ratio the median
//!   over pairs of calls made back to back: the host copy, then the
//!   transfer); `to_vec` also against a
//!   host copy into a freshly allocated `Vec` (what `to_vec` returns: its
//!   pages fault in on first touch), like for like; with unified memory
//!   (tensors host-visible) and through staging (device-local tensors,
//!   transfers in chunks of `DeviceOptions::staging_chunk_size`, host and
//!   device copies overlapping). Target ≥ 0.7×.
//!
//! - Eager op overhead: the host time of enqueueing `ops::add` of two
//!   `[64]` f32 tensors on a stream (a cache hit: the program compiled on
//!   the first call), beside a raw `Stream::dispatch` of a memref kernel of
//!   the same size, each the median over runs of the mean of 50 enqueues
//!   (the stream synced between runs, outside the timing). Target: an op
//!   call <= 10 us.
//!
//! `KILN_BENCH_RUNS` sets the number of timed runs (default 41);
//! `KILN_BENCH_CHUNK_KIB` the staging chunk size (default: the device
//! default, `DeviceOptions::staging_chunk_size`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use kiln_runtime::bench::stats::time_host;

use kiln_runtime::{CacheLocation, Device, DeviceOptions, Tensor};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Median of `runs` timed calls after a warm-up.
fn time(runs: usize, f: impl FnMut()) -> Duration {
    time_host(runs, f).median
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn open(unified: bool) -> Device {
    let defaults = DeviceOptions::default();
    let chunk_kib = env_usize(
        "KILN_BENCH_CHUNK_KIB",
        (defaults.staging_chunk_size >> 10) as usize,
    );
    Device::new(&DeviceOptions {
        cache: CacheLocation::Disabled,
        max_dispatches_per_submit: 1000,
        unified_memory: unified,
        staging_chunk_size: chunk_kib as u64 * 1024,
        ..defaults
    })
    .expect("a Vulkan device")
}

fn dispatch_overhead(runs: usize) {
    let device = open(true);
    let o =
        kiln_runtime::bench::overhead::dispatch_overhead(&device, runs).expect("dispatch overhead");
    let (r1, r100) = (o.runtime_one.median, o.runtime_batch.median);
    let (d1, d100) = (o.direct_one.median, o.direct_batch.median);
    let (re, de) = (us(o.runtime_per_extra()), us(o.direct_per_extra()));
    println!(
        "dispatch overhead on {} (median of {runs}):",
        device.info().name
    );
    println!(
        "{:<44} {:>10} {:>10} {:>7}",
        "", "runtime", "direct", "ratio"
    );
    println!(
        "{:<44} {:>8.1}us {:>8.1}us {:>6.2}x",
        "one tiny dispatch, end to end",
        us(r1),
        us(d1),
        us(r1) / us(d1)
    );
    println!(
        "{:<44} {:>8.1}us {:>8.1}us {:>6.2}x",
        "batch of 100 in one submit, end to end",
        us(r100),
        us(d100),
        us(r100) / us(d100)
    );
    println!(
        "{:<44} {:>8.2}us {:>8.2}us {:>6.2}x   (targets: <= 25 us, <= 1.5x)",
        "each extra dispatch in the batch",
        re,
        de,
        re / de
    );
}

/// Times `base` and `op` alternately, `runs` times each after one
/// untimed call of each: the median of `op`, and the median over the pairs
/// of `base`'s time over `op`'s (each ratio from two calls made back to
/// back, so a change of the machine's load moves both).
fn paired(runs: usize, mut base: impl FnMut(), mut op: impl FnMut()) -> (Duration, f64) {
    base();
    op();
    let mut times = Vec::with_capacity(runs);
    let mut ratios = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        base();
        let b = t.elapsed();
        let t = Instant::now();
        op();
        let o = t.elapsed();
        times.push(o);
        ratios.push(b.as_secs_f64() / o.as_secs_f64());
    }
    times.sort();
    ratios.sort_by(f64::total_cmp);
    (times[runs / 2], ratios[runs / 2])
}

fn bandwidth(runs: usize, mib: usize) {
    let n = mib * (1 << 20) / 4;
    let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let bytes = (n * 4) as f64;
    let gbs = |d: Duration| bytes / d.as_secs_f64() / 1e9;
    let mut dst = vec![0f32; n];
    let mut memcpy_into = || {
        dst.copy_from_slice(black_box(&data));
        black_box(&mut dst);
    };
    let memcpy_fresh = || {
        black_box(black_box(&data).to_vec());
    };
    println!("\nupload / readback of {mib} MiB (medians of {runs}; each ratio the median over");
    println!("pairs of calls made back to back, the host copy then the transfer):");
    println!(
        "{:<44} {:>8.2} GB/s  (host copy into an existing buffer)",
        "host memcpy (the baseline of both ratios)",
        gbs(time(runs, &mut memcpy_into))
    );
    println!(
        "{:<44} {:>8.2} GB/s  (host copy into a fresh Vec)",
        "host copy into a fresh Vec (to_vec's baseline)",
        gbs(time(runs, memcpy_fresh))
    );
    for unified in [true, false] {
        let device = open(unified);
        let how = if device.info().unified_memory {
            "unified memory"
        } else {
            "staging"
        };
        let (upload, upload_x) = paired(runs, &mut memcpy_into, || {
            let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
            device.sync().unwrap();
            black_box(t);
        });
        let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
        let to_vec = || {
            black_box(t.to_vec::<f32>().unwrap());
        };
        let (readback, readback_x) = paired(runs, &mut memcpy_into, to_vec);
        let (_, readback_fresh_x) = paired(runs, memcpy_fresh, to_vec);
        let mut host = vec![0f32; n];
        let (read_into, read_into_x) = paired(runs, &mut memcpy_into, || {
            t.read_into(&mut host).unwrap();
            black_box(&host);
        });
        assert_eq!(host[n - 1], data[n - 1]);
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("upload (Tensor::from_slice), {how}"),
            gbs(upload),
            upload_x
        );
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("readback (Tensor::to_vec), {how}"),
            gbs(readback),
            readback_x
        );
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x host copy into a fresh Vec (like for like)",
            format!("readback (Tensor::to_vec), {how}"),
            gbs(readback),
            readback_fresh_x
        );
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("readback (Tensor::read_into), {how}"),
            gbs(read_into),
            read_into_x
        );
    }
}

/// The median over `runs` of the mean host time of `ENQUEUES` calls of
/// `f` on `stream` (synced after each run, outside the timing).
fn enqueue_time(runs: usize, stream: &kiln_runtime::Stream, mut f: impl FnMut()) -> Duration {
    const ENQUEUES: u32 = 50;
    f();
    stream.sync().unwrap();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..ENQUEUES {
                f();
            }
            let d = t.elapsed() / ENQUEUES;
            stream.sync().unwrap();
            d
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn op_overhead(runs: usize) {
    use kiln_runtime::{ops, KernelSource};
    let device = open(true);
    let stream = device.stream();
    let kernel = device
        .load_kernel(KernelSource::memref(
            kiln_runtime::bench::overhead::INCREMENT,
            "increment",
        ))
        .unwrap();
    let a = Tensor::from_slice(&device, &[1.0f32; 64], &[64]).unwrap();
    let b = Tensor::from_slice(&device, &[2.0f32; 64], &[64]).unwrap();
    let y = Tensor::zeros(&device, kiln_runtime::DType::F32, &[64]).unwrap();
    let sum = ops::add(&stream, &a, &b).unwrap();
    assert_eq!(sum.to_vec::<f32>().unwrap(), vec![3.0; 64]);
    let raw = enqueue_time(runs, &stream, || {
        stream.dispatch(&kernel, &[&a, &y], [1, 1, 1]).unwrap();
    });
    let op = enqueue_time(runs, &stream, || {
        black_box(ops::add(&stream, &a, &b).unwrap());
    });
    println!("\neager op overhead (host time per enqueue, median of {runs} runs of 50):");
    println!(
        "{:<44} {:>8.2}us",
        "raw Stream::dispatch, [64] f32",
        us(raw)
    );
    println!(
        "{:<44} {:>8.2}us   (target <= 10 us)",
        "ops::add, [64] f32, a cache hit",
        us(op)
    );
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken.
    let runs = env_usize("KILN_BENCH_RUNS", 41).max(1);
    op_overhead(runs);
    if std::env::var_os("KILN_BENCH_OPS_ONLY").is_some() {
        return;
    }
    dispatch_overhead(runs);
    bandwidth(runs.min(15), env_usize("KILN_BENCH_MIB", 64).max(1));
}
