//! `FlexAttention` (domain `ai.onnx.preview`, version 1): scaled
//! dot-product attention with user subgraphs on the scores (`score_mod`,
//! before the softmax) and the probabilities (`prob_mod`, after it), as
//! ONNX's reference computes it: Q and K each pre-scaled by `sqrt(scale)`
//! in the input type, K/V heads repeated for grouped queries, the scores
//! then the softmax and `P @ V` in the softmax precision (float32 for 16-
//! and 32-bit floats, double for double), the result cast back.
//!
//! The subgraphs are inlined by the importer, which passes them in as
//! `modify`.

use super::attention::sub;
use super::elementwise as ew;
use super::{matmul, reduce, shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// Applies the graph attribute named by the first argument (when the node
/// has it) to a tensor: the importer's subgraph inlining.
pub type Modify<'a> = dyn FnMut(&mut Ctx<'_>, &str, Value) -> Result<Value, OnnxError> + 'a;

fn shape4(n: &Node<'_>, v: &Value, what: &str) -> Result<Vec<u64>, OnnxError> {
    v.static_shape()
        .filter(|s| s.len() == 4)
        .ok_or_else(|| n.err(format!("{what} must be rank 4 of static shape")))
}

/// `[B, Hkv, S, D]` -> `[B, Hkv*g, S, D]`, each head repeated `g` times in
/// place (numpy's `repeat` on axis 1).
fn repeat(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, g: u64) -> Result<Value, OnnxError> {
    if g == 1 {
        return Ok(v.clone());
    }
    let s = shape4(n, v, "K and V")?;
    let u = c
        .reshape(v, &[s[0], s[1], 1, s[2], s[3]])
        .map_err(|e| n.err(e))?;
    let to = Value::constant(HostTensor::from_ints(
        DataType::Int64,
        &[5],
        &[s[0], s[1], g, s[2], s[3]].map(|d| d as i64),
    ));
    let x = sub(c, n, shape::expand, "Expand", vec![u, to], &[])?;
    c.reshape(&x, &[s[0], s[1] * g, s[2], s[3]])
        .map_err(|e| n.err(e))
}

fn cast(c: &mut Ctx<'_>, n: &Node<'_>, v: Value, dt: DataType) -> Result<Value, OnnxError> {
    if v.dtype == dt {
        return Ok(v);
    }
    sub(
        c,
        n,
        ew::cast,
        "Cast",
        vec![v],
        &[("to", vec![i64::from(dt.code())])],
    )
}

/// `FlexAttention(Q, K, V)` with its `score_mod`/`prob_mod` applied
/// through `modify`.
pub fn flex_attention(c: &mut Ctx<'_>, n: &Node<'_>, modify: &mut Modify<'_>) -> OpResult {
    let (q, k, v) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let qs = shape4(n, q, "Q")?;
    let ks = shape4(n, k, "K")?;
    let vs = shape4(n, v, "V")?;
    let dt = q.dtype;
    if !dt.is_float() || k.dtype != dt || v.dtype != dt {
        return Err(n.err("Q, K and V must be of one floating-point type"));
    }
    if ks[1] == 0 || qs[1] % ks[1] != 0 || vs[1] != ks[1] || vs[2] != ks[2] || ks[3] != qs[3] {
        return Err(n.err(format!(
            "shapes Q {qs:?}, K {ks:?}, V {vs:?} do not fit (query heads a multiple of K/V's)"
        )));
    }
    let compute = match n.int("softmax_precision", 0) {
        0 if dt == DataType::Double => DataType::Double,
        0 => DataType::Float,
        p => DataType::from_code(p as i32, "softmax_precision")?,
    };
    let scale = if n.has("scale") {
        n.float("scale", 0.0)
    } else {
        (qs[3] as f32).sqrt().recip()
    };
    let root = Value::constant(HostTensor::from_floats(dt, &[], &[f64::from(scale.sqrt())]));
    let g = qs[1] / ks[1];
    let kr = repeat(c, n, k, g)?;
    let vr = repeat(c, n, v, g)?;
    let qm = sub(c, n, ew::mul, "Mul", vec![q.clone(), root.clone()], &[])?;
    let km = sub(c, n, ew::mul, "Mul", vec![kr, root], &[])?;
    let kt = c.transpose(&km, &[0, 1, 3, 2]).map_err(|e| n.err(e))?;
    let scores = sub(c, n, matmul::matmul, "MatMul", vec![qm, kt], &[])?;
    let scores = cast(c, n, scores, compute)?;
    let scores = modify(c, "score_mod", scores)?;
    let probs = sub(
        c,
        n,
        reduce::softmax,
        "Softmax",
        vec![scores],
        &[("axis", vec![-1])],
    )?;
    let probs = modify(c, "prob_mod", probs)?;
    let vf = cast(c, n, vr, compute)?;
    let out = sub(c, n, matmul::matmul, "MatMul", vec![probs, vf], &[])?;
    Ok(vec![cast(c, n, out, dt)?])
}
