//! The exception hierarchy: every error kiln raises is a `kiln.Error`
//! subclass carrying kiln's own message.
//!
//! - `InvalidArgument`: a bad call (wrong dtype or shape in a feed, an
//!   unknown input or output name, a bad MLIR text).
//! - `InvalidGraph`: bytes or a file that are not an ONNX model.
//! - `Unsupported`: an op, type or opset kiln does not have (every node is
//!   listed at once).
//! - `DeviceError`: the Vulkan device failed (or could not be opened).
//! - `SessionClosed`: a call on a closed session or program.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::PyErr;

create_exception!(kiln, Error, PyException, "Every error kiln raises.");
create_exception!(
    kiln,
    InvalidArgument,
    Error,
    "A bad argument: wrong dtype or shape, unknown name, bad text."
);
create_exception!(
    kiln,
    InvalidGraph,
    Error,
    "A model that is not a valid ONNX model."
);
create_exception!(
    kiln,
    Unsupported,
    Error,
    "An op, element type or opset kiln does not support."
);
create_exception!(
    kiln,
    DeviceError,
    Error,
    "The device failed, or could not be opened."
);
create_exception!(
    kiln,
    SessionClosed,
    Error,
    "A call on a session or program that was closed."
);

/// `InvalidArgument` with `message`.
pub fn invalid(message: impl Into<String>) -> PyErr {
    InvalidArgument::new_err(message.into())
}

/// The exception for an ONNX import error.
pub fn onnx_error(e: &kiln_onnx::OnnxError) -> PyErr {
    use kiln_onnx::OnnxError as E;
    let m = e.to_string();
    match e {
        E::Decode { .. } | E::Model(_) => InvalidGraph::new_err(m),
        // A node that could not be converted is a refusal too (`kiln
        // onnx-test` skips such models).
        E::Unsupported(_) | E::UnsupportedType { .. } | E::OpsetTooNew { .. } | E::Node { .. } => {
            Unsupported::new_err(m)
        }
        E::Input { .. } => InvalidArgument::new_err(m),
        E::Io { .. } => pyo3::exceptions::PyFileNotFoundError::new_err(m),
        E::BadTensor { .. } | E::Run { .. } => Error::new_err(m),
    }
}

/// The exception for a runtime error (`what` says what was being done).
pub fn runtime_error(what: &str, e: &kiln_runtime::Error) -> PyErr {
    let m = format!("{what}: {e}");
    match e {
        kiln_runtime::Error::Shape { .. }
        | kiln_runtime::Error::DType { .. }
        | kiln_runtime::Error::ForeignDevice { .. } => InvalidArgument::new_err(m),
        kiln_runtime::Error::Program { .. } => Error::new_err(m),
        _ => DeviceError::new_err(m),
    }
}
