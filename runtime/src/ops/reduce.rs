//! Reductions along axes: sum, max, min, mean. One `linalg.generic` with
//! reduction iterators; f16 and bf16 accumulate in f32, integers in their
//! own type (a sum wraps).

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::{fname, single};
use super::text::{
    class, class_ty, compute, dims_ty, f32_lit, identity, map, map_elements, need_float,
    shape_error, Class, Dim, Func, Operand,
};

/// Which reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// The sum.
    Sum,
    /// The largest element (floats: NaN if any is).
    Max,
    /// The smallest element.
    Min,
    /// The mean (floats).
    Mean,
}

impl Reduction {
    fn what(self) -> &'static str {
        match self {
            Self::Sum => "ops::sum",
            Self::Max => "ops::max",
            Self::Min => "ops::min",
            Self::Mean => "ops::mean",
        }
    }
}

/// The reduced axes, sorted: `axes` checked against `rank` (an empty list
/// means every axis).
pub(crate) fn check_axes(what: &'static str, axes: &[usize], rank: usize) -> Result<Vec<usize>> {
    if axes.is_empty() {
        return Ok((0..rank).collect());
    }
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            return Err(shape_error(what, format!("axis {} is listed twice", w[0])));
        }
    }
    if let Some(&a) = sorted.iter().find(|&&a| a >= rank) {
        return Err(shape_error(
            what,
            format!("axis {a} is out of range for a tensor of rank {rank}"),
        ));
    }
    Ok(sorted)
}

/// Reduces `x` along `axes` (an empty list: every axis); with
/// `keep_dims` the reduced axes stay, of size 1.
pub fn reduce(
    stream: &Stream,
    op: Reduction,
    x: &Tensor,
    axes: &[usize],
    keep_dims: bool,
) -> Result<Tensor> {
    let what = op.what();
    let dtype = x.dtype();
    let cls = class(what, dtype)?;
    match (op, cls) {
        (_, Class::Bool) => return Err(shape_error(what, "is not defined on i1 tensors")),
        (Reduction::Mean, _) => need_float(what, dtype)?,
        _ => {}
    }
    let shape = x.shape();
    let rank = shape.len();
    let axes = check_axes(what, axes, rank)?;
    let kept: Vec<usize> = (0..rank).filter(|d| !axes.contains(d)).collect();
    let out: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
    let keep_shape: Vec<usize> = (0..rank)
        .map(|d| if axes.contains(&d) { 1 } else { shape[d] })
        .collect();
    let final_shape = if keep_dims { &keep_shape } else { &out };
    let count: usize = axes.iter().map(|&d| shape[d]).product();
    if count == 0 && op != Reduction::Sum {
        return Err(shape_error(
            what,
            format!("reduces an empty axis of shape {shape:?}: it has no {op:?}"),
        ));
    }
    if x.numel() == 0 {
        return Tensor::zeros(&x.device(), dtype, final_shape);
    }
    let elem = compute(dtype);
    let init = match (op, cls) {
        (Reduction::Sum | Reduction::Mean, Class::Float) => "0.0".to_owned(),
        (Reduction::Sum, _) => "0".to_owned(),
        (Reduction::Max, Class::Float) => f32_lit(f32::NEG_INFINITY),
        (Reduction::Min, Class::Float) => f32_lit(f32::INFINITY),
        (Reduction::Max, _) => int_bound(dtype, false),
        (Reduction::Min, _) => int_bound(dtype, true),
        (Reduction::Mean, _) => "0.0".to_owned(),
    };
    let combine = match (op, cls) {
        (Reduction::Sum | Reduction::Mean, Class::Float) => "arith.addf",
        (Reduction::Sum, _) => "arith.addi",
        (Reduction::Max, Class::Float) => "arith.maximumf",
        (Reduction::Min, Class::Float) => "arith.minimumf",
        (Reduction::Max, _) => "arith.maxsi",
        _ => "arith.minsi",
    };
    // The shape class: the reduced sizes are fixed (a mean divides by
    // their product), the others dynamic.
    let text = || -> Result<String> {
        let mut f = Func::new(fname(what));
        let class: Vec<Option<usize>> = (0..rank)
            .map(|d| axes.contains(&d).then_some(shape[d]))
            .collect();
        let ty = class_ty(&class, dtype.name());
        let a = f.arg(&ty);
        let out_dims: Vec<Dim> = kept.iter().map(|&d| f.dim(&a, &ty, d)).collect();
        let acc = f.empty_dims(&out_dims, elem, Some(&init));
        let iters: Vec<&str> = (0..rank)
            .map(|d| {
                if axes.contains(&d) {
                    "reduction"
                } else {
                    "parallel"
                }
            })
            .collect();
        let r = f.generic(
            &[Operand {
                value: a,
                ty,
                elem: dtype.name().to_owned(),
                map: identity(rank),
            }],
            &Operand {
                value: acc,
                ty: dims_ty(&out_dims, elem),
                elem: elem.to_owned(),
                map: map(rank, &kept),
            },
            &iters,
            |f, args| {
                let v = f.widen(&args[0], dtype);
                f.let_(&format!("{combine} {v}, {} : {elem}", args[1]))
            },
        );
        let y = if op == Reduction::Mean {
            let scale = 1.0 / count as f32;
            map_elements(&mut f, &r, &out_dims, elem, dtype.name(), |f, v| {
                let s = f.f32(scale);
                let m = f.let_(&format!("arith.mulf {v}, {s} : f32"));
                f.narrow(&m, dtype)
            })
        } else if elem != dtype.name() {
            map_elements(&mut f, &r, &out_dims, elem, dtype.name(), |f, v| {
                f.narrow(v, dtype)
            })
        } else {
            r
        };
        Ok(f.finish(&[(y, dims_ty(&out_dims, dtype.name()))]))
    };
    single(cache::run_keyed(
        stream,
        what,
        &reduce_key(op, &axes, shape),
        &[x],
        text,
    )?)?
    .reshape(final_shape)
}

/// The smallest (`min`) or largest value of an integer type, as MLIR text.
pub(crate) fn int_bound(dtype: DType, max: bool) -> String {
    match (dtype, max) {
        (DType::I8, false) => i8::MIN.to_string(),
        (DType::I8, true) => i8::MAX.to_string(),
        (DType::I16, false) => i16::MIN.to_string(),
        (DType::I16, true) => i16::MAX.to_string(),
        (DType::I32, false) => i32::MIN.to_string(),
        (DType::I32, true) => i32::MAX.to_string(),
        (_, false) => i64::MIN.to_string(),
        (_, true) => i64::MAX.to_string(),
    }
}

/// The sum along `axes` (empty: all).
pub fn sum(stream: &Stream, x: &Tensor, axes: &[usize], keep_dims: bool) -> Result<Tensor> {
    reduce(stream, Reduction::Sum, x, axes, keep_dims)
}

/// The maximum along `axes` (empty: all).
pub fn max(stream: &Stream, x: &Tensor, axes: &[usize], keep_dims: bool) -> Result<Tensor> {
    reduce(stream, Reduction::Max, x, axes, keep_dims)
}

/// The minimum along `axes` (empty: all).
pub fn min(stream: &Stream, x: &Tensor, axes: &[usize], keep_dims: bool) -> Result<Tensor> {
    reduce(stream, Reduction::Min, x, axes, keep_dims)
}

/// The mean along `axes` (empty: all; floats).
pub fn mean(stream: &Stream, x: &Tensor, axes: &[usize], keep_dims: bool) -> Result<Tensor> {
    reduce(stream, Reduction::Mean, x, axes, keep_dims)
}

/// The program's key beyond the operand's element type and rank: the op,
/// and per dimension its size if reduced (fixed in the program) or
/// `u64::MAX` (dynamic).
fn reduce_key(op: Reduction, axes: &[usize], shape: &[usize]) -> Vec<u64> {
    let mut key = Vec::with_capacity(shape.len() + 1);
    key.push(op as u64);
    key.extend((0..shape.len()).map(|d| {
        if axes.contains(&d) {
            shape[d] as u64
        } else {
            u64::MAX
        }
    }));
    key
}
