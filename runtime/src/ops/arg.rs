//! Arg-reductions: [`argmax`] and [`argmin`] along an axis, as one
//! `linalg.generic` with two outputs (the running extremum and its index)
//! and a reduction iterator; every size is dynamic.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::text::{
    compute, dims_ty, dyn_ty, f32_lit, identity, map, numeric_along, shape_error, Class, Dim, Func,
};

/// The index (`i64`) of the largest (`greatest`) or smallest element of
/// `x` along `axis`; the first such index on ties; NaNs are never taken
/// (a row of NaNs gives 0).
fn arg(
    stream: &Stream,
    x: &Tensor,
    axis: usize,
    keep_dims: bool,
    greatest: bool,
) -> Result<Tensor> {
    let what = if greatest {
        "ops::argmax"
    } else {
        "ops::argmin"
    };
    let dtype = x.dtype();
    let cls = numeric_along(what, x, axis)?;
    let shape = x.shape();
    let rank = shape.len();
    if shape[axis] == 0 {
        return Err(shape_error(
            what,
            format!("reduces an empty axis {axis} of {shape:?}"),
        ));
    }
    let kept: Vec<usize> = (0..rank).filter(|&d| d != axis).collect();
    let out: Vec<usize> = kept.iter().map(|&d| shape[d]).collect();
    let final_shape: Vec<usize> = if keep_dims {
        (0..rank)
            .map(|d| if d == axis { 1 } else { shape[d] })
            .collect()
    } else {
        out.clone()
    };
    if x.numel() == 0 {
        return Tensor::zeros(&x.device(), DType::I64, &final_shape);
    }
    let elem = compute(dtype);
    let text = || {
        let mut f = Func::new(super::elementwise::fname(what));
        let ty = dyn_ty(rank, dtype.name());
        let a = f.arg(&ty);
        let dims: Vec<Dim> = kept.iter().map(|&d| f.dim(&a, &ty, d)).collect();
        let init = match (cls, greatest) {
            (Class::Float, true) => f32_lit(f32::NEG_INFINITY),
            (Class::Float, false) => f32_lit(f32::INFINITY),
            _ => super::reduce::int_bound(dtype, !greatest),
        };
        let vals = f.empty_dims(&dims, elem, Some(&init));
        let idxs = f.empty_dims(&dims, "i64", Some("0"));
        let (v_ty, i_ty) = (dims_ty(&dims, elem), dims_ty(&dims, "i64"));
        let iters: Vec<String> = (0..rank)
            .map(|d| {
                if d == axis {
                    "\"reduction\""
                } else {
                    "\"parallel\""
                }
                .to_owned()
            })
            .collect();
        let res = f.fresh();
        f.line(&format!(
            "{res}:2 = linalg.generic {{indexing_maps = [{}, {}, {}], iterator_types = [{}]}} ins({a} : {ty}) outs({vals}, {idxs} : {v_ty}, {i_ty}) {{",
            identity(rank),
            map(rank, &kept),
            map(rank, &kept),
            iters.join(", ")
        ));
        let (v, m, i) = (f.fresh(), f.fresh(), f.fresh());
        f.line(&format!(
            "^bb0({v}: {}, {m}: {elem}, {i}: i64):",
            dtype.name()
        ));
        let w = f.widen(&v, dtype);
        let k = f.let_(&format!("linalg.index {axis} : index"));
        let ki = f.let_(&format!("arith.index_cast {k} : index to i64"));
        let pred = match (cls, greatest) {
            (Class::Float, true) => "arith.cmpf ogt",
            (Class::Float, false) => "arith.cmpf olt",
            (_, true) => "arith.cmpi sgt",
            (_, false) => "arith.cmpi slt",
        };
        let p = f.let_(&format!("{pred}, {w}, {m} : {elem}"));
        let nm = f.let_(&format!("arith.select {p}, {w}, {m} : {elem}"));
        let ni = f.let_(&format!("arith.select {p}, {ki}, {i} : i64"));
        f.line(&format!("  linalg.yield {nm}, {ni} : {elem}, i64"));
        f.line(&format!("}} -> ({v_ty}, {i_ty})"));
        Ok(f.finish(&[
            (format!("{res}#0"), v_ty.clone()),
            (format!("{res}#1"), i_ty.clone()),
        ]))
    };
    let mut results = cache::run_keyed(stream, what, &[axis as u64], &[x], text)?;
    let index = match (results.pop(), results.len()) {
        (Some(index), 1) => index,
        _ => {
            return Err(shape_error(
                what,
                "an op program did not return two results",
            ))
        }
    };
    index.reshape(&final_shape)
}

/// The index (`i64`) of the largest element of `x` along `axis` (the first
/// on ties; NaNs never taken); with `keep_dims` the axis stays, of size 1.
pub fn argmax(stream: &Stream, x: &Tensor, axis: usize, keep_dims: bool) -> Result<Tensor> {
    arg(stream, x, axis, keep_dims, true)
}

/// The index (`i64`) of the smallest element of `x` along `axis` (the
/// first on ties; NaNs never taken); with `keep_dims` the axis stays, of
/// size 1.
pub fn argmin(stream: &Stream, x: &Tensor, axis: usize, keep_dims: bool) -> Result<Tensor> {
    arg(stream, x, axis, keep_dims, false)
}
