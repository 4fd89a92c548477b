//! The SPIR-V binary form: reading words from bytes, serializing the spv
//! IR to words, and deserializing words back into the IR. Reflecting a
//! binary's resource interface is [`crate::reflect::reflect_binary`].

pub mod deserialize;
pub mod serialize;
pub mod words;

pub use deserialize::{deserialize, deserialize_with, DeserializeError, DeserializeOptions};
pub use serialize::{serialize, SerializeError};
pub use words::{words_from_bytes, WordsError};
