//! kiln's runtime: what an ML framework embeds to run on a Vulkan device,
//! and what runs programs for the CLI.
//!
//! - [`Device`]: opened from a [`DeviceSelector`] (`KILN_DEVICE` rules)
//!   with [`DeviceOptions`]; cloneable, `Send + Sync`; [`Device::info`],
//!   [`Device::target_env`], [`Device::limits`], [`Device::memory_report`],
//!   [`Device::trim`].
//! - [`Tensor`]: an element type ([`DType`]: f32, f16, bf16, i8, i16, i32,
//!   i64, u8, u32, bool), shape, strides and offset over a slice of a pooled
//!   device buffer; views without copies; [`Tensor::to_vec`] (blocking) and
//!   [`Tensor::read`] (a future). A tensor larger than one allocation may
//!   be (`maxMemoryAllocationSize`; [`Tensor::allocation_count`]) is made
//!   of several, each a whole number of the storage chunks kernels bind a
//!   buffer past `maxStorageBufferRange` in: uploads, fills, copies,
//!   read-backs, views, `ops` and compiled programs use it as one tensor
//!   (a kernel that needs it whole in one descriptor is refused with
//!   [`Error::SplitAllocation`]).
//! - [`Stream`]: dispatches, copies, fills and uploads enqueued without
//!   waiting, with barriers from each binding's reflected access, submitted
//!   in batches ordered by a timeline semaphore; [`Stream::sync`] reports
//!   the first failure of earlier work.
//! - [`ops`]: tensor operations for frameworks (element-wise with
//!   broadcasting, logical ops, clamp, every unary math function of the
//!   tensor compiler, matmul, conv2d, pooling, reductions, arg-reductions,
//!   softmax, layer and RMS norm, index_select / embedding /
//!   gather, one_hot, arange, transpose, concat, stack, slice, pad, cast,
//!   GELU / SiLU), each a tensor program compiled on first use per shape
//!   class, element type and parameters, cached per device and on disk,
//!   and found again by a compact key (a cache hit writes no text).
//! - Tensor programs of your own: [`load_tensor_program`] parses MLIR
//!   text (func, arith, math, linalg and tensor dialects, MLIR 19 syntax:
//!   `linalg.generic` and the named linalg ops — matmul, batch_matmul,
//!   convolutions, pooling, softmax, fill, copy, transpose, broadcast,
//!   reduce, map — `tensor.empty` / `extract` / `extract_slice` /
//!   `insert_slice` / `concat` / `pad` / `expand_shape` /
//!   `collapse_shape`, element-wise arith and math on tensors), and
//!   [`Device::compile`] compiles it into a [`Program`].
//! - Devices: [`enumerate_devices`] lists what Vulkan offers; a
//!   [`DeviceSelector`] picks one.
//! - [`Kernel`]s from a [`KernelSource`] (a SPIR-V binary, or a memref-level
//!   kernel lowered by kiln-core), cached in memory and on disk, with a
//!   persistent `VkPipelineCache` ([`cache`]).
//! - Errors ([`Error`]): device loss is sticky, out-of-memory is retried
//!   once after trimming and leaves the device usable, nothing aborts.
//! - Profiling: `KILN_PROFILE=1` or [`Stream::profile`]: per-dispatch GPU
//!   time, and [`Counters`]; with `KILN_PROFILE=1` a device prints its
//!   per-kernel table ([`ProfileReport`]) on stderr when dropped.
//!   Tracing: `KILN_TRACE=FILE.json` (or [`DeviceOptions::trace`]) writes a
//!   Chrome / Perfetto trace of the device's submissions, dispatches (with
//!   their GPU times) and copies when the device is dropped.
//! - Interop with other Vulkan users and several devices: see
//!   [Interop](#interop).
//! - [`runner`]: the MLIR Vulkan-runner launcher behind `kiln run`.
//! - [`mod@bench`]: the measuring half of `kiln bench` (device and host limits,
//!   dispatch overhead, compile time, and the plug-in point for compiled
//!   tensor programs).
//!
//! ```
//! # fn main() -> Result<(), kiln_runtime::Error> {
//! use kiln_runtime::{Device, DeviceOptions, KernelSource, Tensor};
//! // y[i] = x[i] * 2, as a memref-level kernel lowered for the device.
//! const DOUBLE: &str = r#"
//! gpu.module @m {
//!   gpu.func @double(%x: memref<64xf32>, %y: memref<64xf32>) kernel
//!       attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
//!     %i = gpu.thread_id x
//!     %v = memref.load %x[%i] : memref<64xf32>
//!     %w = arith.addf %v, %v : f32
//!     memref.store %w, %y[%i] : memref<64xf32>
//!     gpu.return
//!   }
//! }"#;
//! let device = Device::new(&DeviceOptions::default())?;
//! let kernel = device.load_kernel(KernelSource::memref(DOUBLE, "double"))?;
//! let x = Tensor::from_slice(&device, &[1.5f32; 64], &[64])?;
//! let y = Tensor::empty(&device, x.dtype(), &[64])?;
//! let stream = device.stream();
//! stream.dispatch(&kernel, &[&x, &y], [1, 1, 1])?;
//! assert_eq!(y.to_vec::<f32>()?, vec![3.0; 64]); // submits, waits, reads
//! # Ok(())
//! # }
//! ```
//!
//! # Interop
//!
//! - **Raw handles** (`unsafe` accessors, whose docs list what the caller
//!   must not do): [`Device::context`] then [`Context::raw_handles`]
//!   gives the `VkInstance`, `VkPhysicalDevice`, `VkDevice`, queue family,
//!   queue index and `VkQueue` ([`RawHandles`]); submit to that queue only
//!   under [`Context::lock_queue`]. [`Tensor::vulkan_buffer`] then
//!   [`BufferRange::raw`] gives a tensor's `VkBuffer`, byte offset and size
//!   ([`RawBuffer`]). Order access with kiln's work: [`Device::sync`]
//!   before another user touches a tensor, and that user's work complete
//!   before kiln's next.
//! - **A device on an application's own Vulkan objects** (what Kompute's
//!   `Manager(instance, physicalDevice, device)` does): fill an
//!   [`ExternalDevice`] (instance, physical device, device, queue, the
//!   extensions and [`DeviceFeatures`] the application enabled; timeline
//!   semaphores must be on), call `unsafe` [`Context::from_external`], then
//!   [`Device::from_context`]. The target env is queried from the physical
//!   device and limited to the enabled features; kiln destroys only what
//!   it made, then calls [`ExternalDevice::on_release`].
//! - **Memory shared as a file descriptor** (`VK_KHR_external_memory_fd`,
//!   opaque fd; [`Device::can_share_memory`]): a tensor made by
//!   [`Tensor::empty_exportable`] (memory of its own) is exported by
//!   [`Tensor::export_memory`] ([`ExportedMemory`]: the fd, allocation
//!   size, memory type, device and driver UUIDs) and imported, without a
//!   copy, by [`Tensor::from_exported_memory`] on another device of the
//!   same physical device, or by another Vulkan user or CUDA. Where the
//!   device lacks the extension these are a typed error
//!   (`Unsupported`). Nothing orders work across devices: sync the writer
//!   before the reader reads.
//! - **Several devices in one process**: each [`Device::new`] opens its
//!   own `VkDevice`; [`Tensor::to_device`] copies a tensor to another
//!   device through the host (one host copy on unified memory, staging
//!   copies elsewhere; [`Device::same_device`] tells two handles apart).
//!
//! # Where the line between kiln-vulkan and this crate is drawn
//!
//! kiln-vulkan is the safe layer over the driver: it turns a SPIR-V binary
//! plus its [`kiln_abi::PipelineInterface`] into a pipeline, pooled slices
//! into bindings, and recorded work into submissions on a timeline, and it
//! derives the device's target env. It depends on kiln-core only for the
//! target env (`TargetEnv`, the capability/extension/version enums and the
//! scalar types it names), which the ABI contract does not carry. All its
//! `unsafe` stays there. Everything that *runs programs* — that needs the
//! kernel IR, the lowering, reflection of a binary, the host interpreter, or
//! policy (when to submit, when memory returns to a pool, what is cached
//! where) — lives here, above both, with no `unsafe` at all.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod bench;
pub mod cache;
mod device;
mod dtype;
pub mod e2e;
mod error;
mod fault;
mod hazard;
mod inner;
mod interop;
mod kernel;
mod layout;
pub mod ops;
mod pending;
mod pieces;
mod profile;
pub mod program;
mod read;
pub mod runner;
mod spirv_code;
mod stream;
pub mod target;
mod tensor;
mod trace;
mod transfer;
pub mod tune;

pub use cache::{default_cache_dir, ENV_CACHE_DIR};
pub use device::{
    CacheLocation, CacheStats, Device, DeviceInfo, DeviceOptions, MemoryReport, PoolReport,
};
pub use dtype::{DType, Element};
pub use error::{Error, Result};
pub use kernel::{Kernel, KernelSource};
pub use kiln_vulkan::DeviceSelector;
pub use layout::Layout;
pub use profile::{Counters, KernelProfile, ProfileRecord, ProfileReport, ENV_PROFILE};
pub use program::{Program, RunArg};
pub use read::ReadFuture;
pub use stream::Stream;
pub use tensor::Tensor;
pub use trace::ENV_TRACE;

/// Re-exported for [`half`]-precision host data.
pub use half;

/// What an embedder needs from kiln-vulkan to pick a device: the physical
/// devices Vulkan offers ([`enumerate_devices`]) and their summaries.
pub use kiln_vulkan::{enumerate_devices, ApiVersion, DeviceSummary, DeviceType};

/// What an embedder needs for interop with other Vulkan users (see the
/// Interop section): the context under a [`Device`] and its raw handles,
/// a context on an application's own device, a tensor's raw buffer range,
/// and memory shared as a file descriptor.
pub use kiln_vulkan::{
    ash, BufferRange, Context, DeviceFeatures, ExportedMemory, ExternalDevice, RawBuffer,
    RawHandles,
};

/// The tensor-program loader and what a loaded program's functions take
/// and return, so that kiln-runtime is the one dependency an embedder
/// needs: [`load_tensor_program`] parses MLIR text (func / arith / math /
/// linalg / tensor, MLIR 19 syntax) into a [`TensorModule`] for
/// [`Device::compile`]; [`Value`] is a host argument or result of
/// [`Program::run`]; [`CompiledProgram`] is what
/// [`Device::compile_program`] returns.
pub use kiln_core::codegen::CompiledProgram;
pub use kiln_core::tensor::eval::Value;
pub use kiln_core::tensor::{load as load_tensor_program, TensorError, TensorModule};
