//! Index ops with indices computed at run time: `Gather`, `GatherElements`,
//! `GatherND`. Each is one `linalg.generic` over the output whose body
//! reads the indices, wraps negative ones and `tensor.extract`s the data
//! element (kiln checks such in-body indices on the device and reports an
//! out-of-range one as a fault). Gather with indices known at import time
//! stays in [`super::shape::gather`] (slices the folder can see through).

use kiln_core::tensor::attr::{IteratorType, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, OpKind, TensorOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{AffineExpr, AffineMap, Dim, ElemType, TValue};

use super::scalar::{cmp, select, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

fn static_shape(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("inputs of dynamic shape are not supported by this op yet"))
}

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

/// `linalg.index d` as an index value.
pub fn loop_index(bb: &mut BodyBuilder<'_>, d: usize) -> TValue {
    bb.push(
        OpKind::LinalgIndex { dim: d as u32 },
        vec![],
        Some(ElemType::Index),
    )
    .expect("one result")
}

/// An index constant.
pub fn index_const(bb: &mut BodyBuilder<'_>, v: i64) -> TValue {
    bb.constant(ScalarBits::Int(v), ElemType::Index)
}

/// `tensor.extract t[idx...]` of element type `elem`.
pub fn extract(bb: &mut BodyBuilder<'_>, t: TValue, idx: &[TValue], elem: ElemType) -> TValue {
    let mut ops = vec![t];
    ops.extend_from_slice(idx);
    bb.push(OpKind::Tensor(TensorOp::Extract), ops, Some(elem))
        .expect("one result")
}

/// An ONNX index scalar `i` (of integer type `dt`) into a dimension of
/// `size`: negative ones wrap once, then cast to `index`.
pub fn wrap_index(bb: &mut BodyBuilder<'_>, dt: DataType, i: TValue, size: u64) -> TValue {
    let e = dt.elem();
    let zero = bb.constant(ScalarBits::Int(0), e);
    let n = bb.constant(ScalarBits::Int(size as i64), e);
    let neg = cmp(bb, dt, Cmp::Lt, i, zero);
    let up = bb.arith(ArithOp::AddI, vec![i, n], e);
    let w = select(bb, neg, up, i);
    bb.arith(ArithOp::IndexCast, vec![w], ElemType::Index)
}

/// A `linalg.generic` over a static output of `out` elements of `dtype`,
/// reading `ins` (each with its indexing map); `f` gets the loop indices
/// and the input scalars and returns the element.
pub fn indexed_generic(
    c: &mut Ctx<'_>,
    out: &[u64],
    dtype: DataType,
    ins: &[(TValue, AffineMap)],
    f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue], &[TValue]) -> TValue,
) -> Value {
    let r = out.len();
    let init = c.empty_static(out, dtype.elem());
    let mut maps: Vec<AffineMap> = ins.iter().map(|(_, m)| m.clone()).collect();
    maps.push(AffineMap::identity(r as u32));
    let operands: Vec<TValue> = ins.iter().map(|(v, _)| *v).collect();
    let k = operands.len();
    let res = c.b.generic(
        maps,
        vec![IteratorType::Parallel; r],
        &operands,
        &[init],
        |bb, args| {
            let idx: Vec<TValue> = (0..r).map(|d| loop_index(bb, d)).collect();
            vec![f(bb, &idx, &args[..k])]
        },
    );
    Value::computed(res[0], dtype, dims(out))
}

fn check_index_type(n: &Node<'_>, v: &Value) -> Result<(), OnnxError> {
    if v.dtype.is_float() || v.dtype == DataType::Bool {
        return Err(n.err("indices must be integers"));
    }
    Ok(())
}

/// `Gather(axis)` with indices computed at run time.
pub fn gather_runtime(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let ind = n.input(1)?;
    check_index_type(n, ind)?;
    let src = static_shape(n, a)?;
    let is = static_shape(n, ind)?;
    let r = src.len();
    let axis = n.axis(n.int("axis", 0), r)?;
    let mut out: Vec<u64> = src[..axis].to_vec();
    out.extend(&is);
    out.extend(&src[axis + 1..]);
    let data = c.ssa(a);
    let iv = c.ssa(ind);
    let map = AffineMap::new(
        out.len() as u32,
        0,
        (0..is.len())
            .map(|k| AffineExpr::Dim((axis + k) as u32))
            .collect(),
    );
    let (it, size, elem, q) = (ind.dtype, src[axis], a.dtype.elem(), is.len());
    let v = indexed_generic(c, &out, a.dtype, &[(iv, map)], |bb, li, ins| {
        let k = wrap_index(bb, it, ins[0], size);
        let mut at: Vec<TValue> = li[..axis].to_vec();
        at.push(k);
        at.extend_from_slice(&li[axis + q..]);
        extract(bb, data, &at, elem)
    });
    Ok(vec![v])
}

/// `GatherElements(axis)`: `out[i] = data[i with i[axis] = indices[i]]`.
pub fn gather_elements(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let ind = n.input(1)?;
    check_index_type(n, ind)?;
    let src = static_shape(n, a)?;
    let is = static_shape(n, ind)?;
    let r = src.len();
    if is.len() != r {
        return Err(n.err(format!("indices of rank {} for data of rank {r}", is.len())));
    }
    let axis = n.axis(n.int("axis", 0), r)?;
    let data = c.ssa(a);
    let iv = c.ssa(ind);
    let (it, size, elem) = (ind.dtype, src[axis], a.dtype.elem());
    let map = AffineMap::identity(r as u32);
    let v = indexed_generic(c, &is, a.dtype, &[(iv, map)], |bb, li, ins| {
        let k = wrap_index(bb, it, ins[0], size);
        let mut at = li.to_vec();
        at[axis] = k;
        extract(bb, data, &at, elem)
    });
    Ok(vec![v])
}

/// `GatherND(batch_dims)`: the last dim of `indices` indexes the leading
/// dims of `data` after the batch dims.
pub fn gather_nd(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let ind = n.input(1)?;
    check_index_type(n, ind)?;
    let src = static_shape(n, a)?;
    let is = static_shape(n, ind)?;
    let b = n.int("batch_dims", 0).max(0) as usize;
    let q = is.len();
    let last = *is.last().ok_or_else(|| n.err("indices of rank 0"))? as usize;
    if q < 1 || b >= q || b + last > src.len() {
        return Err(n.err(format!(
            "indices {is:?} with batch_dims {b} do not fit data {src:?}"
        )));
    }
    let mut out: Vec<u64> = is[..q - 1].to_vec();
    out.extend(&src[b + last..]);
    let data = c.ssa(a);
    let iv = c.ssa(ind);
    let (it, elem, ie) = (ind.dtype, a.dtype.elem(), ind.dtype.elem());
    let v = indexed_generic(c, &out, a.dtype, &[], |bb, li, _| {
        let mut at: Vec<TValue> = li[..b].to_vec();
        for k in 0..last {
            let mut ii: Vec<TValue> = li[..q - 1].to_vec();
            ii.push(index_const(bb, k as i64));
            let raw = extract(bb, iv, &ii, ie);
            at.push(wrap_index(bb, it, raw, src[b + k]));
        }
        at.extend_from_slice(&li[q - 1..]);
        extract(bb, data, &at, elem)
    });
    Ok(vec![v])
}

/// `CumSum(x, axis; exclusive, reverse)`: a `linalg.generic` with one
/// reduction loop `j` over the axis, adding `x[.., j, ..]` where `j` is
/// before (after, when reversed) the output's position.
pub fn cum_sum(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    cumulative(c, n, super::scalar::Bin::Add, 0)
}

/// `CumProd` (opset 26): [`cum_sum`] multiplying.
pub fn cum_prod(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    cumulative(c, n, super::scalar::Bin::Mul, 1)
}

fn cumulative(c: &mut Ctx<'_>, n: &Node<'_>, op: super::scalar::Bin, unit: i64) -> OpResult {
    use kiln_core::tensor::attr::CmpIPred;
    let a = n.input(0)?;
    let s = static_shape(n, a)?;
    let r = s.len();
    let axis = n.axis(n.known(1)?.int(0), r)?;
    let exclusive = n.int("exclusive", 0) != 0;
    let reverse = n.int("reverse", 0) != 0;
    let dt = a.dtype;
    let zero = if dt.is_float() {
        ScalarBits::Float(unit as f64)
    } else {
        ScalarBits::Int(unit)
    };
    let acc = c.full(&s, dt, zero);
    let src = c.ssa(a);
    let xmap = AffineMap::new(
        r as u32 + 1,
        0,
        (0..r)
            .map(|d| AffineExpr::Dim(if d == axis { r as u32 } else { d as u32 }))
            .collect(),
    );
    let omap = AffineMap::new(
        r as u32 + 1,
        0,
        (0..r).map(|d| AffineExpr::Dim(d as u32)).collect(),
    );
    let mut iters = vec![IteratorType::Parallel; r];
    iters.push(IteratorType::Reduction);
    let pred = match (reverse, exclusive) {
        (false, false) => CmpIPred::Ule,
        (false, true) => CmpIPred::Ult,
        (true, false) => CmpIPred::Uge,
        (true, true) => CmpIPred::Ugt,
    };
    let res =
        c.b.generic(vec![xmap, omap], iters, &[src], &[acc], |bb, args| {
            let i = loop_index(bb, axis);
            let j = loop_index(bb, r);
            let take = bb.arith(ArithOp::CmpI(pred), vec![j, i], ElemType::Int(1));
            let sum = super::scalar::arith(bb, dt, op, args[0], args[1]);
            vec![select(bb, take, sum, args[1])]
        });
    Ok(vec![Value::computed(res[0], dt, dims(&s))])
}

/// `OneHot(indices, depth, values; axis)`: `values[1]` where the
/// (wrapped) index is the position along the new axis, else `values[0]`;
/// an index outside `[-depth, depth)` matches nowhere.
pub fn one_hot(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let ind = n.input(0)?;
    let is = static_shape(n, ind)?;
    let depth = n.known(1)?;
    let depth = if depth.dtype.is_float() {
        depth.float(0) as i64
    } else {
        depth.int(0)
    };
    if depth <= 0 {
        return Err(n.err(format!("depth {depth}")));
    }
    let vals = n.input(2)?;
    let r = is.len() + 1;
    let axis = n.axis(n.int("axis", -1), r)?;
    let mut out = is.clone();
    out.insert(axis, depth as u64);
    let map = AffineMap::new(
        r as u32,
        0,
        (0..r)
            .filter(|&d| d != axis)
            .map(|d| AffineExpr::Dim(d as u32))
            .collect(),
    );
    let iv = c.ssa(ind);
    let vv = c.ssa(vals);
    let (it, ve) = (ind.dtype, vals.dtype.elem());
    let i64t = ElemType::Int(64);
    let v = indexed_generic(c, &out, vals.dtype, &[(iv, map)], |bb, li, ins| {
        let i = if it.is_float() {
            bb.arith(ArithOp::FPToSI, vec![ins[0]], i64t)
        } else {
            super::scalar::convert(bb, it, DataType::Int64, ins[0])
        };
        let zero = bb.constant(ScalarBits::Int(0), i64t);
        let d = bb.constant(ScalarBits::Int(depth), i64t);
        let neg = cmp(bb, DataType::Int64, Cmp::Lt, i, zero);
        let up = bb.arith(ArithOp::AddI, vec![i, d], i64t);
        let w = select(bb, neg, up, i);
        let p = bb.arith(ArithOp::IndexCast, vec![li[axis]], i64t);
        let hit = cmp(bb, DataType::Int64, Cmp::Eq, w, p);
        let k0 = index_const(bb, 0);
        let k1 = index_const(bb, 1);
        let off = extract(bb, vv, &[k0], ve);
        let on = extract(bb, vv, &[k1], ve);
        select(bb, hit, on, off)
    });
    Ok(vec![v])
}
