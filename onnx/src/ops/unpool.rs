//! `MaxUnpool` (opset 11): the pooled values scattered back to their
//! flat indices (`ScatterND` into zeros of the inferred shape), then
//! zero-padded at the end up to `output_shape` when given — ONNX's
//! reference.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::Dim;

use super::attention::sub;
use super::{more, scatter, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// `MaxUnpool(X, I, output_shape?; kernel_shape, pads, strides)`.
pub fn max_unpool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, i) = (n.input(0)?, n.input(1)?);
    let xs = x
        .static_shape()
        .filter(|s| s.len() >= 3)
        .ok_or_else(|| n.err("X must be (N, C, spatial...) of static shape"))?;
    if i.static_shape().as_ref() != Some(&xs) || i.dtype.is_float() {
        return Err(n.err("I must be integer indices of X's shape"));
    }
    let k = xs.len() - 2;
    let kernel = n
        .ints("kernel_shape")
        .filter(|v| v.len() == k)
        .ok_or_else(|| n.err(format!("kernel_shape of {k} dims is required")))?;
    let strides = n.ints("strides").unwrap_or(vec![1; k]);
    let pads = n.ints("pads").unwrap_or(vec![0; 2 * k]);
    if strides.len() != k || pads.len() != 2 * k {
        return Err(n.err("strides and pads do not fit the spatial dims"));
    }
    let mut inferred = xs[..2].to_vec();
    for d in 0..k {
        let v = (xs[d + 2] as i64 - 1) * strides[d] - pads[d] - pads[d + k] + kernel[d];
        inferred.push(u64::try_from(v).map_err(|_| n.err("the inferred output is empty"))?);
    }
    let out: Vec<u64> = match n.opt_ints(2)? {
        Some(s) => s.iter().map(|&d| d.max(0) as u64).collect(),
        None => inferred.clone(),
    };
    if out.len() != inferred.len() || out.iter().zip(&inferred).any(|(o, f)| o < f) {
        return Err(n.err(format!(
            "output_shape {out:?} is smaller than the inferred {inferred:?}"
        )));
    }
    let total: u64 = inferred.iter().product();
    let count: u64 = xs.iter().product();
    let zeros = c.full(&[total], x.dtype, ScalarBits::Float(0.0));
    let zeros = c.tensor(zeros, x.dtype, vec![Dim::Static(total)]);
    let idx = c.reshape(i, &[count, 1]).map_err(|e| n.err(e))?;
    let upd = c.reshape(x, &[count]).map_err(|e| n.err(e))?;
    let flat = sub(
        c,
        n,
        scatter::scatter_nd,
        "ScatterND",
        vec![zeros, idx, upd],
        &[],
    )?;
    let y = c.reshape(&flat, &inferred).map_err(|e| n.err(e))?;
    if out == inferred {
        return Ok(vec![y]);
    }
    let mut pv = vec![0i64; out.len()];
    pv.extend(out.iter().zip(&inferred).map(|(o, f)| (o - f) as i64));
    let pads = Value::constant(HostTensor::from_ints(DataType::Int64, &[pv.len()], &pv));
    Ok(vec![sub(c, n, more::pad, "Pad", vec![y, pads], &[])?])
}
