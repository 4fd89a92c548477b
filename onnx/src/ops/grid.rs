//! `AffineGrid(theta, size)`: the sampling grid of an affine transform,
//! one generic reading `theta` per output element.

use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::ElemType;

use super::gather::{extract, index_const};
use super::scalar::{arith, cst, Bin};
use super::OpResult;
use crate::ctx::Ctx;
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
