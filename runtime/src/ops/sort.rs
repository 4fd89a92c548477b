//! Sorting along an axis: [`sort`], [`argsort`] and [`topk`], by rank.
//!
//! The program is an `iree_linalg_ext.sort` of the values and their
//! positions with a comparator, which kiln's importer rewrites into row
//! reductions (`core/src/tensor/parse/linalg_ext.rs`): the first counts,
//! for each element, the elements of its row that sort before it (its
//! rank: `n` comparisons each); the second writes each output position `r`
//! from the element whose rank is `r`. That is `n^2` work per row of `n`
//! (no sorting network padded to a power of two, no data-dependent
//! writes); it suits the rows frameworks sort on a GPU between layers
//! (top-k of logits, a few thousand elements), not sorting millions. The order is stable (ties keep their index order),
//! and NaN sorts above every number (numpy's ascending order; first when
//! descending, like PyTorch's). Every size is dynamic.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::text::{
    dims_ty, dyn_ty, identity, numeric_along, shape_error, Class, Dim, Func, Operand,
};

/// `x` sorted along `axis` (ascending, or descending), and the `i64`
/// index along `axis` each value came from (PyTorch's `sort` with
/// `stable=True`). Numbers, not `bool`.
pub fn sort(
    stream: &Stream,
    x: &Tensor,
    axis: usize,
    descending: bool,
) -> Result<(Tensor, Tensor)> {
    let n = x.shape().get(axis).copied().unwrap_or(0);
    ranked(stream, "ops::sort", x, axis, n, descending)
}

/// The `i64` indices that sort `x` along `axis` (numpy's stable
/// `argsort`, or descending). Numbers, not `bool`.
pub fn argsort(stream: &Stream, x: &Tensor, axis: usize, descending: bool) -> Result<Tensor> {
    let n = x.shape().get(axis).copied().unwrap_or(0);
    Ok(ranked(stream, "ops::argsort", x, axis, n, descending)?.1)
}

/// The `k` largest (or smallest) elements of `x` along `axis`, in order,
/// and their `i64` indices (PyTorch's `topk` with `sorted=True`; among
/// equal elements the lower index first). Numbers, not `bool`.
pub fn topk(
    stream: &Stream,
    x: &Tensor,
    k: usize,
    axis: usize,
    largest: bool,
) -> Result<(Tensor, Tensor)> {
    ranked(stream, "ops::topk", x, axis, k, largest)
}

/// The first `k` along `axis` of `t`, contiguous.
fn first(t: &Tensor, axis: usize, k: usize) -> Result<Tensor> {
    t.narrow(axis, 0, k)?.contiguous()
}

/// The first `k` elements along `axis` of `x` sorted (descending when
/// `descending`) and their indices.
fn ranked(
    stream: &Stream,
    what: &'static str,
    x: &Tensor,
    axis: usize,
    k: usize,
    descending: bool,
) -> Result<(Tensor, Tensor)> {
    let dtype = x.dtype();
    let cls = numeric_along(what, x, axis)?;
    let shape = x.shape();
    let rank = shape.len();
    if k > shape[axis] {
        return Err(shape_error(
            what,
            format!(
                "k = {k} is more than the {} elements along axis {axis}",
                shape[axis]
            ),
        ));
    }
    let mut out_shape = shape.to_vec();
    out_shape[axis] = k;
    if out_shape.contains(&0) {
        let device = x.device();
        return Ok((
            Tensor::empty(&device, dtype, &out_shape)?,
            Tensor::empty(&device, DType::I64, &out_shape)?,
        ));
    }
    let elem = dtype.name();
    let text = || {
        let mut f = Func::new("sort");
        let ty = dyn_ty(rank, elem);
        let a = f.arg(&ty);
        // The direction, an argument: one program sorts both ways.
        let flag = f.arg("tensor<1xi32>");
        let dims: Vec<Dim> = (0..rank).map(|d| f.dim(&a, &ty, d)).collect();
        // The positions along the axis, sorted with the values: their
        // indices.
        let i_ty = dims_ty(&dims, "i64");
        let e = f.empty_dims(&dims, "i64", None);
        let iota = f.generic(
            &[],
            &Operand {
                value: e,
                ty: i_ty.clone(),
                elem: "i64".to_owned(),
                map: identity(rank),
            },
            &vec!["parallel"; rank],
            |f, _| {
                let i = f.let_(&format!("linalg.index {axis} : index"));
                f.let_(&format!("arith.index_cast {i} : index to i64"))
            },
        );
        // IREE's sort op, which kiln's importer rewrites (a stable sort by
        // rank, `core/src/tensor/parse/linalg_ext.rs`); the comparator says
        // whether `p` goes before `q`.
        let res = f.fresh();
        let (p, q, pi, qi) = (f.fresh(), f.fresh(), f.fresh(), f.fresh());
        f.line(&format!(
            "{res}:2 = iree_linalg_ext.sort dimension({axis}) outs({a}, {iota} : {ty}, {i_ty}) {{"
        ));
        f.line(&format!(
            "^bb0({p}: {elem}, {q}: {elem}, {pi}: i64, {qi}: i64):"
        ));
        let c0 = f.constant("0", "index");
        let fv = f.let_(&format!("tensor.extract {flag}[{c0}] : tensor<1xi32>"));
        let z = f.constant("0", "i32");
        let desc = f.let_(&format!("arith.cmpi ne, {fv}, {z} : i32"));
        let before = if cls == Class::Float {
            // p < q (> descending); NaN above every number: last
            // ascending, first descending.
            let lt = f.let_(&format!("arith.cmpf olt, {p}, {q} : {elem}"));
            let gt = f.let_(&format!("arith.cmpf ogt, {p}, {q} : {elem}"));
            let less = f.let_(&format!("arith.select {desc}, {gt}, {lt} : i1"));
            let nan_p = f.let_(&format!("arith.cmpf uno, {p}, {p} : {elem}"));
            let nan_q = f.let_(&format!("arith.cmpf uno, {q}, {q} : {elem}"));
            let t = f.constant("true", "i1");
            let num_p = f.let_(&format!("arith.xori {nan_p}, {t} : i1"));
            let num_q = f.let_(&format!("arith.xori {nan_q}, {t} : i1"));
            let num_first = f.let_(&format!("arith.andi {num_p}, {nan_q} : i1"));
            let nan_first = f.let_(&format!("arith.andi {nan_p}, {num_q} : i1"));
            let by_nan = f.let_(&format!(
                "arith.select {desc}, {nan_first}, {num_first} : i1"
            ));
            f.let_(&format!("arith.ori {less}, {by_nan} : i1"))
        } else {
            let lt = f.let_(&format!("arith.cmpi slt, {p}, {q} : {elem}"));
            let gt = f.let_(&format!("arith.cmpi sgt, {p}, {q} : {elem}"));
            f.let_(&format!("arith.select {desc}, {gt}, {lt} : i1"))
        };
        f.line(&format!("  iree_linalg_ext.yield {before} : i1"));
        f.line(&format!("}} -> {ty}, {i_ty}"));
        Ok(f.finish(&[(format!("{res}#0"), ty.clone()), (format!("{res}#1"), i_ty)]))
    };
    let params = [axis as u64];
    let flag = Tensor::from_slice(&x.device(), &[i32::from(descending)], &[1])?;
    // One program (values and indices) sorts the whole axis for sort,
    // argsort and topk (which takes its first k): a sort program takes
    // lavapipe seconds to compile.
    let mut results = cache::run_keyed(stream, "ops::sort", &params, &[x, &flag], text)?;
    match (results.pop(), results.pop(), results.is_empty()) {
        (Some(indices), Some(values), true) if k == shape[axis] => Ok((values, indices)),
        (Some(indices), Some(values), true) => {
            Ok((first(&values, axis, k)?, first(&indices, axis, k)?))
        }
        _ => Err(shape_error(
            what,
            "an op program did not return two results",
        )),
    }
}
