//! Pooling of any spatial rank as one generic over the output, the window
//! unrolled in its body: `MaxPool`/`AveragePool` where `conv.rs`'s
//! `linalg.pooling_*` path does not reach (3-D, integer `MaxPool`,
//! `MaxPool`'s Indices output) and `LpPool`.

use kiln_core::tensor::attr::{CmpIPred, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::{ElemType, TValue};

use super::gather::{extract, indexed_generic};
use super::reduce::lowest_of;
use super::scalar::{arith, cmp, cst, math, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// The window of a pooling node over spatial sizes `size`.
pub struct Geometry {
    /// Window size per spatial dim.
    pub kernel: Vec<u64>,
    /// Strides.
    pub strides: Vec<u64>,
    /// Dilations.
    pub dilations: Vec<u64>,
    /// Low padding.
    pub lo: Vec<u64>,
    /// High padding.
    pub hi: Vec<u64>,
    /// Output sizes.
    pub out: Vec<u64>,
}

fn list(n: &Node<'_>, name: &str, k: usize, default: u64) -> Result<Vec<u64>, OnnxError> {
    match n.ints(name) {
        Some(v) if v.len() == k && v.iter().all(|&x| x > 0) => {
            Ok(v.iter().map(|&x| x as u64).collect())
        }
        Some(v) => Err(n.err(format!("{name} {v:?} does not fit {k} spatial dims"))),
        None => Ok(vec![default; k]),
    }
}

/// Low pads, high pads and output sizes per spatial dim.
pub type Padding = (Vec<u64>, Vec<u64>, Vec<u64>);

/// ONNX's padding and output size of a window (`kernel`, `strides`,
/// `dilations`) over `size`, from the node's `pads`/`auto_pad` (Conv's
/// and the pools'): low pads, high pads, output sizes; with `ceil`, a last
/// window starting in the high padding is dropped.
pub fn padding(
    n: &Node<'_>,
    size: &[u64],
    kernel: &[u64],
    strides: &[u64],
    dilations: &[u64],
    ceil: bool,
) -> Result<Padding, OnnxError> {
    let k = size.len();
    let (mut lo, mut hi) = (vec![0u64; k], vec![0u64; k]);
    let auto_pad = n.string("auto_pad", "NOTSET");
    match auto_pad.as_str() {
        "NOTSET" => {
            if let Some(p) = n.ints("pads") {
                if p.len() != 2 * k || p.iter().any(|&x| x < 0) {
                    return Err(n.err(format!("pads {p:?} do not fit {k} spatial dims")));
                }
                for d in 0..k {
                    lo[d] = p[d] as u64;
                    hi[d] = p[d + k] as u64;
                }
            }
        }
        "VALID" => {}
        "SAME_UPPER" | "SAME_LOWER" => {
            for d in 0..k {
                let out = size[d].div_ceil(strides[d]);
                let eff = dilations[d] * (kernel[d] - 1) + 1;
                let total = ((out - 1) * strides[d] + eff).saturating_sub(size[d]);
                let small = total / 2;
                (lo[d], hi[d]) = if auto_pad == "SAME_UPPER" {
                    (small, total - small)
                } else {
                    (total - small, small)
                };
            }
        }
        other => return Err(n.err(format!("auto_pad {other} is not supported"))),
    }
    let mut out = vec![0u64; k];
    for d in 0..k {
        let eff = dilations[d] * (kernel[d] - 1) + 1;
        let span = size[d] + lo[d] + hi[d];
        if span < eff {
            return Err(n.err("the window is larger than the padded input"));
        }
        let num = span - eff;
        out[d] = if ceil {
            num.div_ceil(strides[d]) + 1
        } else {
            num / strides[d] + 1
        };
        if ceil && (out[d] - 1) * strides[d] >= size[d] + lo[d] {
            out[d] -= 1;
        }
    }
    Ok((lo, hi, out))
}

/// ONNX's pooling geometry (pads, `auto_pad`, `ceil_mode`; a last window
/// starting in the high padding is dropped).
pub fn geometry(n: &Node<'_>, size: &[u64]) -> Result<Geometry, OnnxError> {
    let k = size.len();
    let kernel = list(n, "kernel_shape", k, 0)?;
    if kernel.contains(&0) {
        return Err(n.err("kernel_shape is required"));
    }
    let strides = list(n, "strides", k, 1)?;
    let dilations = list(n, "dilations", k, 1)?;
    let ceil = n.int("ceil_mode", 0) != 0;
    let (lo, hi, out) = padding(n, size, &kernel, &strides, &dilations, ceil)?;
    Ok(Geometry {
        kernel,
        strides,
        dilations,
        lo,
        hi,
        out,
    })
}

/// Which pooling.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Max,
    /// The index of the (first) maximum in the flattened input, row-major
    /// or (`true`) column-major over the spatial dims.
    ArgMax(bool),
    Avg {
        include_pad: bool,
    },
    Lp(i64),
}

/// The pooled tensor of `x` (static `[N, C, spatial...]`).
fn pool_nd(c: &mut Ctx<'_>, n: &Node<'_>, x: &Value, kind: Kind) -> Result<Value, OnnxError> {
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    if s.len() < 3 {
        return Err(n.err("pooling needs (N, C, spatial...)"));
    }
    let sp = &s[2..];
    let g = geometry(n, sp)?;
    let dt = x.dtype;
    let out_dt = if matches!(kind, Kind::ArgMax(_)) {
        DataType::Int64
    } else {
        dt
    };
    let mut out = s[..2].to_vec();
    out.extend(&g.out);
    let src = c.ssa(x);
    let elem = dt.elem();
    let k = sp.len();
    let positions: u64 = g.kernel.iter().product();
    Ok(indexed_generic(c, &out, out_dt, &[], |bb, li, _| {
        let i64t = ElemType::I64;
        let i1 = ElemType::I1;
        let mut acc = match kind {
            Kind::Max | Kind::ArgMax(_) => {
                let low = lowest_of(dt);
                match low {
                    ScalarBits::Float(f) => cst(bb, dt, f),
                    ScalarBits::Int(v) => bb.constant(ScalarBits::Int(v), elem),
                }
            }
            _ => cst(bb, dt, 0.0),
        };
        let mut best = bb.constant(ScalarBits::Int(-1), i64t);
        let mut count = cst(bb, dt, 0.0);
        let one = cst(bb, dt, 1.0);
        let zero = cst(bb, dt, 0.0);
        let o: Vec<TValue> = (0..k)
            .map(|d| bb.arith(ArithOp::IndexCast, vec![li[2 + d]], i64t))
            .collect();
        for p in 0..positions {
            // The window position's offsets, last dim fastest.
            let mut rem = p;
            let mut kk = vec![0u64; k];
            for d in (0..k).rev() {
                kk[d] = rem % g.kernel[d];
                rem /= g.kernel[d];
            }
            let mut inside = bb.constant(ScalarBits::Int(1), i1);
            let mut in_padded = bb.constant(ScalarBits::Int(1), i1);
            let mut at = vec![li[0], li[1]];
            let mut idx64 = Vec::with_capacity(k);
            for d in 0..k {
                let st = bb.constant(ScalarBits::Int(g.strides[d] as i64), i64t);
                let off = (kk[d] * g.dilations[d]) as i64 - g.lo[d] as i64;
                let offc = bb.constant(ScalarBits::Int(off), i64t);
                let t = bb.arith(ArithOp::MulI, vec![o[d], st], i64t);
                let i = bb.arith(ArithOp::AddI, vec![t, offc], i64t);
                let z = bb.constant(ScalarBits::Int(0), i64t);
                let nd = bb.constant(ScalarBits::Int(sp[d] as i64), i64t);
                let ge = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![i, z], i1);
                let lt = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![i, nd], i1);
                let ok = bb.arith(ArithOp::AndI, vec![ge, lt], i1);
                inside = bb.arith(ArithOp::AndI, vec![inside, ok], i1);
                let plo = bb.constant(ScalarBits::Int(-(g.lo[d] as i64)), i64t);
                let phi = bb.constant(ScalarBits::Int((sp[d] + g.hi[d]) as i64), i64t);
                let ge = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![i, plo], i1);
                let lt = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![i, phi], i1);
                let ok = bb.arith(ArithOp::AndI, vec![ge, lt], i1);
                in_padded = bb.arith(ArithOp::AndI, vec![in_padded, ok], i1);
                let last = bb.constant(ScalarBits::Int(sp[d] as i64 - 1), i64t);
                let ic = bb.arith(ArithOp::MaxSI, vec![i, z], i64t);
                let ic = bb.arith(ArithOp::MinSI, vec![ic, last], i64t);
                idx64.push(ic);
                at.push(bb.arith(ArithOp::IndexCast, vec![ic], ElemType::Index));
            }
            let e = extract(bb, src, &at, elem);
            match kind {
                Kind::Max => {
                    let m = arith(bb, dt, Bin::Max, acc, e);
                    acc = select(bb, inside, m, acc);
                }
                Kind::ArgMax(col) => {
                    // The flat index: (n * C + c) * prod(spatial) + spatial.
                    let nn = bb.arith(ArithOp::IndexCast, vec![li[0]], i64t);
                    let cc = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
                    let ch = bb.constant(ScalarBits::Int(s[1] as i64), i64t);
                    let t = bb.arith(ArithOp::MulI, vec![nn, ch], i64t);
                    let t = bb.arith(ArithOp::AddI, vec![t, cc], i64t);
                    let vol = bb.constant(ScalarBits::Int(sp.iter().product::<u64>() as i64), i64t);
                    let mut flat = bb.arith(ArithOp::MulI, vec![t, vol], i64t);
                    for d in 0..k {
                        let stride: u64 = if col {
                            sp[..d].iter().product()
                        } else {
                            sp[d + 1..].iter().product()
                        };
                        let sc = bb.constant(ScalarBits::Int(stride as i64), i64t);
                        let t = bb.arith(ArithOp::MulI, vec![idx64[d], sc], i64t);
                        flat = bb.arith(ArithOp::AddI, vec![flat, t], i64t);
                    }
                    let gt = cmp(bb, dt, Cmp::Gt, e, acc);
                    let first = bb.constant(ScalarBits::Int(-1), i64t);
                    let none = bb.arith(ArithOp::CmpI(CmpIPred::Eq), vec![best, first], i1);
                    let better = bb.arith(ArithOp::OrI, vec![gt, none], i1);
                    let take = bb.arith(ArithOp::AndI, vec![inside, better], i1);
                    acc = select(bb, take, e, acc);
                    best = select(bb, take, flat, best);
                }
                Kind::Avg { include_pad } => {
                    let v = select(bb, inside, e, zero);
                    acc = arith(bb, dt, Bin::Add, acc, v);
                    let counted = if include_pad { in_padded } else { inside };
                    let inc = select(bb, counted, one, zero);
                    count = arith(bb, dt, Bin::Add, count, inc);
                }
                Kind::Lp(pw) => {
                    let a = math(bb, MathOp::AbsF, e);
                    let pc = cst(bb, dt, pw as f64);
                    let t = bb.math(MathOp::PowF, vec![a, pc]);
                    let v = select(bb, inside, t, zero);
                    acc = arith(bb, dt, Bin::Add, acc, v);
                }
            }
        }
        match kind {
            Kind::Max => acc,
            Kind::ArgMax(_) => best,
            Kind::Avg { .. } => {
                let c1 = arith(bb, dt, Bin::Max, count, one);
                arith(bb, dt, Bin::Div, acc, c1)
            }
            Kind::Lp(pw) => {
                let inv = cst(bb, dt, 1.0 / pw as f64);
                bb.math(MathOp::PowF, vec![acc, inv])
            }
        }
    }))
}

/// Whether `conv.rs`'s `linalg.pooling_*` path takes this node (1-D and
/// 2-D float pooling without the Indices output).
pub fn named_path(n: &Node<'_>, x: &Value) -> bool {
    (x.rank() == 3 || x.rank() == 4) && x.dtype.is_float() && !n.wants_output(1)
}

/// `MaxPool` by `pool_nd`: the values, and the Indices when asked for.
pub fn max_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    if x.dtype == DataType::Bool || x.dtype.is_narrow() {
        return Err(n.err(format!("MaxPool of {}", x.dtype.name())));
    }
    let y = pool_nd(c, n, x, Kind::Max)?;
    if !n.wants_output(1) {
        return Ok(vec![y]);
    }
    let col = n.int("storage_order", 0) != 0;
    let i = pool_nd(c, n, x, Kind::ArgMax(col))?;
    Ok(vec![y, i])
}

/// `AveragePool` by `pool_nd`.
pub fn average_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    if !x.dtype.is_float() {
        return Err(n.err(format!("AveragePool of {}", x.dtype.name())));
    }
    let include_pad = n.int("count_include_pad", 0) != 0;
    Ok(vec![pool_nd(c, n, x, Kind::Avg { include_pad })?])
}

/// `LpPool(p)`: `(sum |x|^p)^(1/p)` over each window (padding adds 0).
pub fn lp_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    if !x.dtype.is_float() {
        return Err(n.err(format!("LpPool of {}", x.dtype.name())));
    }
    let p = n.int("p", 2);
    if p <= 0 {
        return Err(n.err(format!("p = {p} must be positive")));
    }
    Ok(vec![pool_nd(c, n, x, Kind::Lp(p))?])
}
