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

/// One kernel's dispatches in a [`ProfileReport`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelProfile {
    /// The kernel's label.
    pub kernel: Arc<str>,
    /// Its dispatches.
    pub dispatches: u64,
    /// Those of them that were timed (a queue without timestamps, or
    /// work enqueued while profiling was off, leaves the others untimed).
    pub timed: u64,
    /// The GPU time of the timed ones.
    pub gpu_time: Duration,
    /// The median GPU time of a timed dispatch (`None` where none was):
    /// unlike the mean, not moved by a first dispatch that includes the
    /// driver's compile of the kernel (lavapipe compiles a pipeline at its
    /// first launch, inside the timestamps) or by one preempted dispatch.
    pub median: Option<Duration>,
}

impl KernelProfile {
    /// The mean GPU time of a timed dispatch (`None` where none was).
    pub fn mean(&self) -> Option<Duration> {
        (self.timed > 0).then(|| self.gpu_time / self.timed as u32)
    }
}

/// Profile records summed per kernel, sorted by total GPU time (largest
/// first); its `Display` is a table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfileReport {
    /// One entry per kernel, sorted.
    pub kernels: Vec<KernelProfile>,
}

impl ProfileReport {
    /// Sums `records` per kernel.
    pub fn new(records: &[ProfileRecord]) -> Self {
        let mut by: HashMap<Arc<str>, (KernelProfile, Vec<Duration>)> = HashMap::new();
        for r in records {
            let (e, times) = by.entry(Arc::clone(&r.kernel)).or_insert_with(|| {
                let k = KernelProfile {
                    kernel: Arc::clone(&r.kernel),
                    dispatches: 0,
                    timed: 0,
                    gpu_time: Duration::ZERO,
                    median: None,
                };
                (k, Vec::new())
            });
            e.dispatches += 1;
            if let Some(t) = r.gpu_time {
                e.timed += 1;
                e.gpu_time += t;
                times.push(t);
            }
        }
        let mut kernels: Vec<_> = by
            .into_values()
            .map(|(mut k, mut times)| {
                times.sort_unstable();
                k.median = times.get(times.len() / 2).copied();
                k
            })
            .collect();
        kernels.sort_by(|a, b| {
            b.gpu_time
                .cmp(&a.gpu_time)
                .then_with(|| a.kernel.cmp(&b.kernel))
        });
        Self { kernels }
    }
}

impl fmt::Display for ProfileReport {
    /// One row per kernel: its dispatches, how many were timed, their GPU
    /// time, mean and median (over the timed ones only; `-` where none
    /// was).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<32} {:>10} {:>7} {:>14} {:>12} {:>12}",
            "kernel", "dispatches", "timed", "GPU time (us)", "mean (us)", "median (us)"
        )?;
        let us = |d: Option<Duration>| match d {
            Some(d) => format!("{:.2}", d.as_secs_f64() * 1e6),
            None => "-".to_owned(),
        };
        for k in &self.kernels {
            writeln!(
                f,
                "{:<32} {:>10} {:>7} {:>14.1} {:>12} {:>12}",
                k.kernel,
                k.dispatches,
                k.timed,
                k.gpu_time.as_secs_f64() * 1e6,
                us(k.mean()),
                us(k.median)
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
        assert_eq!(r.kernels[0].kernel.as_ref(), "b");
        assert_eq!(
            (r.kernels[1].dispatches, r.kernels[1].gpu_time),
            (2, Duration::from_micros(15))
        );
        let text = r.to_string();
        assert!(text.lines().nth(1).unwrap().starts_with("b "), "{text}");
    }

    /// An untimed dispatch counts as a dispatch but not in the mean: a
    /// kernel timed once at 30 us and replayed untimed twice has a mean of
    /// 30 us, not 10.
    #[test]
    fn untimed_dispatches_stay_out_of_the_mean() {
        let rec = |t: Option<u64>| ProfileRecord {
            kernel: "k".into(),
            dispatch: 0,
            grid: [1, 1, 1],
            gpu_time: t.map(Duration::from_micros),
        };
        let r = ProfileReport::new(&[rec(Some(30)), rec(None), rec(None)]);
        let k = &r.kernels[0];
        assert_eq!((k.dispatches, k.timed), (3, 1));
        assert_eq!(k.mean(), Some(Duration::from_micros(30)));
        let row = r.to_string().lines().nth(1).unwrap().to_owned();
        assert!(row.ends_with("30.00        30.00"), "{row}");
        let none = ProfileReport::new(&[rec(None)]);
        assert_eq!(none.kernels[0].mean(), None);
        assert!(none.to_string().lines().nth(1).unwrap().ends_with('-'));
    }

    /// The median is the middle timed dispatch: a first launch that
    /// includes the driver's compile moves the mean, not the median.
    #[test]
    fn the_median_ignores_a_first_launch_with_a_compile() {
        let rec = |us| ProfileRecord {
            kernel: "k".into(),
            dispatch: 0,
            grid: [1, 1, 1],
            gpu_time: Some(Duration::from_micros(us)),
        };
        let r = ProfileReport::new(&[rec(90_000), rec(300), rec(310), rec(290), rec(305)]);
        let k = &r.kernels[0];
        assert_eq!(k.median, Some(Duration::from_micros(305)));
        assert!(k.mean().unwrap() > Duration::from_millis(18));
    }
}
