//! kiln's runtime: what runs programs on a Vulkan device.
//!
//! - [`runner`]: the MLIR Vulkan-runner launcher behind `kiln run` — the
//!   host interpreter's `gpu.launch_func`s, each kernel lowered with
//!   kiln-core and dispatched through kiln-vulkan.
//!
//! # Where the line between kiln-vulkan and this crate is drawn
//!
//! kiln-vulkan is the safe layer over the driver: it turns a SPIR-V binary
//! plus its [`kiln_abi::PipelineInterface`] into a pipeline, buffers into
//! bindings, and work into submissions, and it derives the device's target
//! env. It depends on kiln-core only for the target env (`TargetEnv`, the
//! capability/extension/version enums and the scalar types it names), which
//! the ABI contract does not carry. Everything that *runs programs* — that
//! needs the kernel IR, the lowering, reflection of a binary or the host
//! interpreter — lives here, above both.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod runner;
