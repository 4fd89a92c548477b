//! `LinearAttention` (opset 27): the recurrent state update unrolled over
//! the (static) sequence, one step per token, in float32 as ONNX's function
//! body computes it (`Scan` over `linear_attn_step`): per KV head a state
//! `S` of `[d_k, d_v]`,
//! - `linear`: `S += k ⊗ v`;
//! - `gated`: `S = exp(g) * S + k ⊗ v`;
//! - `delta`: `S += k ⊗ β (v - Sᵀk)`;
//! - `gated_delta`: `S' = exp(g) * S; S = S' + k ⊗ β (v - S'ᵀk)`;
//!
//! and `o = scale * qᵀS`, each KV head's state read by its group of
//! `q_num_heads / kv_num_heads` query heads.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::Dim;

use super::attention::sub;
use super::elementwise as ew;
use super::stack::{stack, take};
use super::{matmul, shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// `v` as float32 (the body's `Cast(to = FLOAT)`).
pub fn to_f32(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value) -> Result<Value, OnnxError> {
    sub(c, n, ew::cast, "Cast", vec![v.clone()], &[("to", vec![1])])
}

/// `v` cast to `dt`.
fn cast(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, dt: DataType) -> Result<Value, OnnxError> {
    sub(
        c,
        n,
        ew::cast,
        "Cast",
        vec![v.clone()],
        &[("to", vec![i64::from(dt.code())])],
    )
}

/// `[B, T, H*D]` (float32) -> `[T, B, H, D]`.
fn heads(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, h: u64) -> Result<Value, OnnxError> {
    let s = v
        .static_shape()
        .filter(|s| s.len() == 3)
        .ok_or_else(|| n.err("query, key, value, decay and beta must be 3-D of static shape"))?;
    if h == 0 || s[2] % h != 0 {
        return Err(n.err(format!("last dimension {} is not a multiple of {h}", s[2])));
    }
    let f = to_f32(c, n, v)?;
    let r = c
        .reshape(&f, &[s[0], s[1], h, s[2] / h])
        .map_err(|e| n.err(e))?;
    c.transpose(&r, &[1, 0, 2, 3]).map_err(|e| n.err(e))
}

fn reshape(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, s: &[u64]) -> Result<Value, OnnxError> {
    c.reshape(v, s).map_err(|e| n.err(e))
}

fn bin(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    f: super::OpFn,
    op: &str,
    a: &Value,
    b: &Value,
) -> Result<Value, OnnxError> {
    sub(c, n, f, op, vec![a.clone(), b.clone()], &[])
}

/// `LinearAttention(query, key, value, past_state?, decay?, beta?)`.
pub fn linear_attention(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (q, k, v) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let hq = u64::try_from(n.int("q_num_heads", 0)).unwrap_or(0);
    let hkv = u64::try_from(n.int("kv_num_heads", 0)).unwrap_or(0);
    if hq == 0 || hkv == 0 || hq % hkv != 0 {
        return Err(n.err(format!(
            "q_num_heads {hq} must be a positive multiple of kv_num_heads {hkv}"
        )));
    }
    let rule = n.string("update_rule", "gated_delta");
    let (gated, delta) = match rule.as_str() {
        "linear" => (false, false),
        "gated" => (true, false),
        "delta" => (false, true),
        "gated_delta" => (true, true),
        r => return Err(n.err(format!("update_rule {r:?} is not supported"))),
    };
    if !q.dtype.is_float() {
        return Err(n.err(format!(
            "LinearAttention of {} is not supported",
            q.dtype.name()
        )));
    }
    let qs = q.static_shape().unwrap_or_default();
    let vs = v.static_shape().unwrap_or_default();
    if qs.len() != 3 || vs.len() != 3 {
        return Err(n.err("query and value must be 3-D of static shape"));
    }
    let (b, t) = (qs[0], qs[1] as usize);
    let (dk, dv) = (qs[2] / hq, vs[2] / hkv);
    let q4 = heads(c, n, q, hq)?;
    let k4 = heads(c, n, k, hkv)?;
    let v4 = heads(c, n, v, hkv)?;
    let decay = match (gated, n.opt_input(4)) {
        (true, Some(d)) => Some(heads(c, n, d, hkv)?),
        (true, None) => return Err(n.err(format!("update_rule {rule} needs decay"))),
        (false, _) => None,
    };
    // beta: [B, T, H_kv or 1] -> [T, B, H_kv or 1, 1].
    let beta = match (delta, n.opt_input(5)) {
        (true, Some(x)) => {
            let s = x
                .static_shape()
                .filter(|s| s.len() == 3)
                .ok_or_else(|| n.err("beta must be 3-D of static shape"))?;
            let f = to_f32(c, n, x)?;
            let r = reshape(c, n, &f, &[s[0], s[1], s[2], 1])?;
            Some(c.transpose(&r, &[1, 0, 2, 3]).map_err(|e| n.err(e))?)
        }
        (true, None) => return Err(n.err(format!("update_rule {rule} needs beta"))),
        (false, _) => None,
    };
    let state_shape = [b, hkv, dk, dv];
    let mut state = match n.opt_input(3) {
        Some(p) => to_f32(c, n, p)?,
        None => {
            let z = c.full(&state_shape, DataType::Float, ScalarBits::Float(0.0));
            c.tensor(
                z,
                DataType::Float,
                state_shape.iter().map(|&d| Dim::Static(d)).collect(),
            )
        }
    };
    // 0 (the default) means 1/sqrt(d_k).
    let scale = match n.float("scale", 0.0) {
        0.0 => (dk as f32).sqrt().recip(),
        s => s,
    };
    let scale = Value::constant(HostTensor::from_floats(
        DataType::Float,
        &[],
        &[f64::from(scale)],
    ));
    let group = hq / hkv;
    let mut outs = Vec::with_capacity(t);
    for i in 0..t {
        let kt = take(c, n, &k4, 0, i)?;
        let kcol = reshape(c, n, &kt, &[b, hkv, dk, 1])?;
        let s = match &decay {
            Some(d) => {
                let g = take(c, n, d, 0, i)?;
                let e = sub(c, n, ew::exp, "Exp", vec![g.clone()], &[])?;
                let gs = g.static_shape().unwrap_or_default();
                let eu = reshape(c, n, &e, &[gs[0], gs[1], gs[2], 1])?;
                bin(c, n, ew::mul, "Mul", &state, &eu)?
            }
            None => state.clone(),
        };
        let vt = take(c, n, &v4, 0, i)?;
        let write = match &beta {
            Some(be) => {
                let st = c.transpose(&s, &[0, 1, 3, 2]).map_err(|e| n.err(e))?;
                let r = bin(c, n, matmul::matmul, "MatMul", &st, &kcol)?;
                let r = reshape(c, n, &r, &[b, hkv, dv])?;
                let diff = bin(c, n, ew::sub, "Sub", &vt, &r)?;
                let bt = take(c, n, be, 0, i)?;
                bin(c, n, ew::mul, "Mul", &bt, &diff)?
            }
            None => vt,
        };
        let row = reshape(c, n, &write, &[b, hkv, 1, dv])?;
        let outer = bin(c, n, matmul::matmul, "MatMul", &kcol, &row)?;
        state = bin(c, n, ew::add, "Add", &s, &outer)?;
        let read = if group == 1 {
            state.clone()
        } else {
            let u = reshape(c, n, &state, &[b, hkv, 1, dk, dv])?;
            let to = Value::constant(HostTensor::from_ints(
                DataType::Int64,
                &[5],
                &[b, hkv, group, dk, dv].map(|d| d as i64),
            ));
            let x = sub(c, n, shape::expand, "Expand", vec![u, to], &[])?;
            reshape(c, n, &x, &[b, hq, dk, dv])?
        };
        let qt = take(c, n, &q4, 0, i)?;
        let qrow = reshape(c, n, &qt, &[b, hq, 1, dk])?;
        let o = bin(c, n, matmul::matmul, "MatMul", &qrow, &read)?;
        let o = reshape(c, n, &o, &[b, hq, dv])?;
        outs.push(bin(c, n, ew::mul, "Mul", &scale, &o)?);
    }
    let all = stack(c, n, &outs, 0)?;
    let all = c.transpose(&all, &[1, 0, 2, 3]).map_err(|e| n.err(e))?;
    let all = reshape(c, n, &all, &[b, t as u64, hq * dv])?;
    let output = cast(c, n, &all, q.dtype)?;
    let like = n.opt_input(3).map_or(q.dtype, |p| p.dtype);
    let present = cast(c, n, &state, like)?;
    Ok(vec![output, present])
}
