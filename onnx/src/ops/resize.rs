//! `Resize` (opset 11+; scales or sizes known at import time): separable,
//! one `linalg.generic` per resized axis. The taps of each output position
//! (input indices, clamped to the edge, and their weights) are computed on
//! the host exactly as ONNX's reference does (`op_resize.py`:
//! coordinate modes, nearest modes, linear, cubic with `A` and
//! `exclude_outside`, `tf_crop_and_resize` extrapolation) and become two
//! small constant tables the kernel reads with `tensor.extract`.

use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::ElemType;

use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, convert, cst, select, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// How output positions map to taps.
struct Mode {
    mode: String,
    coord: String,
    nearest: String,
    a: f64,
    exclude_outside: bool,
    antialias: bool,
}

fn coeffs(m: &Mode, ratio: f64, scale: f64) -> Vec<f64> {
    if m.antialias && m.mode != "nearest" {
        // The kernel stretched by 1/scale when downsampling.
        let sc = scale.min(1.0);
        let (start, end) = if m.mode == "linear" {
            let start = (-1.0 / sc).floor() as i64 + 1;
            (start, start + 2 - 2 * start)
        } else {
            let start = (-2.0 / sc).floor() as i64 + 1;
            (start, 2 - start)
        };
        let a = m.a;
        let c: Vec<f64> = (start..end)
            .map(|i| {
                let x = (sc * (i as f64 - ratio)).abs();
                if m.mode == "linear" {
                    (1.0 - x).clamp(0.0, 1.0)
                } else if x <= 1.0 {
                    (a + 2.0) * x * x * x - (a + 3.0) * x * x + 1.0
                } else if x < 2.0 {
                    a * x * x * x - 5.0 * a * x * x + 8.0 * a * x - 4.0 * a
                } else {
                    0.0
                }
            })
            .collect();
        let sum: f64 = c.iter().sum();
        return c.into_iter().map(|v| v / sum).collect();
    }
    match m.mode.as_str() {
        "nearest" => {
            if ratio.fract() == 0.0 {
                return vec![0.0, 1.0];
            }
            let up = match m.nearest.as_str() {
                "round_prefer_ceil" => ratio >= 0.5,
                "floor" => false,
                "ceil" => true,
                _ => ratio > 0.5,
            };
            if up {
                vec![0.0, 1.0]
            } else {
                vec![1.0, 0.0]
            }
        }
        "linear" => vec![1.0 - ratio, ratio],
        _ => {
            let a = m.a;
            let r1 = ratio + 1.0;
            let q = 1.0 - ratio;
            let q1 = q + 1.0;
            vec![
                ((a * r1 - 5.0 * a) * r1 + 8.0 * a) * r1 - 4.0 * a,
                ((a + 2.0) * ratio - (a + 3.0)) * ratio * ratio + 1.0,
                ((a + 2.0) * q - (a + 3.0)) * q * q + 1.0,
                ((a * q1 - 5.0 * a) * q1 + 8.0 * a) * q1 - 4.0 * a,
            ]
        }
    }
}

/// The taps of one axis: per output position, `n` (index, weight) pairs
/// and whether it is extrapolated.
#[allow(clippy::type_complexity)]
fn taps(
    m: &Mode,
    input: u64,
    out: u64,
    scale: f64,
    roi: (f64, f64),
) -> (usize, Vec<i64>, Vec<f64>, Vec<bool>) {
    let iw = input as f64;
    let ow = scale * iw;
    let mut idx = Vec::new();
    let mut w = Vec::new();
    let mut ext = Vec::new();
    let mut n = 0;
    for o in 0..out {
        let y = o as f64;
        let mut extra = false;
        let x = match m.coord.as_str() {
            "align_corners" if ow == 1.0 => 0.0,
            "align_corners" => y * (iw - 1.0) / (ow - 1.0),
            "asymmetric" => y / scale,
            "tf_crop_and_resize" => {
                let x = if ow == 1.0 {
                    (roi.1 - roi.0) * (iw - 1.0) / 2.0
                } else {
                    y * (roi.1 - roi.0) * (iw - 1.0) / (ow - 1.0)
                } + roi.0 * (iw - 1.0);
                extra = x < 0.0 || x > iw - 1.0;
                x
            }
            "pytorch_half_pixel" if ow == 1.0 => -0.5,
            "half_pixel_symmetric" => {
                let adjustment = out as f64 / ow;
                let center = iw / 2.0;
                center * (1.0 - adjustment) + (y + 0.5) / scale - 0.5
            }
            _ => (y + 0.5) / scale - 0.5,
        };
        let xi = x.floor();
        let ratio = if x == xi { 1.0 } else { x - xi };
        let mut c = coeffs(m, ratio, scale);
        n = c.len();
        let pad = n.div_ceil(2) as f64;
        let xp = x + pad;
        let p = xp.floor();
        let frac = xp - p;
        let off = if n % 2 == 0 {
            if frac == 0.0 {
                -((n / 2) as f64)
            } else {
                -((n / 2) as f64) + 1.0
            }
        } else {
            let base = -(((n - 1) / 2) as f64);
            if frac <= 0.5 {
                base
            } else {
                base + 1.0
            }
        };
        let start = (p + off) as i64 - pad as i64;
        let ids: Vec<i64> = (0..n as i64).map(|k| start + k).collect();
        if m.exclude_outside {
            for (k, &i) in ids.iter().enumerate() {
                if i < 0 || i >= input as i64 {
                    c[k] = 0.0;
                }
            }
            let s: f64 = c.iter().sum();
            let s = if s == 0.0 { 1.0 } else { s };
            c.iter_mut().for_each(|v| *v /= s);
        }
        idx.extend(ids.iter().map(|&i| i.clamp(0, input as i64 - 1)));
        w.extend(c);
        ext.push(extra);
    }
    (n, idx, w, ext)
}

/// `Resize(X, roi, scales, sizes)`.
pub fn resize(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    let r = s.len();
    let dt = x.dtype;
    let m = Mode {
        mode: n.string("mode", "nearest"),
        coord: n.string("coordinate_transformation_mode", "half_pixel"),
        nearest: n.string("nearest_mode", "round_prefer_floor"),
        a: f64::from(n.float("cubic_coeff_a", -0.75)),
        exclude_outside: n.int("exclude_outside", 0) != 0,
        antialias: n.int("antialias", 0) != 0,
    };
    if !matches!(m.mode.as_str(), "nearest" | "linear" | "cubic") {
        return Err(n.err(format!("mode {:?} is not defined", m.mode)));
    }
    if !dt.is_float() && m.mode != "nearest" {
        return Err(n.err("linear and cubic Resize of integers is not supported"));
    }
    let axes: Vec<usize> = match n.ints("axes") {
        Some(a) => a.iter().map(|&v| n.axis(v, r)).collect::<Result<_, _>>()?,
        None => (0..r).collect(),
    };
    let floats = |i: usize| -> Result<Option<Vec<f64>>, OnnxError> {
        match n.opt_input(i) {
            Some(v)
                if v.static_shape()
                    .is_some_and(|s| s.iter().product::<u64>() > 0) =>
            {
                let t = n.known(i)?;
                Ok(Some((0..t.len()).map(|k| t.float(k)).collect()))
            }
            _ => Ok(None),
        }
    };
    let roi = floats(1)?;
    let scales_in = floats(2)?;
    let sizes_in = match n.opt_input(3) {
        Some(v)
            if v.static_shape()
                .is_some_and(|s| s.iter().product::<u64>() > 0) =>
        {
            Some(n.known(3)?.ints())
        }
        _ => None,
    };
    let mut scale = vec![1.0f64; r];
    let mut out: Vec<u64> = s.clone();
    match (scales_in, sizes_in) {
        (Some(sc), _) => {
            if sc.len() != axes.len() {
                return Err(n.err("one scale per axis"));
            }
            for (k, &a) in axes.iter().enumerate() {
                scale[a] = sc[k];
                out[a] = (sc[k] * s[a] as f64) as u64;
            }
        }
        (None, Some(sz)) => {
            if sz.len() != axes.len() {
                return Err(n.err("one size per axis"));
            }
            for (k, &a) in axes.iter().enumerate() {
                scale[a] = sz[k] as f64 / s[a] as f64;
                out[a] = sz[k].max(0) as u64;
            }
            let policy = n.string("keep_aspect_ratio_policy", "stretch");
            if policy != "stretch" {
                let pick = axes.iter().map(|&a| scale[a]);
                let sc = match policy.as_str() {
                    "not_larger" => pick.fold(f64::INFINITY, f64::min),
                    "not_smaller" => pick.fold(f64::NEG_INFINITY, f64::max),
                    p => return Err(n.err(format!("keep_aspect_ratio_policy {p:?}"))),
                };
                for &a in &axes {
                    scale[a] = sc;
                    out[a] = (sc * s[a] as f64 + 0.5) as u64;
                }
            }
        }
        (None, None) => return Err(n.err("neither scales nor sizes given")),
    }
    let roi_of = |a: usize| -> (f64, f64) {
        match &roi {
            Some(v) if v.len() == 2 * axes.len() => {
                let k = axes.iter().position(|&x| x == a).unwrap_or(0);
                (v[k], v[axes.len() + k])
            }
            Some(v) if v.len() == 2 * r => (v[a], v[r + a]),
            _ => (0.0, 1.0),
        }
    };
    let extrapolation = f64::from(n.float("extrapolation_value", 0.0));
    // A transpose (convolutions' NHWC output seen as NCHW) is resized in
    // its source's layout, ONNX axis `a` being the source's `perm[a]`, and
    // the result is a transpose of that: the layers after it stay NHWC.
    let (mut cur, perm) = match x.permuted() {
        Some((src, p)) => (src.clone(), p.to_vec()),
        None => (x.clone(), (0..r).collect()),
    };
    for &a in &axes {
        let (lo, hi) = roi_of(a);
        let tf = m.coord == "tf_crop_and_resize";
        if (scale[a] - 1.0).abs() < 1e-12 && out[a] == s[a] && (!tf || (lo == 0.0 && hi == 1.0)) {
            continue;
        }
        // The host tables: per output position, its taps (up to 4, or
        // about 4 / scale when antialiasing a reduction).
        let per = if m.antialias && m.mode != "nearest" {
            4.0 / scale[a].min(1.0) + 2.0
        } else {
            4.0
        };
        let cells = if per.is_finite() && per >= 1.0 && per < (1u64 << 52) as f64 {
            out[a].checked_mul(per as u64)
        } else {
            None
        };
        let cells = cells.ok_or_else(|| {
            n.err(format!(
                "axis {a} resized to {} with scale {}: too many taps",
                out[a], scale[a]
            ))
        })?;
        crate::size::on_host(cells, 16, "Resize's tap table").map_err(|m| n.err(m))?;
        let (k, idx, w, ext) = taps(&m, s[a], out[a], scale[a], (lo, hi));
        let o = out[a] as usize;
        let it = Value::constant(HostTensor::from_ints(DataType::Int64, &[o, k], &idx));
        let wt = Value::constant(HostTensor::from_floats(DataType::Float, &[o, k], &w));
        let et = Value::constant(HostTensor::from_ints(
            DataType::Bool,
            &[o],
            &ext.iter().map(|&e| i64::from(e)).collect::<Vec<_>>(),
        ));
        let (iv, wv, ev) = (c.ssa(&it), c.ssa(&wt), c.ssa(&et));
        let src = c.ssa(&cur);
        let cs = cur
            .static_shape()
            .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
        let sa = perm[a];
        let mut os = cs.clone();
        os[sa] = out[a];
        let any_ext = ext.iter().any(|&e| e);
        let f64t = DataType::Float;
        cur = indexed_generic(c, &os, dt, &[], |bb, li, _| {
            let mut acc = cst(bb, f64t, 0.0);
            for t in 0..k {
                let kt = index_const(bb, t as i64);
                let i = extract(bb, iv, &[li[sa], kt], ElemType::Int(64));
                let i = bb.arith(ArithOp::IndexCast, vec![i], ElemType::Index);
                let wgt = extract(bb, wv, &[li[sa], kt], ElemType::F32);
                let mut at = li.to_vec();
                at[sa] = i;
                let v = extract(bb, src, &at, dt.elem());
                let v = convert(bb, dt, f64t, v);
                let p = arith(bb, f64t, Bin::Mul, wgt, v);
                acc = arith(bb, f64t, Bin::Add, acc, p);
            }
            let mut y = acc;
            if any_ext {
                let e = extract(bb, ev, &[li[sa]], ElemType::Int(1));
                let xv = cst(bb, f64t, extrapolation);
                y = select(bb, e, xv, y);
            }
            convert(bb, f64t, dt, y)
        });
    }
    Ok(vec![c.transpose(&cur, &perm).map_err(|e| n.err(e))?])
}
