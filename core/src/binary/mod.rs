//! The SPIR-V binary form: reading words from bytes, serializing the spv
//! IR to words, and reflecting the resource interface of a binary module.

pub mod reflect;
pub mod serialize;
pub mod words;

pub use serialize::{serialize, SerializeError};
pub use words::{words_from_bytes, WordsError};
