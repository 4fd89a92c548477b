//! Resizing images: [`interpolate`] (nearest, bilinear) on NHWC tensors,
//! the layout of [`conv2d`](super::conv2d) and pooling.

use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::{fname, single};
use super::text::{class, class_ty, dims_ty, identity, need_float, shape_error};
use super::text::{Dim, Func, Operand};

/// How [`interpolate`] computes an output pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// The input pixel `floor(o * in / out)` along each axis (PyTorch's
    /// `nearest`, computed exactly in integers). Any element type.
    Nearest,
    /// The weighted mean of the four pixels around
    /// `(o + 0.5) * in / out - 0.5` (clamped at 0; PyTorch's `bilinear`
    /// with `align_corners=False`), in f32. Floats.
    Bilinear,
}

/// `x` (`[N, H, W, C]`) resized to `[N, size[0], size[1], C]`. The
/// program is specialized for the input and output heights and widths
/// (any batch and channel count).
pub fn interpolate(
    stream: &Stream,
    x: &Tensor,
    size: [usize; 2],
    mode: Interpolation,
) -> Result<Tensor> {
    let what = "ops::interpolate";
    let dtype = x.dtype();
    class(what, dtype)?;
    if mode == Interpolation::Bilinear {
        need_float(what, dtype)?;
    }
    let s = x.shape();
    if s.len() != 4 {
        return Err(shape_error(
            what,
            format!("x must be [N, H, W, C], got shape {s:?}"),
        ));
    }
    let (h, w) = (s[1], s[2]);
    let out_shape = [s[0], size[0], size[1], s[3]];
    if out_shape.contains(&0) || h == 0 || w == 0 {
        if x.numel() == 0 && !out_shape.contains(&0) {
            return Err(shape_error(what, format!("resizes an empty image {s:?}")));
        }
        return Tensor::empty(&x.device(), dtype, &out_shape);
    }
    let elem = dtype.name();
    let text = || {
        let mut f = Func::new(fname(what));
        let ty = class_ty(&[None, Some(h), Some(w), None], elem);
        let a = f.arg(&ty);
        let nb = f.dim(&a, &ty, 0);
        let nc = f.dim(&a, &ty, 3);
        let dims = [nb, Dim::Fixed(size[0]), Dim::Fixed(size[1]), nc];
        let init = f.empty_dims(&dims, elem, None);
        let out_ty = dims_ty(&dims, elem);
        let out = Operand {
            value: init,
            ty: out_ty.clone(),
            elem: elem.to_owned(),
            map: identity(4),
        };
        let y = f.generic(&[], &out, &["parallel"; 4], |f, _| {
            let idx: Vec<String> = (0..4)
                .map(|d| f.let_(&format!("linalg.index {d} : index")))
                .collect();
            let at = |f: &mut Func, yy: &str, xx: &str| {
                let v = f.let_(&format!(
                    "tensor.extract {a}[{}, {yy}, {xx}, {}] : {ty}",
                    idx[0], idx[3]
                ));
                f.widen(&v, dtype)
            };
            match mode {
                Interpolation::Nearest => {
                    let src = |f: &mut Func, o: &str, n: usize, m: usize| {
                        let nn = f.constant(&n.to_string(), "index");
                        let mm = f.constant(&m.to_string(), "index");
                        let p = f.let_(&format!("arith.muli {o}, {nn} : index"));
                        f.let_(&format!("arith.divui {p}, {mm} : index"))
                    };
                    let iy = src(f, &idx[1], h, size[0]);
                    let ix = src(f, &idx[2], w, size[1]);
                    let v = at(f, &iy, &ix);
                    f.narrow(&v, dtype)
                }
                Interpolation::Bilinear => {
                    // (i0, i1, weight of i1) along one axis.
                    let src = |f: &mut Func, o: &str, n: usize, m: usize| {
                        let oi = f.let_(&format!("arith.index_cast {o} : index to i32"));
                        let of = f.let_(&format!("arith.sitofp {oi} : i32 to f32"));
                        let half = f.f32(0.5);
                        let scale = f.f32(n as f32 / m as f32);
                        let zero = f.f32(0.0);
                        let c = f.let_(&format!("arith.addf {of}, {half} : f32"));
                        let c = f.let_(&format!("arith.mulf {c}, {scale} : f32"));
                        let c = f.let_(&format!("arith.subf {c}, {half} : f32"));
                        let c = f.let_(&format!("arith.maximumf {c}, {zero} : f32"));
                        let i0 = f.let_(&format!("arith.fptosi {c} : f32 to i32"));
                        let i0f = f.let_(&format!("arith.sitofp {i0} : i32 to f32"));
                        let l = f.let_(&format!("arith.subf {c}, {i0f} : f32"));
                        let one = f.constant("1", "i32");
                        let last = f.constant(&(n - 1).to_string(), "i32");
                        let i1 = f.let_(&format!("arith.addi {i0}, {one} : i32"));
                        let i1 = f.let_(&format!("arith.minsi {i1}, {last} : i32"));
                        let i0 = f.let_(&format!("arith.index_cast {i0} : i32 to index"));
                        let i1 = f.let_(&format!("arith.index_cast {i1} : i32 to index"));
                        (i0, i1, l)
                    };
                    let (y0, y1, ly) = src(f, &idx[1], h, size[0]);
                    let (x0, x1, lx) = src(f, &idx[2], w, size[1]);
                    let lerp = |f: &mut Func, a: &str, b: &str, t: &str| {
                        let d = f.let_(&format!("arith.subf {b}, {a} : f32"));
                        let m = f.let_(&format!("arith.mulf {d}, {t} : f32"));
                        f.let_(&format!("arith.addf {a}, {m} : f32"))
                    };
                    let (p00, p01) = (at(f, &y0, &x0), at(f, &y0, &x1));
                    let (p10, p11) = (at(f, &y1, &x0), at(f, &y1, &x1));
                    let top = lerp(f, &p00, &p01, &lx);
                    let bottom = lerp(f, &p10, &p11, &lx);
                    let v = lerp(f, &top, &bottom, &ly);
                    f.narrow(&v, dtype)
                }
            }
        });
        Ok(f.finish(&[(y, out_ty)]))
    };
    let params = [
        h as u64,
        w as u64,
        size[0] as u64,
        size[1] as u64,
        u64::from(mode == Interpolation::Bilinear),
    ];
    single(cache::run_keyed(stream, what, &params, &[x], text)?)
}
