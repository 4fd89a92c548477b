//! `RotaryEmbedding` (opset 23) as one `linalg.generic` over the input:
//! each element inside the rotary dims is `cos * x[d] -+ sin * x[partner]`
//! (the partner the other half's element, or the neighbour when
//! interleaved), the caches read at the position id (or at batch and
//! sequence position without ids) by `tensor.extract`; the rest is copied.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, indexed_generic};
use super::scalar::{arith, select, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// `RotaryEmbedding(X, cos_cache, sin_cache[, position_ids])`.
pub fn rotary_embedding(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let (cos, sin) = (n.input(1)?, n.input(2)?);
    let ids = n.opt_input(3);
    let dt = x.dtype;
    let st = |v: &crate::value::Value| {
        v.static_shape()
            .ok_or_else(|| n.err("dynamic shapes are not supported yet"))
    };
    let xs = st(x)?;
    let cs = st(cos)?;
    let (head, four) = match xs.len() {
        4 => (xs[3], true),
        3 => {
            let h = n.int("num_heads", 0) as u64;
            if h == 0 || xs[2] % h != 0 {
                return Err(n.err("3-D input needs num_heads dividing the hidden size"));
            }
            (xs[2] / h, false)
        }
        r => return Err(n.err(format!("input of rank {r}"))),
    };
    let rot = match n.int("rotary_embedding_dim", 0) {
        0 => head,
        d => d as u64,
    };
    let half = rot / 2;
    if rot > head || rot % 2 != 0 || cs.last() != Some(&half) {
        return Err(n.err(format!(
            "rotary dims {rot} for heads of {head} and caches {cs:?}"
        )));
    }
    let inter = n.int("interleaved", 0) != 0;
    let (xv, cv, sv) = (c.ssa(x), c.ssa(cos), c.ssa(sin));
    let iv = ids.map(|v| (c.ssa(v), v.dtype.elem()));
    let ce = dt.elem();
    let v = indexed_generic(c, &xs, dt, &[], |bb, li, _| {
        let ix = ElemType::Index;
        let k = |bb: &mut kiln_core::tensor::structured::BodyBuilder<'_>, v: u64| {
            bb.constant(ScalarBits::Int(v as i64), ix)
        };
        let (b, s, last) = if four {
            (li[0], li[2], li[3])
        } else {
            (li[0], li[1], li[2])
        };
        // d: the position in the head; base: the head's first element.
        let hd = k(bb, head);
        let d = bb.arith(ArithOp::RemUI, vec![last, hd], ix);
        let base = bb.arith(ArithOp::SubI, vec![last, d], ix);
        let rk = k(bb, rot);
        let inrot = bb.arith(
            ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Ult),
            vec![d, rk],
            ElemType::Int(1),
        );
        let zero = k(bb, 0);
        let dr = select(bb, inrot, d, zero);
        // first: the real part (first half, or even element).
        let (first, i, partner) = if inter {
            let two = k(bb, 2);
            let one = k(bb, 1);
            let odd = bb.arith(ArithOp::RemUI, vec![dr, two], ix);
            let first = bb.arith(
                ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Eq),
                vec![odd, zero],
                ElemType::Int(1),
            );
            let i = bb.arith(ArithOp::DivUI, vec![dr, two], ix);
            let up = bb.arith(ArithOp::AddI, vec![dr, one], ix);
            let down = bb.arith(ArithOp::SubI, vec![dr, odd], ix);
            (first, i, select(bb, first, up, down))
        } else {
            let hk = k(bb, half);
            let first = bb.arith(
                ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Ult),
                vec![dr, hk],
                ElemType::Int(1),
            );
            let lo = bb.arith(ArithOp::SubI, vec![dr, hk], ix);
            let i = select(bb, first, dr, lo);
            let up = bb.arith(ArithOp::AddI, vec![dr, hk], ix);
            (first, i, select(bb, first, up, i))
        };
        let at = |bb: &mut kiln_core::tensor::structured::BodyBuilder<'_>, pos: TValue| {
            let mut a = li.to_vec();
            let r = a.len();
            a[r - 1] = if four {
                pos
            } else {
                bb.arith(ArithOp::AddI, vec![base, pos], ix)
            };
            a
        };
        let own = extract(bb, xv, li, ce);
        let pa = at(bb, partner);
        let other = extract(bb, xv, &pa, ce);
        let cidx: Vec<TValue> = match iv {
            Some((ids, ie)) => {
                let p = extract(bb, ids, &[b, s], ie);
                let p = bb.arith(ArithOp::IndexCast, vec![p], ix);
                vec![p, i]
            }
            None => vec![b, s, i],
        };
        let cv_ = extract(bb, cv, &cidx, ce);
        let sv_ = extract(bb, sv, &cidx, ce);
        let a = arith(bb, dt, Bin::Mul, cv_, own);
        let o = arith(bb, dt, Bin::Mul, sv_, other);
        let re = arith(bb, dt, Bin::Sub, a, o);
        let im = arith(bb, dt, Bin::Add, a, o);
        let rotated = select(bb, first, re, im);
        select(bb, inrot, rotated, own)
    });
    Ok(vec![v])
}
