//! `Attention` (opsets 23-24 and the window attributes of later ones),
//! lowered to the ops kiln's strategies know whole: `MatMul` (batched
//! matmul), `Softmax` (`linalg.softmax`), elementwise generics for the
//! scale, softcap and additive bias, and `tensor.concat` for the KV cache.
//! Follows ONNX's reference (`onnx/reference/ops/op_attention.py`): 3-D
//! inputs split into heads, `sqrt(scale)` on both Q and K, grouped-query
//! heads interleave-repeated, masks padded to the KV length with `-inf`
//! (`false`), causal and window masks offset by the past length, rows whose
//! bias is all `-inf` zeroed after the softmax.

use kiln_core::tensor::ops::MathOp;
use kiln_core::tensor::{AffineExpr, AffineMap, TValue};

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, cmp, convert, cst, math, select, Bin, Cmp};
use super::{matmul, reduce, shape, OpFn, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::proto::{AttributeProto, NodeProto};
use crate::value::Value;

/// Runs op function `f` as a node named after `n` with `inputs` and
/// integer-list attributes `ints`; its first output.
pub fn sub(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    f: OpFn,
    op: &str,
    inputs: Vec<Value>,
    ints: &[(&str, Vec<i64>)],
) -> Result<Value, OnnxError> {
    let attribute = ints
        .iter()
        .map(|(name, v)| AttributeProto {
            name: Some((*name).into()),
            ints: v.clone(),
            i: v.first().copied(),
            ..Default::default()
        })
        .collect();
    let proto = NodeProto {
        op_type: Some(op.into()),
        name: Some(format!("{} ({op})", n.name())),
        output: vec!["y".into()],
        attribute,
        ..Default::default()
    };
    let node = Node {
        proto: &proto,
        inputs: inputs.into_iter().map(Some).collect(),
        opset: n.opset.max(13),
    };
    f(c, &node)?
        .into_iter()
        .next()
        .ok_or_else(|| n.err(format!("{op} gave no result")))
}

fn shape_of(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("inputs of dynamic shape are not supported by Attention yet"))
}

/// `[B, S, H*D]` -> `[B, H, S, D]`.
fn split_heads(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, heads: u64) -> Result<Value, OnnxError> {
    let s = shape_of(n, v)?;
    if heads == 0 || s[2] % heads != 0 {
        return Err(n.err(format!(
            "hidden size {} is not a multiple of {heads} heads",
            s[2]
        )));
    }
    let r = c
        .reshape(v, &[s[0], s[1], heads, s[2] / heads])
        .map_err(|e| n.err(e))?;
    c.transpose(&r, &[0, 2, 1, 3]).map_err(|e| n.err(e))
}

/// `[B, Hkv, S, D]` -> `[B, Hkv*reps, S, D]`, each head repeated `reps`
/// times in place (`h0, h0, h1, h1, ...`).
fn repeat_heads(c: &mut Ctx<'_>, n: &Node<'_>, v: &Value, reps: u64) -> Result<Value, OnnxError> {
    let s = shape_of(n, v)?;
    let src = c.ssa(v);
    let map = AffineMap::new(
        5,
        0,
        [0, 1, 3, 4].iter().map(|&d| AffineExpr::Dim(d)).collect(),
    );
    let big = indexed_generic(
        c,
        &[s[0], s[1], reps, s[2], s[3]],
        v.dtype,
        &[(src, map)],
        |_, _, ins| ins[0],
    );
    c.reshape(&big, &[s[0], s[1] * reps, s[2], s[3]])
        .map_err(|e| n.err(e))
}

/// The mask as an additive bias of type `dt` (`false` -> `-inf`), its last
/// dim padded to `kv` with `-inf`.
fn mask_bias(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    m: &Value,
    dt: DataType,
    kv: u64,
) -> Result<Value, OnnxError> {
    let ms = shape_of(n, m)?;
    let last = *ms.last().ok_or_else(|| n.err("attn_mask of rank 0"))?;
    if last > kv {
        return Err(n.err(format!("attn_mask is {last} wide, the keys {kv}")));
    }
    let mut out = ms.clone();
    *out.last_mut().expect("rank >= 1") = kv;
    let r = out.len();
    let src = c.ssa(m);
    let (mt, me) = (m.dtype, m.dtype.elem());
    Ok(indexed_generic(c, &out, dt, &[], |bb, li, _| {
        let mut at = li.to_vec();
        let lim = index_const(bb, last as i64);
        let inside = bb.arith(
            kiln_core::tensor::ops::ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Ult),
            vec![li[r - 1], lim],
            kiln_core::tensor::ElemType::Int(1),
        );
        let zero = index_const(bb, 0);
        at[r - 1] = select(bb, inside, li[r - 1], zero);
        let e = extract(bb, src, &at, me);
        let ninf = cst(bb, dt, f64::NEG_INFINITY);
        let v = if mt == DataType::Bool {
            let z = cst(bb, dt, 0.0);
            select(bb, e, z, ninf)
        } else {
            convert(bb, mt, dt, e)
        };
        select(bb, inside, v, ninf)
    }))
}

/// The causal/window bias `[q, kv]`: 0 where query `i` may see key `j`
/// (`j <= i + offset` when causal; within the window), else `-inf`.
fn position_bias(
    c: &mut Ctx<'_>,
    dt: DataType,
    q: u64,
    kv: u64,
    offset: i64,
    causal: bool,
    window: (i64, i64),
) -> Value {
    position_bias_of(c, dt, q, kv, Offset::Fixed(offset), causal, window)
}

/// Where a query's position counts from: a fixed offset (the past
/// length), or per batch from `nonpad_kv_seqlen` (`lens[b] - q`, the
/// external cache; keys at or past `lens[b]` are padding, masked too).
enum Offset {
    Fixed(i64),
    PerBatch { lens: Value, batch: u64 },
}

/// [`position_bias`] with `offset`: `[q, kv]` for a fixed offset,
/// `[batch, 1, q, kv]` per batch.
fn position_bias_of(
    c: &mut Ctx<'_>,
    dt: DataType,
    q: u64,
    kv: u64,
    offset: Offset,
    causal: bool,
    window: (i64, i64),
) -> Value {
    let (out, ins, lens_dt) = match &offset {
        Offset::Fixed(_) => (vec![q, kv], vec![], DataType::Int64),
        Offset::PerBatch { lens, batch } => {
            let t = c.ssa(lens);
            let map = AffineMap::new(4, 0, vec![AffineExpr::Dim(0)]);
            (vec![*batch, 1, q, kv], vec![(t, map)], lens.dtype)
        }
    };
    let fixed = match offset {
        Offset::Fixed(o) => Some(o),
        Offset::PerBatch { .. } => None,
    };
    indexed_generic(c, &out, dt, &ins, |bb, li, args| {
        use kiln_core::tensor::attr::CmpIPred;
        use kiln_core::tensor::ops::ArithOp;
        use kiln_core::tensor::ElemType;
        let i64t = ElemType::Int(64);
        let r = li.len();
        let i = bb.arith(ArithOp::IndexCast, vec![li[r - 2]], i64t);
        let j = bb.arith(ArithOp::IndexCast, vec![li[r - 1]], i64t);
        let i1 = ElemType::Int(1);
        let mut ok = bb.constant(kiln_core::tensor::attr::ScalarBits::Int(1), i1);
        let off = match fixed {
            Some(o) => bb.constant(kiln_core::tensor::attr::ScalarBits::Int(o), i64t),
            None => {
                let len = convert(bb, lens_dt, DataType::Int64, args[0]);
                // Keys at or past the length are padding.
                let inside = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![j, len], i1);
                ok = bb.arith(ArithOp::AndI, vec![ok, inside], i1);
                let qn = bb.constant(kiln_core::tensor::attr::ScalarBits::Int(q as i64), i64t);
                bb.arith(ArithOp::SubI, vec![len, qn], i64t)
            }
        };
        let p = bb.arith(ArithOp::AddI, vec![i, off], i64t);
        // diff = (i + offset) - j
        let diff = bb.arith(ArithOp::SubI, vec![p, j], i64t);
        let zero = bb.constant(kiln_core::tensor::attr::ScalarBits::Int(0), i64t);
        if causal {
            let c0 = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![diff, zero], i1);
            ok = bb.arith(ArithOp::AndI, vec![ok, c0], i1);
        }
        if window.0 >= 0 {
            let l = bb.constant(kiln_core::tensor::attr::ScalarBits::Int(window.0), i64t);
            let c1 = bb.arith(ArithOp::CmpI(CmpIPred::Sle), vec![diff, l], i1);
            ok = bb.arith(ArithOp::AndI, vec![ok, c1], i1);
        }
        if window.1 >= 0 {
            let r = bb.constant(kiln_core::tensor::attr::ScalarBits::Int(-window.1), i64t);
            let c2 = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![diff, r], i1);
            ok = bb.arith(ArithOp::AndI, vec![ok, c2], i1);
        }
        let z = cst(bb, dt, 0.0);
        let ninf = cst(bb, dt, f64::NEG_INFINITY);
        select(bb, ok, z, ninf)
    })
}

fn ew(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    ins: &[&Value],
    dt: DataType,
    f: impl FnOnce(&mut kiln_core::tensor::structured::BodyBuilder<'_>, &[TValue]) -> TValue,
) -> Result<Value, OnnxError> {
    c.elementwise(ins, dt, f).map_err(|e| n.err(e))
}

/// `Attention`.
pub fn attention(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (q, k, v) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let dt = q.dtype;
    if !dt.is_float() {
        return Err(n.err("Attention of integers"));
    }
    let nonpad = n.opt_input(6);
    let (past_k, past_v) = (n.opt_input(4), n.opt_input(5));
    if past_k.is_some() != past_v.is_some() {
        return Err(n.err("past_key and past_value must be given together"));
    }
    if nonpad.is_some() && past_k.is_some() {
        return Err(n.err("nonpad_kv_seqlen cannot be combined with past_key/past_value"));
    }
    let rank = q.rank();
    if rank != k.rank() || rank != v.rank() || !(rank == 3 || rank == 4) {
        return Err(n.err("Q, K and V must all be 3-D or all 4-D"));
    }
    let (q4, k4, v4) = if rank == 3 {
        let qh = n.int("q_num_heads", 0) as u64;
        let kvh = n.int("kv_num_heads", 0) as u64;
        (
            split_heads(c, n, q, qh)?,
            split_heads(c, n, k, kvh)?,
            split_heads(c, n, v, kvh)?,
        )
    } else {
        (q.clone(), k.clone(), v.clone())
    };
    let qs = shape_of(n, &q4)?;
    let (batch, qh, sq, dq) = (qs[0], qs[1], qs[2], qs[3]);
    let (present_k, present_v) = match (past_k, past_v) {
        (Some(pk), Some(pv)) => (
            sub(
                c,
                n,
                shape::concat,
                "Concat",
                vec![pk.clone(), k4],
                &[("axis", vec![2])],
            )?,
            sub(
                c,
                n,
                shape::concat,
                "Concat",
                vec![pv.clone(), v4],
                &[("axis", vec![2])],
            )?,
        ),
        _ => (k4, v4),
    };
    let ks = shape_of(n, &present_k)?;
    let (kvh, kv) = (ks[1], ks[2]);
    let past_len = match past_k {
        Some(p) => shape_of(n, p)?[2] as i64,
        None => 0,
    };
    let scale = if n.has("scale") {
        f64::from(n.float("scale", 1.0))
    } else {
        1.0 / (dq as f64).sqrt()
    };
    let s = scale.sqrt();
    let (mut kk, mut vv) = (present_k.clone(), present_v.clone());
    if qh != kvh && kvh > 0 && qh % kvh == 0 {
        kk = repeat_heads(c, n, &kk, qh / kvh)?;
        vv = repeat_heads(c, n, &vv, qh / kvh)?;
    }
    let qsc = ew(c, n, &[&q4], dt, |bb, x| {
        let k = cst(bb, dt, s);
        arith(bb, dt, Bin::Mul, x[0], k)
    })?;
    let ksc = ew(c, n, &[&kk], dt, |bb, x| {
        let k = cst(bb, dt, s);
        arith(bb, dt, Bin::Mul, x[0], k)
    })?;
    let kt = c.transpose(&ksc, &[0, 1, 3, 2]).map_err(|e| n.err(e))?;
    let mut scores = sub(c, n, matmul::matmul, "MatMul", vec![qsc, kt], &[])?;
    let softcap = f64::from(n.float("softcap", 0.0));
    if softcap > 0.0 {
        scores = ew(c, n, &[&scores], dt, |bb, x| {
            let cap = cst(bb, dt, softcap);
            let y = arith(bb, dt, Bin::Div, x[0], cap);
            let t = math(bb, MathOp::Tanh, y);
            arith(bb, dt, Bin::Mul, t, cap)
        })?;
    }
    // The additive bias.
    let causal = n.int("is_causal", 0) != 0;
    let window = (
        n.int("left_window_size", -1),
        n.int("right_window_size", -1),
    );
    let mut bias = match n.opt_input(3) {
        Some(m) => Some(mask_bias(c, n, m, dt, kv)?),
        None => None,
    };
    if let Some(lens) = nonpad {
        if lens.static_shape().as_deref() != Some(&[batch][..]) || lens.dtype.is_float() {
            return Err(n.err(format!(
                "nonpad_kv_seqlen must be integers of shape [{batch}]"
            )));
        }
        let offset = Offset::PerBatch {
            lens: lens.clone(),
            batch,
        };
        let p = position_bias_of(c, dt, sq, kv, offset, causal, window);
        bias = Some(match bias {
            Some(b) => ew(c, n, &[&b, &p], dt, |bb, x| {
                arith(bb, dt, Bin::Add, x[0], x[1])
            })?,
            None => p,
        });
    } else if causal || window.0 >= 0 || window.1 >= 0 {
        let p = position_bias(c, dt, sq, kv, past_len, causal, window);
        bias = Some(match bias {
            Some(b) => ew(c, n, &[&b, &p], dt, |bb, x| {
                arith(bb, dt, Bin::Add, x[0], x[1])
            })?,
            None => p,
        });
    }
    let with_bias = match &bias {
        Some(b) => ew(c, n, &[&scores, b], dt, |bb, x| {
            arith(bb, dt, Bin::Add, x[0], x[1])
        })?,
        None => scores.clone(),
    };
    let mode = n.int("qk_matmul_output_mode", 0);
    let sp = if n.has("softmax_precision") {
        DataType::from_code(n.int("softmax_precision", 1) as i32, "softmax_precision")?
    } else {
        dt
    };
    let pre = if sp != dt {
        ew(c, n, &[&with_bias], sp, |bb, x| convert(bb, dt, sp, x[0]))?
    } else {
        with_bias.clone()
    };
    let mut probs = sub(c, n, reduce::softmax, "Softmax", vec![pre], &[])?;
    if let Some(b) = &bias {
        // Rows whose bias is all -inf attend nothing: zero them.
        let br = b.rank();
        let bmax = c
            .reduce(b, &[br - 1], dt, reduce::lowest_of(dt), |bb, x, acc| {
                arith(bb, dt, Bin::Max, x, acc)
            })
            .map_err(|e| n.err(e))?;
        let bmax = c.keep_dims(&bmax, &[br - 1], br).map_err(|e| n.err(e))?;
        probs = ew(c, n, &[&probs, &bmax], sp, |bb, x| {
            let ninf = cst(bb, dt, f64::NEG_INFINITY);
            let all = cmp(bb, dt, Cmp::Eq, x[1], ninf);
            let z = cst(bb, sp, 0.0);
            select(bb, all, z, x[0])
        })?;
    }
    if sp != dt {
        probs = ew(c, n, &[&probs], dt, |bb, x| convert(bb, sp, dt, x[0]))?;
    }
    let qk_out = match mode {
        0 | 1 => scores,
        2 => with_bias,
        3 => probs.clone(),
        m => return Err(n.err(format!("qk_matmul_output_mode {m} is not defined"))),
    };
    let mut y = sub(c, n, matmul::matmul, "MatMul", vec![probs, vv], &[])?;
    if rank == 3 {
        let ys = shape_of(n, &y)?;
        let t = c.transpose(&y, &[0, 2, 1, 3]).map_err(|e| n.err(e))?;
        y = c
            .reshape(&t, &[batch, sq, ys[1] * ys[3]])
            .map_err(|e| n.err(e))?;
    }
    Ok(vec![y, present_k, present_v, qk_out])
}
