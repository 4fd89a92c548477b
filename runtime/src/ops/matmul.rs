//! Matrix products: `linalg.matmul` and `linalg.batch_matmul`. f16 and
//! bf16 operands are accumulated in f32 (the named ops extend their inputs
//! to the accumulator's type) and the result rounded once; integers
//! accumulate in their own type (wrapping).

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{
    class, class_ty, compute, dims_ty, map_elements, same_dtype, shape_error, Class, Dim, Func,
};

/// The program `out = op(a, b)` for a named contraction `op`: `a` of
/// `a_dims`, `b` of `b_dims` (`None`: dynamic), the result's dimensions
/// each a size or `(operand, axis)` that gives it at run time.
fn contraction(
    name: &'static str,
    op: &str,
    dtype: DType,
    a_dims: &[Option<usize>],
    b_dims: &[Option<usize>],
    c_dims: &[Result<usize, (usize, usize)>],
) -> String {
    let mut f = Func::new(name);
    let elem = dtype.name();
    let acc = compute(dtype);
    let (a_ty, b_ty) = (class_ty(a_dims, elem), class_ty(b_dims, elem));
    let a = f.arg(&a_ty);
    let b = f.arg(&b_ty);
    let dims: Vec<Dim> = c_dims
        .iter()
        .map(|d| match *d {
            Ok(n) => Dim::Fixed(n),
            Err((0, axis)) => f.dim(&a, &a_ty, axis),
            Err((_, axis)) => f.dim(&b, &b_ty, axis),
        })
        .collect();
    let zero = if acc == "f32" { "0.0" } else { "0" };
    let init = f.empty_dims(&dims, acc, Some(zero));
    let acc_ty = dims_ty(&dims, acc);
    let c = f.let_(&format!(
        "{op} ins({a}, {b} : {a_ty}, {b_ty}) outs({init} : {acc_ty}) -> {acc_ty}"
    ));
    let c = if acc == elem {
        c
    } else {
        map_elements(&mut f, &c, &dims, acc, elem, |f, v| f.narrow(v, dtype))
    };
    f.finish(&[(c, dims_ty(&dims, elem))])
}

fn check_dtype(what: &'static str, a: &Tensor, b: &Tensor) -> Result<DType> {
    let dtype = same_dtype(what, &[a, b])?;
    if class(what, dtype)? == Class::Bool {
        return Err(shape_error(what, "is not defined on i1 tensors"));
    }
    Ok(dtype)
}

/// The matrix product of `a` (`[.., M, K]`: leading dimensions are
/// flattened into rows) and `b` (`[K, N]`): `[.., M, N]`.
pub fn matmul(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = "ops::matmul";
    let dtype = check_dtype(what, a, b)?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa.is_empty() || sb.len() != 2 {
        return Err(shape_error(
            what,
            format!("takes a [.., M, K] and a [K, N] tensor, got shapes {sa:?} and {sb:?}"),
        ));
    }
    let k = sa[sa.len() - 1];
    let m: usize = sa[..sa.len() - 1].iter().product();
    let (kb, n) = (sb[0], sb[1]);
    if k != kb {
        return Err(shape_error(
            what,
            format!("inner dimensions differ: {sa:?} x {sb:?} ({k} vs {kb})"),
        ));
    }
    let mut out_shape = sa[..sa.len() - 1].to_vec();
    out_shape.push(n);
    if m == 0 || n == 0 || k == 0 {
        // An empty sum is zero.
        return Tensor::zeros(&a.device(), dtype, &out_shape);
    }
    let a2 = a.contiguous()?.reshape(&[m, k])?;
    // The shape class: any number of rows (a batch), K and N fixed (the
    // kernels are specialized for the weights' shape).
    let text = || {
        Ok(contraction(
            "matmul",
            "linalg.matmul",
            dtype,
            &[None, Some(k)],
            &[Some(k), Some(n)],
            &[Err((0, 0)), Ok(n)],
        ))
    };
    let key = [k as u64, n as u64];
    single(cache::run_keyed(stream, what, &key, &[&a2, b], text)?)?.reshape(&out_shape)
}

/// Batched matrix products: `a` `[B, M, K]` times `b` `[B, K, N]` is
/// `[B, M, N]`.
pub fn batch_matmul(stream: &Stream, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let what = "ops::batch_matmul";
    let dtype = check_dtype(what, a, b)?;
    let (sa, sb) = (a.shape(), b.shape());
    if sa.len() != 3 || sb.len() != 3 || sa[0] != sb[0] || sa[2] != sb[1] {
        return Err(shape_error(
            what,
            format!("takes [B, M, K] and [B, K, N] tensors, got shapes {sa:?} and {sb:?}"),
        ));
    }
    let c_shape = [sa[0], sa[1], sb[2]];
    if sa.contains(&0) || sb.contains(&0) {
        return Tensor::zeros(&a.device(), dtype, &c_shape);
    }
    // The shape class: any batch and number of rows, K and N fixed.
    let (k, n) = (sa[2], sb[2]);
    let text = || {
        Ok(contraction(
            "batch_matmul",
            "linalg.batch_matmul",
            dtype,
            &[None, None, Some(k)],
            &[None, Some(k), Some(n)],
            &[Err((0, 0)), Err((0, 1)), Ok(n)],
        ))
    };
    let key = [k as u64, n as u64];
    single(cache::run_keyed(stream, what, &key, &[a, b], text)?)
}
