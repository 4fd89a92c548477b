//! Reductions (`Reduce*` on `linalg.reduce`, keepdims by
//! `tensor.expand_shape`), `Softmax` (`linalg.softmax`), `LogSoftmax`,
//! `LayerNormalization`, `BatchNormalization` (inference).

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::MathOp;
use kiln_core::tensor::Dim;

use super::scalar::{arith, cst, math, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// Which reduction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Red {
    Sum,
    Mean,
    Max,
    Min,
    Prod,
    L1,
    L2,
    SumSquare,
    LogSum,
    LogSumExp,
}

/// The reduced axes of a `Reduce*` node (axes an input from opset 13 for
/// ReduceSum, 18 for the others), sorted.
fn axes(
    n: &Node<'_>,
    rank: usize,
    input_from: i64,
) -> Result<Option<Vec<usize>>, crate::error::OnnxError> {
    let raw = if n.opset >= input_from {
        n.opt_ints(1)?
    } else {
        n.ints("axes")
    };
    let noop = n.int("noop_with_empty_axes", 0) != 0;
    let mut ax: Vec<usize> = match raw {
        Some(a) if !a.is_empty() => a
            .iter()
            .map(|&x| n.axis(x, rank))
            .collect::<Result<_, _>>()?,
        _ if noop => return Ok(None),
        _ => (0..rank).collect(),
    };
    ax.sort_unstable();
    ax.dedup();
    Ok(Some(ax))
}

fn reduce_op(c: &mut Ctx<'_>, n: &Node<'_>, red: Red) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    let input_from = if red == Red::Sum { 13 } else { 18 };
    let keep = n.int("keepdims", 1) != 0;
    let Some(ax) = axes(n, a.rank(), input_from)? else {
        return Ok(vec![a.clone()]);
    };
    if !dt.is_float() && !matches!(red, Red::Sum | Red::Max | Red::Min | Red::Prod) {
        return Err(n.err(format!("{} of {} is not supported", n.op(), dt.name())));
    }
    let count: u64 = ax
        .iter()
        .map(|&i| a.shape[i].fixed().unwrap_or(0))
        .product();
    // The value fed to the sum.
    let pre = match red {
        Red::L1 => Some(c.elementwise(&[a], dt, |bb, x| math(bb, MathOp::AbsF, x[0]))),
        Red::L2 | Red::SumSquare => {
            Some(c.elementwise(&[a], dt, |bb, x| arith(bb, dt, Bin::Mul, x[0], x[0])))
        }
        Red::LogSumExp => None,
        _ => None,
    };
    let src = match pre {
        Some(r) => r.map_err(|e| n.err(e))?,
        None => a.clone(),
    };
    let (init, bin) = match red {
        Red::Max => (lowest(dt), Bin::Max),
        Red::Min => (highest(dt), Bin::Min),
        Red::Prod => (ScalarBits::Float(1.0), Bin::Mul),
        _ => (ScalarBits::Float(0.0), Bin::Add),
    };
    let mut out = if red == Red::LogSumExp {
        // max-shifted: log(sum(exp(x - m))) + m.
        let m = c
            .reduce(&src, &ax, dt, lowest(dt), |bb, x, acc| {
                arith(bb, dt, Bin::Max, x, acc)
            })
            .map_err(|e| n.err(e))?;
        let mk = c.keep_dims(&m, &ax, a.rank()).map_err(|e| n.err(e))?;
        let e = c
            .elementwise(&[&src, &mk], dt, |bb, x| {
                let d = arith(bb, dt, Bin::Sub, x[0], x[1]);
                math(bb, MathOp::Exp, d)
            })
            .map_err(|e| n.err(e))?;
        let s = c
            .reduce(&e, &ax, dt, ScalarBits::Float(0.0), |bb, x, acc| {
                arith(bb, dt, Bin::Add, x, acc)
            })
            .map_err(|e| n.err(e))?;
        c.elementwise(&[&s, &m], dt, |bb, x| {
            let l = math(bb, MathOp::Log, x[0]);
            arith(bb, dt, Bin::Add, l, x[1])
        })
        .map_err(|e| n.err(e))?
    } else {
        c.reduce(&src, &ax, dt, init, |bb, x, acc| arith(bb, dt, bin, x, acc))
            .map_err(|e| n.err(e))?
    };
    out = match red {
        Red::Mean => c
            .elementwise(&[&out], dt, |bb, x| {
                let k = cst(bb, dt, count as f64);
                arith(bb, dt, Bin::Div, x[0], k)
            })
            .map_err(|e| n.err(e))?,
        Red::L2 => c
            .elementwise(&[&out], dt, |bb, x| math(bb, MathOp::Sqrt, x[0]))
            .map_err(|e| n.err(e))?,
        Red::LogSum => c
            .elementwise(&[&out], dt, |bb, x| math(bb, MathOp::Log, x[0]))
            .map_err(|e| n.err(e))?,
        _ => out,
    };
    if keep {
        out = c.keep_dims(&out, &ax, a.rank()).map_err(|e| n.err(e))?;
    }
    Ok(vec![out])
}

/// The lowest value of `dt` (-inf for floats).
pub fn lowest_of(dt: DataType) -> ScalarBits {
    lowest(dt)
}

/// The highest value of `dt` (+inf for floats).
pub fn highest_of(dt: DataType) -> ScalarBits {
    highest(dt)
}

fn lowest(dt: DataType) -> ScalarBits {
    if dt.is_float() {
        ScalarBits::Float(f64::NEG_INFINITY)
    } else if dt.is_unsigned() || dt == DataType::Bool {
        ScalarBits::Int(0)
    } else {
        ScalarBits::Int(i64::MIN >> (64 - dt.elem().bits()))
    }
}

fn highest(dt: DataType) -> ScalarBits {
    if dt.is_float() {
        ScalarBits::Float(f64::INFINITY)
    } else if dt.is_unsigned() || dt == DataType::Bool {
        ScalarBits::Int(-1)
    } else {
        ScalarBits::Int(i64::MAX >> (64 - dt.elem().bits()))
    }
}

macro_rules! reductions {
    ($($name:ident => $r:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
        pub fn $name(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
            reduce_op(c, n, Red::$r)
        }
    )*};
}

reductions! {
    reduce_sum => Sum, "`ReduceSum`.";
    reduce_mean => Mean, "`ReduceMean`.";
    reduce_max => Max, "`ReduceMax`.";
    reduce_min => Min, "`ReduceMin`.";
    reduce_prod => Prod, "`ReduceProd`.";
    reduce_l1 => L1, "`ReduceL1`.";
    reduce_l2 => L2, "`ReduceL2`.";
    reduce_sum_square => SumSquare, "`ReduceSumSquare`.";
    reduce_log_sum => LogSum, "`ReduceLogSum`.";
    reduce_log_sum_exp => LogSumExp, "`ReduceLogSumExp`.";
}

/// The shape to normalise over for `Softmax`/`LogSoftmax`: before opset
/// 13 the input is flattened to 2-D at `axis` (default 1); from 13 one
/// axis (default -1).
fn softmax_frame(
    n: &Node<'_>,
    a: &Value,
) -> Result<(Value, usize, Vec<u64>), crate::error::OnnxError> {
    let shape = a
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    if n.opset >= 13 {
        let ax = n.axis(n.int("axis", -1), a.rank())?;
        Ok((a.clone(), ax, shape))
    } else {
        let ax = n.axis(n.int("axis", 1), a.rank())?;
        let outer: u64 = shape[..ax].iter().product();
        let inner: u64 = shape[ax..].iter().product();
        let mut v = a.clone();
        v.shape = vec![Dim::Static(outer), Dim::Static(inner)];
        Ok((v, 1, shape))
    }
}

/// `Softmax` on `linalg.softmax`.
pub fn softmax(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    if !a.dtype.is_float() {
        return Err(n.err("Softmax of integers"));
    }
    let (frame, ax, orig) = softmax_frame(n, a)?;
    let frame = if frame.shape != a.shape {
        let s: Vec<u64> = frame.shape.iter().map(|d| d.fixed().unwrap_or(0)).collect();
        c.reshape(a, &s).map_err(|e| n.err(e))?
    } else {
        frame
    };
    let s = c.ssa(&frame);
    let fs: Vec<u64> = frame.shape.iter().map(|d| d.fixed().unwrap_or(0)).collect();
    let init = c.empty_static(&fs, a.dtype.elem());
    let r = c.b.softmax(s, init, ax as u64);
    let v = Value::computed(r, a.dtype, frame.shape.clone());
    Ok(vec![c.reshape(&v, &orig).map_err(|e| n.err(e))?])
}

/// `LogSoftmax`: `x - max - log(sum(exp(x - max)))`.
pub fn log_softmax(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let dt = a.dtype;
    if !dt.is_float() {
        return Err(n.err("LogSoftmax of integers"));
    }
    let (frame, ax, orig) = softmax_frame(n, a)?;
    let fs: Vec<u64> = frame.shape.iter().map(|d| d.fixed().unwrap_or(0)).collect();
    let x = c.reshape(a, &fs).map_err(|e| n.err(e))?;
    let m = c
        .reduce(&x, &[ax], dt, lowest(dt), |bb, v, acc| {
            arith(bb, dt, Bin::Max, v, acc)
        })
        .map_err(|e| n.err(e))?;
    let mk = c.keep_dims(&m, &[ax], fs.len()).map_err(|e| n.err(e))?;
    let sh = c
        .elementwise(&[&x, &mk], dt, |bb, v| arith(bb, dt, Bin::Sub, v[0], v[1]))
        .map_err(|e| n.err(e))?;
    let e = c
        .elementwise(&[&sh], dt, |bb, v| math(bb, MathOp::Exp, v[0]))
        .map_err(|e| n.err(e))?;
    let s = c
        .reduce(&e, &[ax], dt, ScalarBits::Float(0.0), |bb, v, acc| {
            arith(bb, dt, Bin::Add, v, acc)
        })
        .map_err(|e| n.err(e))?;
    let sk = c.keep_dims(&s, &[ax], fs.len()).map_err(|e| n.err(e))?;
    let out = c
        .elementwise(&[&sh, &sk], dt, |bb, v| {
            let l = math(bb, MathOp::Log, v[1]);
            arith(bb, dt, Bin::Sub, v[0], l)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![c.reshape(&out, &orig).map_err(|e| n.err(e))?])
}

/// The axes a layer or RMS normalization of `x` (static shape) normalizes
/// over (attribute `axis` to the last), `x`'s rank, how many elements
/// they hold and the `epsilon` attribute.
fn norm_axes(n: &Node<'_>, x: &Value) -> Result<(Vec<usize>, usize, u64, f64), OnnxError> {
    let shape = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let r = shape.len();
    let ax0 = n.axis(n.int("axis", -1), r)?;
    let eps = f64::from(n.float("epsilon", 1e-5));
    let axes: Vec<usize> = (ax0..r).collect();
    let count: u64 = shape[ax0..].iter().product();
    Ok((axes, r, count, eps))
}

/// `1 / sqrt(sum(v²) / count + eps)` over `axes` of `v` (rank `r`), those
/// axes kept with size 1: the inverse standard deviation of layer
/// normalization (`v` centered) and the inverse root mean square of RMS
/// normalization.
fn inv_rms(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    v: &Value,
    axes: &[usize],
    r: usize,
    count: u64,
    eps: f64,
) -> Result<Value, OnnxError> {
    let dt = v.dtype;
    let sq = c
        .reduce(v, axes, dt, ScalarBits::Float(0.0), |bb, v, acc| {
            let s = arith(bb, dt, Bin::Mul, v, v);
            arith(bb, dt, Bin::Add, s, acc)
        })
        .map_err(|e| n.err(e))?;
    let inv = c
        .elementwise(&[&sq], dt, |bb, v| {
            let k = cst(bb, dt, count as f64);
            let ms = arith(bb, dt, Bin::Div, v[0], k);
            let e = cst(bb, dt, eps);
            let me = arith(bb, dt, Bin::Add, ms, e);
            math(bb, MathOp::Rsqrt, me)
        })
        .map_err(|e| n.err(e))?;
    c.keep_dims(&inv, axes, r).map_err(|e| n.err(e))
}

/// `LayerNormalization(axis, epsilon)`: outputs Y, Mean, InvStdDev.
pub fn layer_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let (axes, r, count, eps) = norm_axes(n, x)?;
    let sum = c
        .reduce(x, &axes, dt, ScalarBits::Float(0.0), |bb, v, acc| {
            arith(bb, dt, Bin::Add, v, acc)
        })
        .map_err(|e| n.err(e))?;
    let mean = c
        .elementwise(&[&sum], dt, |bb, v| {
            let k = cst(bb, dt, count as f64);
            arith(bb, dt, Bin::Div, v[0], k)
        })
        .map_err(|e| n.err(e))?;
    let mean_k = c.keep_dims(&mean, &axes, r).map_err(|e| n.err(e))?;
    let d = c
        .elementwise(&[x, &mean_k], dt, |bb, v| {
            arith(bb, dt, Bin::Sub, v[0], v[1])
        })
        .map_err(|e| n.err(e))?;
    let inv_k = inv_rms(c, n, &d, &axes, r, count, eps)?;
    let scale = n.input(1)?;
    let mut ins = vec![&d, &inv_k, scale];
    if let Some(b) = n.opt_input(2) {
        ins.push(b);
    }
    let has_bias = ins.len() == 4;
    let y = c
        .elementwise(&ins, dt, |bb, v| {
            let t = arith(bb, dt, Bin::Mul, v[0], v[1]);
            let t = arith(bb, dt, Bin::Mul, t, v[2]);
            if has_bias {
                arith(bb, dt, Bin::Add, t, v[3])
            } else {
                t
            }
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y, mean_k, inv_k])
}

/// `BatchNormalization` in inference mode:
/// `(x - mean) / sqrt(var + epsilon) * scale + B`, per channel (dim 1).
pub fn batch_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if n.int("training_mode", 0) != 0 {
        return Err(n.err("training_mode=1 is not supported"));
    }
    let r = x.rank();
    if r < 2 {
        return Err(n.err("the input needs a channel dimension"));
    }
    let eps = f64::from(n.float("epsilon", 1e-5));
    let mut params = Vec::new();
    for i in 1..5 {
        let p = n.input(i)?;
        let s = p
            .static_shape()
            .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
        let mut shape = s.clone();
        shape.extend(std::iter::repeat_n(1, r - 2));
        params.push(c.reshape(p, &shape).map_err(|e| n.err(e))?);
    }
    let y = c
        .elementwise(
            &[x, &params[0], &params[1], &params[2], &params[3]],
            dt,
            |bb, v| {
                let e = cst(bb, dt, eps);
                let ve = arith(bb, dt, Bin::Add, v[4], e);
                let inv = math(bb, MathOp::Rsqrt, ve);
                let d = arith(bb, dt, Bin::Sub, v[0], v[3]);
                let t = arith(bb, dt, Bin::Mul, d, inv);
                let t = arith(bb, dt, Bin::Mul, t, v[1]);
                arith(bb, dt, Bin::Add, t, v[2])
            },
        )
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `RMSNormalization` (opset 23): `x / sqrt(mean(x², axes axis..) +
/// epsilon) * scale`, scale broadcast against `x`.
pub fn rms_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err("RMSNormalization of integers"));
    }
    let (axes, r, count, eps) = norm_axes(n, x)?;
    let inv_k = inv_rms(c, n, x, &axes, r, count, eps)?;
    let scale = n.input(1)?;
    let y = c
        .elementwise(&[x, &inv_k, scale], dt, |bb, v| {
            let t = arith(bb, dt, Bin::Mul, v[0], v[1]);
            arith(bb, dt, Bin::Mul, t, v[2])
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}
