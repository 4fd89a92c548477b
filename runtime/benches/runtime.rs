//! `cargo bench -p kiln-runtime`: the runtime's overheads beside a baseline
//! measured in the same run (not run in CI; medians printed).
//!
//! - Dispatch overhead: one tiny dispatch end to end (enqueue, submit,
//!   wait), and the cost of each extra dispatch in a batch of 100 in one
//!   submit ((T(100) − T(1)) / 99), for the runtime's `Stream` and for
//!   kiln-vulkan's `DirectDispatchLoop` (a plain record + `vkQueueSubmit` +
//!   fence loop written directly against the driver). Each dispatch reads
//!   what the previous one wrote (ping-pong), so both put a barrier between
//!   every two. Targets: ≤ 25 µs per extra dispatch on lavapipe, within
//!   1.5× of the direct loop.
//! - Upload (`Tensor::from_slice`) and readback (`Tensor::to_vec`, and
//!   `Tensor::read_into` an existing buffer) of
//!   `KILN_BENCH_MIB` MiB (default 64) against a host memcpy of the same
//!   size into an existing buffer in the same run (a copy into a fresh `Vec`,
//!   what `to_vec` returns, is printed for context); with unified memory
//!   (tensors host-visible) and through staging. Target ≥ 0.7×.
//!
//! `KILN_BENCH_RUNS` sets the number of timed runs (default 41).

use std::hint::black_box;
use std::time::{Duration, Instant};

use kiln_runtime::{CacheLocation, Device, DeviceOptions, KernelSource, Tensor};
use kiln_vulkan::baseline::DirectDispatchLoop;
use kiln_vulkan::{BlockPool, MemoryKind};

/// y[i] = x[i] + 1 over 64 floats, one workgroup.
const INCREMENT: &str = r#"
gpu.module @m {
  gpu.func @increment(%x: memref<64xf32>, %y: memref<64xf32>) kernel
      attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
    %i = gpu.thread_id x
    %v = memref.load %x[%i] : memref<64xf32>
    %one = arith.constant 1.0 : f32
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<64xf32>
    gpu.return
  }
}"#;

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut()) -> Duration {
    f(); // warm-up
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect(),
    )
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn open(unified: bool) -> Device {
    Device::new(&DeviceOptions {
        cache: CacheLocation::Disabled,
        max_dispatches_per_submit: 1000,
        unified_memory: unified,
        ..DeviceOptions::default()
    })
    .expect("a Vulkan device")
}

fn dispatch_overhead(runs: usize) {
    let device = open(true);
    let kernel = device
        .load_kernel(KernelSource::memref(INCREMENT, "increment"))
        .expect("kernel");
    let x = Tensor::zeros(&device, kiln_runtime::DType::F32, &[64]).unwrap();
    let y = Tensor::zeros(&device, kiln_runtime::DType::F32, &[64]).unwrap();
    let stream = device.stream();
    let runtime = |count: usize| {
        time(runs, || {
            for i in 0..count {
                let (a, b) = if i % 2 == 0 { (&x, &y) } else { (&y, &x) };
                stream.dispatch(&kernel, &[a, b], [1, 1, 1]).unwrap();
            }
            stream.sync().unwrap();
        })
    };
    let r1 = runtime(1);
    let r100 = runtime(100);

    let ctx = device.context();
    let pool = BlockPool::new(ctx, MemoryKind::Upload, 1 << 20).unwrap();
    let (a, b) = (pool.allocate(256).unwrap(), pool.allocate(256).unwrap());
    let mut direct_loop = DirectDispatchLoop::new(ctx, 100).unwrap();
    let pipeline = kernel.pipeline();
    let mut direct = |count: u32| {
        time(runs, || {
            direct_loop
                .run_ping_pong(pipeline, &a, &b, [1, 1, 1], count)
                .unwrap()
        })
    };
    let d1 = direct(1);
    let d100 = direct(100);
    let extra = |t1: Duration, t100: Duration| (us(t100) - us(t1)) / 99.0;
    let (re, de) = (extra(r1, r100), extra(d1, d100));
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

fn bandwidth(runs: usize, mib: usize) {
    let n = mib * (1 << 20) / 4;
    let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let bytes = (n * 4) as f64;
    let gbs = |d: Duration| bytes / d.as_secs_f64() / 1e9;
    let mut dst = vec![0f32; n];
    let memcpy_into = time(runs, || {
        dst.copy_from_slice(black_box(&data));
        black_box(&dst);
    });
    let memcpy_fresh = time(runs, || {
        black_box(black_box(&data).to_vec());
    });
    println!("\nupload / readback of {mib} MiB (median of {runs}):");
    println!(
        "{:<44} {:>8.2} GB/s  (host copy into an existing buffer)",
        "host memcpy (the baseline of both ratios)",
        gbs(memcpy_into)
    );
    println!(
        "{:<44} {:>8.2} GB/s  (host copy into a fresh Vec)",
        "host copy into a fresh Vec (for context)",
        gbs(memcpy_fresh)
    );
    for unified in [true, false] {
        let device = open(unified);
        let how = if device.info().unified_memory {
            "unified memory"
        } else {
            "staging"
        };
        let upload = time(runs, || {
            let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
            device.sync().unwrap();
            black_box(t);
        });
        let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
        let readback = time(runs, || {
            black_box(t.to_vec::<f32>().unwrap());
        });
        let mut host = vec![0f32; n];
        let read_into = time(runs, || {
            t.read_into(&mut host).unwrap();
            black_box(&host);
        });
        assert_eq!(host[n - 1], data[n - 1]);
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("upload (Tensor::from_slice), {how}"),
            gbs(upload),
            memcpy_into.as_secs_f64() / upload.as_secs_f64()
        );
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("readback (Tensor::to_vec), {how}"),
            gbs(readback),
            memcpy_into.as_secs_f64() / readback.as_secs_f64()
        );
        println!(
            "{:<44} {:>8.2} GB/s  {:.2}x memcpy   (target >= 0.7x)",
            format!("readback (Tensor::read_into), {how}"),
            gbs(read_into),
            memcpy_into.as_secs_f64() / read_into.as_secs_f64()
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken.
    let runs = env_usize("KILN_BENCH_RUNS", 41).max(1);
    dispatch_overhead(runs);
    bandwidth(runs.min(15), env_usize("KILN_BENCH_MIB", 64).max(1));
}
