//! kiln-core: the spv IR (a Rust rendering of MLIR's SPIR-V dialect), its
//! text form, the SPIR-V serializer and in-process validation.
//!
//! Folders are stages of the flow: [`grammar`] (tables generated from the
//! SPIR-V grammar), [`ir`] (types, attributes, ops, the verifier), [`text`]
//! (MLIR-syntax printer and parser), [`binary`] (serializer and reflection),
//! [`validate`] (SPIRV-Tools), [`llvm`] (spv → LLVM dialect / LLVM IR).
#![deny(missing_docs)]

pub mod abi;
pub mod availability;
pub mod binary;
pub mod grammar;
pub mod host;
pub mod ir;
pub mod kernel;
pub mod layout;
pub mod llvm;
pub mod lower;
pub mod passes;
pub mod target;
pub mod text;
pub mod validate;
