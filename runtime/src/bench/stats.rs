//! Repetitions and their statistics, and the quantities throughput is
//! counted in.
//!
//! [`time_calls`] times a call the way `iree-benchmark-module` does:
//! untimed warm-up calls (repeated for [`WARM_UP`], [`GPU_WARM_UP`] on a
//! GPU, at least one), then
//! `runs` timed calls, each timed from the host
//! (wall clock, the call allocating its outputs, recording, submitting and
//! waiting); then, where the device writes timestamps, `runs` more calls
//! timed by the GPU time of their dispatches (the sum of their
//! per-dispatch timestamp intervals). The wall-clock calls write no
//! timestamps: lavapipe flushes its queue at every timestamp write, which
//! cost about 75 µs a call there (a 4-element add: 0.14 ms a call
//! profiled, 0.06 not), time an `iree-benchmark-module` call does not
//! spend.

use std::time::{Duration, Instant};

use crate::{Device, Stream};

/// How long [`time_calls`] repeats its untimed warm-up call (at least once)
/// before timing, on a CPU device (lavapipe: no clock to ramp).
pub const WARM_UP: Duration = Duration::from_millis(250);

/// The warm-up on a GPU: its clock governor lowers the clock while the
/// device idles and raises it only after some busy time. On an H200 the
/// SM clock sat at 345 MHz between the set's rows (1980 MHz at boost):
/// with a single warm-up call the 4096^3 f32 matmul's calls took 3.9 ms or
/// 22.1 ms (the clock ratio, 5.7x), and the f16 one 10.5 ms by the wall
/// clock for 1.87 ms of GPU time measured a moment later at boost; with
/// 250 ms of warm-up the f32 row was steady, but the clock took about 2.4
/// s of busy time to climb from 345 to 1980 MHz (510, 735, 1110, 1620,
/// 1890 MHz on the way; `bench/h200/s3-run3-clocks.csv`).
pub const GPU_WARM_UP: Duration = Duration::from_millis(3000);

/// The most warm-up calls [`time_calls`] makes (for calls of microseconds).
const MAX_WARM_UP_CALLS: usize = 100_000;

/// Median, minimum and maximum of a set of repetitions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Repetitions.
    pub runs: usize,
    /// The median (the mean of the two middle values for an even count).
    pub median: Duration,
    /// The fastest repetition.
    pub min: Duration,
    /// The slowest repetition.
    pub max: Duration,
}

impl Stats {
    /// The statistics of `samples`; `None` when there are none.
    pub fn new(samples: &[Duration]) -> Option<Self> {
        let mut s = samples.to_vec();
        s.sort();
        let n = s.len();
        let median = match n {
            0 => return None,
            _ if n % 2 == 1 => s[n / 2],
            _ => (s[n / 2 - 1] + s[n / 2]) / 2,
        };
        Some(Self {
            runs: n,
            median,
            min: s[0],
            max: s[n - 1],
        })
    }

    /// The median in milliseconds.
    pub fn median_ms(&self) -> f64 {
        ms(self.median)
    }

    /// The minimum in milliseconds.
    pub fn min_ms(&self) -> f64 {
        ms(self.min)
    }

    /// The maximum in milliseconds.
    pub fn max_ms(&self) -> f64 {
        ms(self.max)
    }
}

/// `d` in milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Wall-clock and GPU time of repeated calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Wall-clock time per call.
    pub wall: Stats,
    /// GPU time of each call's dispatches (`None` where the device writes
    /// no timestamps, or the call was not profiled).
    pub gpu: Option<Stats>,
}

/// What throughput is counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Bytes moved (read plus written): GB/s.
    Bytes,
    /// Floating-point operations (an FMA is two): GFLOP/s.
    Flops,
    /// Elements processed: Melem/s.
    Elements,
}

impl Unit {
    /// The throughput label (`GB/s`, `GFLOP/s`, `Melem/s`).
    pub fn rate_label(self) -> &'static str {
        match self {
            Self::Bytes => "GB/s",
            Self::Flops => "GFLOP/s",
            Self::Elements => "Melem/s",
        }
    }

    fn scale(self) -> f64 {
        match self {
            Self::Bytes | Self::Flops => 1e9,
            Self::Elements => 1e6,
        }
    }
}

/// An amount of work in a [`Unit`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// How much.
    pub amount: f64,
    /// Of what.
    pub unit: Unit,
}

impl Work {
    /// `n` bytes moved.
    pub fn bytes(n: f64) -> Self {
        Self {
            amount: n,
            unit: Unit::Bytes,
        }
    }

    /// `n` floating-point operations.
    pub fn flops(n: f64) -> Self {
        Self {
            amount: n,
            unit: Unit::Flops,
        }
    }

    /// `n` elements.
    pub fn elements(n: f64) -> Self {
        Self {
            amount: n,
            unit: Unit::Elements,
        }
    }

    /// The throughput of doing this work in `time`, in the unit's rate
    /// ([`Unit::rate_label`]).
    pub fn rate(&self, time: Duration) -> f64 {
        self.amount / time.as_secs_f64().max(1e-12) / self.unit.scale()
    }
}

/// One measured kernel or host loop: what it does, how much work, how
/// long, and what was checked before timing.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// What ran (`"copy 16777216 f32"`).
    pub name: String,
    /// The work of one call.
    pub work: Work,
    /// Per-call times.
    pub timing: Timing,
    /// The correctness check that passed before timing.
    pub checked: String,
}

impl Measurement {
    /// Throughput at the median wall-clock time per call.
    pub fn rate(&self) -> f64 {
        self.work.rate(self.timing.wall.median)
    }

    /// Throughput at the median GPU time per call, where known.
    pub fn gpu_rate(&self) -> Option<f64> {
        self.timing.gpu.map(|g| self.work.rate(g.median))
    }
}

/// Times `call`, which runs its work on `stream`, as
/// `iree-benchmark-module` does (module docs): warm-up calls for
/// [`WARM_UP`] on a CPU device, [`GPU_WARM_UP`] on others (at least one),
/// then
/// `runs` timed calls (at least 1) with `stream` not profiling; then as
/// many calls with `stream` profiling, whose GPU times come from the
/// device's profile records of each call (records of anything else
/// running on the device at the same time would be counted too). The
/// stream is left profiling.
pub fn time_calls<E>(
    device: &Device,
    stream: &Stream,
    runs: usize,
    mut call: impl FnMut() -> Result<(), E>,
) -> Result<Timing, E> {
    stream.profile(false);
    let warm_up = if device.info().device_type == crate::DeviceType::Cpu {
        WARM_UP
    } else {
        GPU_WARM_UP
    };
    let warm = Instant::now();
    for _ in 0..MAX_WARM_UP_CALLS {
        call()?;
        if warm.elapsed() >= warm_up {
            break;
        }
    }
    let mut wall = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        call()?;
        wall.push(t.elapsed());
    }
    stream.profile(true);
    device.take_profile();
    let mut gpu = Vec::with_capacity(runs.max(1));
    let mut gpu_complete = true;
    for _ in 0..runs.max(1) {
        call()?;
        let records = device.take_profile();
        let times: Option<Vec<Duration>> = records.iter().map(|r| r.gpu_time).collect();
        match times {
            Some(t) if !t.is_empty() => gpu.push(t.into_iter().sum()),
            _ => gpu_complete = false,
        }
    }
    Ok(Timing {
        wall: Stats::new(&wall).expect("at least one run"),
        gpu: if gpu_complete { Stats::new(&gpu) } else { None },
    })
}

/// Times a host-side `call` (no device): one warm-up, then `runs` timed
/// calls.
pub fn time_host(runs: usize, mut call: impl FnMut()) -> Stats {
    call();
    let samples: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let t = Instant::now();
            call();
            t.elapsed()
        })
        .collect();
    Stats::new(&samples).expect("at least one run")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_min_max() {
        let d = Duration::from_millis;
        let s = Stats::new(&[d(5), d(1), d(3)]).unwrap();
        assert_eq!((s.runs, s.median, s.min, s.max), (3, d(3), d(1), d(5)));
        let s = Stats::new(&[d(4), d(1), d(2), d(10)]).unwrap();
        assert_eq!(s.median, d(3));
        assert!(Stats::new(&[]).is_none());
    }

    #[test]
    fn rates_in_their_units() {
        let t = Duration::from_millis(10);
        assert!((Work::bytes(2e8).rate(t) - 20.0).abs() < 1e-9); // GB/s
        assert!((Work::flops(5e8).rate(t) - 50.0).abs() < 1e-9); // GFLOP/s
        assert!((Work::elements(4e6).rate(t) - 400.0).abs() < 1e-9); // Melem/s
    }
}
