//! The contract between kiln's compiler and its runtime.
//!
//! Nothing here knows about Vulkan or about the IR: these are plain data types
//! describing what a compute pipeline expects from the host (descriptor sets,
//! bindings, push constants, workgroup size), shared by the compiler that
//! produces them and the runtime that honours them.
#![deny(missing_docs)]

pub mod interface;

pub use interface::*;
