//! `CausalConvWithState` (opset 27): a causal depthwise 1-D convolution
//! carrying its last `k - 1` input positions, as ONNX's function body
//! computes it: the past state (zeros when absent) concatenated before the
//! input, a grouped `Conv` (one group per channel) with the bias, the
//! optional SiLU in float32, and the padded input's last `k - 1` positions
//! as the present state.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::Dim;

use super::attention::sub;
use super::elementwise as ew;
use super::linear_attention::to_f32;
use super::{conv, shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

fn ints(v: &[i64]) -> Value {
    Value::constant(HostTensor::from_ints(DataType::Int64, &[v.len()], v))
}

/// `CausalConvWithState(input, weight, bias?, past_state?)`.
pub fn causal_conv_with_state(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, w) = (n.input(0)?, n.input(1)?);
    let xs = x
        .static_shape()
        .filter(|s| s.len() == 3)
        .ok_or_else(|| n.err("input must be 3-D (batch, channels, length) of static shape"))?;
    let ws = w
        .static_shape()
        .filter(|s| s.len() == 3 && s[0] == xs[1] && s[1] == 1)
        .ok_or_else(|| n.err("weight must be (channels, 1, k)"))?;
    if !x.dtype.is_float() {
        return Err(n.err(format!(
            "CausalConvWithState of {} is not supported",
            x.dtype.name()
        )));
    }
    let act = n.string("activation", "none");
    let silu = match act.as_str() {
        "none" => false,
        "silu" | "swish" => true,
        a => return Err(n.err(format!("activation {a:?} is not supported"))),
    };
    let km1 = ws[2] - 1;
    let pad = match n.opt_input(3) {
        Some(p) => Some(p.clone()),
        None if km1 == 0 => None,
        None => {
            let s = [xs[0], xs[1], km1];
            let z = c.full(&s, x.dtype, ScalarBits::Float(0.0));
            Some(c.tensor(z, x.dtype, s.iter().map(|&d| Dim::Static(d)).collect()))
        }
    };
    let padded = match pad {
        Some(p) => sub(
            c,
            n,
            shape::concat,
            "Concat",
            vec![p, x.clone()],
            &[("axis", vec![2])],
        )?,
        None => x.clone(),
    };
    let len = padded
        .static_shape()
        .and_then(|s| s.get(2).copied())
        .ok_or_else(|| n.err("the padded input has no length axis"))? as i64;
    let mut conv_in = vec![padded.clone(), w.clone()];
    if let Some(b) = n.opt_input(2) {
        conv_in.push(b.clone());
    }
    // 16-bit floats accumulate in float32, rounded once (ONNX's reference
    // convolves in float32 and casts the result back).
    let narrow = x.dtype != DataType::Float && x.dtype != DataType::Double;
    if narrow {
        conv_in = conv_in
            .iter()
            .map(|v| to_f32(c, n, v))
            .collect::<Result<_, _>>()?;
    }
    let channels = xs[1] as i64;
    let mut y = sub(
        c,
        n,
        conv::conv,
        "Conv",
        conv_in,
        &[("group", vec![channels])],
    )?;
    if narrow {
        let like = x.clone();
        y = sub(c, n, ew::cast_like, "CastLike", vec![y, like], &[])?;
    }
    if silu {
        let f = to_f32(c, n, &y)?;
        let s = sub(c, n, ew::sigmoid, "Sigmoid", vec![f.clone()], &[])?;
        let m = sub(c, n, ew::mul, "Mul", vec![f, s], &[])?;
        y = sub(c, n, ew::cast_like, "CastLike", vec![m, y], &[])?;
    }
    let start = len - km1 as i64;
    let present = sub(
        c,
        n,
        shape::slice,
        "Slice",
        vec![padded, ints(&[start]), ints(&[len]), ints(&[2])],
        &[],
    )?;
    Ok(vec![y, present])
}
