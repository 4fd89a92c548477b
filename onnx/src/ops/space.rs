//! `DepthToSpace`/`SpaceToDepth` (reshape, transpose, reshape) and
//! `EyeLike` (a generic on the iteration indices).

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, OpKind};
use kiln_core::tensor::{Dim, ElemType};

use super::scalar::{cmp, cst, select, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// The static NCHW shape of `x` and the block size.
fn nchw(n: &Node<'_>, x: &Value) -> Result<([u64; 4], u64), OnnxError> {
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let s: [u64; 4] = s
        .try_into()
        .map_err(|_| n.err("the input must be 4-D (N, C, H, W)"))?;
    let bs = n.int("blocksize", 0);
    if bs <= 0 {
        return Err(n.err(format!("blocksize {bs} must be positive")));
    }
    Ok((s, bs as u64))
}

/// `view(x, a) -> transpose(perm) -> view(b)`.
fn shuffle(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    x: &Value,
    a: &[u64],
    perm: &[usize],
    b: &[u64],
) -> OpResult {
    let v = c.reshape(x, a).map_err(|e| n.err(e))?;
    let t = c.transpose(&v, perm).map_err(|e| n.err(e))?;
    Ok(vec![c.reshape(&t, b).map_err(|e| n.err(e))?])
}

/// `DepthToSpace(blocksize, mode)`: DCR (depth, column, row) or CRD.
pub fn depth_to_space(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let ([b, ch, h, w], bs) = nchw(n, x)?;
    if ch % (bs * bs) != 0 {
        return Err(n.err(format!("{ch} channels are not a multiple of {bs}^2")));
    }
    let c2 = ch / (bs * bs);
    let out = [b, c2, h * bs, w * bs];
    match n.string("mode", "DCR").as_str() {
        "DCR" => shuffle(c, n, x, &[b, bs, bs, c2, h, w], &[0, 3, 4, 1, 5, 2], &out),
        "CRD" => shuffle(c, n, x, &[b, c2, bs, bs, h, w], &[0, 1, 4, 2, 5, 3], &out),
        m => Err(n.err(format!("mode {m:?} is not DCR or CRD"))),
    }
}

/// `SpaceToDepth(blocksize, mode)`: the inverse of `DepthToSpace`.
pub fn space_to_depth(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let ([b, ch, h, w], bs) = nchw(n, x)?;
    if h % bs != 0 || w % bs != 0 {
        return Err(n.err(format!("{h}x{w} is not a multiple of the block {bs}")));
    }
    let view = [b, ch, h / bs, bs, w / bs, bs];
    let out = [b, ch * bs * bs, h / bs, w / bs];
    match n.string("mode", "DCR").as_str() {
        "DCR" => shuffle(c, n, x, &view, &[0, 3, 5, 1, 2, 4], &out),
        "CRD" => shuffle(c, n, x, &view, &[0, 1, 3, 5, 2, 4], &out),
        m => Err(n.err(format!("mode {m:?} is not DCR or CRD"))),
    }
}

/// `EyeLike(dtype, k)`: ones where `column - row == k`, of the input's
/// 2-D shape.
pub fn eye_like(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    if x.rank() != 2 || x.static_shape().is_none() {
        return Err(n.err("EyeLike needs a matrix of static shape"));
    }
    let dt = if n.has("dtype") {
        DataType::from_code(n.int("dtype", 1) as i32, &format!("node {}", n.name()))?
    } else {
        x.dtype
    };
    let k = n.int("k", 0);
    let shape: Vec<u64> = x.static_shape().unwrap_or_default();
    let init = c.empty_static(&shape, ElemType::I1);
    let like = Value::computed(
        init,
        DataType::Bool,
        shape.iter().map(|&d| Dim::Static(d)).collect(),
    );
    let y = c
        .elementwise(&[&like], dt, |bb, _| {
            let mut idx = [None, None];
            for (d, slot) in idx.iter_mut().enumerate() {
                let i = bb
                    .push(
                        OpKind::LinalgIndex { dim: d as u32 },
                        vec![],
                        Some(ElemType::Index),
                    )
                    .expect("one result");
                *slot = Some(bb.arith(ArithOp::IndexCast, vec![i], ElemType::I64));
            }
            let (i, j) = (idx[0].expect("set"), idx[1].expect("set"));
            let d = bb.arith(ArithOp::SubI, vec![j, i], ElemType::I64);
            let kk = bb.constant(ScalarBits::Int(k), ElemType::I64);
            let on = cmp(bb, DataType::Int64, Cmp::Eq, d, kk);
            let one = cst(bb, dt, 1.0);
            let zero = cst(bb, dt, 0.0);
            if dt == DataType::Bool {
                return on;
            }
            select(bb, on, one, zero)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}
