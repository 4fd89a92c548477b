//! `Col2Im` (opset 18): column blocks summed back into an image, as one
//! generic over the image: each element sums, over the block positions
//! (unrolled in the body), the column entry it receives — ConvTranspose's
//! gather with the block offset in place of a weight.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::conv_transpose::source;
use super::gather::{extract, indexed_generic};
use super::scalar::{arith, cst, select, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// Most block positions one image element may unroll.
const UNROLL_LIMIT: i64 = 4096;

/// `Col2Im(input, image_shape, block_shape)`: `strides`, `dilations`,
/// `pads`.
pub fn col2im(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let xs = x
        .static_shape()
        .filter(|s| s.len() == 3)
        .ok_or_else(|| n.err("input must be (N, C * block size, L) of static shape"))?;
    let image = n.known(1)?.ints();
    let block = n.known(2)?.ints();
    let k = image.len();
    if k == 0 || block.len() != k || image.iter().chain(&block).any(|&d| d <= 0) {
        return Err(n.err(format!(
            "image_shape {image:?} and block_shape {block:?} must be positive, of one length"
        )));
    }
    let list = |name: &str, len: usize, default: i64| match n.ints(name) {
        Some(v) if v.len() == len => Ok(v),
        Some(v) => Err(n.err(format!("{name} {v:?} does not fit {k} spatial dims"))),
        None => Ok(vec![default; len]),
    };
    let strides = list("strides", k, 1)?;
    let dil = list("dilations", k, 1)?;
    let pads = list("pads", 2 * k, 0)?;
    if strides.iter().chain(&dil).any(|&v| v <= 0) || pads.iter().any(|&v| v < 0) {
        return Err(n.err("strides and dilations must be positive, pads not negative"));
    }
    // Blocks along each dim.
    let nb: Vec<i64> = (0..k)
        .map(|d| {
            (image[d] + pads[d] + pads[d + k] - (dil[d] * (block[d] - 1) + 1)) / strides[d] + 1
        })
        .collect();
    let kvol: i64 = block.iter().product();
    let total: i64 = nb.iter().product();
    if nb.iter().any(|&b| b <= 0) || total as u64 != xs[2] || xs[1] % kvol as u64 != 0 {
        return Err(n.err(format!(
            "input {xs:?} does not hold {nb:?} blocks of {block:?} for image {image:?}"
        )));
    }
    if kvol > UNROLL_LIMIT {
        return Err(n.err(format!(
            "{kvol} block positions exceed the {UNROLL_LIMIT} this lowering unrolls"
        )));
    }
    let ch = xs[1] / kvol as u64;
    let mut oshape = vec![xs[0], ch];
    oshape.extend(image.iter().map(|&d| d as u64));
    let xv = c.ssa(x);
    let elem = dt.elem();
    let lo: Vec<i64> = pads[..k].to_vec();
    let y = indexed_generic(c, &oshape, dt, &[], |bb, li, _| {
        let i64t = ElemType::I64;
        let idx = |bb: &mut BodyBuilder<'_>, v: TValue| {
            bb.arith(ArithOp::IndexCast, vec![v], ElemType::Index)
        };
        let cc = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
        let kv = bb.constant(ScalarBits::Int(kvol), i64t);
        let cbase = bb.arith(ArithOp::MulI, vec![cc, kv], i64t);
        let o: Vec<TValue> = (0..k)
            .map(|d| bb.arith(ArithOp::IndexCast, vec![li[2 + d]], i64t))
            .collect();
        let zero = cst(bb, dt, 0.0);
        let mut acc = cst(bb, dt, 0.0);
        for p in 0..kvol {
            let mut rem = p;
            let mut kk = vec![0i64; k];
            for d in (0..k).rev() {
                kk[d] = rem % block[d];
                rem /= block[d];
            }
            let (ok, bi) = source(bb, &o, &kk, &lo, &dil, &strides, &nb);
            // Column: the block's row-major position.
            let mut col = bb.constant(ScalarBits::Int(0), ElemType::Index);
            for d in 0..k {
                let m = bb.constant(ScalarBits::Int(nb[d]), ElemType::Index);
                let s = bb.arith(ArithOp::MulI, vec![col, m], ElemType::Index);
                col = bb.arith(ArithOp::AddI, vec![s, bi[d]], ElemType::Index);
            }
            let pc = bb.constant(ScalarBits::Int(p), i64t);
            let row = bb.arith(ArithOp::AddI, vec![cbase, pc], i64t);
            let row = idx(bb, row);
            let e = extract(bb, xv, &[li[0], row, col], elem);
            let e = select(bb, ok, e, zero);
            acc = arith(bb, dt, Bin::Add, acc, e);
        }
        acc
    });
    Ok(vec![y])
}
