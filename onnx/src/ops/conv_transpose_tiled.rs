//! `ConvTranspose` whose strides equal its kernel (no padding, no
//! dilation, one group, 2-D): the kernel windows tile the output without
//! overlap, so the op is a 1x1 convolution to `M x kh x kw` channels,
//! `Y1[n, (m, a, b), h, w] = sum_c X[n, c, h, w] * W[c, m, a, b]`, whose
//! channels are then spread over the output
//! (`Y[n, m, h * kh + a, w * kw + b] = Y1[n, (m, a, b), h, w]`, data
//! movement that kiln inlines into the readers). PP-OCR's text detector
//! upsamples with two such ops (2x2, stride 2); the general lowering
//! (`conv_transpose.rs`) reads every input channel at every kernel
//! position per output element through computed indices, 4x the work
//! where 3 of the 4 positions contribute nothing, and gathers on CPU
//! devices (lavapipe: 23 ms of the model's 124 ms of dispatches for the
//! 1x24x24x40 to 1x24x48x80 one).

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::{ConvAttrs, ConvKind, LinalgKind};
use kiln_core::tensor::Dim;

use super::conv::{add_bias, vec2};
use crate::ctx::Ctx;
use crate::error::OnnxError;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// The geometry [`conv_transpose`](super::conv_transpose::conv_transpose)
/// worked out for the node.
pub struct Geometry<'a> {
    /// X's shape (N, C, H, W).
    pub xs: &'a [u64],
    /// W's shape (C, M, kh, kw).
    pub ws: &'a [u64],
    /// The group count.
    pub group: u64,
    /// Strides per spatial dim.
    pub strides: &'a [i64],
    /// Dilations per spatial dim.
    pub dil: &'a [i64],
    /// Padding before each spatial dim.
    pub lo: &'a [i64],
    /// The output's spatial sizes.
    pub out: &'a [i64],
}

/// The node as a 1x1 convolution and a spread of its channels, where its
/// geometry allows (see the module docs) and W is known at import; `None`
/// where it does not (the caller lowers it generally).
pub fn stride_tiled(
    c: &mut Ctx<'_>,
    n: &Node<'_>,
    x: &Value,
    w: &Value,
    g: &Geometry<'_>,
) -> Result<Option<Value>, OnnxError> {
    let (xs, ws) = (g.xs, g.ws);
    let tiles = xs.len() == 4
        && g.group == 1
        && g.dil.iter().all(|&d| d == 1)
        && g.lo.iter().all(|&p| p == 0)
        && (0..2).all(|d| {
            g.strides[d] == ws[2 + d] as i64 && g.out[d] == xs[2 + d] as i64 * g.strides[d]
        });
    let Some(known) = w.known.as_ref().filter(|_| tiles && w.foldable) else {
        return Ok(None);
    };
    let (cin, m, kh, kw) = (ws[0], ws[1], ws[2], ws[3]);
    let (nb, h, wd) = (xs[0], xs[2], xs[3]);
    // W [C, M, kh, kw] as 1x1 filters [M * kh * kw, C, 1, 1].
    let total = (cin * m * kh * kw) as usize;
    let mut vals = vec![0f64; total];
    let per_c = (m * kh * kw) as usize;
    for ci in 0..cin as usize {
        for f in 0..per_c {
            vals[f * cin as usize + ci] = known.float(ci * per_c + f);
        }
    }
    let filters = HostTensor::from_floats(w.dtype, &[per_c, cin as usize, 1, 1], &vals);
    let fv = c.ssa(&Value::constant(filters));
    let xv = c.ssa(x);
    let dt = x.dtype;
    let acc = c.full(&[nb, per_c as u64, h, wd], dt, ScalarBits::Float(0.0));
    let attrs = ConvAttrs {
        strides: Some(vec2(c, [1, 1])),
        dilations: Some(vec2(c, [1, 1])),
    };
    let r =
        c.b.linalg(
            LinalgKind::Conv(ConvKind::Conv2dNchwFchw, attrs),
            &[xv, fv],
            &[acc],
        )
        .map_err(|e| n.err(format!("linalg.conv_2d_nchw_fchw: {e}")))?;
    let y1 = Value::computed(
        r[0],
        dt,
        [nb, per_c as u64, h, wd].map(Dim::Static).to_vec(),
    );
    let y6 = c
        .reshape(&y1, &[nb, m, kh, kw, h, wd])
        .map_err(|e| n.err(e))?;
    let yt = c
        .transpose(&y6, &[0, 1, 4, 2, 5, 3])
        .map_err(|e| n.err(e))?;
    let y = c
        .reshape(&yt, &[nb, m, h * kh, wd * kw])
        .map_err(|e| n.err(e))?;
    add_bias(c, n, y, m).map(Some)
}
