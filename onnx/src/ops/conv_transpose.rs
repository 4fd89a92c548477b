//! `ConvTranspose` of any spatial rank as one generic over the output:
//! each output element sums, over its group's input channels and the
//! kernel positions (unrolled in the body), the inputs it receives
//! (`o = i * stride + k * dilation - pad_begin`); where the strides equal
//! the kernel, a 1x1 convolution instead (`conv_transpose_tiled.rs`).

use kiln_core::tensor::attr::{CmpIPred, ScalarBits};
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, cst, select, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// Most input-channel x kernel positions one output element may unroll.
const UNROLL_LIMIT: u64 = 4096;

fn list(
    n: &Node<'_>,
    name: &str,
    k: usize,
    default: i64,
) -> Result<Vec<i64>, crate::error::OnnxError> {
    match n.ints(name) {
        Some(v) if v.len() == k => Ok(v),
        Some(v) => Err(n.err(format!("{name} {v:?} does not fit {k} spatial dims"))),
        None => Ok(vec![default; k]),
    }
}

/// The input position feeding output position `o` (i64 loop indices) at
/// kernel position `kk`, for `o = i * stride + k * dilation - lo`: whether
/// there is one (`o + lo - k * dilation` a non-negative multiple of the
/// stride, `i` below `size`), and `i` clamped into range as `index`
/// values (ConvTranspose's and Col2Im's scatter read as a gather).
pub fn source(
    bb: &mut BodyBuilder<'_>,
    o: &[TValue],
    kk: &[i64],
    lo: &[i64],
    dil: &[i64],
    strides: &[i64],
    size: &[i64],
) -> (TValue, Vec<TValue>) {
    let (i64t, i1) = (ElemType::I64, ElemType::I1);
    let mut ok = bb.constant(ScalarBits::Int(1), i1);
    let mut xi: Vec<TValue> = Vec::with_capacity(o.len());
    for d in 0..o.len() {
        let off = bb.constant(ScalarBits::Int(lo[d] - kk[d] * dil[d]), i64t);
        let t = bb.arith(ArithOp::AddI, vec![o[d], off], i64t);
        let s = bb.constant(ScalarBits::Int(strides[d]), i64t);
        let z = bb.constant(ScalarBits::Int(0), i64t);
        let r = bb.arith(ArithOp::RemSI, vec![t, s], i64t);
        let q = bb.arith(ArithOp::DivSI, vec![t, s], i64t);
        let l = bb.constant(ScalarBits::Int(size[d]), i64t);
        let c1 = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![t, z], i1);
        let c2 = bb.arith(ArithOp::CmpI(CmpIPred::Eq), vec![r, z], i1);
        let c3 = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![q, l], i1);
        for cnd in [c1, c2, c3] {
            ok = bb.arith(ArithOp::AndI, vec![ok, cnd], i1);
        }
        let last = bb.constant(ScalarBits::Int(size[d] - 1), i64t);
        let qc = bb.arith(ArithOp::MaxSI, vec![q, z], i64t);
        let qc = bb.arith(ArithOp::MinSI, vec![qc, last], i64t);
        xi.push(bb.arith(ArithOp::IndexCast, vec![qc], ElemType::Index));
    }
    (ok, xi)
}

/// `ConvTranspose(X, W, B?)`: strides, dilations, pads, `auto_pad`,
/// `output_padding`, `output_shape`, `group`.
pub fn conv_transpose(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(1)?);
    let dt = x.dtype;
    if !dt.is_float() || w.dtype != dt {
        return Err(n.err("ConvTranspose needs float X and W of one type"));
    }
    let xs = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let ws = w
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    if xs.len() < 3 || ws.len() != xs.len() {
        return Err(n.err(format!(
            "X {xs:?} and W {ws:?} must be (N, C, spatial...) and (C, M/group, kernel...)"
        )));
    }
    let k = xs.len() - 2;
    let group = n.int("group", 1);
    if group <= 0 || xs[1] % group as u64 != 0 || ws[0] != xs[1] {
        return Err(n.err(format!("group {group} does not fit X {xs:?} and W {ws:?}")));
    }
    let group = group as u64;
    let icg = xs[1] / group;
    let ocg = ws[1];
    let kernel: Vec<i64> = ws[2..].iter().map(|&d| d as i64).collect();
    if let Some(ks) = n.ints("kernel_shape") {
        if ks != kernel {
            return Err(n.err(format!("kernel_shape {ks:?} differs from W's {kernel:?}")));
        }
    }
    let strides = list(n, "strides", k, 1)?;
    let dil = list(n, "dilations", k, 1)?;
    let opad = list(n, "output_padding", k, 0)?;
    if strides.iter().chain(&dil).any(|&v| v <= 0) || opad.iter().any(|&v| v < 0) {
        return Err(n.err("strides and dilations must be positive, output_padding not negative"));
    }
    let size: Vec<i64> = xs[2..].iter().map(|&d| d as i64).collect();
    let eff: Vec<i64> = (0..k).map(|d| (kernel[d] - 1) * dil[d] + 1).collect();
    let full: Vec<i64> = (0..k)
        .map(|d| strides[d] * (size[d] - 1) + opad[d] + eff[d])
        .collect();
    let auto_pad = n.string("auto_pad", "NOTSET");
    let (mut lo, mut out) = (vec![0i64; k], vec![0i64; k]);
    let target: Option<Vec<i64>> = match n.ints("output_shape") {
        Some(os) => {
            let os = if os.len() == k + 2 {
                os[2..].to_vec()
            } else {
                os
            };
            if os.len() != k {
                return Err(n.err(format!("output_shape {os:?} does not fit {k} spatial dims")));
            }
            Some(os)
        }
        None if auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" => {
            Some((0..k).map(|d| size[d] * strides[d]).collect())
        }
        None => None,
    };
    match target {
        Some(t) => {
            for d in 0..k {
                // Floor division, as ONNX's reference (a negative total
                // pads the output).
                let total = full[d] - t[d];
                let half = total.div_euclid(2);
                lo[d] = if auto_pad == "SAME_UPPER" {
                    half
                } else {
                    total - half
                };
                out[d] = t[d];
            }
        }
        None => {
            let pads = list(n, "pads", 2 * k, 0)?;
            if auto_pad != "NOTSET" && auto_pad != "VALID" {
                return Err(n.err(format!("auto_pad {auto_pad} is not supported")));
            }
            for d in 0..k {
                lo[d] = pads[d];
                out[d] = full[d] - pads[d] - pads[d + k];
            }
        }
    }
    if out.iter().any(|&o| o <= 0) {
        return Err(n.err(format!("the output would be {out:?}")));
    }
    let geometry = super::conv_transpose_tiled::Geometry {
        xs: &xs,
        ws: &ws,
        group,
        strides: &strides,
        dil: &dil,
        lo: &lo,
        out: &out,
    };
    if let Some(y) = super::conv_transpose_tiled::stride_tiled(c, n, x, w, &geometry)? {
        return Ok(vec![y]);
    }
    let kvol: i64 = kernel.iter().product();
    if icg * kvol as u64 > UNROLL_LIMIT {
        return Err(n.err(format!(
            "{icg} input channels per group x {kvol} kernel positions exceed the {UNROLL_LIMIT} \
             this lowering unrolls"
        )));
    }
    let mut oshape = vec![xs[0], ocg * group];
    oshape.extend(out.iter().map(|&o| o as u64));
    let xv = c.ssa(x);
    let wv = c.ssa(w);
    let bias = n.opt_input(2).map(|b| c.ssa(b));
    let elem = dt.elem();
    let y = indexed_generic(c, &oshape, dt, &[], |bb, li, _| {
        let i64t = ElemType::I64;
        let oc = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
        let ocg_c = bb.constant(ScalarBits::Int(ocg as i64), i64t);
        let g = bb.arith(ArithOp::DivSI, vec![oc, ocg_c], i64t);
        let m = bb.arith(ArithOp::RemSI, vec![oc, ocg_c], i64t);
        let mi = bb.arith(ArithOp::IndexCast, vec![m], ElemType::Index);
        let icg_c = bb.constant(ScalarBits::Int(icg as i64), i64t);
        let cbase = bb.arith(ArithOp::MulI, vec![g, icg_c], i64t);
        let o: Vec<TValue> = (0..k)
            .map(|d| bb.arith(ArithOp::IndexCast, vec![li[2 + d]], i64t))
            .collect();
        let mut acc = cst(bb, dt, 0.0);
        let zero = cst(bb, dt, 0.0);
        for p in 0..kvol {
            let mut rem = p;
            let mut kk = vec![0i64; k];
            for d in (0..k).rev() {
                kk[d] = rem % kernel[d];
                rem /= kernel[d];
            }
            let (ok, xi) = source(bb, &o, &kk, &lo, &dil, &strides, &size);
            let kidx: Vec<TValue> = kk.iter().map(|&v| index_const(bb, v)).collect();
            for ic in 0..icg {
                let icc = bb.constant(ScalarBits::Int(ic as i64), i64t);
                let ch = bb.arith(ArithOp::AddI, vec![cbase, icc], i64t);
                let chi = bb.arith(ArithOp::IndexCast, vec![ch], ElemType::Index);
                let mut at = vec![li[0], chi];
                at.extend(&xi);
                let xe = extract(bb, xv, &at, elem);
                let mut wat = vec![chi, mi];
                wat.extend(&kidx);
                let we = extract(bb, wv, &wat, elem);
                let pr = arith(bb, dt, Bin::Mul, xe, we);
                let pr = select(bb, ok, pr, zero);
                acc = arith(bb, dt, Bin::Add, acc, pr);
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
