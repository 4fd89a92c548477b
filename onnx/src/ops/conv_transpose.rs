//! `ConvTranspose` (2-D, and 1-D as 2-D with a unit height) as the
//! convolution it is the adjoint of: the input spread out by the strides
//! (`tensor.insert_slice` with strides into zeros, which also adds the
//! border of `dilation * (kernel - 1) - pad` zeros each side), then
//! `linalg.conv_2d_nchw_fchw` with stride 1 and the kernel flipped in
//! both spatial dims with its two channel dims swapped (a small
//! `linalg.generic` over the weights, so weights stay parameters); groups
//! as one convolution per group, concatenated. Output size, `output_shape`,
//! `output_padding` and `auto_pad` follow the ONNX spec (opset 11).

use kiln_core::tensor::attr::{Mixed, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, ConvAttrs, ConvKind, LinalgKind, TensorOp};
use kiln_core::tensor::ElemType;

use super::conv::{as_4d, back, dims, pair, vec2};
use super::gather::{extract, index_const, indexed_generic};
use super::scalar::{arith, Bin};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;
use crate::value::Value;

/// Per spatial dim: low and high padding of the spread input.
struct Geometry {
    strides: [u64; 2],
    dilations: [u64; 2],
    /// Padding of the spread input (negative: cropped).
    border: [[i64; 2]; 2],
    out: [u64; 2],
}

fn geometry(
    n: &Node<'_>,
    hw: [u64; 2],
    kernel: [u64; 2],
    spatial: usize,
) -> Result<Geometry, crate::error::OnnxError> {
    let strides = pair(n, "strides", 1, spatial)?;
    let dilations = pair(n, "dilations", 1, spatial)?;
    let out_pad = match n.ints("output_padding") {
        Some(v) if v.len() == spatial && v.iter().all(|&x| x >= 0) => {
            if spatial == 1 {
                [0, v[0] as u64]
            } else {
                [v[0] as u64, v[1] as u64]
            }
        }
        Some(v) => {
            return Err(n.err(format!(
                "output_padding {v:?} does not fit {spatial} spatial dims"
            )))
        }
        None => [0, 0],
    };
    // The spatial dims of `v` (given for `spatial` dims) as two.
    let two = |v: &[i64]| -> [i64; 2] {
        if spatial == 1 {
            [0, v[0]]
        } else {
            [v[0], v[1]]
        }
    };
    let eff = |d: usize| dilations[d] * (kernel[d] - 1) + 1;
    // The size with no padding at all.
    let full = |d: usize| strides[d] * (hw[d] - 1) + out_pad[d] + eff(d);
    let auto_pad = n.string("auto_pad", "NOTSET");
    let output_shape = n.ints("output_shape");
    let mut pads = [[0i64; 2]; 2];
    if let Some(os) = &output_shape {
        // Only the spatial dims (some exporters give all of them).
        let os = if os.len() == spatial + 2 {
            &os[2..]
        } else {
            &os[..]
        };
        if os.len() != spatial || os.iter().any(|&x| x <= 0) {
            return Err(n.err(format!(
                "output_shape {os:?} does not fit {spatial} spatial dims"
            )));
        }
        let want = two(os);
        for d in 0..2 {
            let total = full(d) as i64 - want[d];
            if spatial == 1 && d == 0 {
                continue;
            }
            // A negative total (output_shape larger than the full
            // output) grows the output with zeros, as onnx's reference
            // does (the halves rounded down).
            let half = total.div_euclid(2);
            pads[d] = if auto_pad == "SAME_UPPER" {
                [half, total - half]
            } else {
                [total - half, half]
            };
        }
    } else {
        match auto_pad.as_str() {
            "NOTSET" => {
                if let Some(p) = n.ints("pads") {
                    if p.len() != 2 * spatial || p.iter().any(|&x| x < 0) {
                        return Err(n.err(format!("pads {p:?} do not fit {spatial} spatial dims")));
                    }
                    let lo = two(&p[..spatial]);
                    let hi = two(&p[spatial..]);
                    pads = [[lo[0], hi[0]], [lo[1], hi[1]]];
                }
            }
            "VALID" => {}
            "SAME_UPPER" | "SAME_LOWER" => {
                for d in 0..2 {
                    let total = full(d) as i64 - (hw[d] * strides[d]) as i64;
                    let total = total.max(0);
                    pads[d] = if auto_pad == "SAME_UPPER" {
                        [total / 2, total - total / 2]
                    } else {
                        [total - total / 2, total / 2]
                    };
                }
            }
            other => return Err(n.err(format!("auto_pad {other} is not supported"))),
        }
    }
    let mut border = [[0i64; 2]; 2];
    let mut out = [0u64; 2];
    for d in 0..2 {
        let o = full(d) as i64 - pads[d][0] - pads[d][1];
        if o <= 0 {
            return Err(n.err("the padding leaves no output"));
        }
        out[d] = o as u64;
        let e = eff(d) as i64 - 1;
        border[d] = [e - pads[d][0], e - pads[d][1] + out_pad[d] as i64];
    }
    Ok(Geometry {
        strides,
        dilations,
        border,
        out,
    })
}

/// `ConvTranspose`.
pub fn conv_transpose(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(1)?);
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err("ConvTranspose of integers"));
    }
    let (x4, xs, spatial) = as_4d(c, n, x)?;
    let ws = w
        .static_shape()
        .ok_or_else(|| n.err("dynamic weights are not supported"))?;
    if ws.len() != spatial + 2 {
        return Err(n.err(format!("weights of shape {ws:?} for a {spatial}-D input")));
    }
    let w4 = if spatial == 1 {
        c.reshape(w, &[ws[0], ws[1], 1, ws[2]])
            .map_err(|e| n.err(e))?
    } else {
        w.clone()
    };
    let ws = w4.static_shape().unwrap_or_default();
    let group = n.int("group", 1).max(1) as u64;
    let (nb, cin) = (xs[0], xs[1]);
    let (cg, mg) = (ws[0] / group, ws[1]);
    let m = mg * group;
    if ws[0] != cin || cin % group != 0 {
        return Err(n.err(format!(
            "{cin} input channels and group {group} do not fit weights {ws:?}"
        )));
    }
    let kernel = [ws[2], ws[3]];
    if let Some(k) = n.ints("kernel_shape") {
        let given: Vec<u64> = k.iter().map(|&v| v as u64).collect();
        if given != ws[4 - spatial..] {
            return Err(n.err(format!(
                "kernel_shape {k:?} differs from the weights' {ws:?}"
            )));
        }
    }
    let g = geometry(n, [xs[2], xs[3]], kernel, spatial)?;

    // The input spread by the strides inside its zero border (cropped
    // where the padding exceeds the kernel's reach).
    let spread = |d: usize| (xs[2 + d] - 1) * g.strides[d] + 1;
    let grow = |d: usize| [g.border[d][0].max(0) as u64, g.border[d][1].max(0) as u64];
    let (gh, gw) = (grow(0), grow(1));
    let big = [
        nb,
        cin,
        gh[0] + spread(0) + gh[1],
        gw[0] + spread(1) + gw[1],
    ];
    let zeros = c.full(&big, dt, ScalarBits::Float(0.0));
    let xv = c.ssa(&x4);
    let big_ty = c.b.module().types.static_tensor(&big, dt.elem());
    let mut xp = c.b.tensor_op(
        TensorOp::InsertSlice {
            offsets: [0, 0, gh[0] as i64, gw[0] as i64]
                .map(Mixed::Static)
                .to_vec(),
            sizes: xs.iter().map(|&d| Mixed::Static(d as i64)).collect(),
            strides: [1, 1, g.strides[0] as i64, g.strides[1] as i64]
                .map(Mixed::Static)
                .to_vec(),
        },
        &[xv, zeros],
        big_ty,
    );
    let crop = [
        (-g.border[0][0]).max(0) as u64,
        (-g.border[1][0]).max(0) as u64,
    ];
    let crop_hi = [
        (-g.border[0][1]).max(0) as u64,
        (-g.border[1][1]).max(0) as u64,
    ];
    let mut ps = big.to_vec();
    if crop.iter().chain(&crop_hi).any(|&v| v > 0) {
        ps = vec![
            nb,
            cin,
            big[2] - crop[0] - crop_hi[0],
            big[3] - crop[1] - crop_hi[1],
        ];
        let ty = c.b.module().types.static_tensor(&ps, dt.elem());
        xp = c.b.tensor_op(
            TensorOp::ExtractSlice {
                offsets: [0, 0, crop[0] as i64, crop[1] as i64]
                    .map(Mixed::Static)
                    .to_vec(),
                sizes: ps.iter().map(|&d| Mixed::Static(d as i64)).collect(),
                strides: vec![Mixed::Static(1); 4],
            },
            &[xp],
            ty,
        );
    }

    // The convolution's weights: wf[gi*mg + o, i, kh, kw] =
    // w[gi*cg + i, o, KH-1-kh, KW-1-kw].
    let wv = c.ssa(&w4);
    let elem = dt.elem();
    let wf = indexed_generic(c, &[m, cg, kernel[0], kernel[1]], dt, &[], |bb, li, _| {
        let idx = ElemType::Index;
        let mgc = index_const(bb, mg as i64);
        let cgc = index_const(bb, cg as i64);
        let gi = bb.arith(ArithOp::DivUI, vec![li[0], mgc], idx);
        let o = bb.arith(ArithOp::RemUI, vec![li[0], mgc], idx);
        let base = bb.arith(ArithOp::MulI, vec![gi, cgc], idx);
        let i = bb.arith(ArithOp::AddI, vec![base, li[1]], idx);
        let kh1 = index_const(bb, kernel[0] as i64 - 1);
        let kw1 = index_const(bb, kernel[1] as i64 - 1);
        let kh = bb.arith(ArithOp::SubI, vec![kh1, li[2]], idx);
        let kw = bb.arith(ArithOp::SubI, vec![kw1, li[3]], idx);
        extract(bb, wv, &[i, o, kh, kw], elem)
    });
    let wfv = c.ssa(&wf);
    let attrs = ConvAttrs {
        strides: Some(vec2(c, [1, 1])),
        dilations: Some(vec2(c, g.dilations)),
    };
    let mut parts = Vec::new();
    for gi in 0..group {
        let (xi, wi) = if group == 1 {
            (xp, wfv)
        } else {
            let xty =
                c.b.module()
                    .types
                    .static_tensor(&[nb, cg, ps[2], ps[3]], elem);
            let xi = c.b.tensor_op(
                TensorOp::ExtractSlice {
                    offsets: [0, (gi * cg) as i64, 0, 0].map(Mixed::Static).to_vec(),
                    sizes: [nb, cg, ps[2], ps[3]]
                        .map(|d| Mixed::Static(d as i64))
                        .to_vec(),
                    strides: vec![Mixed::Static(1); 4],
                },
                &[xp],
                xty,
            );
            let wty =
                c.b.module()
                    .types
                    .static_tensor(&[mg, cg, kernel[0], kernel[1]], elem);
            let wi = c.b.tensor_op(
                TensorOp::ExtractSlice {
                    offsets: [(gi * mg) as i64, 0, 0, 0].map(Mixed::Static).to_vec(),
                    sizes: [mg, cg, kernel[0], kernel[1]]
                        .map(|d| Mixed::Static(d as i64))
                        .to_vec(),
                    strides: vec![Mixed::Static(1); 4],
                },
                &[wfv],
                wty,
            );
            (xi, wi)
        };
        let acc = c.full(&[nb, mg, g.out[0], g.out[1]], dt, ScalarBits::Float(0.0));
        let r =
            c.b.linalg(
                LinalgKind::Conv(ConvKind::Conv2dNchwFchw, attrs.clone()),
                &[xi, wi],
                &[acc],
            )
            .map_err(|e| n.err(format!("linalg.conv_2d_nchw_fchw: {e}")))?;
        parts.push(r[0]);
    }
    let out_shape = [nb, m, g.out[0], g.out[1]];
    let y = if parts.len() == 1 {
        parts[0]
    } else {
        let ty = c.b.module().types.static_tensor(&out_shape, elem);
        c.b.tensor_op(TensorOp::Concat { dim: 1 }, &parts, ty)
    };
    let mut out = Value::computed(y, dt, dims(&out_shape));
    if let Some(b) = n.opt_input(2) {
        let b3 = c.reshape(b, &[m, 1, 1]).map_err(|e| n.err(e))?;
        out = c
            .elementwise(&[&out, &b3], dt, |bb, v| {
                arith(bb, dt, Bin::Add, v[0], v[1])
            })
            .map_err(|e| n.err(e))?;
    }
    Ok(vec![back(c, n, out, spatial)?])
}
