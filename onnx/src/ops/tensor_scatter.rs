//! `TensorScatter` (opset 24): a KV-cache update as one generic over the
//! present cache: along `axis`, position `s` of batch row `b` takes the
//! update's position `s - write_indices[b]` (modulo the cache length in
//! `circular` mode) when that is one of the update's, else the past
//! cache's element.

use kiln_core::tensor::attr::{CmpIPred, ScalarBits};
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::{AffineMap, ElemType};

use super::gather::{extract, indexed_generic};
use super::scalar::select;
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// `TensorScatter(past_cache, update, write_indices?; axis, mode)`.
pub fn tensor_scatter(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (past, upd) = (n.input(0)?, n.input(1)?);
    let ps = past
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let us = upd
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let r = ps.len();
    let axis = n.axis(n.int("axis", -2), r)?;
    if axis == 0 || us.len() != r || (0..r).any(|d| d != axis && us[d] != ps[d]) {
        return Err(n.err(format!(
            "update {us:?} must match past_cache {ps:?} except along axis {axis} (not the batch)"
        )));
    }
    let circular = match n.string("mode", "linear").as_str() {
        "linear" => false,
        "circular" => true,
        m => return Err(n.err(format!("mode {m:?} is not defined"))),
    };
    let (max, seq) = (ps[axis] as i64, us[axis] as i64);
    if seq > max {
        return Err(n.err(format!("an update of {seq} does not fit a cache of {max}")));
    }
    let widx = match n.opt_input(2) {
        Some(w) if w.dtype.is_float() => return Err(n.err("write_indices must be integers")),
        Some(w) => Some((c.ssa(w), w.dtype.elem())),
        None => None,
    };
    let (pv, uv) = (c.ssa(past), c.ssa(upd));
    let dt = past.dtype;
    let elem = dt.elem();
    let y = indexed_generic(
        c,
        &ps,
        dt,
        &[(pv, AffineMap::identity(r as u32))],
        |bb, li, ins| {
            let (i64t, i1) = (ElemType::I64, ElemType::I1);
            let s = bb.arith(ArithOp::IndexCast, vec![li[axis]], i64t);
            let w = match widx {
                Some((w, we)) => {
                    let x = extract(bb, w, &[li[0]], we);
                    if we == i64t {
                        x
                    } else {
                        bb.arith(ArithOp::ExtSI, vec![x], i64t)
                    }
                }
                None => bb.constant(ScalarBits::Int(0), i64t),
            };
            let mut j = bb.arith(ArithOp::SubI, vec![s, w], i64t);
            let m = bb.constant(ScalarBits::Int(max), i64t);
            if circular {
                let r1 = bb.arith(ArithOp::RemSI, vec![j, m], i64t);
                let r2 = bb.arith(ArithOp::AddI, vec![r1, m], i64t);
                j = bb.arith(ArithOp::RemSI, vec![r2, m], i64t);
            }
            let z = bb.constant(ScalarBits::Int(0), i64t);
            let l = bb.constant(ScalarBits::Int(seq), i64t);
            let c1 = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![j, z], i1);
            let c2 = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![j, l], i1);
            let ok = bb.arith(ArithOp::AndI, vec![c1, c2], i1);
            let last = bb.constant(ScalarBits::Int(seq - 1), i64t);
            let jc = bb.arith(ArithOp::MaxSI, vec![j, z], i64t);
            let jc = bb.arith(ArithOp::MinSI, vec![jc, last], i64t);
            let mut at = li.to_vec();
            at[axis] = bb.arith(ArithOp::IndexCast, vec![jc], ElemType::Index);
            let e = extract(bb, uv, &at, elem);
            select(bb, ok, e, ins[0])
        },
    );
    Ok(vec![y])
}
