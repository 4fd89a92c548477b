//! Writing along an axis at indices: [`scatter`] and [`scatter_add`]
//! (PyTorch's `scatter` and `scatter_add` with a `src` tensor).
//!
//! Row reductions over the result's elements and the indexed axis of
//! `index` (element-wise generics the compiler fuses into them): each
//! result element starts as `x`'s and takes the last, or adds every,
//! `src` element whose index points at it. No kernel writes at a
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
use super::text::{class, compute, dims_ty, dyn_ty, identity, map, map_elements, shape_error};
use super::text::{Class, Dim, Func, Operand};

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
        // Over (x's dims, r), r along index's axis: element-wise generics
        // the compiler fuses into row reductions over r (see `sort`).
        let mut ext = dims.clone();
        ext.push(f.dim(&ia, &i_ty, axis));
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
        let hit = |f: &mut Func, iv: &str| {
            let k = f.let_(&format!("linalg.index {axis} : index"));
            let ki = f.let_(&format!("arith.index_cast {k} : index to {ielem}"));
            f.let_(&format!("arith.cmpi eq, {iv}, {ki} : {ielem}"))
        };
        let out = if add {
            // x + the sum of the src elements that hit (zeros elsewhere:
            // -0.0 for floats, which leaves every sum exact).
            let zero = if cls == Class::Float { "-0.0" } else { "0" };
            let c_ty = dims_ty(&ext, elem);
            let c0 = f.empty_dims(&ext, elem, None);
            let contrib = f.generic(
                &[
                    operand(&ia, &i_ty, ielem, &map(rank + 1, &other)),
                    operand(&sa, &x_ty, dtype.name(), &map(rank + 1, &other)),
                ],
                &operand(&c0, &c_ty, elem, &all),
                &par,
                |f, args| {
                    let h = hit(f, &args[0]);
                    let w = f.widen(&args[1], dtype);
                    let z = f.constant(zero, elem);
                    f.let_(&format!("arith.select {h}, {w}, {z} : {elem}"))
                },
            );
            let acc = map_elements(&mut f, &xa, &dims, dtype.name(), elem, |f, v| {
                f.widen(v, dtype)
            });
            let a_ty = dims_ty(&dims, elem);
            let op = if cls == Class::Float {
                "arith.addf"
            } else {
                "arith.addi"
            };
            let y = f.generic(
                &[operand(&contrib, &c_ty, elem, &all)],
                &operand(&acc, &a_ty, elem, &map(rank + 1, &lead)),
                &red,
                |f, args| f.let_(&format!("{op} {}, {} : {elem}", args[1], args[0])),
            );
            map_elements(&mut f, &y, &dims, elem, dtype.name(), |f, v| {
                f.narrow(v, dtype)
            })
        } else {
            // The last r that hits each element (-1: none), then the src
            // element there, or x's.
            let l_ty = dims_ty(&ext, "i64");
            let l0 = f.empty_dims(&ext, "i64", None);
            let hits = f.generic(
                &[operand(&ia, &i_ty, ielem, &map(rank + 1, &other))],
                &operand(&l0, &l_ty, "i64", &all),
                &par,
                |f, args| {
                    let h = hit(f, &args[0]);
                    let r = f.let_(&format!("linalg.index {rank} : index"));
                    let ri = f.let_(&format!("arith.index_cast {r} : index to i64"));
                    let none = f.constant("-1", "i64");
                    f.let_(&format!("arith.select {h}, {ri}, {none} : i64"))
                },
            );
            let d_ty = dims_ty(&dims, "i64");
            let last0 = f.empty_dims(&dims, "i64", Some("-1"));
            let last = f.generic(
                &[operand(&hits, &l_ty, "i64", &all)],
                &operand(&last0, &d_ty, "i64", &map(rank + 1, &lead)),
                &red,
                |f, args| f.let_(&format!("arith.maxsi {}, {} : i64", args[1], args[0])),
            );
            let e = dtype.name();
            let o_ty = dims_ty(&dims, e);
            let o0 = f.empty_dims(&dims, e, None);
            f.generic(
                &[
                    operand(&xa, &x_ty, e, &identity(rank)),
                    operand(&last, &d_ty, "i64", &identity(rank)),
                ],
                &operand(&o0, &o_ty, e, &identity(rank)),
                &vec!["parallel"; rank],
                |f, args| {
                    let zero = f.constant("0", "i64");
                    let has = f.let_(&format!("arith.cmpi sge, {}, {zero} : i64", args[1]));
                    let r = f.let_(&format!("arith.select {has}, {}, {zero} : i64", args[1]));
                    let r = f.let_(&format!("arith.index_cast {r} : i64 to index"));
                    let at: Vec<String> = (0..rank)
                        .map(|d| {
                            if d == axis {
                                r.clone()
                            } else {
                                f.let_(&format!("linalg.index {d} : index"))
                            }
                        })
                        .collect();
                    let v = f.let_(&format!("tensor.extract {sa}[{}] : {x_ty}", at.join(", ")));
                    f.let_(&format!("arith.select {has}, {v}, {} : {e}", args[0]))
                },
            )
        };
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
