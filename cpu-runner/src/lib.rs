//! kiln-cpu: runs spv kernels on the CPU over the whole grid, for
//! differential testing against Vulkan devices (lavapipe in CI).
//!
//! A kernel is converted to LLVM IR with kiln-core's conversion in the
//! kernel ABI ([`kiln_core::llvm::abi`]), optimized by `opt-19`, compiled by
//! `llc-19` and linked by the C compiler with a small C harness
//! (`harness.c`) into an executable ([`toolchain`]). A dispatch writes a job
//! file (launch sizes and the bytes of every bound buffer), runs the
//! executable, and reads the buffers back from its result file ([`job`]).
//!
//! Why a process and not an in-process JIT: the kernel runs outside kiln,
//! so a kernel that crashes, overflows its stack or loops forever cannot
//! take the host down (it is reported, or stopped after a time limit);
//! nothing here needs `unsafe` (the crate forbids it); and kiln builds
//! without LLVM's development libraries (only the `llvm-19` tools are
//! needed at run time, and only when kernels run on the CPU). The price is
//! a compile of about a tenth of a second per new kernel (cached by content
//! across runs) and a copy of the buffers through files.
//!
//! What the harness does with the grid: every workgroup of the launch
//! (taken by worker threads from a shared counter), every invocation of
//! each workgroup with its built-ins set, workgroup memory shared by the
//! invocations of a workgroup, barriers and subgroup operations through
//! coroutines (see `harness.c`), cooperative matrices (`Subgroup` scope,
//! spread over the subgroup as kiln_core's `llvm/convert/coop.rs` says;
//! the multiply-add a subgroup collective in the harness), atomics as LLVM atomics (so workgroups on
//! different threads can contend), out-of-bounds accesses reported with the
//! buffer and index ([`CpuError::OutOfBounds`]) or, with robust access,
//! read as zero and dropped.
//!
//! * [`CpuKernel`]: one compiled entry point; [`CpuKernel::dispatch`] binds
//!   buffers by set and binding, push constants and a grid.
//! * [`CpuLauncher`]: the host interpreter's [`Launcher`] for MLIR runner
//!   programs (`kiln run --cpu`).
//! * [`CpuProgram`] and [`TensorBackend`]: tensor programs compiled by
//!   kiln-core's tensor compiler, their kernels on the CPU (`kiln run
//!   --cpu` of IREE's end-to-end test files).
//! * [`cpu_target_env`]: what kernels are lowered for by default.
//!
//! [`Launcher`]: kiln_core::host::Launcher
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(test)]
mod coop_staging_tests;
mod env;
mod error;
pub mod job;
mod kernel;
mod launcher;
mod tensor;
pub mod toolchain;

pub use env::{cpu_env_like, cpu_target_env};
pub use error::CpuError;
pub use kernel::{
    BufferBinding, CpuKernel, DispatchOptions, DispatchReport, DEFAULT_SUBGROUP_SIZE,
};
pub use launcher::CpuLauncher;
pub use tensor::{CpuProgram, TensorBackend};
