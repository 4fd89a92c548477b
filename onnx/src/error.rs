//! [`OnnxError`]: everything the importer refuses, with the node, input or
//! file it is about.

use thiserror::Error;

/// An error of reading or importing an ONNX model.
#[derive(Debug, Error)]
pub enum OnnxError {
    /// The bytes are not a `ModelProto` (truncated or corrupt file).
    #[error("{what}: not a valid ONNX protobuf: {source}")]
    Decode {
        /// The file or message being decoded.
        what: String,
        /// prost's reason.
        source: prost::DecodeError,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The reason.
        source: std::io::Error,
    },
    /// An element type kiln's tensor IR does not have.
    #[error("{what}: element type {ty} is not supported (kiln has f16, bf16, f32, f64, i8..i64, u8..u64, bool)")]
    UnsupportedType {
        /// The tensor or value.
        what: String,
        /// ONNX's name of the type.
        ty: String,
    },
    /// A tensor's contents do not match its declared type and shape.
    #[error("tensor {name}: {message}")]
    BadTensor {
        /// The tensor.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// The model uses an opset newer than the importer knows.
    #[error("opset {version} of domain {domain:?} is newer than kiln supports (up to {max})")]
    OpsetTooNew {
        /// The domain (`""` is ai.onnx).
        domain: String,
        /// The model's version.
        version: i64,
        /// The newest supported.
        max: i64,
    },
    /// Nodes kiln cannot run: every one of them, found before anything runs.
    #[error("{} unsupported node(s):\n{}", .0.len(), .0.join("\n"))]
    Unsupported(Vec<String>),
    /// A node could not be converted.
    #[error("node {node} ({op}): {message}")]
    Node {
        /// The node's name (or its first output).
        node: String,
        /// Its op type.
        op: String,
        /// What went wrong.
        message: String,
    },
    /// A graph input given to the importer does not fit the model.
    #[error("input {name}: {message}")]
    Input {
        /// The input.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// The model is malformed (a value used before it is defined, ...).
    #[error("invalid model: {0}")]
    Model(String),
    /// Compiling or running the imported program on a device failed.
    #[error("{what}: {message}")]
    Run {
        /// The step (`compile`, `upload`, `device run`).
        what: &'static str,
        /// The runtime's error.
        message: String,
    },
}
