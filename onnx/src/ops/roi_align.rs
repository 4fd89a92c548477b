//! `RoiAlign` (opsets 10 and 16): one generic over `[rois, C, out_h,
//! out_w]`; each element reads its box (scaled, shifted by half a pixel in
//! `half_pixel` mode, at least 1x1 otherwise), samples its bin on a
//! `sampling_ratio` x `sampling_ratio` grid (unrolled in the body) by
//! bilinear interpolation as ONNX's reference (samples beyond a pixel
//! outside the image are 0, coordinates clamped into it), and averages
//! them or takes the largest weighted corner.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, cmp, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// `v` (a float of `dt`, at least 0) as an `index` clamped to `last`.
fn to_index(bb: &mut BodyBuilder<'_>, v: TValue, last: i64) -> TValue {
    let i = bb.arith(ArithOp::FPToSI, vec![v], ElemType::I32);
    let i = bb.arith(ArithOp::ExtSI, vec![i], ElemType::I64);
    let l = bb.constant(ScalarBits::Int(last), ElemType::I64);
    let i = bb.arith(ArithOp::MinSI, vec![i, l], ElemType::I64);
    bb.arith(ArithOp::IndexCast, vec![i], ElemType::Index)
}

/// `RoiAlign(X, rois, batch_indices)`.
pub fn roi_align(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, rois, bi) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let dt = x.dtype;
    let xs = x
        .static_shape()
        .filter(|s| s.len() == 4)
        .ok_or_else(|| n.err("X must be [N, C, H, W] of static shape"))?;
    let rs = rois
        .static_shape()
        .filter(|s| s.len() == 2 && s[1] == 4)
        .ok_or_else(|| n.err("rois must be [num_rois, 4] of static shape"))?;
    if !dt.is_float() || rois.dtype != dt || bi.dtype.is_float() {
        return Err(n.err("X and rois must be of one float type, batch_indices integers"));
    }
    let half = match n
        .string("coordinate_transformation_mode", "half_pixel")
        .as_str()
    {
        "half_pixel" if n.opset >= 16 => true,
        "half_pixel" | "output_half_pixel" => false,
        m => {
            return Err(n.err(format!(
                "coordinate_transformation_mode {m:?} is not defined"
            )))
        }
    };
    let max = match n.string("mode", "avg").as_str() {
        "avg" => false,
        "max" => true,
        m => return Err(n.err(format!("mode {m:?} is not defined"))),
    };
    let (ph, pw) = (n.int("output_height", 1), n.int("output_width", 1));
    let ratio = n.int("sampling_ratio", 0);
    if ratio <= 0 {
        return Err(n.err(
            "sampling_ratio 0 (a grid sized by each box's values) is not supported: \
             the grid is unrolled at import",
        ));
    }
    if ph <= 0 || pw <= 0 {
        return Err(n.err("output_height and output_width must be positive"));
    }
    let scale = f64::from(n.float("spatial_scale", 1.0));
    let (h, w) = (xs[2] as i64, xs[3] as i64);
    let (xv, rv, bv) = (c.ssa(x), c.ssa(rois), c.ssa(bi));
    let (elem, be) = (dt.elem(), bi.dtype.elem());
    let y = indexed_generic(
        c,
        &[rs[0], xs[1], ph as u64, pw as u64],
        dt,
        &[],
        |bb, li, _| {
            let coord = |bb: &mut BodyBuilder<'_>, k: i64| {
                let kc = index_const(bb, k);
                let v = extract(bb, rv, &[li[0], kc], elem);
                let s = cst(bb, dt, scale);
                let v = arith(bb, dt, Bin::Mul, v, s);
                let o = cst(bb, dt, if half { 0.5 } else { 0.0 });
                arith(bb, dt, Bin::Sub, v, o)
            };
            let (x0, y0, x1, y1) = (coord(bb, 0), coord(bb, 1), coord(bb, 2), coord(bb, 3));
            let mut rw = arith(bb, dt, Bin::Sub, x1, x0);
            let mut rh = arith(bb, dt, Bin::Sub, y1, y0);
            if !half {
                let one = cst(bb, dt, 1.0);
                rw = arith(bb, dt, Bin::Max, rw, one);
                rh = arith(bb, dt, Bin::Max, rh, one);
            }
            let (phc, pwc) = (cst(bb, dt, ph as f64), cst(bb, dt, pw as f64));
            let bh = arith(bb, dt, Bin::Div, rh, phc);
            let bw = arith(bb, dt, Bin::Div, rw, pwc);
            let b = extract(bb, bv, &[li[0]], be);
            let b = bb.arith(ArithOp::IndexCast, vec![b], ElemType::Index);
            // The bin's origin: start + p * bin.
            let origin = |bb: &mut BodyBuilder<'_>, l: TValue, start: TValue, bin: TValue| {
                let i = bb.arith(ArithOp::IndexCast, vec![l], ElemType::I64);
                let f = bb.arith(ArithOp::SIToFP, vec![i], elem);
                let t = arith(bb, dt, Bin::Mul, f, bin);
                arith(bb, dt, Bin::Add, start, t)
            };
            let oy = origin(bb, li[2], y0, bh);
            let ox = origin(bb, li[3], x0, bw);
            let g = cst(bb, dt, ratio as f64);
            let zero = cst(bb, dt, 0.0);
            let one = cst(bb, dt, 1.0);
            let mut acc: Option<TValue> = None;
            for iy in 0..ratio {
                for ix in 0..ratio {
                    // yy = origin + (i + 0.5) * bin / grid.
                    let at = |bb: &mut BodyBuilder<'_>, o: TValue, bin: TValue, i: i64| {
                        let k = cst(bb, dt, i as f64 + 0.5);
                        let t = arith(bb, dt, Bin::Mul, k, bin);
                        let t = arith(bb, dt, Bin::Div, t, g);
                        arith(bb, dt, Bin::Add, o, t)
                    };
                    let yy = at(bb, oy, bh, iy);
                    let xx = at(bb, ox, bw, ix);
                    let m1 = cst(bb, dt, -1.0);
                    let (hf, wf) = (cst(bb, dt, h as f64), cst(bb, dt, w as f64));
                    let out1 = cmp(bb, dt, Cmp::Lt, yy, m1);
                    let out2 = cmp(bb, dt, Cmp::Gt, yy, hf);
                    let out3 = cmp(bb, dt, Cmp::Lt, xx, m1);
                    let out4 = cmp(bb, dt, Cmp::Gt, xx, wf);
                    let mut outside = bb.arith(ArithOp::OrI, vec![out1, out2], ElemType::I1);
                    outside = bb.arith(ArithOp::OrI, vec![outside, out3], ElemType::I1);
                    outside = bb.arith(ArithOp::OrI, vec![outside, out4], ElemType::I1);
                    // Clamped into the image; the low corner, the high one
                    // clamped to the last pixel (the weight then on the low).
                    let axis = |bb: &mut BodyBuilder<'_>, v: TValue, size: i64| {
                        let v = arith(bb, dt, Bin::Max, v, zero);
                        let last = cst(bb, dt, (size - 1) as f64);
                        let v = arith(bb, dt, Bin::Min, v, last);
                        let lo = math(bb, MathOp::Floor, v);
                        let l = arith(bb, dt, Bin::Sub, v, lo);
                        let hi = arith(bb, dt, Bin::Add, lo, one);
                        (to_index(bb, lo, size - 1), to_index(bb, hi, size - 1), l)
                    };
                    let (ylo, yhi, ly) = axis(bb, yy, h);
                    let (xlo, xhi, lx) = axis(bb, xx, w);
                    let hy = arith(bb, dt, Bin::Sub, one, ly);
                    let hx = arith(bb, dt, Bin::Sub, one, lx);
                    let mut terms = Vec::with_capacity(4);
                    for (yi, wy) in [(ylo, hy), (yhi, ly)] {
                        for (xi, wx) in [(xlo, hx), (xhi, lx)] {
                            let v = extract(bb, xv, &[b, li[1], yi, xi], elem);
                            let k = arith(bb, dt, Bin::Mul, wy, wx);
                            let t = arith(bb, dt, Bin::Mul, k, v);
                            terms.push(select(bb, outside, zero, t));
                        }
                    }
                    let s = if max {
                        let a = arith(bb, dt, Bin::Max, terms[0], terms[1]);
                        let a = arith(bb, dt, Bin::Max, a, terms[2]);
                        arith(bb, dt, Bin::Max, a, terms[3])
                    } else {
                        let a = arith(bb, dt, Bin::Add, terms[0], terms[1]);
                        let a = arith(bb, dt, Bin::Add, a, terms[2]);
                        arith(bb, dt, Bin::Add, a, terms[3])
                    };
                    acc = Some(match acc {
                        None => s,
                        Some(a) if max => arith(bb, dt, Bin::Max, a, s),
                        Some(a) => arith(bb, dt, Bin::Add, a, s),
                    });
                }
            }
            let acc = acc.expect("a positive sampling grid");
            if max {
                acc
            } else {
                let cnt = cst(bb, dt, (ratio * ratio) as f64);
                arith(bb, dt, Bin::Div, acc, cnt)
            }
        },
    );
    Ok(vec![y])
}
