//! Writing along an axis at indices: [`scatter`] and [`scatter_add`]
//! (PyTorch's `scatter` and `scatter_add` with a `src` tensor).
//!
//! One `linalg.generic` over the result's elements and the indexed axis
//! of `index`: each result element starts as `x`'s and takes (or adds)
//! every `src` element whose index points at it. No kernel writes at a
//! data-dependent address, so duplicates are defined: [`scatter`] keeps
//! the last (highest position along the axis), [`scatter_add`] sums them
//! all (in position order). The work is the result's size times the
//! number of indices along the axis. Indices out of range are an
//! [`Error::Index`](crate::Error::Index) naming the op, checked on the
//! host where it can read them, else by a gather of them on the device
//! (see `index`). Every size is dynamic.

use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::{fname, single};
use super::index::{check_host_indices, check_indices, gather_as};
use super::text::{class, compute, dims_ty, dyn_ty, map, map_elements, shape_error, Class};
use super::text::{Dim, Func};

/// `x` with `x[.., index[.., i, ..], ..] = src[.., i, ..]` along `axis`
/// (`i` at `axis`; PyTorch's `scatter(x, axis, index, src)`). `index`
/// (`i32` or `i64`) and `src` have one shape, of `x`'s rank and sizes
/// except along `axis`. Of duplicate indices the last wins. Any element
/// type.
pub fn scatter(
    stream: &Stream,
    x: &Tensor,
    axis: usize,
    index: &Tensor,
    src: &Tensor,
) -> Result<Tensor> {
    write_at(stream, "ops::scatter", x, axis, index, src, false)
}

/// `x` with `src[.., i, ..]` added to `x[.., index[.., i, ..], ..]` along
/// `axis` (PyTorch's `scatter_add`; duplicates add up). Shapes as for
/// [`scatter`]. Numbers, not `bool`; f16 and bf16 add in f32 and round
/// once.
pub fn scatter_add(
    stream: &Stream,
    x: &Tensor,
    axis: usize,
    index: &Tensor,
    src: &Tensor,
) -> Result<Tensor> {
    write_at(stream, "ops::scatter_add", x, axis, index, src, true)
}

fn write_at(
    stream: &Stream,
    what: &'static str,
    x: &Tensor,
    axis: usize,
    index: &Tensor,
    src: &Tensor,
    add: bool,
) -> Result<Tensor> {
    let dtype = super::text::same_dtype(what, &[x, src])?;
    let cls = class(what, dtype)?;
    if add && cls == Class::Bool {
        return Err(shape_error(what, "is not defined on bool tensors"));
    }
    check_indices(what, index)?;
    let (sx, si) = (x.shape(), index.shape());
    let rank = sx.len();
    if axis >= rank {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {sx:?}"),
        ));
    }
    let fits = si.len() == rank
        && si
            .iter()
            .zip(sx)
            .enumerate()
            .all(|(d, (&i, &n))| d == axis || i == n);
    if !fits || src.shape() != si {
        return Err(shape_error(
            what,
            format!(
                "index {si:?} and src {:?} must have one shape, x's {sx:?} except along axis {axis}",
                src.shape()
            ),
        ));
    }
    if x.numel() == 0 || index.numel() == 0 {
        return x.contiguous();
    }
    let mut checks = Vec::new();
    if !check_host_indices(what, "index", index, sx[axis])? {
        // The host cannot read the indices now: a gather of them checks
        // them on the device, and the result inherits that check.
        let probe = gather_as(stream, what, x, axis, index)?;
        checks = crate::fault::inherited([&*probe.storage]);
    }
    let elem = compute(dtype);
    let ielem = index.dtype().name();
    let text = || {
        let mut f = Func::new(fname(what));
        let x_ty = dyn_ty(rank, dtype.name());
        let i_ty = dyn_ty(rank, ielem);
        let xa = f.arg(&x_ty);
        let ia = f.arg(&i_ty);
        let sa = f.arg(&x_ty);
        let dims: Vec<Dim> = (0..rank).map(|d| f.dim(&xa, &x_ty, d)).collect();
        let acc = map_elements(&mut f, &xa, &dims, dtype.name(), elem, |f, v| {
            f.widen(v, dtype)
        });
        let a_ty = dims_ty(&dims, elem);
        let lead: Vec<usize> = (0..rank).collect();
        let other: Vec<usize> = (0..rank)
            .map(|d| if d == axis { rank } else { d })
            .collect();
        let mut iters = vec!["\"parallel\""; rank];
        iters.push("\"reduction\"");
        let y = f.fresh();
        f.line(&format!(
            "{y} = linalg.generic {{indexing_maps = [{}, {}, {}], iterator_types = [{}]}} ins({ia}, {sa} : {i_ty}, {x_ty}) outs({acc} : {a_ty}) {{",
            map(rank + 1, &other),
            map(rank + 1, &other),
            map(rank + 1, &lead),
            iters.join(", ")
        ));
        let (iv, sv, av) = (f.fresh(), f.fresh(), f.fresh());
        f.line(&format!(
            "^bb0({iv}: {ielem}, {sv}: {}, {av}: {elem}):",
            dtype.name()
        ));
        let k = f.let_(&format!("linalg.index {axis} : index"));
        let ki = f.let_(&format!("arith.index_cast {k} : index to {ielem}"));
        let hit = f.let_(&format!("arith.cmpi eq, {iv}, {ki} : {ielem}"));
        let w = f.widen(&sv, dtype);
        let new = if add {
            let op = if cls == Class::Float {
                "arith.addf"
            } else {
                "arith.addi"
            };
            f.let_(&format!("{op} {av}, {w} : {elem}"))
        } else {
            w
        };
        let r = f.let_(&format!("arith.select {hit}, {new}, {av} : {elem}"));
        f.line(&format!("  linalg.yield {r} : {elem}"));
        f.line(&format!("}} -> {a_ty}"));
        let out = map_elements(&mut f, &y, &dims, elem, dtype.name(), |f, v| {
            f.narrow(v, dtype)
        });
        Ok(f.finish(&[(out, dims_ty(&dims, dtype.name()))]))
    };
    let out = single(cache::run_keyed(
        stream,
        what,
        &[axis as u64],
        &[x, index, src],
        text,
    )?)?;
    crate::fault::attach(std::slice::from_ref(&out), &checks);
    Ok(out)
}
