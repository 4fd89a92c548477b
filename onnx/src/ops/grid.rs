//! `AffineGrid(theta, size)`, the sampling grid of an affine transform,
//! and `GridSample(X, grid)`, sampling at it: one generic each reading
//! their inputs per output element.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, index_const};
use super::scalar::{arith, cmp, convert, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

/// `AffineGrid(align_corners)`: for `size` `[N, C, H, W]` (or `[N, C, D,
/// H, W]`), `grid[n, h, w, k] = sum_j theta[n, k, j] * [x_w, y_h, 1][j]`
/// (and `z_d` in 3-D), the base coordinates `-1 + 2 i / (L - 1)` with
/// aligned corners, else `(2 i + 1) / L - 1`.
pub fn affine_grid(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let theta = n.input(0)?;
    let size = n.known(1)?.ints();
    let dt = theta.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("theta of {} is not supported", dt.name())));
    }
    let spatial = match size.len() {
        4 => 2usize,
        5 => 3,
        k => return Err(n.err(format!("size has {k} entries (4 or 5 expected)"))),
    };
    if size.iter().any(|&d| d <= 0) {
        return Err(n.err(format!("size {size:?} must be positive")));
    }
    let ts = theta
        .static_shape()
        .ok_or_else(|| n.err("theta of dynamic shape"))?;
    let want = [size[0] as u64, spatial as u64, spatial as u64 + 1];
    if ts != want {
        return Err(n.err(format!("theta is {ts:?}, {want:?} expected")));
    }
    let align = n.int("align_corners", 0) != 0;
    // Output [N, (D,) H, W, spatial]; spatial sizes in (D, H, W) order.
    let sp: Vec<i64> = size[2..].to_vec();
    let mut out: Vec<u64> = vec![size[0] as u64];
    out.extend(sp.iter().map(|&d| d as u64));
    out.push(spatial as u64);
    let src = c.ssa(theta);
    let elem = dt.elem();
    let y = super::gather::indexed_generic(c, &out, dt, &[], |bb, li, _| {
        let r = li.len();
        let k = li[r - 1];
        let mut acc = cst(bb, dt, 0.0);
        // Coordinate j of the base point: x (W) first, then y (H), z (D).
        for j in 0..=spatial {
            let coord = if j == spatial {
                cst(bb, dt, 1.0)
            } else {
                let axis = spatial - 1 - j; // index into sp (D, H, W order)
                let len = sp[axis];
                let i = li[1 + axis];
                let i = bb.arith(ArithOp::IndexCast, vec![i], ElemType::Int(64));
                let f = bb.arith(ArithOp::SIToFP, vec![i], elem);
                if align {
                    if len == 1 {
                        cst(bb, dt, 0.0)
                    } else {
                        let s = cst(bb, dt, 2.0 / (len - 1) as f64);
                        let t = arith(bb, dt, Bin::Mul, f, s);
                        let m1 = cst(bb, dt, -1.0);
                        arith(bb, dt, Bin::Add, t, m1)
                    }
                } else {
                    let two = cst(bb, dt, 2.0);
                    let one = cst(bb, dt, 1.0);
                    let l = cst(bb, dt, len as f64);
                    let t = arith(bb, dt, Bin::Mul, f, two);
                    let t = arith(bb, dt, Bin::Add, t, one);
                    let t = arith(bb, dt, Bin::Div, t, l);
                    arith(bb, dt, Bin::Sub, t, one)
                }
            };
            let jj = index_const(bb, j as i64);
            let th = extract(bb, src, &[li[0], k, jj], elem);
            let p = arith(bb, dt, Bin::Mul, th, coord);
            acc = arith(bb, dt, Bin::Add, acc, p);
        }
        acc
    });
    Ok(vec![y])
}

/// How `GridSample` reads outside the input.
#[derive(Clone, Copy, PartialEq)]
enum Padding {
    Zeros,
    Border,
    Reflection,
}

/// `f` reflected by the near border into `[lo, hi]` until inside (ONNX's
/// reference `_gs_reflect`).
fn reflect(bb: &mut BodyBuilder<'_>, f: TValue, lo: f64, hi: f64) -> TValue {
    let t = DataType::Float;
    let lo_c = cst(bb, t, lo);
    let hi_c = cst(bb, t, hi);
    let rng = cst(bb, t, hi - lo);
    let two = cst(bb, t, 2.0);
    let zero = cst(bb, t, 0.0);
    // The distance past the violated border, its whole ranges n and rest r.
    let below = cmp(bb, t, Cmp::Lt, f, lo_c);
    let above = cmp(bb, t, Cmp::Gt, f, hi_c);
    let d_lo = arith(bb, t, Bin::Sub, lo_c, f);
    let d_hi = arith(bb, t, Bin::Sub, f, hi_c);
    let dx = select(bb, below, d_lo, d_hi);
    let q = arith(bb, t, Bin::Div, dx, rng);
    let nn = math(bb, MathOp::Floor, q);
    let nr = arith(bb, t, Bin::Mul, nn, rng);
    let r = arith(bb, t, Bin::Sub, dx, nr);
    let half = arith(bb, t, Bin::Div, nn, two);
    let hf = math(bb, MathOp::Floor, half);
    let h2 = arith(bb, t, Bin::Mul, hf, two);
    let par = arith(bb, t, Bin::Sub, nn, h2);
    let even = cmp(bb, t, Cmp::Eq, par, zero);
    let lo_r = arith(bb, t, Bin::Add, lo_c, r);
    let hi_r = arith(bb, t, Bin::Sub, hi_c, r);
    let from_lo = select(bb, even, lo_r, hi_r);
    let from_hi = select(bb, even, hi_r, lo_r);
    let v = select(bb, above, from_hi, f);
    select(bb, below, from_lo, v)
}

/// Keys' cubic coefficients (alpha -0.75) for fraction `x`.
fn cubic_coeffs(bb: &mut BodyBuilder<'_>, x: TValue) -> [TValue; 4] {
    let t = DataType::Float;
    let a = -0.75;
    let poly = |bb: &mut BodyBuilder<'_>, v: TValue, far: bool| {
        // far: ((a v - 5a) v + 8a) v - 4a; near: ((a+2) v - (a+3)) v v + 1.
        if far {
            let k = cst(bb, t, a);
            let p = arith(bb, t, Bin::Mul, k, v);
            let k5 = cst(bb, t, -5.0 * a);
            let p = arith(bb, t, Bin::Add, p, k5);
            let p = arith(bb, t, Bin::Mul, p, v);
            let k8 = cst(bb, t, 8.0 * a);
            let p = arith(bb, t, Bin::Add, p, k8);
            let p = arith(bb, t, Bin::Mul, p, v);
            let k4 = cst(bb, t, -4.0 * a);
            arith(bb, t, Bin::Add, p, k4)
        } else {
            let k = cst(bb, t, a + 2.0);
            let p = arith(bb, t, Bin::Mul, k, v);
            let k3 = cst(bb, t, -(a + 3.0));
            let p = arith(bb, t, Bin::Add, p, k3);
            let p = arith(bb, t, Bin::Mul, p, v);
            let p = arith(bb, t, Bin::Mul, p, v);
            let one = cst(bb, t, 1.0);
            arith(bb, t, Bin::Add, p, one)
        }
    };
    let x = math(bb, MathOp::AbsF, x);
    let one = cst(bb, t, 1.0);
    let two = cst(bb, t, 2.0);
    let x1 = arith(bb, t, Bin::Add, x, one);
    let ox = arith(bb, t, Bin::Sub, one, x);
    let tx = arith(bb, t, Bin::Sub, two, x);
    [
        poly(bb, x1, true),
        poly(bb, x, false),
        poly(bb, ox, false),
        poly(bb, tx, true),
    ]
}

/// `GridSample(X, grid, mode, padding_mode, align_corners)` for 2-D and
/// 3-D inputs: ONNX's reference per output element (denormalised
/// coordinates, out-of-range coordinates clamped or reflected, then
/// nearest, separable linear or cubic taps read with the padding mode).
pub fn grid_sample(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, grid) = (n.input(0)?, n.input(1)?);
    let dt = x.dtype;
    if !dt.is_float() || !grid.dtype.is_float() {
        return Err(n.err("GridSample needs float X and grid"));
    }
    let xs = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let gs = grid
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let k = xs.len().saturating_sub(2);
    if !(k == 2 || k == 3) || gs.len() != k + 2 || gs[0] != xs[0] || gs[k + 1] != k as u64 {
        return Err(n.err(format!(
            "X {xs:?} and grid {gs:?} do not fit 2-D or 3-D sampling"
        )));
    }
    let mode = match n.string("mode", "linear").as_str() {
        "linear" | "bilinear" => 1u32,
        "nearest" => 0,
        "cubic" | "bicubic" => 2,
        m => return Err(n.err(format!("mode {m:?} is not linear, nearest or cubic"))),
    };
    let pad = match n.string("padding_mode", "zeros").as_str() {
        "zeros" => Padding::Zeros,
        "border" => Padding::Border,
        "reflection" => Padding::Reflection,
        m => {
            return Err(n.err(format!(
                "padding_mode {m:?} is not zeros, border or reflection"
            )))
        }
    };
    let align = n.int("align_corners", 0) != 0;
    let dims: Vec<i64> = xs[2..].iter().map(|&d| d as i64).collect();
    let mut out = vec![xs[0], xs[1]];
    out.extend(&gs[1..=k]);
    let xv = c.ssa(x);
    let gv = c.ssa(grid);
    let (xe, ge, gdt) = (dt.elem(), grid.dtype.elem(), grid.dtype);
    let y = super::gather::indexed_generic(c, &out, dt, &[], |bb, li, _| {
        let f = DataType::Float;
        let i64t = ElemType::I64;
        // Coordinates in (D,) H, W order: the grid's last axis reversed.
        let mut coords = Vec::with_capacity(k);
        for (i, &len) in dims.iter().enumerate() {
            let mut at = vec![li[0]];
            at.extend(&li[2..2 + k]);
            at.push(index_const(bb, (k - 1 - i) as i64));
            let g = extract(bb, gv, &at, ge);
            let g = convert(bb, gdt, f, g);
            let len = len as f64;
            let one = cst(bb, f, 1.0);
            let g1 = arith(bb, f, Bin::Add, g, one);
            let v = if align {
                let s = cst(bb, f, (len - 1.0) / 2.0);
                arith(bb, f, Bin::Mul, g1, s)
            } else {
                let l = cst(bb, f, len);
                let t = arith(bb, f, Bin::Mul, g1, l);
                let t = arith(bb, f, Bin::Sub, t, one);
                let h = cst(bb, f, 2.0);
                arith(bb, f, Bin::Div, t, h)
            };
            let v = if mode == 0 {
                math(bb, MathOp::RoundEven, v)
            } else {
                v
            };
            let (lo, hi) = if align {
                (0.0, len - 1.0)
            } else {
                (-0.5, len - 0.5)
            };
            let v = match pad {
                Padding::Zeros => v,
                Padding::Border => {
                    let lo_c = cst(bb, f, lo);
                    let hi_c = cst(bb, f, hi);
                    let out_lo = cmp(bb, f, Cmp::Lt, v, lo_c);
                    let out_hi = cmp(bb, f, Cmp::Gt, v, hi_c);
                    let outside = bb.arith(ArithOp::OrI, vec![out_lo, out_hi], ElemType::I1);
                    let z = cst(bb, f, 0.0);
                    let m = cst(bb, f, len - 1.0);
                    let cl = arith(bb, f, Bin::Max, v, z);
                    let cl = arith(bb, f, Bin::Min, cl, m);
                    select(bb, outside, cl, v)
                }
                Padding::Reflection => reflect(bb, v, lo, hi),
            };
            coords.push((v, lo, hi));
        }
        // Taps per dim: (index as f32, weight).
        let mut taps: Vec<Vec<(TValue, TValue)>> = Vec::with_capacity(k);
        for &(v, _, _) in &coords {
            if mode == 0 {
                let one = cst(bb, f, 1.0);
                // int(x): toward zero.
                let t = bb.arith(ArithOp::FPToSI, vec![v], ElemType::I32);
                let t = bb.arith(ArithOp::SIToFP, vec![t], ElemType::F32);
                taps.push(vec![(t, one)]);
                continue;
            }
            let x0 = math(bb, MathOp::Floor, v);
            let fr = arith(bb, f, Bin::Sub, v, x0);
            let one = cst(bb, f, 1.0);
            if mode == 1 {
                let w0 = arith(bb, f, Bin::Sub, one, fr);
                let x1 = arith(bb, f, Bin::Add, x0, one);
                taps.push(vec![(x0, w0), (x1, fr)]);
            } else {
                let w = cubic_coeffs(bb, fr);
                let mut t = Vec::with_capacity(4);
                for (j, wj) in w.into_iter().enumerate() {
                    let o = cst(bb, f, j as f64 - 1.0);
                    let xi = arith(bb, f, Bin::Add, x0, o);
                    t.push((xi, wj));
                }
                taps.push(t);
            }
        }
        let per: Vec<usize> = taps.iter().map(Vec::len).collect();
        let total: usize = per.iter().product();
        let mut acc = cst(bb, f, 0.0);
        for p in 0..total {
            let mut rem = p;
            let mut pick = vec![0usize; k];
            for d in (0..k).rev() {
                pick[d] = rem % per[d];
                rem /= per[d];
            }
            let mut weight = cst(bb, f, 1.0);
            let mut valid = bb.constant(ScalarBits::Int(1), ElemType::I1);
            let mut at = vec![li[0], li[1]];
            for d in 0..k {
                let (xi, w) = taps[d][pick[d]];
                weight = arith(bb, f, Bin::Mul, weight, w);
                let (_, lo, hi) = coords[d];
                let xi = if pad == Padding::Reflection {
                    reflect(bb, xi, lo, hi)
                } else {
                    xi
                };
                let ii = bb.arith(ArithOp::FPToSI, vec![xi], ElemType::I32);
                let ii = bb.arith(ArithOp::ExtSI, vec![ii], i64t);
                let z = bb.constant(ScalarBits::Int(0), i64t);
                let last = bb.constant(ScalarBits::Int(dims[d] - 1), i64t);
                if pad == Padding::Zeros {
                    let ge0 = cmp(bb, DataType::Int64, Cmp::Ge, ii, z);
                    let le = cmp(bb, DataType::Int64, Cmp::Le, ii, last);
                    let ok = bb.arith(ArithOp::AndI, vec![ge0, le], ElemType::I1);
                    valid = bb.arith(ArithOp::AndI, vec![valid, ok], ElemType::I1);
                }
                let cl = bb.arith(ArithOp::MaxSI, vec![ii, z], i64t);
                let cl = bb.arith(ArithOp::MinSI, vec![cl, last], i64t);
                at.push(bb.arith(ArithOp::IndexCast, vec![cl], ElemType::Index));
            }
            let e = extract(bb, xv, &at, xe);
            let e = convert(bb, dt, f, e);
            let z = cst(bb, f, 0.0);
            let e = select(bb, valid, e, z);
            let t = arith(bb, f, Bin::Mul, weight, e);
            acc = arith(bb, f, Bin::Add, acc, t);
        }
        convert(bb, f, dt, acc)
    });
    Ok(vec![y])
}
