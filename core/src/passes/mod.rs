//! Passes over a whole module.
//!
//! * [`pipeline::run`]: the pipeline every lowered module goes through,
//!   written once: `lower-abi-attrs` → `update-vce` → entry-point
//!   interfaces → verify, each step optional as [`PipelineOptions`] says.
//! * [`update_vce()`]: gives the `spv.module` the minimal version /
//!   capabilities / extensions triple it needs in a target env (MLIR's
//!   `-spirv-update-vce`).
//! * [`lower_abi_attrs::run`]: turns entry functions' shader-interface
//!   attributes into resource variables, an entry point and execution modes
//!   (MLIR's `-spirv-lower-abi-attrs`).

pub mod lower_abi_attrs;
pub mod pipeline;
pub mod update_vce;

pub use pipeline::{PipelineError, PipelineOptions};
pub use update_vce::{deduce_vce, update_vce, UpdateVceError};
