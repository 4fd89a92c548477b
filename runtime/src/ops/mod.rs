//! Tensor operations for ML frameworks, on device [`Tensor`]s: each op
//! writes a small tensor program (MLIR text in the func / arith / math /
//! linalg / tensor dialects) for its operands' shape class, element type
//! and parameters, compiles it with kiln's tensor compiler on first use, keeps
//! it in a per-device cache ([`cache_stats`]), and enqueues it on a
//! [`Stream`] without waiting: ops chain on a stream with no host round
//! trip (barriers between them come from each binding's access). Results
//! are new contiguous device tensors; reading one waits for the work that
//! writes it, and a failure of that work is reported by
//! [`Stream::sync`] or the read. Bad operands are reported at the call.
//!
//! | family | ops |
//! |---|---|
//! | element-wise, numpy broadcasting | [`add`], [`sub`], [`mul`], [`div`], [`maximum`], [`minimum`], [`pow`], [`compare`] ([`Compare`]), [`where_`] |
//! | unary | [`neg`], [`abs`], [`relu`], [`exp`], [`log()`], [`sqrt`], [`rsqrt`], [`tanh`], [`erf`], [`sin`], [`cos`], [`sigmoid`], [`gelu`], [`gelu_tanh`], [`silu`] |
//! | contractions | [`matmul`] (`[.., M, K] x [K, N]`), [`batch_matmul`] |
//! | convolution, pooling (NHWC) | [`conv2d`] (HWCF filter, [`Conv2d`]), [`max_pool2d`], [`avg_pool2d`] ([`Pool2d`]) |
//! | reductions | [`sum`], [`max`], [`min`], [`mean`] along axes, with `keep_dims` |
//! | normalization | [`softmax`], [`layer_norm`], [`rms_norm`] |
//! | data movement | [`transpose`], [`concat()`], [`slice()`], [`cast`] |
//!
//! Element types: f32, f16 and bf16 (computed in f32, rounded once), i8,
//! i16, i32, i64 (signed; arithmetic wraps), bool where an op means
//! something for it. `ui8` and `ui32` tensors are refused. Operands of the
//! wrong rank, shapes that do not broadcast, mixed element types, bad axes
//! or windows are [`Error::Shape`](crate::Error::Shape) errors naming the
//! op; nothing panics.
//!
//! Compiled programs are cached by the generated program's text: it names
//! the op, the operands' shape class and element types, and every
//! parameter; the device fixes the target env. Element-wise ops, [`cast`]
//! and [`softmax`] also find their loaded program by a compact key (op,
//! parameters, element types, ranks) without writing the text, so a call
//! of a cached shape class only enqueues. Sizes that vary from call to
//! call in a model are dynamic (`?`) in the program, so one compile serves
//! them all:
//!
//! | ops | shape class |
//! |---|---|
//! | element-wise, unary, [`cast`], [`softmax`] | the rank and which dimensions broadcast |
//! | [`sum`], [`max`], [`min`], [`mean`] | the reduced sizes (the other dimensions dynamic) |
//! | [`layer_norm`], [`rms_norm`] | the width D (any number of rows) |
//! | [`matmul`], [`batch_matmul`], [`conv2d`], pooling, [`transpose`], [`concat()`], [`slice()`] | the exact shapes (the kernels are specialized for them) |
//!
//! [`clear_cache`] drops what a framework no longer needs.
//!
//! ```
//! # fn main() -> Result<(), kiln_runtime::Error> {
//! use kiln_runtime::{ops, CacheLocation, Device, DeviceOptions, Tensor};
//! let options = DeviceOptions { cache: CacheLocation::Disabled, ..DeviceOptions::default() };
//! let device = Device::new(&options)?;
//! let stream = device.stream();
//! let x = Tensor::from_slice(&device, &[1.0f32, -2.0, 3.0, -4.0, 5.0, -6.0], &[2, 3])?;
//! let bias = Tensor::from_slice(&device, &[10.0f32, 20.0, 30.0], &[3])?;
//! let y = ops::relu(&stream, &ops::add(&stream, &x, &bias)?)?; // bias broadcast to rows
//! assert_eq!(y.to_vec::<f32>()?, vec![11.0, 18.0, 33.0, 6.0, 25.0, 24.0]);
//! let s = ops::sum(&stream, &y, &[1], false)?; // row sums
//! assert_eq!(s.to_vec::<f32>()?, vec![62.0, 55.0]);
//! ops::add(&stream, &x, &bias)?; // the same op and shapes: no new compile
//! assert_eq!(ops::cache_stats(&device).compiled, 3);
//! # Ok(())
//! # }
//! ```

mod broadcast;
mod cache;
mod cast;
mod conv;
mod elementwise;
mod layout;
mod matmul;
mod norm;
mod reduce;
mod text;

pub(crate) use cache::OpCache;

pub use broadcast::broadcast_shapes;
pub use cache::{cache_stats, clear_cache, trace, OpCacheStats, OpRun};
pub use cast::cast;
pub use conv::{avg_pool2d, conv2d, max_pool2d, Conv2d, Pool2d};
pub use elementwise::{
    abs, add, binary, compare, cos, div, erf, exp, gelu, gelu_tanh, log, maximum, minimum, mul,
    neg, pow, relu, rsqrt, sigmoid, silu, sin, sqrt, sub, tanh, unary, where_, Binary, Compare,
    Unary,
};
pub use layout::{concat, slice, transpose};
pub use matmul::{batch_matmul, matmul};
pub use norm::{layer_norm, rms_norm, softmax};
pub use reduce::{max, mean, min, reduce, sum, Reduction};

#[cfg(doc)]
use crate::{Stream, Tensor};
