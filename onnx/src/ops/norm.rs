//! Normalizations over chosen axes: `InstanceNormalization`,
//! `GroupNormalization`, `MeanVarianceNormalization`, `LpNormalization`
//! and `LRN`, from reductions and elementwise generics (f16/bf16 inputs
//! are computed in f32, as ONNX's `stash_type` asks).

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::MathOp;
use kiln_core::tensor::TValue;

use super::scalar::{arith, cmp, convert, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

fn static_shape(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))
}

/// The type a normalization computes in: f32 for 16-bit floats.
fn work_type(dt: DataType) -> DataType {
    if dt == DataType::Double {
        dt
    } else {
        DataType::Float
    }
}

/// `x` converted to `to` (unchanged when it is already).
fn to_type(c: &mut Ctx<'_>, n: &Node<'_>, x: &Value, to: DataType) -> Result<Value, OnnxError> {
    if x.dtype == to {
        return Ok(x.clone());
    }
    let from = x.dtype;
    c.elementwise(&[x], to, |bb, v| convert(bb, from, to, v[0]))
        .map_err(|e| n.err(e))
}

/// The mean of `x` over `axes`, kept as unit dims.
fn mean(c: &mut Ctx<'_>, n: &Node<'_>, x: &Value, axes: &[usize]) -> Result<Value, OnnxError> {
    let dt = x.dtype;
    let s = static_shape(n, x)?;
    let count: u64 = axes.iter().map(|&a| s[a]).product();
    let sum = c
        .reduce(x, axes, dt, ScalarBits::Float(0.0), |bb, v, acc| {
            arith(bb, dt, Bin::Add, v, acc)
        })
        .map_err(|e| n.err(e))?;
    let m = c
        .elementwise(&[&sum], dt, |bb, v| {
            let k = cst(bb, dt, count as f64);
            arith(bb, dt, Bin::Div, v[0], k)
        })
        .map_err(|e| n.err(e))?;
    c.keep_dims(&m, axes, s.len()).map_err(|e| n.err(e))
}

/// `(x - mean) / sqrt(var + eps)` over `axes` (biased variance), in `x`'s
/// type.
fn standardize(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    x: &Value,
    axes: &[usize],
    eps: f64,
) -> Result<Value, OnnxError> {
    let dt = x.dtype;
    let mu = mean(c, n, x, axes)?;
    let d = c
        .elementwise(&[x, &mu], dt, |bb, v| arith(bb, dt, Bin::Sub, v[0], v[1]))
        .map_err(|e| n.err(e))?;
    let sq = c
        .elementwise(&[&d], dt, |bb, v| arith(bb, dt, Bin::Mul, v[0], v[0]))
        .map_err(|e| n.err(e))?;
    let var = mean(c, n, &sq, axes)?;
    c.elementwise(&[&d, &var], dt, |bb, v| {
        let e = cst(bb, dt, eps);
        let ve = arith(bb, dt, Bin::Add, v[1], e);
        let s = math(bb, MathOp::Sqrt, ve);
        arith(bb, dt, Bin::Div, v[0], s)
    })
    .map_err(|e| n.err(e))
}

/// `y * scale[c] + bias[c]` for per-channel (axis 1) `scale` and `bias`,
/// converted to `out`.
fn affine_channels(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    y: &Value,
    scale: &Value,
    bias: &Value,
    out: DataType,
) -> Result<Value, OnnxError> {
    let s = static_shape(n, y)?;
    let ch = s[1];
    let mut view = vec![1u64; s.len()];
    view[1] = ch;
    let sc = c.reshape(scale, &view).map_err(|e| n.err(e))?;
    let bi = c.reshape(bias, &view).map_err(|e| n.err(e))?;
    let (wt, st, bt) = (y.dtype, scale.dtype, bias.dtype);
    c.elementwise(&[y, &sc, &bi], out, |bb, v| {
        let k = convert(bb, st, wt, v[1]);
        let b = convert(bb, bt, wt, v[2]);
        let t = arith(bb, wt, Bin::Mul, v[0], k);
        let t = arith(bb, wt, Bin::Add, t, b);
        convert(bb, wt, out, t)
    })
    .map_err(|e| n.err(e))
}

fn float_input<'a>(n: &'a Node<'_>) -> Result<&'a Value, OnnxError> {
    let x = n.input(0)?;
    if !x.dtype.is_float() {
        return Err(n.err(format!("{} of {} is not supported", n.op(), x.dtype.name())));
    }
    if x.rank() < 2 {
        return Err(n.err("the input needs a channel axis (rank >= 2)"));
    }
    Ok(x)
}

/// `InstanceNormalization(epsilon)`: per sample and channel over the
/// spatial axes, then `scale[c]`, `B[c]`.
pub fn instance_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = float_input(n)?;
    let eps = f64::from(n.float("epsilon", 1e-5));
    let wt = work_type(x.dtype);
    let xw = to_type(c, n, x, wt)?;
    let axes: Vec<usize> = (2..x.rank()).collect();
    let y = standardize(c, n, &xw, &axes, eps)?;
    Ok(vec![affine_channels(
        c,
        n,
        &y,
        n.input(1)?,
        n.input(2)?,
        x.dtype,
    )?])
}

/// `GroupNormalization(num_groups, epsilon)`: per sample over each group
/// of `C / num_groups` channels and the spatial axes, then per-channel
/// `scale` and `bias` (opset 21; opset 18's per-group ones are refused).
pub fn group_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = float_input(n)?;
    let s = static_shape(n, x)?;
    let g = n.int("num_groups", 0);
    let ch = s[1];
    if g <= 0 || ch % g as u64 != 0 {
        return Err(n.err(format!("num_groups {g} does not divide {ch} channels")));
    }
    let g = g as u64;
    let (scale, bias) = (n.input(1)?, n.input(2)?);
    if scale.static_shape().as_deref() != Some(&[ch][..]) {
        return Err(n.err(format!(
            "scale must have one value per channel ({ch}; opset 18's per-group form is not supported)"
        )));
    }
    let eps = f64::from(n.float("epsilon", 1e-5));
    let wt = work_type(x.dtype);
    let xw = to_type(c, n, x, wt)?;
    let rest: u64 = s[2..].iter().product::<u64>() * (ch / g);
    let grouped = c.reshape(&xw, &[s[0], g, rest]).map_err(|e| n.err(e))?;
    let y = standardize(c, n, &grouped, &[2], eps)?;
    let y = c.reshape(&y, &s).map_err(|e| n.err(e))?;
    Ok(vec![affine_channels(c, n, &y, scale, bias, x.dtype)?])
}

/// `MeanVarianceNormalization(axes)`: `(x - E x) / (sqrt(E x^2 - (E
/// x)^2) + 1e-9)`, ONNX's function body.
pub fn mvn(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("MeanVarianceNormalization of {}", dt.name())));
    }
    let r = x.rank();
    let mut axes: Vec<usize> = n
        .ints("axes")
        .unwrap_or_else(|| vec![0, 2, 3])
        .iter()
        .map(|&a| n.axis(a, r))
        .collect::<Result<_, _>>()?;
    axes.sort_unstable();
    axes.dedup();
    let mu = mean(c, n, x, &axes)?;
    let sq = c
        .elementwise(&[x], dt, |bb, v| arith(bb, dt, Bin::Mul, v[0], v[0]))
        .map_err(|e| n.err(e))?;
    let msq = mean(c, n, &sq, &axes)?;
    let y = c
        .elementwise(&[x, &mu, &msq], dt, |bb, v| {
            let m2 = arith(bb, dt, Bin::Mul, v[1], v[1]);
            let var = arith(bb, dt, Bin::Sub, v[2], m2);
            let sd = math(bb, MathOp::Sqrt, var);
            let e = cst(bb, dt, 1e-9);
            let den = arith(bb, dt, Bin::Add, sd, e);
            let d = arith(bb, dt, Bin::Sub, v[0], v[1]);
            arith(bb, dt, Bin::Div, d, den)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `LpNormalization(axis, p)`: `x / ||x||_p` along `axis` (p 1 or 2), 0
/// where the norm is 0.
pub fn lp_norm(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("LpNormalization of {}", dt.name())));
    }
    let p = n.int("p", 2);
    if p != 1 && p != 2 {
        return Err(n.err(format!("p = {p} is not 1 or 2")));
    }
    let r = x.rank();
    let axis = n.axis(n.int("axis", -1), r)?;
    let norm = c
        .reduce(x, &[axis], dt, ScalarBits::Float(0.0), |bb, v, acc| {
            let t = if p == 1 {
                math(bb, MathOp::AbsF, v)
            } else {
                arith(bb, dt, Bin::Mul, v, v)
            };
            arith(bb, dt, Bin::Add, t, acc)
        })
        .map_err(|e| n.err(e))?;
    let norm = c.keep_dims(&norm, &[axis], r).map_err(|e| n.err(e))?;
    let y = c
        .elementwise(&[x, &norm], dt, |bb, v| {
            let nv = if p == 2 {
                math(bb, MathOp::Sqrt, v[1])
            } else {
                v[1]
            };
            let z = cst(bb, dt, 0.0);
            let is0 = cmp(bb, dt, Cmp::Eq, nv, z);
            let q = arith(bb, dt, Bin::Div, v[0], nv);
            select(bb, is0, z, q)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `LRN(size, alpha, beta, bias)`: `x / (bias + alpha / size * sum of
/// squares over channels c - floor((size-1)/2) ..= c + ceil((size-1)/2))
/// ^ beta`, the window's squares read by index.
pub fn lrn(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("LRN of {}", dt.name())));
    }
    let s = static_shape(n, x)?;
    if s.len() < 3 {
        return Err(n.err("LRN needs (N, C, spatial...)"));
    }
    let size = n.int("size", 0);
    if size <= 0 {
        return Err(n.err(format!("size {size} must be positive")));
    }
    let alpha = f64::from(n.float("alpha", 1e-4));
    let beta = f64::from(n.float("beta", 0.75));
    let bias = f64::from(n.float("bias", 1.0));
    let before = (size - 1) / 2;
    let after = size - 1 - before;
    let src = c.ssa(x);
    let elem = dt.elem();
    let ch = s[1] as i64;
    let y = super::gather::indexed_generic(c, &s, dt, &[], |bb, li, _| {
        use kiln_core::tensor::attr::CmpIPred;
        use kiln_core::tensor::ops::ArithOp;
        use kiln_core::tensor::ElemType;
        let i64t = ElemType::Int(64);
        let i1 = ElemType::Int(1);
        let c0 = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
        let mut acc: TValue = cst(bb, dt, 0.0);
        let zero = cst(bb, dt, 0.0);
        let own = super::gather::extract(bb, src, li, elem);
        for k in -before..=after {
            let kk = bb.constant(ScalarBits::Int(k), i64t);
            let j = bb.arith(ArithOp::AddI, vec![c0, kk], i64t);
            let lo = bb.constant(ScalarBits::Int(0), i64t);
            let hi = bb.constant(ScalarBits::Int(ch), i64t);
            let ge = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![j, lo], i1);
            let lt = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![j, hi], i1);
            let ok = bb.arith(ArithOp::AndI, vec![ge, lt], i1);
            let last = bb.constant(ScalarBits::Int(ch - 1), i64t);
            let jc = bb.arith(ArithOp::MaxSI, vec![j, lo], i64t);
            let jc = bb.arith(ArithOp::MinSI, vec![jc, last], i64t);
            let ji = bb.arith(ArithOp::IndexCast, vec![jc], ElemType::Index);
            let mut at = li.to_vec();
            at[1] = ji;
            let e = super::gather::extract(bb, src, &at, elem);
            let sq = arith(bb, dt, Bin::Mul, e, e);
            let sq = select(bb, ok, sq, zero);
            acc = arith(bb, dt, Bin::Add, acc, sq);
        }
        let k = cst(bb, dt, alpha / size as f64);
        let b = cst(bb, dt, bias);
        let t = arith(bb, dt, Bin::Mul, acc, k);
        let t = arith(bb, dt, Bin::Add, t, b);
        let be = cst(bb, dt, beta);
        let den = bb.math(MathOp::PowF, vec![t, be]);
        arith(bb, dt, Bin::Div, own, den)
    });
    Ok(vec![y])
}
