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
    class_ty, dims_ty, dyn_ty, map, map_elements, need_float, same_dtype, shape_error, tensor_ty,
    Dim, Func, Operand,
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
    if dtype != DType::F32 {
        // f16 and bf16 in f32, rounded once: three programs, since the
        // codegen cannot yet put an element-wise consumer (the narrowing)
        // into a softmax's dispatch ("internal: not softmax").
        let wide = super::cast(stream, x, DType::F32)?;
        let y = softmax(stream, &wide, axis)?;
        return super::cast(stream, &y, dtype);
    }
    // The shape class: the rank (every size dynamic) and the axis.
    let text = || {
        let mut f = Func::new("softmax");
        let ty = dyn_ty(shape.len(), "f32");
        let a = f.arg(&ty);
        let dims: Vec<Dim> = (0..shape.len()).map(|d| f.dim(&a, &ty, d)).collect();
        let init = f.empty_dims(&dims, "f32", None);
        let ty = dims_ty(&dims, "f32");
        let y = f.let_(&format!(
            "linalg.softmax dimension({axis}) ins({a} : {ty}) outs({init} : {ty}) -> {ty}"
        ));
        Ok(f.finish(&[(y, ty)]))
    };
    single(cache::run_keyed(stream, what, &[axis as u64], &[x], text)?)
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

/// The row programs' shape class: `[R, D]` rows with R dynamic (the
/// value holding it) and D fixed.
struct Rows {
    r: Dim,
    d: usize,
}

impl Rows {
    /// The arguments: x `[?, D]` and `params` `[D]` vectors of `elem`;
    /// returns them with the rows.
    fn args(f: &mut Func, d: usize, elem: &str, params: usize) -> (Rows, String, Vec<String>) {
        let ty = class_ty(&[None, Some(d)], elem);
        let x = f.arg(&ty);
        let p = (0..params).map(|_| f.arg(&tensor_ty(&[d], elem))).collect();
        let r = f.dim(&x, &ty, 0);
        (Rows { r, d }, x, p)
    }

    /// A `[R, D]` operand.
    fn matrix(&self, value: &str, elem: &str) -> Operand {
        operand(
            value,
            dims_ty(&[self.r.clone(), Dim::Fixed(self.d)], elem),
            elem,
            &[0, 1],
        )
    }

    /// A `[R]` operand.
    fn column(&self, value: &str) -> Operand {
        operand(
            value,
            dims_ty(std::slice::from_ref(&self.r), "f32"),
            "f32",
            &[0],
        )
    }

    /// A `[D]` operand.
    fn row(&self, value: &str, elem: &str) -> Operand {
        operand(value, tensor_ty(&[self.d], elem), elem, &[1])
    }
}

/// An operand of the row programs (loops: row, column) of type `ty`,
/// indexed by the loops `dims`.
fn operand(value: &str, ty: String, elem: &str, dims: &[usize]) -> Operand {
    Operand {
        value: value.to_owned(),
        ty,
        elem: elem.to_owned(),
        map: map(2, dims),
    }
}

/// The `[R]` f32 row sums of `term(x)` over `x` `[R, D]` of `dtype` (and
/// `extra`, a `[R]` f32 value passed to `term`).
fn row_sum(
    f: &mut Func,
    rows: &Rows,
    x: &str,
    dtype: DType,
    extra: Option<&str>,
    term: impl FnOnce(&mut Func, &str, Option<&str>) -> String,
) -> String {
    let acc = f.empty_dims(std::slice::from_ref(&rows.r), "f32", Some("0.0"));
    let mut ins = vec![rows.matrix(x, dtype.name())];
    if let Some(e) = extra {
        ins.push(rows.column(e));
    }
    let has_extra = extra.is_some();
    f.generic(
        &ins,
        &rows.column(&acc),
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

/// `1 / sqrt(sum_sq * inv_d + eps)` in f32: the inverse standard deviation
/// (layer norm) or root mean square (RMS norm) of a row of `1 / inv_d`
/// elements whose (centered) squares sum to `sum_sq`.
fn inv_rms(f: &mut Func, sum_sq: &str, inv_d: f32, eps: f32) -> String {
    let s = f.f32(inv_d);
    let e = f.f32(eps);
    let ms = f.let_(&format!("arith.mulf {sum_sq}, {s} : f32"));
    let me = f.let_(&format!("arith.addf {ms}, {e} : f32"));
    f.let_(&format!("math.rsqrt {me} : f32"))
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
    let text = || -> Result<String> {
        let mut f = Func::new("layer_norm");
        let (rows, a, p) = Rows::args(&mut f, d, elem, 2);
        let sum = row_sum(&mut f, &rows, &a, dtype, None, |_, v, _| v.to_owned());
        let col = [rows.r.clone()];
        let mean = map_elements(&mut f, &sum, &col, "f32", "f32", |f, v| {
            let s = f.f32(inv_d);
            f.let_(&format!("arith.mulf {v}, {s} : f32"))
        });
        let sq = row_sum(&mut f, &rows, &a, dtype, Some(&mean), |f, v, m| {
            let c = f.let_(&format!("arith.subf {v}, {} : f32", m.unwrap_or(v)));
            f.let_(&format!("arith.mulf {c}, {c} : f32"))
        });
        let out_dims = [rows.r.clone(), Dim::Fixed(d)];
        let init = f.empty_dims(&out_dims, elem, None);
        let y = f.generic(
            &[
                rows.matrix(&a, elem),
                rows.column(&mean),
                rows.column(&sq),
                rows.row(&p[0], elem),
                rows.row(&p[1], elem),
            ],
            &rows.matrix(&init, elem),
            &["parallel", "parallel"],
            |f, args| {
                let v = f.widen(&args[0], dtype);
                let gv = f.widen(&args[3], dtype);
                let bv = f.widen(&args[4], dtype);
                let inv = inv_rms(f, &args[2], inv_d, eps);
                let c = f.let_(&format!("arith.subf {v}, {} : f32", args[1]));
                let n = f.let_(&format!("arith.mulf {c}, {inv} : f32"));
                let sc = f.let_(&format!("arith.mulf {n}, {gv} : f32"));
                let y = f.let_(&format!("arith.addf {sc}, {bv} : f32"));
                f.narrow(&y, dtype)
            },
        );
        Ok(f.finish(&[(y, dims_ty(&out_dims, elem))]))
    };
    let x2 = x.contiguous()?.reshape(&[r, d])?;
    single(cache::run_keyed(
        stream,
        what,
        &[d as u64, u64::from(eps.to_bits())],
        &[&x2, gamma, beta],
        text,
    )?)?
    .reshape(x.shape())
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
    let text = || -> Result<String> {
        let mut f = Func::new("rms_norm");
        let (rows, a, p) = Rows::args(&mut f, d, elem, 1);
        let sq = row_sum(&mut f, &rows, &a, dtype, None, |f, v, _| {
            f.let_(&format!("arith.mulf {v}, {v} : f32"))
        });
        let out_dims = [rows.r.clone(), Dim::Fixed(d)];
        let init = f.empty_dims(&out_dims, elem, None);
        let y = f.generic(
            &[
                rows.matrix(&a, elem),
                rows.column(&sq),
                rows.row(&p[0], elem),
            ],
            &rows.matrix(&init, elem),
            &["parallel", "parallel"],
            |f, args| {
                let v = f.widen(&args[0], dtype);
                let gv = f.widen(&args[2], dtype);
                let inv = inv_rms(f, &args[1], inv_d, eps);
                let n = f.let_(&format!("arith.mulf {v}, {inv} : f32"));
                let y = f.let_(&format!("arith.mulf {n}, {gv} : f32"));
                f.narrow(&y, dtype)
            },
        );
        Ok(f.finish(&[(y, dims_ty(&out_dims, elem))]))
    };
    let x2 = x.contiguous()?.reshape(&[r, d])?;
    single(cache::run_keyed(
        stream,
        what,
        &[d as u64, u64::from(eps.to_bits())],
        &[&x2, gamma],
        text,
    )?)?
    .reshape(x.shape())
}
