//! Compile time of a memref-level kernel in process:
//! - `lower`: parse, lower for the device's target env, serialize and
//!   validate (kiln-core only, no driver);
//! - `cold`: [`Device::load_kernel`] on a device whose caches are empty (a
//!   fresh cache directory per run): the above plus the driver's pipeline
//!   compilation;
//! - `warm`: `load_kernel` on a fresh device over the cache directory a
//!   cold load filled: the validated binary from the disk cache and the
//!   driver's work from the `VkPipelineCache` (checked to be a disk hit).
//!
//! Opening each device is not timed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::bench::stats::{time_host, Stats};
use crate::bench::BenchError;
use crate::{CacheLocation, Device, DeviceOptions, KernelSource};

/// Compile times of one kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompileTimes {
    /// Parse + lower + serialize + validate.
    pub lower: Stats,
    /// `load_kernel` with empty caches.
    pub cold: Stats,
    /// `load_kernel` from the disk caches.
    pub warm: Stats,
}

/// A directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<Self> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("kiln-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        Ok(Self(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Measures [`CompileTimes`] of `kernel` in the memref-level module `text`
/// on the device `options` select (their cache location is replaced),
/// `runs` runs each after a warm-up.
pub fn compile_times(
    options: &DeviceOptions,
    text: &str,
    kernel: &str,
    runs: usize,
) -> Result<CompileTimes, BenchError> {
    let what = format!("compile {kernel}");
    let rt = |e| BenchError::runtime(&what, e);
    let io = |e: std::io::Error| BenchError::Invalid {
        what: what.clone(),
        message: format!("temporary cache directory: {e}"),
    };
    let device = Device::new(&DeviceOptions {
        cache: CacheLocation::Disabled,
        ..options.clone()
    })
    .map_err(rt)?;
    let env = device.target_env().clone();
    let mut failed = None;
    let lower = time_host(runs, || {
        let result = kiln_core::kernel::parse(text)
            .map_err(|e| e.to_string())
            .and_then(|m| {
                kiln_core::lower::compile_to_binaries(
                    &m,
                    Some(&env),
                    &kiln_core::lower::LowerOptions::default(),
                )
                .map_err(|e| e.to_string())
            });
        if let Err(e) = result {
            failed.get_or_insert(e);
        }
    });
    if let Some(message) = failed {
        return Err(BenchError::Invalid { what, message });
    }
    drop(device);

    // One load per fresh device; `dir` is the cache directory.
    let load_once = |dir: &TempDir| -> Result<(Duration, Device), BenchError> {
        let device = Device::new(&DeviceOptions {
            cache: CacheLocation::Dir(dir.0.clone()),
            ..options.clone()
        })
        .map_err(rt)?;
        let t = Instant::now();
        device
            .load_kernel(KernelSource::memref(text, kernel))
            .map_err(rt)?;
        Ok((t.elapsed(), device))
    };
    let mut cold = Vec::new();
    let mut warm = Vec::new();
    for run in 0..=runs.max(1) {
        let dir = TempDir::new().map_err(io)?;
        let (t_cold, device) = load_once(&dir)?;
        device.save_caches().map_err(rt)?;
        drop(device);
        let (t_warm, device) = load_once(&dir)?;
        let stats = device.cache_stats();
        if stats.disk_hits != 1 || stats.compiled != 0 {
            return Err(BenchError::wrong(
                &what,
                format!("the warm load was not a disk-cache hit: {stats:?}"),
            ));
        }
        // Run 0 is the warm-up.
        if run > 0 {
            cold.push(t_cold);
            warm.push(t_warm);
        }
    }
    Ok(CompileTimes {
        lower,
        cold: Stats::new(&cold).expect("runs"),
        warm: Stats::new(&warm).expect("runs"),
    })
}
