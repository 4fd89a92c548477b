//! The host side of an MLIR Vulkan-runner program: what `mlir-vulkan-runner`
//! does on the CPU around each kernel launch, without any GPU.
//!
//! A runner file is a `gpu.container_module` whose `func.func @main`
//! allocates memrefs, fills them (`fillResource{1,2,3}D{Float,Int,Int8}`),
//! stores into them (`memref.store`, `vector.store`, loops), launches
//! kernels (`gpu.launch_func`) and prints them (`printMemref{F32,I32,...}`).
//! [`run_main`] interprets that function:
//!
//! * [`HostBuffer`]: one allocation (element type, static shape, bytes in
//!   row-major order with the element's natural size, as the C runtime lays
//!   it out). `memref.cast` aliases, never copies.
//! * [`HostValue`]: an SSA value on the host (integers of any width, index,
//!   floats, short vectors, memrefs).
//! * `fillI32Buffer` and `fillF32Buffer{1,2,3}D`, the fills of MLIR's
//!   spirv-cpu-runner tests, are accepted as well.
//! * Ops run in program order; `scf.for`/`scf.if`/`scf.while` with their
//!   results and iteration arguments; calls to functions defined in the
//!   module run their bodies.
//! * `gpu.launch_func` is delegated to a [`Launcher`], so the host side is
//!   testable without Vulkan; the launcher sees the argument buffers,
//!   mutably, in argument order.
//! * Printing follows `mlir/ExecutionEngine/RunnerUtils.h` exactly
//!   ([`mod@print`]); `base@` is the host buffer's address.
//!
//! Every failure is a [`HostError`] naming the op (and its line) or the
//! callee; nothing on user input panics.

mod buffer;
mod error;
pub(crate) mod eval;
mod interp;
mod launch;
mod modules;
pub mod print;
mod value;

#[cfg(test)]
mod tests;

pub use buffer::{ElemType, HostBuffer};
pub use error::HostError;
pub use interp::{run_main, run_main_to_string};
pub use launch::{LaunchRequest, LaunchTiming, Launcher, LauncherError};
pub use modules::{explicit_target_env, find_gpu_module, launch_block_sizes};
pub use value::HostValue;
