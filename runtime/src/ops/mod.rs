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
//! | element-wise, numpy broadcasting | [`add`], [`sub`], [`mul`], [`div`], [`maximum`], [`minimum`], [`pow`], [`compare`] ([`Compare`]), [`where_`], [`clamp`] |
//! | logical (`bool`) | [`logical_and`], [`logical_or`], [`logical_xor`] ([`logical`], [`Logical`]), [`logical_not`] |
//! | unary | [`neg`], [`abs`], [`relu`], [`square`], [`sign`] (numbers); [`exp`], [`exp2`], [`expm1`], [`log()`], [`log2`], [`log10`], [`log1p`], [`sqrt`], [`rsqrt`], [`reciprocal`], [`floor`], [`ceil`], [`round`], [`trunc`], [`sin`], [`cos`], [`tan`], [`asin`], [`acos`], [`atan`], [`sinh`], [`cosh`], [`tanh`], [`asinh`], [`acosh`], [`atanh`], [`erf`], [`sigmoid`], [`gelu`], [`gelu_tanh`], [`silu`] (floats) |
//! | contractions | [`matmul`] (`[.., M, K] x [K, N]`), [`batch_matmul`] |
//! | convolution, pooling (NHWC) | [`conv2d`] (HWCF filter, [`Conv2d`]), [`max_pool2d`], [`avg_pool2d`] ([`Pool2d`]) |
//! | reductions | [`sum`], [`max`], [`min`], [`mean`] along axes, with `keep_dims`; [`argmax`], [`argmin`] along an axis (`i64`) |
//! | scans, sorting | [`cumsum`], [`cumprod`] (log-step scans); [`sort`], [`argsort`], [`topk`] (by rank, stable) |
//! | normalization | [`softmax`], [`layer_norm`], [`rms_norm`] |
//! | indexing | [`index_select`], [`embedding`], [`gather`], [`scatter`], [`scatter_add`], [`one_hot`], [`arange`] (an index out of range is an [`Error::Index`](crate::Error::Index), never a clamped read) |
//! | images (NHWC) | [`interpolate`] ([`Interpolation`]: nearest, bilinear) |
//! | random (Philox4x32-10, counter-based, [`Philox`]) | [`random_bits`], [`rand`], [`dropout`] |
//! | `out=` and in-place forms | [`binary_out`], [`unary_out`] |
//! | graphs | [`capture`] a sequence of op calls as one compiled program, [`Graph::run`] it again with new inputs; a lazy stream ([`Stream::set_lazy`]) defers its op calls and runs them as one compiled graph (see below) |
//! | data movement | [`transpose`], [`concat()`], [`stack`], [`slice()`], [`pad`], [`cast`]; views: [`Tensor::expand`] (stride 0), [`Tensor::contiguous`] |
//!
//! Element types: f32, f16 and bf16 (computed in f32, rounded once), i8,
//! i16, i32, i64 (signed; arithmetic wraps), bool where an op means
//! something for it. `ui8` and `ui32` tensors are refused. Operands of the
//! wrong rank, shapes that do not broadcast, mixed element types, bad axes
//! or windows are [`Error::Shape`](crate::Error::Shape) errors naming the
//! op; nothing panics.
//!
//! Every op finds its loaded program by a compact key — the op, its
//! parameters, its inputs' element types and ranks, and the sizes the
//! program is specialized for — without writing the program's text: a
//! call of a cached shape class checks its operands, allocates its
//! results and enqueues. The first call of a key writes the text, which
//! is looked up in the device's op programs, then in the disk cache
//! (`programs/` of the cache directory: a new process compiles nothing it
//! compiled before), and only then compiled. Sizes that vary from call to
//! call in a model are dynamic (`?`) in the program, so one compile serves
//! them all:
//!
//! | ops | shape class |
//! |---|---|
//! | element-wise, unary, logical, [`clamp`], [`cast`], [`softmax`], [`index_select`], [`embedding`], [`gather`], [`scatter`], [`scatter_add`], [`argmax`], [`argmin`], [`sort`], [`argsort`], [`topk`], random | the rank and which dimensions broadcast |
//! | [`cumsum`], [`cumprod`] | `ceil(log2(n))` of the scanned length |
//! | [`interpolate`] | the input and output heights and widths |
//! | [`one_hot`] | the number of classes |
//! | [`sum`], [`max`], [`min`], [`mean`] | the reduced sizes (the other dimensions dynamic) |
//! | [`layer_norm`], [`rms_norm`] | the width D (any number of rows) |
//! | [`matmul`], [`batch_matmul`] | K and N (any batch and number of rows: a new batch size compiles nothing) |
//! | [`conv2d`], pooling, [`transpose`], [`concat()`], [`stack`], [`slice()`], [`pad`] | the exact shapes (the kernels are specialized for them) |
//!
//! [`clear_cache`] drops what a framework no longer needs.
//!
//! **Lazy streams** ([`Stream::set_lazy`]): an op call on a lazy stream
//! checks its operands and infers its results' shapes at the call (the
//! same errors as an eager call), allocates its results and defers its
//! work. The deferred calls run together, as one program compiled from
//! their programs (the compiler fuses across calls, as for [`capture`]),
//! when the stream is synced or flushed, when anything else touches a
//! buffer one of them reads or writes (a read of a result, a copy, an
//! upload, a dispatch, an op of another stream), when a call reads a view
//! of a deferred result, or at [`MAX_PENDING`] calls. Results the caller
//! dropped are not computed. The compiled programs are kept per stream by
//! the sequence of calls (ops, shape classes, how results feed operands),
//! so a loop compiles once and then replays; sizes that are dynamic in the
//! op programs (a batch size) compile nothing new. After [`MAX_MISSES`]
//! consecutive compiles the stream turns eager ([`Stream::lazy_stats`]).
//! An index out of range found by a deferred call is reported by the next
//! sync and by reads of the results, naming the op.
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

mod arg;
mod broadcast;
mod cache;
mod capture;
mod cast;
mod conv;
mod elementwise;
mod index;
mod layout;
pub(crate) mod lazy;
mod matmul;
mod norm;
mod out;
mod random;
mod reduce;
pub(crate) mod replay;
mod resize;
mod scan;
mod scatter;
mod sort;
mod text;

pub(crate) use cache::OpCache;

pub use arg::{argmax, argmin};
pub use broadcast::broadcast_shapes;
pub use cache::{cache_stats, clear_cache, trace, OpCacheStats, OpRun};
pub use capture::{capture, Graph};
pub use cast::cast;
pub use conv::{avg_pool2d, conv2d, max_pool2d, Conv2d, Pool2d};
pub use elementwise::{
    abs, acos, acosh, add, asin, asinh, atan, atanh, binary, ceil, clamp, compare, cos, cosh, div,
    erf, exp, exp2, expm1, floor, gelu, gelu_tanh, log, log10, log1p, log2, logical, logical_and,
    logical_not, logical_or, logical_xor, maximum, minimum, mul, neg, pow, reciprocal, relu, round,
    rsqrt, sigmoid, sign, silu, sin, sinh, sqrt, square, sub, tan, tanh, trunc, unary, where_,
    Binary, Compare, Logical, Unary,
};
pub use index::{arange, embedding, gather, index_select, one_hot, HOST_CHECK_MAX};
pub use layout::{concat, pad, slice, stack, transpose};
pub use lazy::{LazyStats, MAX_MISSES, MAX_PENDING};
pub use matmul::{batch_matmul, matmul};
pub use norm::{layer_norm, rms_norm, softmax};
pub use out::{binary_out, unary_out};
pub use random::{dropout, rand, random_bits, Philox};
pub use reduce::{max, mean, min, reduce, sum, Reduction};
pub use resize::{interpolate, Interpolation};
pub use scan::{cumprod, cumsum};
pub use scatter::{scatter, scatter_add};
pub use sort::{argsort, sort, topk};

#[cfg(doc)]
use crate::{Stream, Tensor};
