//! `TopK` (K known at import time) by ranking: one `linalg.generic`
//! counts, for each element, the elements that come before it (larger, or
//! smaller with `largest=0`; equal ones by lower index, as ONNX orders
//! them), then one per output picks, for each output position `m`, the
//! element of rank `m` and its index. Quadratic in the axis length, which
//! suits the sizes ONNX's tests and small-vocabulary heads use.

use kiln_core::tensor::attr::{IteratorType, ScalarBits};
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::{AffineExpr, AffineMap, Dim, ElemType};

use super::gather::loop_index;
use super::scalar::{cmp, select, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::value::Value;

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

/// `TopK(X, K; axis, largest, sorted)` -> `(Values, Indices)`.
pub fn top_k(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let r = s.len();
    let axis = n.axis(n.int("axis", -1), r)?;
    let k = if n.opset < 10 {
        n.int("k", 1)
    } else {
        n.known(1)?.int(0)
    };
    if k < 0 || k as u64 > s[axis] {
        return Err(n.err(format!("K = {k} for an axis of {}", s[axis])));
    }
    let k = k as u64;
    let largest = n.int("largest", 1) != 0;
    let dt = x.dtype;
    let src = c.ssa(x);
    let i64t = ElemType::Int(64);
    // rank[.., j, ..] = #{ k : x_k before x_j }, loop r is k.
    let nl = r as u32 + 1;
    let at_j = AffineMap::identity(r as u32).results;
    let at_k: Vec<AffineExpr> = (0..r)
        .map(|d| AffineExpr::Dim(if d == axis { r as u32 } else { d as u32 }))
        .collect();
    let mut iters = vec![IteratorType::Parallel; r];
    iters.push(IteratorType::Reduction);
    let zero = c.full(&s, DataType::Int64, ScalarBits::Int(0));
    let rank = c.b.generic(
        vec![
            AffineMap::new(nl, 0, at_j.clone()),
            AffineMap::new(nl, 0, at_k.clone()),
            AffineMap::new(nl, 0, at_j.clone()),
        ],
        iters.clone(),
        &[src, src],
        &[zero],
        |bb, a| {
            let (xj, xk, acc) = (a[0], a[1], a[2]);
            let better = cmp(bb, dt, if largest { Cmp::Gt } else { Cmp::Lt }, xk, xj);
            let same = cmp(bb, dt, Cmp::Eq, xk, xj);
            let j = loop_index(bb, axis);
            let kk = loop_index(bb, r);
            let lower = bb.arith(
                ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Ult),
                vec![kk, j],
                ElemType::Int(1),
            );
            let tie = bb.arith(ArithOp::AndI, vec![same, lower], ElemType::Int(1));
            let before = bb.arith(ArithOp::OrI, vec![better, tie], ElemType::Int(1));
            let one = bb.constant(ScalarBits::Int(1), i64t);
            let inc = bb.arith(ArithOp::AddI, vec![acc, one], i64t);
            vec![select(bb, before, inc, acc)]
        },
    )[0];
    // out[.., m, ..] = x[.., j, ..] where rank[.., j, ..] == m; loop r is j.
    let mut os = s.clone();
    os[axis] = k;
    let pick = |c: &mut Ctx<'_>, values: bool| {
        let (odt, init) = if values {
            let z = if dt.is_float() {
                ScalarBits::Float(0.0)
            } else {
                ScalarBits::Int(0)
            };
            (dt, z)
        } else {
            (DataType::Int64, ScalarBits::Int(0))
        };
        let acc = c.full(&os, odt, init);
        let out = c.b.generic(
            vec![
                AffineMap::new(nl, 0, at_k.clone()),
                AffineMap::new(nl, 0, at_k.clone()),
                AffineMap::new(nl, 0, at_j.clone()),
            ],
            iters.clone(),
            &[src, rank],
            &[acc],
            |bb, a| {
                let (xv, rk, acc) = (a[0], a[1], a[2]);
                let m = loop_index(bb, axis);
                let mi = bb.arith(ArithOp::IndexCast, vec![m], i64t);
                let hit = bb.arith(
                    ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Eq),
                    vec![rk, mi],
                    ElemType::Int(1),
                );
                let v = if values {
                    xv
                } else {
                    let j = loop_index(bb, r);
                    bb.arith(ArithOp::IndexCast, vec![j], i64t)
                };
                vec![select(bb, hit, v, acc)]
            },
        )[0];
        Value::computed(out, odt, dims(&os))
    };
    let values = pick(c, true);
    let indices = pick(c, false);
    Ok(vec![values, indices])
}

/// `Hardmax(axis)` (opset 13 semantics): 1 at the first largest element
/// along the axis (`ArgMax`), 0 elsewhere.
pub fn hardmax(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let r = s.len();
    let axis = n.axis(n.int("axis", -1), r)?;
    let am = super::attention::sub(
        c,
        n,
        super::more::arg_max,
        "ArgMax",
        vec![x.clone()],
        &[("axis", vec![axis as i64]), ("keepdims", vec![1])],
    )?;
    let av = c.ssa(&am);
    let map = AffineMap::new(
        r as u32,
        0,
        (0..r)
            .map(|d| {
                if d == axis {
                    AffineExpr::Const(0)
                } else {
                    AffineExpr::Dim(d as u32)
                }
            })
            .collect(),
    );
    let dt = x.dtype;
    let v = super::gather::indexed_generic(c, &s, dt, &[(av, map)], |bb, li, ins| {
        let i = bb.arith(ArithOp::IndexCast, vec![li[axis]], ElemType::Int(64));
        let hit = bb.arith(
            ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Eq),
            vec![i, ins[0]],
            ElemType::Int(1),
        );
        let one = super::scalar::cst(bb, dt, 1.0);
        let zero = super::scalar::cst(bb, dt, 0.0);
        select(bb, hit, one, zero)
    });
    Ok(vec![v])
}
