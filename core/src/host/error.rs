//! Errors of the host interpreter.

use crate::ir::Location;

/// A failure while running a runner program's host code.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// The module has no `func.func @main` with a body.
    #[error("no `func.func @main` with a body in the module")]
    NoMain,
    /// A call to a function that is neither a runtime function of
    /// mlir-vulkan-runner nor defined in the module.
    #[error("{loc}: call to unknown function @{callee} (not a runner-utils function and not defined in the module)")]
    UnknownCallee {
        /// The callee's name.
        callee: String,
        /// Where the call is.
        loc: Location,
    },
    /// An op the host side does not execute.
    #[error("{loc}: `{op}` is not supported in host code")]
    UnsupportedOp {
        /// The op's MLIR name.
        op: &'static str,
        /// Where it is.
        loc: Location,
    },
    /// An op whose operands, attributes or types are not what it needs.
    #[error("{loc}: `{op}`: {message}")]
    BadOp {
        /// The op's MLIR name (or the callee for runtime calls).
        op: String,
        /// Where it is.
        loc: Location,
        /// What is wrong.
        message: String,
    },
    /// A type the host cannot hold in a buffer or value.
    #[error("{loc}: `{op}`: unsupported type {ty}")]
    UnsupportedType {
        /// The op's MLIR name.
        op: &'static str,
        /// Where it is.
        loc: Location,
        /// The type, as Rust's debug form.
        ty: String,
    },
    /// A memref access outside its shape.
    #[error("{loc}: `{op}`: index {index:?} is out of bounds for shape {shape:?}")]
    OutOfBounds {
        /// The op's MLIR name.
        op: &'static str,
        /// Where it is.
        loc: Location,
        /// The indices.
        index: Vec<i64>,
        /// The memref's shape.
        shape: Vec<u64>,
    },
    /// Integer division by zero on the host.
    #[error("{loc}: `{op}`: division by zero")]
    DivisionByZero {
        /// The op's MLIR name.
        op: &'static str,
        /// Where it is.
        loc: Location,
    },
    /// The launcher failed.
    #[error("{loc}: gpu.launch_func @{module}::@{kernel}: {source}")]
    Launch {
        /// The gpu.module.
        module: String,
        /// The kernel.
        kernel: String,
        /// Where the launch is.
        loc: Location,
        /// What the launcher reported.
        #[source]
        source: super::LauncherError,
    },
    /// Writing the printed output failed (the I/O error is the source).
    #[error("cannot write output")]
    Io(#[from] std::io::Error),
}
