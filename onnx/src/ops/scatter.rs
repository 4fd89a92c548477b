//! `ScatterElements` (and opset 9-10's `Scatter`) and `ScatterND` as one
//! `linalg.generic` each: its parallel loops walk the output, its
//! reduction loops every update; an update whose (wrapped) index names
//! the output element replaces it, or combines with it (`add`, `mul`,
//! `max`, `min`). The output starts as the data. Updates apply in order,
//! so with `reduction=none` the last of duplicates wins, as in ONNX's
//! reference. Quadratic (outputs x updates): sized for the small scatters
//! of index bookkeeping, not for large tensors. An index outside
//! `[-size, size)` of the dim it indexes is an error, as ONNX defines it
//! and onnxruntime refuses it: before the scatter, one reduction over
//! every index and a `cf.assert` on it fail the call on every backend,
//! naming the node (`check_indices`).

use kiln_core::tensor::attr::{CmpIPred, IteratorType, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, OpKind, TensorOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{AffineExpr, AffineMap, Dim, ElemType, TValue};

use super::gather::{extract, index_const, loop_index, wrap_index};
use super::scalar::{arith, cmp, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

fn combine(
    n: &Node<'_>,
    dt: DataType,
) -> Result<impl Fn(&mut BodyBuilder<'_>, TValue, TValue) -> TValue, OnnxError> {
    let op = match n.string("reduction", "none").as_str() {
        "none" => None,
        "add" => Some(Bin::Add),
        "mul" => Some(Bin::Mul),
        "max" => Some(Bin::Max),
        "min" => Some(Bin::Min),
        r => return Err(n.err(format!("reduction {r:?} is not defined"))),
    };
    Ok(
        move |bb: &mut BodyBuilder<'_>, old: TValue, upd: TValue| match op {
            None => upd,
            Some(b) => arith(bb, dt, b, old, upd),
        },
    )
}

fn eq(bb: &mut BodyBuilder<'_>, a: TValue, b: TValue, all: TValue) -> TValue {
    let e = bb.arith(ArithOp::CmpI(CmpIPred::Eq), vec![a, b], ElemType::Int(1));
    bb.arith(ArithOp::AndI, vec![all, e], ElemType::Int(1))
}

fn shapes(n: &Node<'_>, vs: &[&Value]) -> Result<Vec<Vec<u64>>, OnnxError> {
    vs.iter()
        .map(|v| {
            v.static_shape()
                .ok_or_else(|| n.err("dynamic shapes are not supported yet"))
        })
        .collect()
}

/// ONNX's rule for the scatters: an index outside `[-size, size)` of the
/// dim it indexes is an error. `sizes[j]` bounds the indices whose last
/// coordinate is `j` (ScatterND's index tuples), or all of them where it
/// has one entry (ScatterElements' axis). Appends, before the scatter, a
/// reduction over every index (1 while all are in range) and a
/// `cf.assert` on it that names the node, so every backend fails the call
/// the same way.
fn check_indices(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    ind: &Value,
    sizes: &[u64],
) -> Result<(), OnnxError> {
    let shape = ind
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let rank = shape.len() as u32;
    let it = ind.dtype;
    let iv = c.ssa(ind);
    let init = c.full(&[], DataType::Int32, ScalarBits::Int(1));
    let ok = c.b.generic(
        vec![AffineMap::identity(rank), AffineMap::new(rank, 0, vec![])],
        vec![IteratorType::Reduction; rank as usize],
        &[iv],
        &[init],
        |bb, a| {
            let e = it.elem();
            let bound = |bb: &mut BodyBuilder<'_>, neg: bool| {
                let value = |s: u64| if neg { -(s as i64) } else { s as i64 };
                let last = sizes.len() - 1;
                let mut b = bb.constant(ScalarBits::Int(value(sizes[last])), e);
                if sizes.len() > 1 {
                    let col = loop_index(bb, rank as usize - 1);
                    for (j, &size) in sizes.iter().enumerate().take(last).rev() {
                        let here_j = index_const(bb, j as i64);
                        let here = bb.arith(
                            ArithOp::CmpI(CmpIPred::Eq),
                            vec![col, here_j],
                            ElemType::Int(1),
                        );
                        let v = bb.constant(ScalarBits::Int(value(size)), e);
                        b = select(bb, here, v, b);
                    }
                }
                b
            };
            let (lo, hi) = (bound(bb, true), bound(bb, false));
            let ge = cmp(bb, it, Cmp::Ge, a[0], lo);
            let lt = cmp(bb, it, Cmp::Lt, a[0], hi);
            let inside = bb.arith(ArithOp::AndI, vec![ge, lt], ElemType::Int(1));
            let no = bb.constant(ScalarBits::Int(0), ElemType::I32);
            vec![select(bb, inside, a[1], no)]
        },
    );
    let i32_scalar = c.b.module().types.scalar(ElemType::I32);
    let all = c.b.tensor_op(TensorOp::Extract, &[ok[0]], i32_scalar);
    let zero = c.b.constant_int(0, ElemType::I32);
    let cond = c.b.arith(ArithOp::CmpI(CmpIPred::Ne), &[all, zero]);
    let message = format!(
        "{} node '{}': an index is out of bounds (outside [-size, size) of the dim it indexes)",
        n.op(),
        n.name()
    );
    c.b.op(OpKind::Assert { message }, vec![cond], &[], vec![]);
    Ok(())
}

/// `ScatterElements(data, indices, updates; axis, reduction)`.
pub fn scatter_elements(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (d, ind, upd) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let s = shapes(n, &[d, ind, upd])?;
    let r = s[0].len();
    if s[1] != s[2] || s[1].len() != r {
        return Err(n.err("indices and updates must have the data's rank and one shape"));
    }
    let axis = n.axis(n.int("axis", 0), r)?;
    let dt = d.dtype;
    let f = combine(n, dt)?;
    let (it, size) = (ind.dtype, s[0][axis]);
    check_indices(c, n, ind, &[size])?;
    let nl = 2 * r as u32;
    let first: Vec<AffineExpr> = (0..r).map(|k| AffineExpr::Dim(k as u32)).collect();
    let second: Vec<AffineExpr> = (0..r).map(|k| AffineExpr::Dim((r + k) as u32)).collect();
    let mut iters = vec![IteratorType::Parallel; r];
    iters.extend(vec![IteratorType::Reduction; r]);
    let (dv, iv, uv) = (c.ssa(d), c.ssa(ind), c.ssa(upd));
    let res = c.b.generic(
        vec![
            AffineMap::new(nl, 0, second.clone()),
            AffineMap::new(nl, 0, second),
            AffineMap::new(nl, 0, first),
        ],
        iters,
        &[iv, uv],
        &[dv],
        |bb, a| {
            let (i, u, acc) = (a[0], a[1], a[2]);
            let t = wrap_index(bb, it, i, size);
            let mut hit = bb.constant(
                kiln_core::tensor::attr::ScalarBits::Int(1),
                ElemType::Int(1),
            );
            for k in 0..r {
                let p = loop_index(bb, k);
                let q = if k == axis { t } else { loop_index(bb, r + k) };
                hit = eq(bb, p, q, hit);
            }
            let v = f(bb, acc, u);
            vec![super::scalar::select(bb, hit, v, acc)]
        },
    );
    Ok(vec![Value::computed(
        res[0],
        dt,
        s[0].iter().map(|&x| Dim::Static(x)).collect(),
    )])
}

/// `ScatterND(data, indices, updates; reduction)`.
pub fn scatter_nd(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (d, ind, upd) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let s = shapes(n, &[d, ind, upd])?;
    let (ds, is, us) = (&s[0], &s[1], &s[2]);
    let r = ds.len();
    let m = is
        .len()
        .checked_sub(1)
        .ok_or_else(|| n.err("indices of rank 0"))?;
    let k = is[m] as usize;
    let mut want: Vec<u64> = is[..m].to_vec();
    if k > r {
        return Err(n.err(format!("indices of {k} for data of rank {r}")));
    }
    want.extend(&ds[k..]);
    if *us != want {
        return Err(n.err(format!("updates {us:?}, expected {want:?}")));
    }
    let dt = d.dtype;
    let f = combine(n, dt)?;
    if k > 0 {
        check_indices(c, n, ind, &ds[..k])?;
    }
    let nl = (r + m) as u32;
    let umap: Vec<AffineExpr> = (0..m)
        .map(|j| AffineExpr::Dim((r + j) as u32))
        .chain((k..r).map(|j| AffineExpr::Dim(j as u32)))
        .collect();
    let omap: Vec<AffineExpr> = (0..r).map(|j| AffineExpr::Dim(j as u32)).collect();
    let mut iters = vec![IteratorType::Parallel; r];
    iters.extend(vec![IteratorType::Reduction; m]);
    let (dv, iv, uv) = (c.ssa(d), c.ssa(ind), c.ssa(upd));
    let (it, ie) = (ind.dtype, ind.dtype.elem());
    let dims = ds.clone();
    let res = c.b.generic(
        vec![AffineMap::new(nl, 0, umap), AffineMap::new(nl, 0, omap)],
        iters,
        &[uv],
        &[dv],
        |bb, a| {
            let (u, acc) = (a[0], a[1]);
            let mut hit = bb.constant(
                kiln_core::tensor::attr::ScalarBits::Int(1),
                ElemType::Int(1),
            );
            let prefix: Vec<TValue> = (0..m).map(|j| loop_index(bb, r + j)).collect();
            for (j, &size) in dims.iter().enumerate().take(k) {
                let mut at = prefix.clone();
                at.push(index_const(bb, j as i64));
                let raw = extract(bb, iv, &at, ie);
                let t = wrap_index(bb, it, raw, size);
                let p = loop_index(bb, j);
                hit = eq(bb, p, t, hit);
            }
            let v = f(bb, acc, u);
            vec![super::scalar::select(bb, hit, v, acc)]
        },
    );
    Ok(vec![Value::computed(
        res[0],
        dt,
        ds.iter().map(|&x| Dim::Static(x)).collect(),
    )])
}
