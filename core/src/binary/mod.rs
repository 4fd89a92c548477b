//! The SPIR-V binary form: serializing the spv IR to words, and reflecting
//! the resource interface of a binary module.

pub mod reflect;
pub mod serialize;

pub use serialize::{serialize, SerializeError};
