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
    class, compute, fixed, map_elements, same_dtype, shape_error, tensor_ty, Class, Func,
};

/// The program `out = op(a, b)` for a named contraction `op` with
/// operands of `a_shape`, `b_shape` and result `c_shape`.
fn contraction(
    name: &'static str,
    op: &str,
    dtype: DType,
    a_shape: &[usize],
    b_shape: &[usize],
    c_shape: &[usize],
) -> String {
    let mut f = Func::new(name);
    let elem = dtype.name();
    let acc = compute(dtype);
    let a = f.arg(&tensor_ty(a_shape, elem));
    let b = f.arg(&tensor_ty(b_shape, elem));
    let zero = if acc == "f32" { "0.0" } else { "0" };
    let init = f.empty(c_shape, acc, Some(zero));
    let acc_ty = tensor_ty(c_shape, acc);
    let c = f.let_(&format!(
        "{op} ins({a}, {b} : {}, {}) outs({init} : {acc_ty}) -> {acc_ty}",
        tensor_ty(a_shape, elem),
        tensor_ty(b_shape, elem)
    ));
    let c = if acc == elem {
        c
    } else {
        map_elements(&mut f, &c, &fixed(c_shape), acc, elem, |f, v| {
            f.narrow(v, dtype)
        })
    };
    f.finish(&[(c, tensor_ty(c_shape, elem))])
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
    let text = contraction("matmul", "linalg.matmul", dtype, &[m, k], &[k, n], &[m, n]);
    single(cache::run(stream, what, text, &[&a2, b])?)?.reshape(&out_shape)
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
    let text = contraction(
        "batch_matmul",
        "linalg.batch_matmul",
        dtype,
        sa,
        sb,
        &c_shape,
    );
    single(cache::run(stream, what, text, &[a, b])?)
}
