//! Normalizations: softmax along an axis (`linalg.softmax`), layer norm
//! and RMS norm over the last axis (row reductions and one element-wise
//! pass, written as `linalg.generic`s). Floats only; f16 and bf16 are
//! computed in f32.

use crate::dtype::DType;
use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{
    map, map_elements, need_float, same_dtype, shape_error, tensor_ty, Func, Operand,
};

/// `exp(x - max) / sum(exp(x - max))` along `axis`.
pub fn softmax(stream: &Stream, x: &Tensor, axis: usize) -> Result<Tensor> {
    let what = "ops::softmax";
    let dtype = x.dtype();
    need_float(what, dtype)?;
    let shape = x.shape();
    if axis >= shape.len() {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {shape:?}"),
        ));
    }
    if x.numel() == 0 {
        return Tensor::empty(&x.device(), dtype, shape);
    }
    let mut f = Func::new("softmax");
    let a = f.arg(&tensor_ty(shape, dtype.name()));
    let a = if dtype == DType::F32 {
        a
    } else {
        map_elements(&mut f, &a, shape, dtype.name(), "f32", |f, v| {
            f.widen(v, dtype)
        })
    };
    let init = f.empty(shape, "f32", None);
    let ty = tensor_ty(shape, "f32");
    let y = f.let_(&format!(
        "linalg.softmax dimension({axis}) ins({a} : {ty}) outs({init} : {ty}) -> {ty}"
    ));
    let y = if dtype == DType::F32 {
        y
    } else {
        map_elements(&mut f, &y, shape, "f32", dtype.name(), |f, v| {
            f.narrow(v, dtype)
        })
    };
    let text = f.finish(&[(y, tensor_ty(shape, dtype.name()))]);
    single(cache::run(stream, what, text, &[x])?)
}

/// `x` as rows `[R, D]` (D its last dimension), checked with the `[D]`
/// parameters.
fn rows(what: &'static str, x: &Tensor, params: &[&Tensor]) -> Result<(usize, usize, DType)> {
    let mut all = vec![x];
    all.extend_from_slice(params);
    let dtype = same_dtype(what, &all)?;
    need_float(what, dtype)?;
    let shape = x.shape();
    let Some(&d) = shape.last() else {
        return Err(shape_error(
            what,
            "takes a tensor of rank 1 or more, got rank 0",
        ));
    };
    for p in params {
        if p.shape() != [d] {
            return Err(shape_error(
                what,
                format!(
                    "the scale and shift must have shape [{d}] (x's last dimension), got {:?}",
                    p.shape()
                ),
            ));
        }
    }
    let r = shape[..shape.len() - 1].iter().product();
    Ok((r, d, dtype))
}

/// An operand of the row programs (loops: row, column) of `shape`,
/// indexed by the loops `dims`.
fn operand(value: &str, shape: &[usize], elem: &str, dims: &[usize]) -> Operand {
    Operand {
        value: value.to_owned(),
        ty: tensor_ty(shape, elem),
        elem: elem.to_owned(),
        map: map(2, dims),
    }
}

/// The `[R]` f32 row sums of `term(x)` over `x` `[R, D]` of `dtype` (and
/// `extra`, a `[R]` f32 value passed to `term`).
fn row_sum(
    f: &mut Func,
    x: &str,
    r: usize,
    d: usize,
    dtype: DType,
    extra: Option<&str>,
    term: impl FnOnce(&mut Func, &str, Option<&str>) -> String,
) -> String {
    let acc = f.empty(&[r], "f32", Some("0.0"));
    let mut ins = vec![operand(x, &[r, d], dtype.name(), &[0, 1])];
    if let Some(e) = extra {
        ins.push(operand(e, &[r], "f32", &[0]));
    }
    let has_extra = extra.is_some();
    f.generic(
        &ins,
        &operand(&acc, &[r], "f32", &[0]),
        &["parallel", "reduction"],
        |f, args| {
            let v = f.widen(&args[0], dtype);
            let e = has_extra.then(|| args[1].clone());
            let t = term(f, &v, e.as_deref());
            let acc = args.last().map_or("", String::as_str);
            f.let_(&format!("arith.addf {t}, {acc} : f32"))
        },
    )
}

/// Layer normalization over the last axis:
/// `(x - mean) / sqrt(var + eps) * gamma + beta` with the biased variance;
/// `gamma` and `beta` have the shape `[D]` of x's last dimension.
pub fn layer_norm(
    stream: &Stream,
    x: &Tensor,
    gamma: &Tensor,
    beta: &Tensor,
    eps: f32,
) -> Result<Tensor> {
    let what = "ops::layer_norm";
    let (r, d, dtype) = rows(what, x, &[gamma, beta])?;
    if x.numel() == 0 {
        return Tensor::empty(&x.device(), dtype, x.shape());
    }
    let elem = dtype.name();
    let inv_d = 1.0 / d as f32;
    let mut f = Func::new("layer_norm");
    let a = f.arg(&tensor_ty(&[r, d], elem));
    let g = f.arg(&tensor_ty(&[d], elem));
    let b = f.arg(&tensor_ty(&[d], elem));
    let sum = row_sum(&mut f, &a, r, d, dtype, None, |_, v, _| v.to_owned());
    let mean = map_elements(&mut f, &sum, &[r], "f32", "f32", |f, v| {
        let s = f.f32(inv_d);
        f.let_(&format!("arith.mulf {v}, {s} : f32"))
    });
    let sq = row_sum(&mut f, &a, r, d, dtype, Some(&mean), |f, v, m| {
        let c = f.let_(&format!("arith.subf {v}, {} : f32", m.unwrap_or(v)));
        f.let_(&format!("arith.mulf {c}, {c} : f32"))
    });
    let init = f.empty(&[r, d], elem, None);
    let y = f.generic(
        &[
            operand(&a, &[r, d], elem, &[0, 1]),
            operand(&mean, &[r], "f32", &[0]),
            operand(&sq, &[r], "f32", &[0]),
            operand(&g, &[d], elem, &[1]),
            operand(&b, &[d], elem, &[1]),
        ],
        &operand(&init, &[r, d], elem, &[0, 1]),
        &["parallel", "parallel"],
        |f, args| {
            let v = f.widen(&args[0], dtype);
            let gv = f.widen(&args[3], dtype);
            let bv = f.widen(&args[4], dtype);
            let s = f.f32(inv_d);
            let e = f.f32(eps);
            let var = f.let_(&format!("arith.mulf {}, {s} : f32", args[2]));
            let ve = f.let_(&format!("arith.addf {var}, {e} : f32"));
            let inv = f.let_(&format!("math.rsqrt {ve} : f32"));
            let c = f.let_(&format!("arith.subf {v}, {} : f32", args[1]));
            let n = f.let_(&format!("arith.mulf {c}, {inv} : f32"));
            let sc = f.let_(&format!("arith.mulf {n}, {gv} : f32"));
            let y = f.let_(&format!("arith.addf {sc}, {bv} : f32"));
            f.narrow(&y, dtype)
        },
    );
    let text = f.finish(&[(y, tensor_ty(&[r, d], elem))]);
    let x2 = x.contiguous()?.reshape(&[r, d])?;
    single(cache::run(stream, what, text, &[&x2, gamma, beta])?)?.reshape(x.shape())
}

/// RMS normalization over the last axis:
/// `x / sqrt(mean(x^2) + eps) * gamma`; `gamma` has the shape `[D]` of
/// x's last dimension.
pub fn rms_norm(stream: &Stream, x: &Tensor, gamma: &Tensor, eps: f32) -> Result<Tensor> {
    let what = "ops::rms_norm";
    let (r, d, dtype) = rows(what, x, &[gamma])?;
    if x.numel() == 0 {
        return Tensor::empty(&x.device(), dtype, x.shape());
    }
    let elem = dtype.name();
    let inv_d = 1.0 / d as f32;
    let mut f = Func::new("rms_norm");
    let a = f.arg(&tensor_ty(&[r, d], elem));
    let g = f.arg(&tensor_ty(&[d], elem));
    let sq = row_sum(&mut f, &a, r, d, dtype, None, |f, v, _| {
        f.let_(&format!("arith.mulf {v}, {v} : f32"))
    });
    let init = f.empty(&[r, d], elem, None);
    let y = f.generic(
        &[
            operand(&a, &[r, d], elem, &[0, 1]),
            operand(&sq, &[r], "f32", &[0]),
            operand(&g, &[d], elem, &[1]),
        ],
        &operand(&init, &[r, d], elem, &[0, 1]),
        &["parallel", "parallel"],
        |f, args| {
            let v = f.widen(&args[0], dtype);
            let gv = f.widen(&args[2], dtype);
            let s = f.f32(inv_d);
            let e = f.f32(eps);
            let ms = f.let_(&format!("arith.mulf {}, {s} : f32", args[1]));
            let me = f.let_(&format!("arith.addf {ms}, {e} : f32"));
            let inv = f.let_(&format!("math.rsqrt {me} : f32"));
            let n = f.let_(&format!("arith.mulf {v}, {inv} : f32"));
            let y = f.let_(&format!("arith.mulf {n}, {gv} : f32"));
            f.narrow(&y, dtype)
        },
    );
    let text = f.finish(&[(y, tensor_ty(&[r, d], elem))]);
    let x2 = x.contiguous()?.reshape(&[r, d])?;
    single(cache::run(stream, what, text, &[&x2, gamma])?)?.reshape(x.shape())
}
