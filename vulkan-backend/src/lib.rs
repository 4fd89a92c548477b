//! kiln's Vulkan runtime: instance and device selection, memory, compute
//! pipelines and dispatch, on any Vulkan 1.0+ driver (lavapipe in CI).
//!
//! The flow:
//!
//! 1. [`Context::new`] loads the Vulkan loader, creates an instance (with the
//!    Khronos validation layer when asked, or when `KILN_VALIDATION=1`),
//!    picks a physical device ([`DeviceSelector`], or `KILN_DEVICE`), and
//!    creates a logical device with one compute queue, a command pool and a
//!    memory allocator. It enables every compute-relevant optional feature
//!    the device supports ([`DeviceFeatures`]) and derives the device's
//!    target env ([`Context::target_env`]; without a context:
//!    [`query_devices`], [`query_target_env`]).
//! 2. [`Buffer`]s are host-visible storage buffers the host writes and reads
//!    directly; [`BlockPool`]s hand out [`Slice`]s of pooled blocks, and
//!    [`Context::import_host`] makes a slice over memory the caller lends
//!    ([`HostMemory`]) without a copy, where the device can import it.
//! 3. [`ComputePipeline::new`] turns a SPIR-V module and its
//!    [`kiln_abi::PipelineInterface`] into descriptor-set layouts (one per set
//!    number up to the highest used; unused numbers get empty layouts), a
//!    pipeline layout and a compute pipeline.
//! 4. [`Context::dispatch`] (whole buffers) and
//!    [`Context::dispatch_bindings`] (buffer ranges, [`BufferBinding`]) bind
//!    buffers to the interface's bindings, push constants, record one
//!    dispatch, submit it and block on a fence until it completes (never
//!    spinning: on lavapipe the shader runs on the host's cores).
//!    [`ComputePipeline::with_specialization`] sets specialization
//!    constants. Descriptor arrays get one range per element
//!    ([`BufferBinding::element`]);
//!    [`ComputePipeline::with_dynamic_bindings`] makes buffer bindings
//!    dynamic, bound with [`BufferBinding::dynamic_offset`].
//!
//! Invariants:
//! - **Check before Vulkan.** Interfaces, bindings, buffer sizes, push-constant
//!   sizes, workgroup and dispatch sizes are checked against the interface
//!   and the device limits before any `vkCreate*` or `vkCmd*` call; a
//!   violation is an [`Error`] naming the binding or limit.
//!   [`Context::vulkan_call_count`] counts the object-creating and
//!   command-recording calls, so tests can assert that a rejected call made
//!   none.
//! - **Objects keep their device alive.** Buffers and pipelines hold a
//!   reference to the device they were made on, so dropping a [`Context`]
//!   first is safe; the device is destroyed when the last object goes.
//! - **Validation messages are collected, not printed.** With validation on,
//!   every warning and error the layer reports is kept in the context
//!   ([`Context::take_validation_messages`]); tests fail on any.
//! - All `unsafe` stays in this crate, each block with a `// SAFETY:` note.
#![warn(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]

pub mod baseline;
mod batch;
mod context;
mod conv;
mod debug;
mod descriptors;
mod device;
mod dispatch;
mod error;
mod external_fd;
pub mod fault;
mod features;
mod host_import;
mod instance;
mod interop;
mod limits;
mod memory;
mod pipeline;
mod pipeline_cache;
mod pool;
mod sync;
mod target_env;
// Always built, not behind a cargo feature: CI builds the workspace without
// the GPU tests first, and a feature only they enabled would rebuild this
// crate and every kiln crate above it a second time.
#[doc(hidden)]
pub mod test_support;
mod texel;

pub use batch::{BatchCounts, CommandBatch, CopyRegion, Recorded, SliceBinding, Submission};
pub use context::{Context, ContextOptions, PipelineCacheIdentity};
pub use debug::{MessageSeverity, ValidationMessage};
pub use device::{enumerate_devices, ApiVersion, DeviceSelector, DeviceSummary, DeviceType};
pub use dispatch::{BufferBinding, DispatchTiming};
pub use error::{Error, Result};
pub use external_fd::ExportedMemory;
pub use fault::{CallFamily, FaultTimes, InjectedFault};
pub use features::DeviceFeatures;
pub use host_import::{HostMemory, HostPages};
pub use interop::{BufferRange, ExternalDevice, RawBuffer, RawHandles};
pub use limits::limits_from_vk;
pub use memory::{Buffer, MemoryUsage};
pub use pipeline::ComputePipeline;
pub use pipeline_cache::PipelineCache;
pub use pool::{BlockPool, MemoryKind, PoolStats, Slice};
pub use sync::Timeline;
pub use target_env::{
    query_device, query_devices, query_target_env, DeviceQuery, EnvScope, Feature, FloatControls,
    SubgroupProperties, SubgroupSizeControlProperties,
};

/// The `ash` version kiln is built on, for callers of the raw accessors
/// ([`Context::raw_device`] and friends).
pub use ash;

/// The environment variable that turns validation on (`1`, `true`, `yes`
/// or `on`).
pub const ENV_VALIDATION: &str = "KILN_VALIDATION";
/// The environment variable that selects the device (see
/// [`DeviceSelector`]'s string form).
pub const ENV_DEVICE: &str = "KILN_DEVICE";

#[cfg(test)]
mod tests {
    /// The thread-safety the documentation promises.
    #[test]
    fn auto_traits() {
        fn send_sync<T: Send + Sync>() {}
        fn send<T: Send>() {}
        send_sync::<super::Context>();
        send_sync::<super::ComputePipeline>();
        send::<super::Buffer>();
    }
}
