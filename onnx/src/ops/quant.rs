//! Linear quantization: `QuantizeLinear`, `DequantizeLinear` (per
//! tensor, per axis and blocked), `DynamicQuantizeLinear` and
//! `QLinearMatMul`, with the integer quantized types (2- to 16-bit) and
//! the narrow floats (8-bit, FLOAT4E2M1).

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::scalar::{arith, convert, cst, Bin};
use super::OpResult;
use crate::ctx::{BResult, BuildError, Ctx};
use crate::dtype::DataType;
use crate::node::Node;
use crate::value::Value;

/// The range of quantized type `dt`, or `None` when it is not one.
pub fn quant_range(dt: DataType) -> Option<(f64, f64)> {
    use DataType::*;
    Some(match dt {
        Uint8 => (0.0, 255.0),
        Int8 => (-128.0, 127.0),
        Uint16 => (0.0, 65535.0),
        Int16 => (-32768.0, 32767.0),
        Uint4 => (0.0, 15.0),
        Int4 => (-8.0, 7.0),
        Uint2 => (0.0, 3.0),
        Int2 => (-2.0, 1.0),
        _ => return None,
    })
}

/// `x`, the tensor being (de)quantized, and `p`, a scale or zero point,
/// brought to shapes that broadcast: `(x', p', result shape)` where the
/// result of the broadcast op is reshaped to `result shape`. Per tensor
/// (`p` a scalar or of one element), per axis (`p` of `x.shape[axis]`
/// elements) or blocked (`block > 0`: `p` of `x`'s rank, `ceil(d /
/// block)` along `axis`; `d` must be a multiple of `block`).
struct Layout {
    /// The shape `x` is viewed as.
    x_view: Vec<u64>,
    /// The shape each parameter is viewed as.
    p_view: Vec<u64>,
    /// `x`'s shape.
    x_shape: Vec<u64>,
}

fn layout(n: &Node<'_>, x: &Value, p: &Value, axis: i64, block: i64) -> BResult<Layout> {
    let xs = x.static_shape().ok_or(BuildError::DynamicQuantInput)?;
    let ps = p.static_shape().ok_or(BuildError::DynamicScale)?;
    let np: u64 = ps.iter().product();
    if np == 1 && block <= 0 {
        return Ok(Layout {
            x_view: xs.clone(),
            p_view: vec![],
            x_shape: xs,
        });
    }
    let a = n
        .axis(axis, xs.len())
        .map_err(|e| BuildError::Axis(Box::new(e)))?;
    if block <= 0 {
        if ps.len() != 1 || ps[0] != xs[a] {
            return Err(BuildError::ScaleShape {
                len: xs[a],
                scale: ps,
                axis: a,
                input: xs,
            });
        }
        let mut pv = vec![1u64; xs.len()];
        pv[a] = xs[a];
        return Ok(Layout {
            x_view: xs.clone(),
            p_view: pv,
            x_shape: xs,
        });
    }
    let b = block as u64;
    if ps.len() != xs.len() || xs[a] % b != 0 || ps[a] != xs[a] / b {
        return Err(BuildError::BlockedScaleAxis {
            scale: ps,
            input: xs,
            block: b,
            axis: a,
        });
    }
    for (i, (&p, &d)) in ps.iter().zip(&xs).enumerate() {
        if i != a && p != d {
            return Err(BuildError::BlockedScaleShape {
                scale: ps,
                input: xs,
                axis: a,
            });
        }
    }
    let mut xv = xs[..a].to_vec();
    xv.push(xs[a] / b);
    xv.push(b);
    xv.extend_from_slice(&xs[a + 1..]);
    let mut pv = xs[..a].to_vec();
    pv.push(xs[a] / b);
    pv.push(1);
    pv.extend_from_slice(&xs[a + 1..]);
    Ok(Layout {
        x_view: xv,
        p_view: pv,
        x_shape: xs,
    })
}

/// `x` viewed as `shape` (unchanged when it already is).
/// The layout of a (de)quantization's operands (`axis`, `block_size`)
/// and the views of `x`, the scale and the zero point (if any) that an
/// element-wise op reads them through, in that order.
fn operand_views(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    x: &Value,
    scale: &Value,
    zp: Option<&Value>,
) -> Result<(Layout, Vec<Value>), crate::OnnxError> {
    let l = layout(n, x, scale, n.int("axis", 1), n.int("block_size", 0)).map_err(|e| n.err(e))?;
    let mut views = vec![
        view(c, x, &l.x_view).map_err(|e| n.err(e))?,
        view(c, scale, &l.p_view).map_err(|e| n.err(e))?,
    ];
    if let Some(z) = zp {
        views.push(view(c, z, &l.p_view).map_err(|e| n.err(e))?);
    }
    Ok((l, views))
}

fn view(c: &mut Ctx<'_>, v: &Value, shape: &[u64]) -> BResult<Value> {
    if v.static_shape().as_deref() == Some(shape) {
        return Ok(v.clone());
    }
    c.reshape(v, shape)
}

/// `clamp(roundeven(q) + zp, lo, hi)` in f32, converted to `to`.
fn saturate(b: &mut BodyBuilder<'_>, q: TValue, zp: Option<TValue>, to: DataType) -> TValue {
    let (lo, hi) = quant_range(to).expect("checked quantized type");
    let f = DataType::Float;
    let mut r = b.math(MathOp::RoundEven, vec![q]);
    if let Some(z) = zp {
        r = arith(b, f, Bin::Add, r, z);
    }
    let lo = cst(b, f, lo);
    let hi = cst(b, f, hi);
    let r = b.arith(ArithOp::MaximumF, vec![r, lo], ElemType::F32);
    let r = b.arith(ArithOp::MinimumF, vec![r, hi], ElemType::F32);
    convert(b, f, to, r)
}

/// `QuantizeLinear(x, y_scale, y_zero_point?)`: `saturate(rint(x /
/// y_scale) + y_zero_point)`, the division in `x`'s type.
pub fn quantize_linear(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let scale = n.input(1)?;
    let zp = n.opt_input(2);
    let out_attr = n.int("output_dtype", 0) as i32;
    let to = match zp {
        Some(z) => z.dtype,
        None if out_attr != 0 => DataType::from_code(out_attr, &format!("node {}", n.name()))?,
        None => DataType::Uint8,
    };
    let narrow_float = to.small_float().is_some();
    if quant_range(to).is_none() && !narrow_float {
        return Err(n.err(format!("quantizing to {} is not supported", to.name())));
    }
    let saturate_attr = n.int("saturate", 1) != 0;
    // Float8 targets ignore the zero point (ONNX's reference); FLOAT4E2M1
    // adds it before rounding.
    let add_zp = to != DataType::Float8e4m3fn
        && to != DataType::Float8e4m3fnuz
        && to != DataType::Float8e5m2
        && to != DataType::Float8e5m2fnuz;
    if !x.dtype.is_float() {
        return Err(n.err(format!("quantizing {} is not supported", x.dtype.name())));
    }
    if n.int("precision", 0) != 0 {
        return Err(n.err("the precision attribute is not supported"));
    }
    let (xt, st) = (x.dtype, scale.dtype);
    let (l, views) = operand_views(c, n, x, scale, zp)?;
    let ins: Vec<&Value> = views.iter().collect();
    let zt = zp.map(|z| z.dtype);
    let y = c
        .elementwise(&ins, to, |bb, v| {
            let s = convert(bb, st, xt, v[1]);
            let q = arith(bb, xt, Bin::Div, v[0], s);
            let q = convert(bb, xt, DataType::Float, q);
            let z = zt
                .filter(|_| add_zp)
                .map(|zt| convert(bb, zt, DataType::Float, v[2]));
            if narrow_float {
                let q = match z {
                    Some(z) => arith(bb, DataType::Float, Bin::Add, q, z),
                    None => q,
                };
                return super::scalar::convert_with(
                    bb,
                    DataType::Float,
                    to,
                    q,
                    saturate_attr,
                    true,
                );
            }
            saturate(bb, q, z, to)
        })
        .map_err(|e| n.err(e))?;
    let y = view(c, &y, &l.x_shape).map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `DequantizeLinear(x, x_scale, x_zero_point?)`: `(x - x_zero_point) *
/// x_scale` (the difference in f32), of the scale's type.
pub fn dequantize_linear(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let scale = n.input(1)?;
    let zp = n.opt_input(2);
    if quant_range(x.dtype).is_none()
        && x.dtype != DataType::Int32
        && x.dtype.small_float().is_none()
    {
        return Err(n.err(format!("dequantizing {} is not supported", x.dtype.name())));
    }
    let out_attr = n.int("output_dtype", 0) as i32;
    let to = if out_attr != 0 {
        DataType::from_code(out_attr, &format!("node {}", n.name()))?
    } else {
        scale.dtype
    };
    if !scale.dtype.is_float() || !to.is_float() {
        return Err(n.err("the scale and result must be floats"));
    }
    let (xt, st) = (x.dtype, scale.dtype);
    let (l, views) = operand_views(c, n, x, scale, zp)?;
    let ins: Vec<&Value> = views.iter().collect();
    let zt = zp.map(|z| z.dtype);
    let f = DataType::Float;
    let y = c
        .elementwise(&ins, to, |bb, v| {
            let mut d = convert(bb, xt, f, v[0]);
            if let Some(zt) = zt {
                let z = convert(bb, zt, f, v[2]);
                d = arith(bb, f, Bin::Sub, d, z);
            }
            let s = convert(bb, st, f, v[1]);
            let y = arith(bb, f, Bin::Mul, d, s);
            convert(bb, f, to, y)
        })
        .map_err(|e| n.err(e))?;
    let y = view(c, &y, &l.x_shape).map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `DynamicQuantizeLinear(x)` -> `(y: u8, y_scale, y_zero_point: u8)`:
/// the scale `(max(0, max x) - min(0, min x)) / 255`, the zero point
/// `saturate(rint(-min(0, min x) / scale))`.
pub fn dynamic_quantize_linear(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    if x.dtype != DataType::Float {
        return Err(n.err(format!("{} input is not supported (FLOAT)", x.dtype.name())));
    }
    let f = DataType::Float;
    let axes: Vec<usize> = (0..x.rank()).collect();
    let hi = c
        .reduce(x, &axes, f, ScalarBits::Float(0.0), |bb, v, acc| {
            bb.arith(ArithOp::MaximumF, vec![v, acc], ElemType::F32)
        })
        .map_err(|e| n.err(e))?;
    let lo = c
        .reduce(x, &axes, f, ScalarBits::Float(0.0), |bb, v, acc| {
            bb.arith(ArithOp::MinimumF, vec![v, acc], ElemType::F32)
        })
        .map_err(|e| n.err(e))?;
    let scale = c
        .elementwise(&[&hi, &lo], f, |bb, v| {
            let d = arith(bb, f, Bin::Sub, v[0], v[1]);
            let k = cst(bb, f, 255.0);
            arith(bb, f, Bin::Div, d, k)
        })
        .map_err(|e| n.err(e))?;
    let u8t = DataType::Uint8;
    let zp = c
        .elementwise(&[&lo, &scale], u8t, |bb, v| {
            let z = cst(bb, f, 0.0);
            let neg = arith(bb, f, Bin::Sub, z, v[0]);
            let q = arith(bb, f, Bin::Div, neg, v[1]);
            saturate(bb, q, None, u8t)
        })
        .map_err(|e| n.err(e))?;
    let y = c
        .elementwise(&[x, &scale, &zp], u8t, |bb, v| {
            let q = arith(bb, f, Bin::Div, v[0], v[1]);
            let z = convert(bb, u8t, f, v[2]);
            saturate(bb, q, Some(z), u8t)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y, scale, zp])
}

/// `QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp)`:
/// `saturate(rint((a - a_zp) @ (b - b_zp) * a_scale * b_scale / y_scale)
/// + y_zp)`, the integer products summed exactly in i32.
pub fn qlinear_matmul(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let b = n.input(3)?;
    let (azp, bzp, yzp) = (n.input(2)?, n.input(5)?, n.input(7)?);
    let (asc, bsc, ysc) = (n.input(1)?, n.input(4)?, n.input(6)?);
    for (v, what) in [
        (azp, "a_zero_point"),
        (bzp, "b_zero_point"),
        (yzp, "y_zero_point"),
    ] {
        if v.static_shape()
            .is_none_or(|s| s.iter().product::<u64>() != 1)
        {
            return Err(n.err(format!("{what} must be a scalar (per-tensor quantization)")));
        }
    }
    for (v, what) in [(asc, "a_scale"), (bsc, "b_scale"), (ysc, "y_scale")] {
        if v.static_shape()
            .is_none_or(|s| s.iter().product::<u64>() != 1)
        {
            return Err(n.err(format!("{what} must be a scalar (per-tensor quantization)")));
        }
    }
    let to = yzp.dtype;
    if quant_range(to).is_none() || quant_range(a.dtype).is_none() || quant_range(b.dtype).is_none()
    {
        return Err(n.err("QLinearMatMul supports 8- and 16-bit integer operands"));
    }
    let i32t = DataType::Int32;
    let shift = |c: &mut Ctx<'_>, v: &Value, z: &Value| {
        let (vt, zt) = (v.dtype, z.dtype);
        c.elementwise(&[v, z], i32t, |bb, x| {
            let p = convert(bb, vt, i32t, x[0]);
            let q = convert(bb, zt, i32t, x[1]);
            arith(bb, i32t, Bin::Sub, p, q)
        })
    };
    let a0 = shift(c, a, azp).map_err(|e| n.err(e))?;
    let b0 = shift(c, b, bzp).map_err(|e| n.err(e))?;
    let prod = super::matmul::matmul_values(c, n, &a0, &b0)?;
    let f = DataType::Float;
    let (at, bt, yt, zt) = (asc.dtype, bsc.dtype, ysc.dtype, yzp.dtype);
    let y = c
        .elementwise(&[&prod, asc, bsc, ysc, yzp], to, |bb, v| {
            let p = convert(bb, i32t, f, v[0]);
            let sa = convert(bb, at, f, v[1]);
            let sb = convert(bb, bt, f, v[2]);
            let sy = convert(bb, yt, f, v[3]);
            let k = arith(bb, f, Bin::Mul, sa, sb);
            let k = arith(bb, f, Bin::Div, k, sy);
            let q = arith(bb, f, Bin::Mul, p, k);
            let z = convert(bb, zt, f, v[4]);
            saturate(bb, q, Some(z), to)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}
