//! The SPIR-V binary form: reading words from bytes, serializing the spv
//! IR to words, deserializing words back into the IR, and reflecting the
//! resource interface of a binary module.

pub mod deserialize;
pub mod reflect;
pub mod serialize;
pub mod words;

pub use deserialize::{deserialize, deserialize_with, DeserializeError, DeserializeOptions};
pub use serialize::{serialize, SerializeError};
pub use words::{words_from_bytes, WordsError};
