//! Passes over a whole module.
//!
//! * [`update_vce()`]: gives the `spv.module` the minimal version /
//!   capabilities / extensions triple it needs in a target env (MLIR's
//!   `-spirv-update-vce`).

pub mod update_vce;

pub use update_vce::{deduce_vce, update_vce, UpdateVceError};
