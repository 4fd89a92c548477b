//! `Conv` (2-D, and 1-D as 2-D with a unit height) with explicit padding
//! as `tensor.pad`: one group on `linalg.conv_2d_nhwc_hwcf` and depthwise
//! groups on `linalg.depthwise_conv_2d_nhwc_hwc`, between transposes,
//! other groups as one
//! `linalg.conv_2d_nchw_fchw` per group, concatenated; `MaxPool` and
//! `AveragePool` on `linalg.pooling_nhwc_max/sum` between transposes
//! (kiln has no NCHW pooling), the average's divisor a constant computed
//! at import; `GlobalAveragePool` / `GlobalMaxPool` as reductions.
//!
//! The transposes around the NHWC ops record their sources
//! ([`crate::value::Permuted`]): a convolution reading another's output
//! (through bias, batch norm, activations, residual adds, concats and
//! resizes, which run on the sources too) reads it in NHWC, and an
//! NCHW transpose is only computed where an op needs ONNX's layout. The
//! filters of these convolutions are stored HWCF ([`crate::import::layout`]).

use kiln_core::tensor::attr::{ConstAttr, DenseElements, Elements, Mixed, ScalarBits};
use kiln_core::tensor::ops::{ConvAttrs, ConvKind, LinalgKind, OpKind, TensorOp};
use kiln_core::tensor::{Dim, ElemType, TValue, TypeKind};

use super::scalar::{arith, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;

/// The most window positions (outputs times window) an average pool's
/// divisor table visits at import (2^28: about a second; a 224x224 output
/// with a 7x7 window is 2.5 million).
const MAX_DIVISOR_WORK: u64 = 1 << 28;
use crate::value::Value;

/// The spatial geometry of a convolution or pooling window.
struct Window {
    strides: [u64; 2],
    dilations: [u64; 2],
    /// Low and high padding per spatial dim.
    pads: [[u64; 2]; 2],
    out: [u64; 2],
}

fn pair(n: &Node<'_>, name: &str, default: u64, spatial: usize) -> Result<[u64; 2], OnnxError> {
    match n.ints(name) {
        Some(v) if v.len() == spatial && v.iter().all(|&x| x > 0) => Ok(if spatial == 1 {
            [1, v[0] as u64]
        } else {
            [v[0] as u64, v[1] as u64]
        }),
        Some(v) => Err(n.err(format!("{name} {v:?} does not fit {spatial} spatial dims"))),
        None => Ok([default; 2]),
    }
}

/// The window of node `n` over spatial sizes `hw` (1-D ops as `[1, L]`).
fn window(
    n: &Node<'_>,
    hw: [u64; 2],
    kernel: [u64; 2],
    spatial: usize,
    ceil: bool,
) -> Result<Window, OnnxError> {
    let strides = pair(n, "strides", 1, spatial)?;
    let dilations = pair(n, "dilations", 1, spatial)?;
    // The shared pooling/convolution padding over the real spatial dims
    // (a 1-D op's unit height takes no padding and one output row).
    let first = 2 - spatial;
    let (lo, hi, o) = super::pool::padding(
        n,
        &hw[first..],
        &kernel[first..],
        &strides[first..],
        &dilations[first..],
        ceil,
    )?;
    let mut pads = [[0u64; 2]; 2];
    let mut out = [1u64; 2];
    for d in 0..spatial {
        pads[first + d] = [lo[d], hi[d]];
        out[first + d] = o[d];
    }
    Ok(Window {
        strides,
        dilations,
        pads,
        out,
    })
}

pub(super) fn vec2(c: &mut Ctx<'_>, v: [u64; 2]) -> DenseElements {
    let ty = c.b.module().types.intern(TypeKind::Vector {
        shape: vec![2],
        elem: ElemType::I64,
    });
    DenseElements {
        ty,
        data: Elements::I64(vec![v[0] as i64, v[1] as i64]),
        splat: false,
    }
}

/// `tensor.pad` of `v` (static shape `shape`) with `low`/`high` per dim and
/// the constant `value`.
pub(crate) fn pad(
    c: &mut Ctx<'_>,
    v: TValue,
    shape: &[u64],
    low: &[u64],
    high: &[u64],
    value: ScalarBits,
) -> (TValue, Vec<u64>) {
    if low.iter().chain(high).all(|&p| p == 0) {
        return (v, shape.to_vec());
    }
    let elem = c.b.module().value_kind(v).elem();
    let out: Vec<u64> = (0..shape.len())
        .map(|i| shape[i] + low[i] + high[i])
        .collect();
    let m = c.b.module();
    let index = m.types.scalar(ElemType::Index);
    let block = m.create_block(&vec![index; shape.len()]);
    let sty = m.types.scalar(elem);
    let attr = match value {
        ScalarBits::Float(f) => ConstAttr::Float { value: f, ty: sty },
        ScalarBits::Int(i) => ConstAttr::Int { value: i, ty: sty },
    };
    let k = m.create_op(
        OpKind::Constant(attr),
        vec![],
        &[sty],
        vec![],
        kiln_core::ir::Location::UNKNOWN,
    );
    m.append_op(block, k);
    let kv = m.op(k).results[0];
    let y = m.create_op(
        OpKind::TensorYield,
        vec![kv],
        &[],
        vec![],
        kiln_core::ir::Location::UNKNOWN,
    );
    m.append_op(block, y);
    let ty = m.types.static_tensor(&out, elem);
    let op = c.b.op(
        OpKind::Tensor(TensorOp::Pad {
            low: low.iter().map(|&x| Mixed::Static(x as i64)).collect(),
            high: high.iter().map(|&x| Mixed::Static(x as i64)).collect(),
            nofold: false,
        }),
        vec![v],
        &[ty],
        vec![block],
    );
    (c.b.module().op(op).results[0], out)
}

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

/// The input as 4-D (1-D ops get a unit height), and the spatial rank.
fn as_4d(c: &mut Ctx<'_>, n: &Node<'_>, x: &Value) -> Result<(Value, Vec<u64>, usize), OnnxError> {
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported yet"))?;
    match s.len() {
        4 => Ok((x.clone(), s, 2)),
        3 => {
            let s4 = vec![s[0], s[1], 1, s[2]];
            Ok((c.reshape(x, &s4).map_err(|e| n.err(e))?, s4, 1))
        }
        r => Err(n.err(format!(
            "{r}-D input: only 1-D and 2-D spatial ops are supported"
        ))),
    }
}

fn back(c: &mut Ctx<'_>, n: &Node<'_>, v: Value, spatial: usize) -> Result<Value, OnnxError> {
    if spatial == 2 {
        return Ok(v);
    }
    let s = v.static_shape().unwrap_or_default();
    c.reshape(&v, &[s[0], s[1], s[3]]).map_err(|e| n.err(e))
}

/// `out` (`[N, M, H, W]`) plus the node's bias input 2 (`[M]`), if any.
pub(super) fn add_bias(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    out: Value,
    m: u64,
) -> Result<Value, OnnxError> {
    let Some(b) = n.opt_input(2) else {
        return Ok(out);
    };
    let dt = out.dtype;
    let b3 = c.reshape(b, &[m, 1, 1]).map_err(|e| n.err(e))?;
    c.elementwise(&[&out, &b3], dt, |bb, v| {
        arith(bb, dt, Bin::Add, v[0], v[1])
    })
    .map_err(|e| n.err(e))
}

/// The `sizes` block of 4-D `v` at `offsets` (`tensor.extract_slice`).
fn slice4(c: &mut Ctx<'_>, v: TValue, offsets: [u64; 4], sizes: [u64; 4], dt: DataType) -> TValue {
    let ty = c.b.module().types.static_tensor(&sizes, dt.elem());
    c.b.tensor_op(
        TensorOp::ExtractSlice {
            offsets: offsets.map(|d| Mixed::Static(d as i64)).to_vec(),
            sizes: sizes.map(|d| Mixed::Static(d as i64)).to_vec(),
            strides: vec![Mixed::Static(1); 4],
        },
        &[v],
        ty,
    )
}

/// `Conv`.
pub fn conv(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(1)?);
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err("Conv of integers"));
    }
    let (x4, xs, spatial) = as_4d(c, n, x)?;
    let ws = w
        .static_shape()
        .ok_or_else(|| n.err("dynamic weights are not supported"))?;
    let w4 = if spatial == 1 {
        c.reshape(w, &[ws[0], ws[1], 1, ws[2]])
            .map_err(|e| n.err(e))?
    } else {
        w.clone()
    };
    let ws = w4.static_shape().unwrap_or_default();
    let group = n.int("group", 1).max(1) as u64;
    let (nb, cin, m) = (xs[0], xs[1], ws[0]);
    if cin % group != 0 || m % group != 0 || ws[1] * group != cin {
        return Err(n.err(format!(
            "{cin} input channels, {m} filters and group {group} do not fit weights {ws:?}"
        )));
    }
    let win = window(n, [xs[2], xs[3]], [ws[2], ws[3]], spatial, false)?;
    let attrs = ConvAttrs {
        strides: Some(vec2(c, win.strides)),
        dilations: Some(vec2(c, win.dilations)),
    };
    let (cg, mg) = (cin / group, m / group);
    let depthwise = group > 1 && cg == 1 && mg == 1;
    if group == 1 || depthwise {
        // On NHWC between transposes: kiln's NHWC convolutions read the
        // input and the filter as vectors along the channels (contiguous
        // in both, and the innermost reduction), where its NCHW ones read
        // a scalar per multiply-add. On lavapipe a 3x3 convolution
        // 1x96x26x42 -> 24 channels took 12.2 ms so (the transposes
        // included) against 30.3 ms as conv_2d_nchw_fchw, a 1x1 one
        // 1x32x2x96 -> 200 channels 0.48 against 1.02 ms. The transposes
        // cancel against those of the layers around (`Ctx::transpose`,
        // `Ctx::elementwise`), and a filter stored HWCF at import
        // (`import::layout`) is read as stored: ResNet-50 207 -> 94 ms a
        // call (`bench/onnx_models.md`). Filters transposed on the host
        // into constants (beside the unused parameter) held the weights
        // twice and took 5.4 s to compile; the input is padded after its
        // transpose so that the pad, too, reads the NHWC source.
        let xh = c.transpose(&x4, &[0, 2, 3, 1]).map_err(|e| n.err(e))?;
        let hs = [xs[0], xs[2], xs[3], xs[1]];
        let hv = c.ssa(&xh);
        let (xp, ps) = pad(
            c,
            hv,
            &hs,
            &[0, win.pads[0][0], win.pads[1][0], 0],
            &[0, win.pads[0][1], win.pads[1][1], 0],
            ScalarBits::Float(0.0),
        );
        let xh = Value::computed(xp, dt, dims(&ps));
        let w_hwcf = c.transpose(&w4, &[2, 3, 1, 0]).map_err(|e| n.err(e))?;
        let (kind, name, wh) = if depthwise {
            let wh = c
                .reshape(&w_hwcf, &[ws[2], ws[3], m])
                .map_err(|e| n.err(e))?;
            (
                ConvKind::DepthwiseConv2dNhwcHwc,
                "linalg.depthwise_conv_2d_nhwc_hwc",
                wh,
            )
        } else {
            (ConvKind::Conv2dNhwcHwcf, "linalg.conv_2d_nhwc_hwcf", w_hwcf)
        };
        let acc = c.full(&[nb, win.out[0], win.out[1], m], dt, ScalarBits::Float(0.0));
        let (xs_, ws_) = (c.ssa(&xh), c.ssa(&wh));
        let r =
            c.b.linalg(LinalgKind::Conv(kind, attrs), &[xs_, ws_], &[acc])
                .map_err(|e| n.err(format!("{name}: {e}")))?;
        let yh = Value::computed(r[0], dt, dims(&[nb, win.out[0], win.out[1], m]));
        let mut out = c.transpose(&yh, &[0, 3, 1, 2]).map_err(|e| n.err(e))?;
        out = add_bias(c, n, out, m)?;
        return Ok(vec![back(c, n, out, spatial)?]);
    }
    let xv = c.ssa(&x4);
    let (xp, ps) = pad(
        c,
        xv,
        &xs,
        &[0, 0, win.pads[0][0], win.pads[1][0]],
        &[0, 0, win.pads[0][1], win.pads[1][1]],
        ScalarBits::Float(0.0),
    );
    let wv = c.ssa(&w4);
    let mut parts = Vec::new();
    for g in 0..group {
        let (xi, wi) = if group == 1 {
            (xp, wv)
        } else {
            let xi = slice4(c, xp, [0, g * cg, 0, 0], [nb, cg, ps[2], ps[3]], dt);
            let wi = slice4(c, wv, [g * mg, 0, 0, 0], [mg, cg, ws[2], ws[3]], dt);
            (xi, wi)
        };
        let acc = c.full(
            &[nb, mg, win.out[0], win.out[1]],
            dt,
            ScalarBits::Float(0.0),
        );
        let r =
            c.b.linalg(
                LinalgKind::Conv(ConvKind::Conv2dNchwFchw, attrs.clone()),
                &[xi, wi],
                &[acc],
            )
            .map_err(|e| n.err(format!("linalg.conv_2d_nchw_fchw: {e}")))?;
        parts.push(r[0]);
    }
    let out_shape = [nb, m, win.out[0], win.out[1]];
    let y = if parts.len() == 1 {
        parts[0]
    } else {
        let ty = c.b.module().types.static_tensor(&out_shape, dt.elem());
        c.b.tensor_op(TensorOp::Concat { dim: 1 }, &parts, ty)
    };
    let out = Value::computed(y, dt, dims(&out_shape));
    let out = add_bias(c, n, out, m)?;
    Ok(vec![back(c, n, out, spatial)?])
}

fn pool(c: &mut Ctx<'_>, n: &Node<'_>, max: bool) -> OpResult {
    let x = n.input(0)?;
    if !super::pool::named_path(n, x) {
        return if max {
            super::pool::max_pool(c, n)
        } else {
            super::pool::average_pool(c, n)
        };
    }
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err("pooling of integers is not supported"));
    }
    if max && n.wants_output(1) {
        return Err(n.err("the Indices output of MaxPool is not supported"));
    }
    let (x4, xs, spatial) = as_4d(c, n, x)?;
    let kernel = pair(n, "kernel_shape", 0, spatial)?;
    if kernel.contains(&0) {
        return Err(n.err("kernel_shape is required"));
    }
    let ceil = n.int("ceil_mode", 0) != 0;
    let win = window(n, [xs[2], xs[3]], kernel, spatial, ceil)?;
    let nhwc = c.transpose(&x4, &[0, 2, 3, 1]).map_err(|e| n.err(e))?;
    let hs = [xs[0], xs[2], xs[3], xs[1]];
    // Padding beyond the explicit pads that ceil_mode's last window needs.
    let mut extra = [0u64; 2];
    for d in 0..2 {
        let need = (win.out[d] - 1) * win.strides[d] + win.dilations[d] * (kernel[d] - 1) + 1;
        let have = hs[1 + d] + win.pads[d][0] + win.pads[d][1];
        extra[d] = need.saturating_sub(have);
    }
    let fill = if max {
        ScalarBits::Float(f64::NEG_INFINITY)
    } else {
        ScalarBits::Float(0.0)
    };
    let hv = c.ssa(&nhwc);
    let (xp, _) = pad(
        c,
        hv,
        &hs,
        &[0, win.pads[0][0], win.pads[1][0], 0],
        &[0, win.pads[0][1] + extra[0], win.pads[1][1] + extra[1], 0],
        fill,
    );
    let shape_w = c.empty_static(&kernel, dt.elem());
    let acc = c.full(&[hs[0], win.out[0], win.out[1], hs[3]], dt, fill);
    let kind = if max {
        ConvKind::PoolingNhwcMax
    } else {
        ConvKind::PoolingNhwcSum
    };
    let attrs = ConvAttrs {
        strides: Some(vec2(c, win.strides)),
        dilations: Some(vec2(c, win.dilations)),
    };
    let r =
        c.b.linalg(LinalgKind::Conv(kind, attrs), &[xp, shape_w], &[acc])
            .map_err(|e| n.err(format!("{}: {e}", kind.name())))?;
    let out_s = [hs[0], win.out[0], win.out[1], hs[3]];
    let mut out = Value::computed(r[0], dt, dims(&out_s));
    if !max {
        // The divisor per output position, computed here: the window's
        // positions inside the input (and the explicit pads when
        // count_include_pad), never ceil_mode's extra ones.
        let include = n.int("count_include_pad", 0) != 0;
        // Every window position of every output: bounded so that the
        // table stays quick to compute.
        let positions = win.out[0]
            .checked_mul(win.out[1])
            .filter(|&p| {
                p.checked_mul(kernel[0])
                    .and_then(|w| w.checked_mul(kernel[1]))
                    .is_some_and(|w| w <= MAX_DIVISOR_WORK)
            })
            .ok_or_else(|| {
                n.err(format!(
                    "an output of {}x{} with a {}x{} window: too large a divisor table to \
                     compute at import",
                    win.out[0], win.out[1], kernel[0], kernel[1]
                ))
            })?;
        let mut counts = Vec::with_capacity(positions as usize);
        for oh in 0..win.out[0] {
            for ow in 0..win.out[1] {
                let mut k = 0u64;
                for kh in 0..kernel[0] {
                    for kw in 0..kernel[1] {
                        let h = (oh * win.strides[0] + kh * win.dilations[0]) as i64
                            - win.pads[0][0] as i64;
                        let w = (ow * win.strides[1] + kw * win.dilations[1]) as i64
                            - win.pads[1][0] as i64;
                        let inside = |p: i64, d: usize| {
                            if include {
                                p >= -(win.pads[d][0] as i64)
                                    && p < (hs[1 + d] + win.pads[d][1]) as i64
                            } else {
                                p >= 0 && p < hs[1 + d] as i64
                            }
                        };
                        if inside(h, 0) && inside(w, 1) {
                            k += 1;
                        }
                    }
                }
                counts.push(k.max(1) as f64);
            }
        }
        let cnt = Value::constant(HostTensor::from_floats(
            dt,
            &[win.out[0] as usize, win.out[1] as usize, 1],
            &counts,
        ));
        out = c
            .elementwise(&[&out, &cnt], dt, |bb, v| {
                arith(bb, dt, Bin::Div, v[0], v[1])
            })
            .map_err(|e| n.err(e))?;
    }
    let nchw = c.transpose(&out, &[0, 3, 1, 2]).map_err(|e| n.err(e))?;
    Ok(vec![back(c, n, nchw, spatial)?])
}

/// `MaxPool` (2-D and 1-D; no Indices output).
pub fn max_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    pool(c, n, true)
}

/// `AveragePool` (2-D and 1-D).
pub fn average_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    pool(c, n, false)
}

fn global(c: &mut Ctx<'_>, n: &Node<'_>, max: bool) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let r = x.rank();
    if r < 3 || !dt.is_float() {
        return Err(n.err("expected a float input with spatial dims"));
    }
    let axes: Vec<usize> = (2..r).collect();
    let count: u64 = axes
        .iter()
        .map(|&i| x.shape[i].fixed().unwrap_or(1))
        .product();
    let init = if max {
        ScalarBits::Float(f64::NEG_INFINITY)
    } else {
        ScalarBits::Float(0.0)
    };
    let op = if max { Bin::Max } else { Bin::Add };
    let mut v = c
        .reduce(x, &axes, dt, init, |bb, a, acc| arith(bb, dt, op, a, acc))
        .map_err(|e| n.err(e))?;
    if !max {
        v = c
            .elementwise(&[&v], dt, |bb, a| {
                let k = super::scalar::cst(bb, dt, count as f64);
                arith(bb, dt, Bin::Div, a[0], k)
            })
            .map_err(|e| n.err(e))?;
    }
    Ok(vec![c.keep_dims(&v, &axes, r).map_err(|e| n.err(e))?])
}

/// `GlobalAveragePool`.
pub fn global_average_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    global(c, n, false)
}

/// `GlobalMaxPool`.
pub fn global_max_pool(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    global(c, n, true)
}
