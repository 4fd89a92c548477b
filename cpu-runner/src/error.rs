//! Why a CPU run failed.

use std::path::PathBuf;

/// A failure of the CPU runner, naming what it is about.
#[derive(Debug, thiserror::Error)]
pub enum CpuError {
    /// A tool of the LLVM toolchain (or the C compiler) cannot be run.
    #[error("cannot run {tool} ({why}); install it (ci/setup.sh installs llvm-19 and gcc) or point {var} at it")]
    MissingTool {
        /// The command.
        tool: String,
        /// The environment variable that overrides it.
        var: &'static str,
        /// Why it did not run.
        why: String,
    },
    /// A tool ran and failed.
    #[error("{tool} failed on {input}:\n{stderr}")]
    ToolFailed {
        /// The command.
        tool: String,
        /// The file it was given.
        input: PathBuf,
        /// What it printed.
        stderr: String,
    },
    /// The spv module does not convert to LLVM.
    #[error(transparent)]
    Convert(#[from] kiln_core::llvm::ConvertError),
    /// The module has no such entry point.
    #[error("no entry point @{name} (the module has {available})")]
    NoEntryPoint {
        /// The name asked for.
        name: String,
        /// The entry points there are.
        available: String,
    },
    /// A resource the kernel uses is missing or too small.
    #[error("{what}: {message}")]
    Binding {
        /// The resource (`set 0 binding 2`, `push constants`).
        what: String,
        /// What is wrong.
        message: String,
    },
    /// The kernel accessed memory out of bounds.
    #[error(
        "out-of-bounds access to {region}: index {index} ({size}-byte access at byte offset {offset}) by invocation {local_index} of workgroup ({}, {}, {}){}",
        group[0], group[1], group[2],
        if *count > 1 { format!("; {count} out-of-bounds accesses in all") } else { String::new() }
    )]
    OutOfBounds {
        /// The memory (`buffer set 0 binding 1 (@k_arg_1)`).
        region: String,
        /// The element index (byte offset / access size).
        index: u64,
        /// The byte offset.
        offset: u64,
        /// The access size in bytes.
        size: u64,
        /// The workgroup.
        group: [u32; 3],
        /// The invocation's local index.
        local_index: u32,
        /// How many accesses were out of bounds.
        count: u64,
    },
    /// The launch does not fit the kernel.
    #[error("{0}")]
    Launch(String),
    /// The kernel process died.
    #[error("the CPU kernel crashed ({status}); stderr: {stderr}")]
    Crashed {
        /// Its exit status.
        status: String,
        /// What it printed.
        stderr: String,
    },
    /// The kernel ran past the time limit and was killed.
    #[error("the CPU kernel ran for more than {seconds} s and was stopped")]
    TimedOut {
        /// The limit.
        seconds: u64,
    },
    /// The harness's result file is not what it should be.
    #[error("malformed result from the CPU harness: {0}")]
    Result(String),
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl CpuError {
    /// An I/O error about `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CpuError {
        let path = path.into();
        move |source| CpuError::Io { path, source }
    }
}
