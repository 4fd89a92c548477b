//! The SPIR-V binary form: reading words from bytes and serializing the spv
//! IR to words. Reflecting a binary's resource interface is
//! [`crate::reflect::reflect_binary`].

pub mod serialize;
pub mod words;

pub use serialize::{serialize, SerializeError};
pub use words::{words_from_bytes, WordsError};
