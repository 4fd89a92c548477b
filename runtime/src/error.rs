//! The runtime's error type.
//!
//! Every failure is a value: nothing in the runtime panics on user input
//! or aborts on a device failure. Two kinds of failure have rules of their
//! own:
//! - [`Error::DeviceLost`] is **sticky**: once any call saw the device lost,
//!   every later call of every handle on that device (and every pending
//!   [`ReadFuture`](crate::ReadFuture)) returns it, without touching the
//!   device again.
//! - [`Error::OutOfMemory`] comes only after the runtime freed what it
//!   could (waited for queued work, released finished buffers, trimmed the
//!   pools) and retried once; the device stays usable.

use std::path::PathBuf;

use crate::dtype::DType;

/// A `Result` with the runtime's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything the runtime reports.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The device was lost; the device handle and everything made on it
    /// only return this from now on.
    #[error("device lost ({context})")]
    DeviceLost {
        /// What saw the loss first: the call, and the work that was running
        /// (kernel and dispatch) where known.
        context: String,
    },
    /// Device memory ran out even after freeing finished work, trimming
    /// the pools and retrying once. The device is still usable.
    #[error(
        "out of device memory allocating {requested} bytes from the {pool} pool \
         ({in_use} bytes in use of {reserved} reserved after trimming)"
    )]
    OutOfMemory {
        /// The request, in bytes.
        requested: u64,
        /// The pool's name.
        pool: &'static str,
        /// Bytes the pool held when it gave up.
        reserved: u64,
        /// Bytes of live buffers in the pool.
        in_use: u64,
    },
    /// Earlier queued work failed; reported by [`Stream::sync`](crate::Stream::sync)
    /// (or the call that submitted it), naming the first dispatch of the
    /// failed submission.
    #[error("{work}: {source}")]
    Work {
        /// e.g. `dispatch #12 (kernel "add") of a submission of 100 dispatches`.
        work: String,
        /// Why it failed.
        #[source]
        source: Box<Error>,
    },
    /// A Vulkan failure (checks before Vulkan included: limits, bindings).
    /// Transparent: its message is the Vulkan error's, and its source that
    /// error's source, so a chain printer does not print the message twice.
    #[error(transparent)]
    Vulkan(kiln_vulkan::Error),
    /// A memref-level kernel failed to parse, lower or validate.
    #[error("kernel {kernel:?}: {message}")]
    Compile {
        /// The kernel's name.
        kernel: String,
        /// Why, with the compiler's location.
        message: String,
    },
    /// A tensor program cannot run: its function, and why (a dynamic size
    /// that does not fit, a buffer over a device limit, ...).
    #[error("function @{function}: {message}")]
    Program {
        /// The function.
        function: String,
        /// Why.
        message: String,
    },
    /// A binary's interface could not be reflected for the entry point.
    #[error("kernel {kernel:?}: cannot reflect its interface: {message}")]
    Reflect {
        /// The entry point.
        kernel: String,
        /// Why.
        message: String,
    },
    /// A dispatch got the wrong number of tensors.
    #[error("kernel {kernel:?} has {expected} bindings but {got} tensors were given")]
    ArgumentCount {
        /// The kernel.
        kernel: String,
        /// Its bindings.
        expected: usize,
        /// The tensors given.
        got: usize,
    },
    /// A tensor too large for the descriptor array of chunks its binding
    /// declares (a buffer larger than `maxStorageBufferRange`, bound chunk
    /// by chunk): the kernel cannot reach its last bytes.
    #[error(
        "kernel {kernel:?}: binding {binding} takes a tensor in at most {chunks} chunks of \
         {chunk} bytes, but the tensor has {bytes} bytes"
    )]
    ChunkedBinding {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: u32,
        /// The tensor's bytes.
        bytes: u64,
        /// The descriptors of the binding.
        chunks: u32,
        /// Bytes per chunk.
        chunk: u64,
    },
    /// A kernel binds a range of a tensor as one descriptor (or one chunk)
    /// but the tensor is larger than one allocation may be and that range
    /// crosses from one of its allocations into the next (see
    /// [`Tensor::allocation_count`](crate::Tensor::allocation_count)):
    /// only kernels that bind it in chunks of `storage_chunk_bytes`
    /// (compiled for a device whose `maxStorageBufferRange` is below the
    /// tensor) read it across allocations.
    #[error(
        "kernel {kernel:?}: binding {binding} needs {bytes} bytes at byte {start} of a tensor in one \
         descriptor, but the tensor is split across {allocations} allocations of {piece} bytes \
         (maxMemoryAllocationSize, or a forced lower limit) and the range crosses from one into the next"
    )]
    SplitAllocation {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: u32,
        /// The range's first byte in the tensor's buffer.
        start: u64,
        /// The range's length.
        bytes: u64,
        /// Bytes per allocation.
        piece: u64,
        /// How many allocations the tensor has.
        allocations: usize,
    },
    /// A tensor whose layout a command cannot use as it is.
    #[error("{what}: the tensor (shape {shape:?}, strides {strides:?}) is not contiguous; call contiguous() first")]
    NotContiguous {
        /// The operation.
        what: &'static str,
        /// The view's shape.
        shape: Vec<usize>,
        /// The view's strides.
        strides: Vec<usize>,
    },
    /// Shapes, element counts or element types that do not fit.
    #[error("{what}: {reason}")]
    Shape {
        /// The operation.
        what: &'static str,
        /// What does not fit, with the values.
        reason: String,
    },
    /// Host data of another element type than the tensor's.
    #[error("{what}: the tensor holds {tensor}, the host data is {host}")]
    DType {
        /// The operation.
        what: &'static str,
        /// The tensor's type.
        tensor: DType,
        /// The host type.
        host: DType,
    },
    /// An index out of range: found on the host before anything was
    /// enqueued, or by a kernel on the device (reported by
    /// [`Stream::sync`](crate::Stream::sync) and by reads of what the
    /// call wrote, see `fault`), naming the op.
    #[error("{what}: {reason}")]
    Index {
        /// The op (`ops::gather`) or the program's function.
        what: String,
        /// Which index, and the range it is outside of.
        reason: String,
    },
    /// A tensor or kernel of another device.
    #[error("{what} belongs to another device")]
    ForeignDevice {
        /// Which object.
        what: &'static str,
    },
    /// The cache directory cannot be used (only when one was asked for
    /// explicitly; the default location falls back to no disk cache).
    #[error("cache directory {path}: {message}")]
    CacheDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        message: String,
    },
}

impl From<kiln_vulkan::Error> for Error {
    fn from(e: kiln_vulkan::Error) -> Self {
        match e {
            kiln_vulkan::Error::DeviceLost { call } => Error::DeviceLost {
                context: call.to_owned(),
            },
            other => Error::Vulkan(other),
        }
    }
}

impl Error {
    /// Whether this is (or wraps) a device loss.
    pub fn is_device_lost(&self) -> bool {
        match self {
            Error::DeviceLost { .. } => true,
            Error::Work { source, .. } => source.is_device_lost(),
            _ => false,
        }
    }

    /// Whether this is (or wraps) an out-of-memory failure.
    pub fn is_out_of_memory(&self) -> bool {
        match self {
            Error::OutOfMemory { .. }
            | Error::Vulkan(kiln_vulkan::Error::OutOfDeviceMemory { .. })
            | Error::Vulkan(kiln_vulkan::Error::OutOfHostMemory { .. }) => true,
            Error::Work { source, .. } => source.is_out_of_memory(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    /// An error and its causes joined by `: `, as anyhow's `{:#}` prints
    /// them (and as `kiln --split-input-file` and `kiln onnx test` printed
    /// their errors).
    fn chain(e: &(dyn std::error::Error + 'static)) -> String {
        std::iter::successors(Some(e), |e| e.source())
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(": ")
    }

    #[test]
    fn a_vulkan_error_prints_once_in_its_chain() {
        let e = Error::Vulkan(kiln_vulkan::Error::InvalidSpirv {
            reason: "no magic number".into(),
        });
        assert_eq!(chain(&e), "invalid SPIR-V module: no magic number");
    }
}
