//! Integer convolution and matrix product: `MatMulInteger`,
//! `ConvInteger` and `QLinearConv`. Operands are centred on their zero
//! points first (ONNX's reference: `x.astype(int32) - zero_point`); the
//! products sum exactly — in i32 for the matmul, in f64 for the
//! convolution (kiln's Conv is a float op; every partial sum of 8-bit
//! products is an integer well inside f64's 2^53) — then convert to i32.

use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::ElemType;

use super::conv;
use super::quant::quant_range;
use super::scalar::{arith, convert, cst, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// `v - z` in `to` (`v` alone without a zero point); `z` reshaped to
/// `zshape` first when it is not a scalar (per-row or per-channel).
fn centred(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    v: &Value,
    z: Option<&Value>,
    zshape: &[u64],
    to: DataType,
) -> Result<Value, OnnxError> {
    if quant_range(v.dtype).is_none() {
        return Err(n.err(format!("{} operands are not supported", v.dtype.name())));
    }
    let vt = v.dtype;
    let Some(z) = z else {
        return c
            .elementwise(&[v], to, |bb, x| convert(bb, vt, to, x[0]))
            .map_err(|e| n.err(e));
    };
    let zn: u64 = z.static_shape().map_or(0, |s| s.iter().product());
    let z = if zn == 1 {
        z.clone()
    } else {
        c.reshape(z, zshape).map_err(|e| n.err(e))?
    };
    let zt = z.dtype;
    c.elementwise(&[v, &z], to, |bb, x| {
        let p = convert(bb, vt, to, x[0]);
        let q = convert(bb, zt, to, x[1]);
        arith(bb, to, Bin::Sub, p, q)
    })
    .map_err(|e| n.err(e))
}

fn shape(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))
}

/// `MatMulInteger(A, B, a_zero_point?, b_zero_point?)`: i32 products
/// (a per-row `a_zero_point` of `[M]`, a per-column `b_zero_point` of
/// `[N]`).
pub fn matmul_integer(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let i32t = DataType::Int32;
    let m = shape(n, a)?.iter().rev().nth(1).copied().unwrap_or(1);
    let a0 = centred(c, n, a, n.opt_input(2), &[m, 1], i32t)?;
    let nn = shape(n, b)?.last().copied().unwrap_or(1);
    let b0 = centred(c, n, b, n.opt_input(3), &[nn], i32t)?;
    Ok(vec![super::matmul::matmul_values(c, n, &a0, &b0)?])
}

/// The convolution of `x` and `w` centred on their zero points (inputs
/// `xz`, `wz` of the node), in f64, with the node's Conv attributes.
fn centred_conv(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    (x, xz): (&Value, Option<&Value>),
    (w, wz): (&Value, Option<&Value>),
) -> Result<Value, OnnxError> {
    let f64t = DataType::Double;
    let ws = shape(n, w)?;
    let mut per_channel = vec![1u64; ws.len()];
    per_channel[0] = ws[0];
    let x0 = centred(c, n, x, xz, &[], f64t)?;
    let w0 = centred(c, n, w, wz, &per_channel, f64t)?;
    let node = Node {
        proto: n.proto,
        inputs: vec![Some(x0), Some(w0)],
        opset: n.opset,
    };
    conv::conv(c, &node)?
        .into_iter()
        .next()
        .ok_or_else(|| n.err("Conv gave no result"))
}

/// `ConvInteger(x, w, x_zero_point?, w_zero_point?)`: i32 results.
pub fn conv_integer(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(1)?);
    let y = centred_conv(c, n, (x, n.opt_input(2)), (w, n.opt_input(3)))?;
    let (f64t, i32t) = (DataType::Double, DataType::Int32);
    let y = c
        .elementwise(&[&y], i32t, |bb, v| convert(bb, f64t, i32t, v[0]))
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp, B?)`:
/// `clip(round(conv * (x_scale * w_scale / y_scale) + y_zp))`, the scale
/// ratio in f32 (per output channel with a `[M]` w_scale), the rest in
/// f64 as ONNX's reference (an int32 array times a float32 one).
pub fn qlinear_conv(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(3)?);
    let (xs, ws, ys, yz) = (n.input(1)?, n.input(4)?, n.input(6)?, n.input(7)?);
    let to = yz.dtype;
    let (lo, hi) = quant_range(to)
        .ok_or_else(|| n.err(format!("y_zero_point of {} is not supported", to.name())))?;
    let mut y = centred_conv(c, n, (x, Some(n.input(2)?)), (w, Some(n.input(5)?)))?;
    let f64t = DataType::Double;
    if let Some(b) = n.opt_input(8) {
        let m = shape(n, w)?[0];
        let b3 = c.reshape(b, &[m, 1, 1]).map_err(|e| n.err(e))?;
        let bt = b.dtype;
        y = c
            .elementwise(&[&y, &b3], f64t, |bb, v| {
                let q = convert(bb, bt, f64t, v[1]);
                arith(bb, f64t, Bin::Add, v[0], q)
            })
            .map_err(|e| n.err(e))?;
    }
    let m = shape(n, w)?[0];
    let wsn: u64 = shape(n, ws)?.iter().product();
    let ws3 = if wsn == 1 {
        ws.clone()
    } else {
        c.reshape(ws, &[m, 1, 1]).map_err(|e| n.err(e))?
    };
    let f = DataType::Float;
    let (xt, wt, yt, zt) = (xs.dtype, ws3.dtype, ys.dtype, yz.dtype);
    let out = c
        .elementwise(&[&y, xs, &ws3, ys, yz], to, |bb, v| {
            let sx = convert(bb, xt, f, v[1]);
            let sw = convert(bb, wt, f, v[2]);
            let sy = convert(bb, yt, f, v[3]);
            let k = arith(bb, f, Bin::Mul, sx, sw);
            let k = arith(bb, f, Bin::Div, k, sy);
            let k = convert(bb, f, f64t, k);
            let r = arith(bb, f64t, Bin::Mul, v[0], k);
            let z = convert(bb, zt, f64t, v[4]);
            let r = arith(bb, f64t, Bin::Add, r, z);
            let (l, h) = (cst(bb, f64t, lo), cst(bb, f64t, hi));
            let r = bb.arith(ArithOp::MaximumF, vec![r, l], ElemType::F64);
            let r = bb.arith(ArithOp::MinimumF, vec![r, h], ElemType::F64);
            let r = bb.math(MathOp::RoundEven, vec![r]);
            convert(bb, f64t, to, r)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![out])
}
