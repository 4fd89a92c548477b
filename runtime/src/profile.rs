//! Profiling: per-dispatch GPU time and the runtime's counters.
//!
//! With `KILN_PROFILE=1` (or [`DeviceOptions::profile`](crate::DeviceOptions::profile),
//! or [`Stream::profile`](crate::Stream::profile) for one stream) every
//! dispatch is bracketed by two timestamp queries; when its submission
//! completes the runtime records a [`ProfileRecord`] (kernel label, dispatch
//! number, grid, GPU time). [`ProfileReport`] sums them per kernel and
//! prints a table sorted by GPU time; with `KILN_PROFILE=1` the device
//! prints that table of the records nobody took
//! ([`Device::take_profile`](crate::Device::take_profile)) on stderr when
//! it is dropped. The [`Counters`] (submissions,
//! dispatches, transfers, bytes staged) are always kept.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The environment variable that turns profiling on for every stream.
pub const ENV_PROFILE: &str = "KILN_PROFILE";

/// One profiled dispatch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileRecord {
    /// The kernel's label.
    pub kernel: Arc<str>,
    /// The dispatch's number on its device (from 0, in enqueue order).
    pub dispatch: u64,
    /// Workgroups launched.
    pub grid: [u32; 3],
    /// GPU time between timestamps around it (`None` where the queue writes
    /// no timestamps).
    pub gpu_time: Option<Duration>,
}

/// The runtime's counters (since the device was opened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Submissions (`vkQueueSubmit` calls).
    pub submits: u64,
    /// Dispatches enqueued.
    pub dispatches: u64,
    /// Copies, fills and updates enqueued.
    pub transfers: u64,
    /// Bytes moved through staging buffers (uploads and readbacks on
    /// devices without unified memory).
    pub bytes_staged: u64,
    /// Bytes the host wrote or read in device memory directly (unified
    /// memory).
    pub bytes_direct: u64,
}

#[derive(Debug, Default)]
pub(crate) struct AtomicCounters {
    pub(crate) submits: AtomicU64,
    pub(crate) dispatches: AtomicU64,
    pub(crate) transfers: AtomicU64,
    pub(crate) bytes_staged: AtomicU64,
    pub(crate) bytes_direct: AtomicU64,
}

impl AtomicCounters {
    pub(crate) fn add(counter: &AtomicU64, n: u64) {
        counter.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> Counters {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Counters {
            submits: get(&self.submits),
            dispatches: get(&self.dispatches),
            transfers: get(&self.transfers),
            bytes_staged: get(&self.bytes_staged),
            bytes_direct: get(&self.bytes_direct),
        }
    }
}

/// Profile records summed per kernel, sorted by total GPU time (largest
/// first); its `Display` is a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileReport {
    /// `(kernel, dispatches, total GPU time)`, sorted.
    pub kernels: Vec<(Arc<str>, u64, Duration)>,
}

impl ProfileReport {
    /// Sums `records` per kernel.
    pub fn new(records: &[ProfileRecord]) -> Self {
        let mut by: HashMap<Arc<str>, (u64, Duration)> = HashMap::new();
        for r in records {
            let e = by.entry(Arc::clone(&r.kernel)).or_default();
            e.0 += 1;
            e.1 += r.gpu_time.unwrap_or_default();
        }
        let mut kernels: Vec<_> = by.into_iter().map(|(k, (n, t))| (k, n, t)).collect();
        kernels.sort_by(|a, b| b.2.cmp(&a.2).then_with(|| a.0.cmp(&b.0)));
        Self { kernels }
    }
}

impl fmt::Display for ProfileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<32} {:>10} {:>14} {:>12}",
            "kernel", "dispatches", "GPU time (us)", "mean (us)"
        )?;
        for (k, n, t) in &self.kernels {
            let us = t.as_secs_f64() * 1e6;
            writeln!(
                f,
                "{k:<32} {n:>10} {us:>14.1} {:>12.2}",
                us / (*n).max(1) as f64
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_sorts_by_gpu_time() {
        let rec = |k: &str, us| ProfileRecord {
            kernel: k.into(),
            dispatch: 0,
            grid: [1, 1, 1],
            gpu_time: Some(Duration::from_micros(us)),
        };
        let r = ProfileReport::new(&[rec("a", 5), rec("b", 20), rec("a", 10)]);
        assert_eq!(r.kernels[0].0.as_ref(), "b");
        assert_eq!(
            (r.kernels[1].1, r.kernels[1].2),
            (2, Duration::from_micros(15))
        );
        let text = r.to_string();
        assert!(text.lines().nth(1).unwrap().starts_with("b "), "{text}");
    }
}
