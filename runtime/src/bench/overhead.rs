//! Dispatch overhead: one tiny dispatch end to end (enqueue, submit,
//! wait), and the cost of each extra dispatch in a batch of 100 in one
//! submit (`(T(100) − T(1)) / 99`), for the runtime's [`Stream`](crate::Stream)
//! and for kiln-vulkan's [`DirectDispatchLoop`] (a plain record +
//! `vkQueueSubmit` + fence loop written directly against the driver) in the
//! same run. Each dispatch reads what the previous one wrote (ping-pong), so
//! both put a barrier between every two. Used by `cargo bench -p
//! kiln-runtime` and `kiln bench`.

use std::time::Duration;

use kiln_vulkan::baseline::DirectDispatchLoop;
use kiln_vulkan::{BlockPool, MemoryKind};

use crate::bench::stats::{time_host, Stats};
use crate::bench::BenchError;
use crate::{DType, Device, KernelSource, Tensor};

/// `y[i] = x[i] + 1` over 64 floats, one workgroup.
pub const INCREMENT: &str = r#"
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

/// Dispatches in the batch of [`DispatchOverhead`].
pub const BATCH: u32 = 100;

/// Dispatch overhead of the runtime and of the direct-driver loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DispatchOverhead {
    /// One dispatch end to end through a `Stream`.
    pub runtime_one: Stats,
    /// [`BATCH`] dispatches in one submit through a `Stream`.
    pub runtime_batch: Stats,
    /// One dispatch end to end through the direct loop.
    pub direct_one: Stats,
    /// [`BATCH`] dispatches in one submit through the direct loop.
    pub direct_batch: Stats,
}

impl DispatchOverhead {
    /// The runtime's cost of each extra dispatch in the batch (medians).
    pub fn runtime_per_extra(&self) -> Duration {
        per_extra(&self.runtime_one, &self.runtime_batch)
    }

    /// The direct loop's cost of each extra dispatch in the batch.
    pub fn direct_per_extra(&self) -> Duration {
        per_extra(&self.direct_one, &self.direct_batch)
    }
}

fn per_extra(one: &Stats, batch: &Stats) -> Duration {
    batch.median.saturating_sub(one.median) / (BATCH - 1)
}

/// Measures [`DispatchOverhead`] on `device` with `runs` timed runs of each
/// (after a warm-up). The increment kernel's result is checked first. The
/// device should not profile (timestamps would add to the cost) and should
/// allow [`BATCH`] dispatches per submit.
pub fn dispatch_overhead(device: &Device, runs: usize) -> Result<DispatchOverhead, BenchError> {
    let what = "dispatch overhead";
    let rt = |e| BenchError::runtime(what, e);
    let kernel = device
        .load_kernel(KernelSource::memref(INCREMENT, "increment"))
        .map_err(rt)?;
    let x = Tensor::zeros(device, DType::F32, &[64]).map_err(rt)?;
    let y = Tensor::zeros(device, DType::F32, &[64]).map_err(rt)?;
    let stream = device.stream();
    stream.set_submit_limits(BATCH, u64::MAX);
    let chain = |count: u32| -> Result<(), crate::Error> {
        for i in 0..count {
            let (a, b) = if i % 2 == 0 { (&x, &y) } else { (&y, &x) };
            stream.dispatch(&kernel, &[a, b], [1, 1, 1])?;
        }
        stream.sync()
    };
    // Three dispatches from zeros: y = 1, x = 2, y = 3.
    chain(3).map_err(rt)?;
    let got = y.to_vec::<f32>().map_err(rt)?;
    if got != vec![3.0; 64] {
        return Err(BenchError::wrong(
            what,
            format!("three increments gave {:?}", &got[..4]),
        ));
    }
    let mut failed = None;
    let mut runtime = |count: u32| {
        time_host(runs, || {
            if let Err(e) = chain(count) {
                failed.get_or_insert(e);
            }
        })
    };
    let runtime_one = runtime(1);
    let runtime_batch = runtime(BATCH);
    if let Some(e) = failed {
        return Err(rt(e));
    }

    let vk = |e: kiln_vulkan::Error| BenchError::runtime(what, e.into());
    let ctx = device.context();
    let pool = BlockPool::new(ctx, MemoryKind::Upload, 1 << 20).map_err(vk)?;
    let (a, b) = (
        pool.allocate(256).map_err(vk)?,
        pool.allocate(256).map_err(vk)?,
    );
    let mut direct_loop = DirectDispatchLoop::new(ctx, BATCH).map_err(vk)?;
    let pipeline = kernel.pipeline();
    let mut failed = None;
    let mut direct = |count: u32| {
        time_host(runs, || {
            if let Err(e) = direct_loop.run_ping_pong(pipeline, &a, &b, [1, 1, 1], count) {
                failed.get_or_insert(e);
            }
        })
    };
    let direct_one = direct(1);
    let direct_batch = direct(BATCH);
    if let Some(e) = failed {
        return Err(vk(e));
    }
    Ok(DispatchOverhead {
        runtime_one,
        runtime_batch,
        direct_one,
        direct_batch,
    })
}
