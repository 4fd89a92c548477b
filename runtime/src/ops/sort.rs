//! Sorting along an axis: [`sort`], [`argsort`] and [`topk`], by rank.
//!
//! Two `linalg.generic`s: the first counts, for each element, the
//! elements of its row that sort before it (its rank: `n` comparisons
//! each); the second writes each output position `r` from the element
//! whose rank is `r` (a reduction over the row). That is `n^2` work per
//! row of `n` in two simple kernels (no sorting network padded to a power
//! of two, no data-dependent writes); it suits the rows frameworks sort
//! on a GPU between layers (top-k of logits, a few thousand elements), not
//! sorting millions. The order is stable (ties keep their index order),
//! and NaN sorts above every number (numpy's ascending order; first when
//! descending, like PyTorch's). Every size is dynamic.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::text::{class, dims_ty, dyn_ty, map, shape_error, Class, Dim, Func};

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
    let cls = class(what, dtype)?;
    if cls == Class::Bool {
        return Err(shape_error(what, "is not defined on bool tensors"));
    }
    let shape = x.shape();
    let rank = shape.len();
    if axis >= rank {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {shape:?}"),
        ));
    }
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
        // Ranks: over (x's dims, j), count x[.., j, ..] sorting before x.
        let ranks0 = f.empty_dims(&dims, "i64", Some("0"));
        let r_ty = dims_ty(&dims, "i64");
        let lead: Vec<usize> = (0..rank).collect();
        let other: Vec<usize> = (0..rank)
            .map(|d| if d == axis { rank } else { d })
            .collect();
        let mut iters = vec!["\"parallel\""; rank];
        iters.push("\"reduction\"");
        let ranks = f.fresh();
        f.line(&format!(
            "{ranks} = linalg.generic {{indexing_maps = [{}, {}, {}], iterator_types = [{}]}} ins({a}, {a} : {ty}, {ty}) outs({ranks0} : {r_ty}) {{",
            map(rank + 1, &lead),
            map(rank + 1, &other),
            map(rank + 1, &lead),
            iters.join(", ")
        ));
        let (xi, xj, acc) = (f.fresh(), f.fresh(), f.fresh());
        f.line(&format!("^bb0({xi}: {elem}, {xj}: {elem}, {acc}: i64):"));
        let i = f.let_(&format!("linalg.index {axis} : index"));
        let j = f.let_(&format!("linalg.index {rank} : index"));
        let earlier = f.let_(&format!("arith.cmpi ult, {j}, {i} : index"));
        let c0 = f.constant("0", "index");
        let fv = f.let_(&format!("tensor.extract {flag}[{c0}] : tensor<1xi32>"));
        let z = f.constant("0", "i32");
        let desc = f.let_(&format!("arith.cmpi ne, {fv}, {z} : i32"));
        let before = if cls == Class::Float {
            // (xj, xi) ordered: xj < xi (> descending), NaN above numbers.
            let lt = f.let_(&format!("arith.cmpf olt, {xj}, {xi} : {elem}"));
            let gt = f.let_(&format!("arith.cmpf ogt, {xj}, {xi} : {elem}"));
            let less = f.let_(&format!("arith.select {desc}, {gt}, {lt} : i1"));
            let nan_i = f.let_(&format!("arith.cmpf uno, {xi}, {xi} : {elem}"));
            let nan_j = f.let_(&format!("arith.cmpf uno, {xj}, {xj} : {elem}"));
            let t = f.constant("true", "i1");
            let num_j = f.let_(&format!("arith.xori {nan_j}, {t} : i1"));
            let num_i = f.let_(&format!("arith.xori {nan_i}, {t} : i1"));
            let nan_j_first = f.let_(&format!("arith.andi {nan_j}, {num_i} : i1"));
            let nan_i_first = f.let_(&format!("arith.andi {nan_i}, {num_j} : i1"));
            let nan_first = f.let_(&format!(
                "arith.select {desc}, {nan_j_first}, {nan_i_first} : i1"
            ));
            let eq = f.let_(&format!("arith.cmpf oeq, {xj}, {xi} : {elem}"));
            let both = f.let_(&format!("arith.andi {nan_i}, {nan_j} : i1"));
            let same = f.let_(&format!("arith.ori {eq}, {both} : i1"));
            let tie = f.let_(&format!("arith.andi {same}, {earlier} : i1"));
            let o = f.let_(&format!("arith.ori {less}, {nan_first} : i1"));
            f.let_(&format!("arith.ori {o}, {tie} : i1"))
        } else {
            let lt = f.let_(&format!("arith.cmpi slt, {xj}, {xi} : {elem}"));
            let gt = f.let_(&format!("arith.cmpi sgt, {xj}, {xi} : {elem}"));
            let less = f.let_(&format!("arith.select {desc}, {gt}, {lt} : i1"));
            let eq = f.let_(&format!("arith.cmpi eq, {xj}, {xi} : {elem}"));
            let tie = f.let_(&format!("arith.andi {eq}, {earlier} : i1"));
            f.let_(&format!("arith.ori {less}, {tie} : i1"))
        };
        let one = f.let_(&format!("arith.extui {before} : i1 to i64"));
        let sum = f.let_(&format!("arith.addi {acc}, {one} : i64"));
        f.line(&format!("  linalg.yield {sum} : i64"));
        f.line(&format!("}} -> {r_ty}"));
        // Output position r takes the element of rank r.
        let out_dims: Vec<Dim> = dims.clone();
        let zero = if cls == Class::Float { "0.0" } else { "0" };
        let vals0 = f.empty_dims(&out_dims, elem, Some(zero));
        let idx0 = f.empty_dims(&out_dims, "i64", Some("0"));
        let (v_ty, i_ty) = (dims_ty(&out_dims, elem), dims_ty(&out_dims, "i64"));
        let res = f.fresh();
        f.line(&format!(
            "{res}:2 = linalg.generic {{indexing_maps = [{}, {}, {}, {}], iterator_types = [{}]}} ins({ranks}, {a} : {r_ty}, {ty}) outs({vals0}, {idx0} : {v_ty}, {i_ty}) {{",
            map(rank + 1, &other),
            map(rank + 1, &other),
            map(rank + 1, &lead),
            map(rank + 1, &lead),
            iters.join(", ")
        ));
        let (rk, xv, vacc, iacc) = (f.fresh(), f.fresh(), f.fresh(), f.fresh());
        f.line(&format!(
            "^bb0({rk}: i64, {xv}: {elem}, {vacc}: {elem}, {iacc}: i64):"
        ));
        let r = f.let_(&format!("linalg.index {axis} : index"));
        let ri = f.let_(&format!("arith.index_cast {r} : index to i64"));
        let src = f.let_(&format!("linalg.index {rank} : index"));
        let si = f.let_(&format!("arith.index_cast {src} : index to i64"));
        let hit = f.let_(&format!("arith.cmpi eq, {rk}, {ri} : i64"));
        let v = f.let_(&format!("arith.select {hit}, {xv}, {vacc} : {elem}"));
        let ix = f.let_(&format!("arith.select {hit}, {si}, {iacc} : i64"));
        f.line(&format!("  linalg.yield {v}, {ix} : {elem}, i64"));
        f.line(&format!("}} -> ({v_ty}, {i_ty})"));
        Ok(f.finish(&[(format!("{res}#0"), v_ty), (format!("{res}#1"), i_ty)]))
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
