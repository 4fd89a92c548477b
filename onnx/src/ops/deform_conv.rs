//! `DeformConv` (opset 19), 2-D: one generic over the output; each element
//! sums, over its group's input channels and the kernel positions
//! (unrolled in the body), `W * mask * X(p)`, where `X(p)` is the input
//! sampled bilinearly (zero outside, as ONNX's reference's GridSample with
//! aligned corners) at the kernel tap moved by its learned offset.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, cmp, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

/// Most input-channel x kernel positions one output element may unroll.
const UNROLL_LIMIT: u64 = 1024;

/// `X[n, ch]` at the fractional position `(h, w)`: the four neighbours
/// weighted bilinearly, those outside the `[ih, iw]` image read as 0.
#[allow(
    clippy::too_many_arguments,
    reason = "the sample's coordinates, one each"
)]
fn bilinear(
    bb: &mut BodyBuilder<'_>,
    dt: DataType,
    x: TValue,
    (n, ch): (TValue, TValue),
    (h, w): (TValue, TValue),
    (ih, iw): (i64, i64),
) -> TValue {
    let i64t = ElemType::I64;
    let one = cst(bb, dt, 1.0);
    let zero = cst(bb, dt, 0.0);
    let h0 = math(bb, MathOp::Floor, h);
    let w0 = math(bb, MathOp::Floor, w);
    let fh = arith(bb, dt, Bin::Sub, h, h0);
    let fw = arith(bb, dt, Bin::Sub, w, w0);
    let gh = arith(bb, dt, Bin::Sub, one, fh);
    let gw = arith(bb, dt, Bin::Sub, one, fw);
    let h1 = arith(bb, dt, Bin::Add, h0, one);
    let w1 = arith(bb, dt, Bin::Add, w0, one);
    let mut acc = cst(bb, dt, 0.0);
    for (yy, wy) in [(h0, gh), (h1, fh)] {
        for (xx, wx) in [(w0, gw), (w1, fw)] {
            let mut ok = bb.constant(ScalarBits::Int(1), ElemType::I1);
            let mut at = vec![n, ch];
            for (v, size) in [(yy, ih), (xx, iw)] {
                let i = bb.arith(ArithOp::FPToSI, vec![v], ElemType::I32);
                let i = bb.arith(ArithOp::ExtSI, vec![i], i64t);
                let z = bb.constant(ScalarBits::Int(0), i64t);
                let last = bb.constant(ScalarBits::Int(size - 1), i64t);
                let ge = cmp(bb, DataType::Int64, Cmp::Ge, i, z);
                let le = cmp(bb, DataType::Int64, Cmp::Le, i, last);
                let inside = bb.arith(ArithOp::AndI, vec![ge, le], ElemType::I1);
                ok = bb.arith(ArithOp::AndI, vec![ok, inside], ElemType::I1);
                let cl = bb.arith(ArithOp::MaxSI, vec![i, z], i64t);
                let cl = bb.arith(ArithOp::MinSI, vec![cl, last], i64t);
                at.push(bb.arith(ArithOp::IndexCast, vec![cl], ElemType::Index));
            }
            let e = extract(bb, x, &at, dt.elem());
            let e = select(bb, ok, e, zero);
            let k = arith(bb, dt, Bin::Mul, wy, wx);
            let t = arith(bb, dt, Bin::Mul, k, e);
            acc = arith(bb, dt, Bin::Add, acc, t);
        }
    }
    acc
}

/// `DeformConv(X, W, offset, B?, mask?)`: `strides`, `dilations`, `pads`,
/// `group`, `offset_group`, `kernel_shape`.
pub fn deform_conv(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w, off) = (n.input(0)?, n.input(1)?, n.input(2)?);
    let dt = x.dtype;
    if !dt.is_float() || w.dtype != dt || off.dtype != dt {
        return Err(n.err("DeformConv needs X, W and offset of one float type"));
    }
    let (xs, ws, os) = match (x.static_shape(), w.static_shape(), off.static_shape()) {
        (Some(a), Some(b), Some(o)) if a.len() == 4 && b.len() == 4 && o.len() == 4 => (a, b, o),
        _ => return Err(n.err("only 2-D DeformConv of static shapes is supported")),
    };
    let ints = |name: &str, default: i64, len: usize| match n.ints(name) {
        Some(v) if v.len() == len => Ok(v),
        Some(v) => Err(n.err(format!("{name} {v:?} does not fit 2 spatial dims"))),
        None => Ok(vec![default; len]),
    };
    let strides = ints("strides", 1, 2)?;
    let dil = ints("dilations", 1, 2)?;
    let pads = ints("pads", 0, 4)?;
    let group = n.int("group", 1).max(1) as u64;
    let og = n.int("offset_group", 1).max(1) as u64;
    let (kh, kw) = (ws[2] as i64, ws[3] as i64);
    let (nb, ic, oc) = (xs[0], xs[1], ws[0]);
    let (oh, ow) = (os[2], os[3]);
    let kvol = (kh * kw) as u64;
    if ws[1] * group != ic || oc % group != 0 || ic % og != 0 || os[1] != og * kvol * 2 {
        return Err(n.err(format!(
            "X {xs:?}, W {ws:?}, offset {os:?}, group {group} and offset_group {og} do not fit"
        )));
    }
    if ws[1] * kvol > UNROLL_LIMIT {
        return Err(n.err(format!(
            "{} input channels x {kvol} kernel positions exceed the {UNROLL_LIMIT} unrolled",
            ws[1]
        )));
    }
    let (icg, ocg, icog) = (ws[1], oc / group, ic / og);
    let (xv, wv, ov) = (c.ssa(x), c.ssa(w), c.ssa(off));
    let bias = n.opt_input(3).map(|b| c.ssa(b));
    let mask = n.opt_input(4).map(|m| c.ssa(m));
    let (ih, iw) = (xs[2] as i64, xs[3] as i64);
    let elem = dt.elem();
    let y = indexed_generic(c, &[nb, oc, oh, ow], dt, &[], |bb, li, _| {
        let i64t = ElemType::I64;
        let idx = ElemType::Index;
        let o = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
        let ocg_c = bb.constant(ScalarBits::Int(ocg as i64), i64t);
        let g = bb.arith(ArithOp::DivSI, vec![o, ocg_c], i64t);
        // The tap's base position, as floats of dt.
        let base = |bb: &mut BodyBuilder<'_>, l: TValue, s: i64, p: i64| {
            let v = bb.arith(ArithOp::IndexCast, vec![l], i64t);
            let s = bb.constant(ScalarBits::Int(s), i64t);
            let p = bb.constant(ScalarBits::Int(-p), i64t);
            let v = bb.arith(ArithOp::MulI, vec![v, s], i64t);
            let v = bb.arith(ArithOp::AddI, vec![v, p], i64t);
            bb.arith(ArithOp::SIToFP, vec![v], elem)
        };
        let bh = base(bb, li[2], strides[0], pads[0]);
        let bw = base(bb, li[3], strides[1], pads[1]);
        let mut acc = cst(bb, dt, 0.0);
        for j in 0..icg {
            // Input channel g * icg + j; its offset group.
            let icg_c = bb.constant(ScalarBits::Int(icg as i64), i64t);
            let gb = bb.arith(ArithOp::MulI, vec![g, icg_c], i64t);
            let jc = bb.constant(ScalarBits::Int(j as i64), i64t);
            let ch = bb.arith(ArithOp::AddI, vec![gb, jc], i64t);
            let icog_c = bb.constant(ScalarBits::Int(icog as i64), i64t);
            let ogi = bb.arith(ArithOp::DivSI, vec![ch, icog_c], i64t);
            let chi = bb.arith(ArithOp::IndexCast, vec![ch], idx);
            for ki in 0..kh {
                for kj in 0..kw {
                    let tap = ki * kw + kj;
                    // offset channel ((og * kh + ki) * kw + kj) * 2 + d.
                    let kv = bb.constant(ScalarBits::Int(kvol as i64), i64t);
                    let ob = bb.arith(ArithOp::MulI, vec![ogi, kv], i64t);
                    let tc = bb.constant(ScalarBits::Int(tap), i64t);
                    let mch = bb.arith(ArithOp::AddI, vec![ob, tc], i64t);
                    let two = bb.constant(ScalarBits::Int(2), i64t);
                    let o2 = bb.arith(ArithOp::MulI, vec![mch, two], i64t);
                    let one = bb.constant(ScalarBits::Int(1), i64t);
                    let o2b = bb.arith(ArithOp::AddI, vec![o2, one], i64t);
                    let (o2i, o2bi) = (
                        bb.arith(ArithOp::IndexCast, vec![o2], idx),
                        bb.arith(ArithOp::IndexCast, vec![o2b], idx),
                    );
                    let dy = extract(bb, ov, &[li[0], o2i, li[2], li[3]], elem);
                    let dx = extract(bb, ov, &[li[0], o2bi, li[2], li[3]], elem);
                    let ty = cst(bb, dt, (ki * dil[0]) as f64);
                    let tx = cst(bb, dt, (kj * dil[1]) as f64);
                    let h = arith(bb, dt, Bin::Add, bh, ty);
                    let h = arith(bb, dt, Bin::Add, h, dy);
                    let wpos = arith(bb, dt, Bin::Add, bw, tx);
                    let wpos = arith(bb, dt, Bin::Add, wpos, dx);
                    let s = bilinear(bb, dt, xv, (li[0], chi), (h, wpos), (ih, iw));
                    let (jj, a, b) = (
                        index_const(bb, j as i64),
                        index_const(bb, ki),
                        index_const(bb, kj),
                    );
                    let we = extract(bb, wv, &[li[1], jj, a, b], elem);
                    let mut t = arith(bb, dt, Bin::Mul, s, we);
                    if let Some(m) = mask {
                        let mi = bb.arith(ArithOp::IndexCast, vec![mch], idx);
                        let me = extract(bb, m, &[li[0], mi, li[2], li[3]], elem);
                        t = arith(bb, dt, Bin::Mul, t, me);
                    }
                    acc = arith(bb, dt, Bin::Add, acc, t);
                }
            }
        }
        if let Some(b) = bias {
            let be = extract(bb, b, &[li[1]], elem);
            acc = arith(bb, dt, Bin::Add, acc, be);
        }
        acc
    });
    Ok(vec![y])
}
