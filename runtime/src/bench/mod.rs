//! The measuring half of `kiln bench`: what runs through kiln-runtime or in
//! this process, with the statistics the CLI reports (the CLI adds the
//! benchmark programs, their host references, IREE, numpy, the table, the
//! JSON and the chart).
//!
//! - [`stats`]: repetitions (warm-up calls, then ≥ 1 timed calls), median,
//!   min, max; wall-clock per call measured as `iree-benchmark-module`
//!   measures it, and GPU time per call from per-dispatch timestamps;
//!   [`Work`] and its throughput units (GB/s, GFLOP/s, Melem/s).
//! - [`limits`]: the device's limits measured with the best hand-written
//!   kernels kiln dispatches (vec4 copy, read-sum, independent FMA chains)
//!   and the best hand-written add.
//! - [`host`]: the host's STREAM-style add and read-sum on all its cores.
//! - [`overhead`]: one dispatch end to end and each extra dispatch in a
//!   batch, beside a direct-driver loop (also `cargo bench -p kiln-runtime`).
//! - [`compile`]: a memref-level kernel to a validated binary in process,
//!   cold and warm from the runtime's caches.
//! - [`program`]: what is timed for a program — a [`Callable`]; memref and
//!   SPIR-V kernels today ([`KernelCall`]), tensor programs through
//!   [`compile_tensor_function`], the plug-in point for the tensor compiler.
//!
//! Every measurement checks its result before it is timed.

pub mod compile;
pub mod host;
pub mod limits;
pub mod overhead;
pub mod program;
pub mod stats;

pub use program::{compile_tensor_function, Callable, KernelCall};
pub use stats::{Measurement, Stats, Timing, Unit, Work};

/// Why a benchmark could not be measured.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The runtime failed.
    #[error("{what}: {source}")]
    Runtime {
        /// What was being measured.
        what: String,
        /// The runtime's error.
        #[source]
        source: crate::Error,
    },
    /// The result was wrong: nothing is timed.
    #[error("{what}: wrong result: {detail}")]
    Wrong {
        /// What was checked.
        what: String,
        /// The first difference.
        detail: String,
    },
    /// kiln cannot run this yet.
    #[error("{what}: not yet: {why}")]
    NotYet {
        /// What was asked for.
        what: String,
        /// What is missing.
        why: &'static str,
    },
    /// A size or argument the benchmark cannot take.
    #[error("{what}: {message}")]
    Invalid {
        /// What was asked for.
        what: String,
        /// Why not.
        message: String,
    },
}

impl BenchError {
    /// A runtime error while measuring `what`.
    pub fn runtime(what: &str, source: crate::Error) -> Self {
        Self::Runtime {
            what: what.to_owned(),
            source,
        }
    }

    /// A wrong result of `what`.
    pub fn wrong(what: &str, detail: String) -> Self {
        Self::Wrong {
            what: what.to_owned(),
            detail,
        }
    }
}
