//! Sorting along an axis: [`sort`], [`argsort`] and [`topk`], by rank.
//!
//! Two row reductions: the first counts, for each element, the elements
//! of its row that sort before it (its rank: `n` comparisons each); the
//! second writes each output position `r` from the element whose rank is
//! `r`. Each is written as an element-wise generic over (row, i, j) that
//! the compiler fuses into a reduction over j (nothing of size `n^2` is
//! stored). That is `n^2` work per row of `n` in two simple kernels (no sorting network padded to a power
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
use super::text::{
    dims_ty, dyn_ty, identity, map, numeric_along, shape_error, Class, Dim, Func, Operand,
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
        // Over (x's dims, j), j along the axis: element-wise generics
        // that the compiler fuses into row reductions over j (reading x
        // at two maps in one reduction would make it tile the reduction
        // like a matmul: kernels LLVM takes seconds to compile).
        let mut ext = dims.clone();
        ext.push(dims[axis].clone());
        let lead: Vec<usize> = (0..rank).collect();
        let other: Vec<usize> = (0..rank)
            .map(|d| if d == axis { rank } else { d })
            .collect();
        let all = identity(rank + 1);
        let operand = |value: &str, ty: &str, elem: &str, m: &str| Operand {
            value: value.to_owned(),
            ty: ty.to_owned(),
            elem: elem.to_owned(),
            map: m.to_owned(),
        };
        let par = vec!["parallel"; rank + 1];
        let mut red = vec!["parallel"; rank];
        red.push("reduction");
        let e_ty = dims_ty(&ext, "i64");
        // 1. before[.., i, .., j] = x[.., j, ..] sorts before x[.., i, ..].
        let e0 = f.empty_dims(&ext, "i64", None);
        let before = f.generic(
            &[
                operand(&a, &ty, elem, &map(rank + 1, &lead)),
                operand(&a, &ty, elem, &map(rank + 1, &other)),
            ],
            &operand(&e0, &e_ty, "i64", &all),
            &par,
            |f, args| {
                let (xi, xj) = (&args[0], &args[1]);
                let i = f.let_(&format!("linalg.index {axis} : index"));
                let j = f.let_(&format!("linalg.index {rank} : index"));
                let earlier = f.let_(&format!("arith.cmpi ult, {j}, {i} : index"));
                let c0 = f.constant("0", "index");
                let fv = f.let_(&format!("tensor.extract {flag}[{c0}] : tensor<1xi32>"));
                let z = f.constant("0", "i32");
                let desc = f.let_(&format!("arith.cmpi ne, {fv}, {z} : i32"));
                let b = if cls == Class::Float {
                    // xj < xi (> descending), NaN above numbers.
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
                f.let_(&format!("arith.extui {b} : i1 to i64"))
            },
        );
        // 2. rank[.., i, ..] = the number of j before it.
        let r_ty = dims_ty(&dims, "i64");
        let ranks0 = f.empty_dims(&dims, "i64", Some("0"));
        let ranks = f.generic(
            &[operand(&before, &e_ty, "i64", &all)],
            &operand(&ranks0, &r_ty, "i64", &map(rank + 1, &lead)),
            &red,
            |f, args| f.let_(&format!("arith.addi {}, {} : i64", args[1], args[0])),
        );
        // 3. Position r takes the element (and index) j of rank r: sums of
        // one hit and zeros (-0.0 for floats, so that every value, -0.0
        // and NaN included, comes through exactly).
        let zero = if cls == Class::Float { "-0.0" } else { "0" };
        let v_ty = dims_ty(&dims, elem);
        let x_ty = dims_ty(&ext, elem);
        let ev = f.empty_dims(&ext, elem, None);
        let picked = f.generic(
            &[
                operand(&ranks, &r_ty, "i64", &map(rank + 1, &other)),
                operand(&a, &ty, elem, &map(rank + 1, &other)),
            ],
            &operand(&ev, &x_ty, elem, &all),
            &par,
            |f, args| {
                let r = f.let_(&format!("linalg.index {axis} : index"));
                let ri = f.let_(&format!("arith.index_cast {r} : index to i64"));
                let hit = f.let_(&format!("arith.cmpi eq, {}, {ri} : i64", args[0]));
                let z = f.constant(zero, elem);
                f.let_(&format!("arith.select {hit}, {}, {z} : {elem}", args[1]))
            },
        );
        let ei = f.empty_dims(&ext, "i64", None);
        let picked_i = f.generic(
            &[operand(&ranks, &r_ty, "i64", &map(rank + 1, &other))],
            &operand(&ei, &e_ty, "i64", &all),
            &par,
            |f, args| {
                let r = f.let_(&format!("linalg.index {axis} : index"));
                let ri = f.let_(&format!("arith.index_cast {r} : index to i64"));
                let hit = f.let_(&format!("arith.cmpi eq, {}, {ri} : i64", args[0]));
                let j = f.let_(&format!("linalg.index {rank} : index"));
                let ji = f.let_(&format!("arith.index_cast {j} : index to i64"));
                let z = f.constant("0", "i64");
                f.let_(&format!("arith.select {hit}, {ji}, {z} : i64"))
            },
        );
        let vals0 = f.empty_dims(&dims, elem, Some(zero));
        let idx0 = f.empty_dims(&dims, "i64", Some("0"));
        let i_ty = r_ty.clone();
        let res = f.fresh();
        let iters: Vec<String> = red.iter().map(|i| format!("\"{i}\"")).collect();
        f.line(&format!(
            "{res}:2 = linalg.generic {{indexing_maps = [{all}, {all}, {}, {}], iterator_types = [{}]}} ins({picked}, {picked_i} : {x_ty}, {e_ty}) outs({vals0}, {idx0} : {v_ty}, {i_ty}) {{",
            map(rank + 1, &lead),
            map(rank + 1, &lead),
            iters.join(", ")
        ));
        let (pv, pi, vacc, iacc) = (f.fresh(), f.fresh(), f.fresh(), f.fresh());
        f.line(&format!(
            "^bb0({pv}: {elem}, {pi}: i64, {vacc}: {elem}, {iacc}: i64):"
        ));
        let add = if cls == Class::Float {
            "arith.addf"
        } else {
            "arith.addi"
        };
        let v = f.let_(&format!("{add} {vacc}, {pv} : {elem}"));
        let ix = f.let_(&format!("arith.addi {iacc}, {pi} : i64"));
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
