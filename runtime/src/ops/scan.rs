//! Inclusive scans along an axis: [`cumsum`] and [`cumprod`].
//!
//! A scan is `ceil(log2(n))` element-wise steps (Hillis and Steele): step
//! `k` combines each element with the one `2^k` before it along the axis
//! (`y[i] = x[i] + x[i - 2^k]` where `i >= 2^k`). That is `n log n` work in
//! a few small kernels, each compiled quickly, where a reduction over the
//! prefix of every element (`n^2` work in one kernel) took lavapipe
//! 20–40 s to compile. The program is keyed by the number of steps, so
//! every length up to the same power of two shares it; every size is
//! dynamic. f16 and bf16 are combined in f32 and rounded once at the end;
//! integers wrap. The combination order is the scan's, not left to right:
//! float results may differ from a sequential sum in the last bits.

use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::{fname, single};
use super::text::{compute, dims_ty, dyn_ty, identity, map_elements, numeric_along, Class};
use super::text::{Dim, Func, Operand};

/// The inclusive sum of `x` along `axis` (numpy's `cumsum`; the result
/// has `x`'s shape and element type). Numbers, not `bool`.
pub fn cumsum(stream: &Stream, x: &Tensor, axis: usize) -> Result<Tensor> {
    scan(stream, "ops::cumsum", x, axis, false)
}

/// The inclusive product of `x` along `axis` (numpy's `cumprod`).
/// Numbers, not `bool`.
pub fn cumprod(stream: &Stream, x: &Tensor, axis: usize) -> Result<Tensor> {
    scan(stream, "ops::cumprod", x, axis, true)
}

fn scan(
    stream: &Stream,
    what: &'static str,
    x: &Tensor,
    axis: usize,
    product: bool,
) -> Result<Tensor> {
    let dtype = x.dtype();
    let cls = numeric_along(what, x, axis)?;
    let shape = x.shape();
    let rank = shape.len();
    let n = shape[axis];
    if x.numel() == 0 || n == 1 {
        return x.contiguous();
    }
    let steps = usize::BITS - (n - 1).leading_zeros();
    let elem = compute(dtype);
    let combine = match (cls, product) {
        (Class::Float, false) => "arith.addf",
        (Class::Float, true) => "arith.mulf",
        (_, false) => "arith.addi",
        (_, true) => "arith.muli",
    };
    let text = || {
        let mut f = Func::new(fname(what));
        let ty = dyn_ty(rank, dtype.name());
        let a = f.arg(&ty);
        let dims: Vec<Dim> = (0..rank).map(|d| f.dim(&a, &ty, d)).collect();
        let c_ty = dims_ty(&dims, elem);
        let mut cur = if elem == dtype.name() {
            a
        } else {
            map_elements(&mut f, &a, &dims, dtype.name(), elem, |f, v| {
                f.widen(v, dtype)
            })
        };
        for k in 0..steps {
            let shift = 1usize << k;
            let init = f.empty_dims(&dims, elem, None);
            let prev = cur.clone();
            cur = f.generic(
                &[Operand {
                    value: prev.clone(),
                    ty: c_ty.clone(),
                    elem: elem.to_owned(),
                    map: identity(rank),
                }],
                &Operand {
                    value: init,
                    ty: c_ty.clone(),
                    elem: elem.to_owned(),
                    map: identity(rank),
                },
                &vec!["parallel"; rank],
                |f, args| {
                    let idx: Vec<String> = (0..rank)
                        .map(|d| f.let_(&format!("linalg.index {d} : index")))
                        .collect();
                    let s = f.constant(&shift.to_string(), "index");
                    let zero = f.constant("0", "index");
                    let has = f.let_(&format!("arith.cmpi uge, {}, {s} : index", idx[axis]));
                    let back = f.let_(&format!("arith.subi {}, {s} : index", idx[axis]));
                    let j = f.let_(&format!("arith.select {has}, {back}, {zero} : index"));
                    let at: Vec<&str> = (0..rank)
                        .map(|d| {
                            if d == axis {
                                j.as_str()
                            } else {
                                idx[d].as_str()
                            }
                        })
                        .collect();
                    let w = f.let_(&format!(
                        "tensor.extract {prev}[{}] : {c_ty}",
                        at.join(", ")
                    ));
                    let c = f.let_(&format!("{combine} {}, {w} : {elem}", args[0]));
                    f.let_(&format!("arith.select {has}, {c}, {} : {elem}", args[0]))
                },
            );
        }
        let y = if elem == dtype.name() {
            cur
        } else {
            map_elements(&mut f, &cur, &dims, elem, dtype.name(), |f, v| {
                f.narrow(v, dtype)
            })
        };
        Ok(f.finish(&[(y, dims_ty(&dims, dtype.name()))]))
    };
    single(cache::run_keyed(
        stream,
        what,
        &[axis as u64, u64::from(steps)],
        &[x],
        text,
    )?)
}
