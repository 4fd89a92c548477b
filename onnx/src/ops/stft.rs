//! `STFT` (opset 17): the signal cut into frames (`Slice`s stacked), each
//! weighted by the window, then one `DFT` over the frame axis — ONNX's
//! reference (`_stft`) step for step.

use super::attention::sub;
use super::elementwise as ew;
use super::stack::stack;
use super::{dft, shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

fn ints(v: &[i64]) -> Value {
    Value::constant(HostTensor::from_ints(DataType::Int64, &[v.len()], v))
}

/// `STFT(signal, frame_step, window?, frame_length?; onesided)`.
pub fn stft(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let s = x
        .static_shape()
        .filter(|s| s.len() == 3 && (s[2] == 1 || s[2] == 2))
        .ok_or_else(|| n.err("signal must be [batch, length, 1 or 2] of static shape"))?;
    let step = n.known(1)?.int(0);
    let window = n.opt_input(2);
    let fl = match (n.opt_input(3), window) {
        (Some(_), _) => n.known(3)?.int(0),
        (None, Some(w)) => w
            .static_shape()
            .and_then(|s| s.first().copied())
            .unwrap_or(0) as i64,
        (None, None) => s[1] as i64,
    };
    let len = s[1] as i64;
    if step <= 0 || fl <= 0 || fl > len {
        return Err(n.err(format!(
            "frame_step {step} and frame_length {fl} do not fit a signal of {len}"
        )));
    }
    let frames = 1 + (len - fl) / step;
    let mut parts = Vec::with_capacity(frames as usize);
    for f in 0..frames {
        let b = f * step;
        parts.push(sub(
            c,
            n,
            shape::slice,
            "Slice",
            vec![x.clone(), ints(&[b]), ints(&[b + fl]), ints(&[1])],
            &[],
        )?);
    }
    let mut fr = stack(c, n, &parts, 1)?;
    if let Some(w) = window {
        let wr = c.reshape(w, &[1, 1, fl as u64, 1]).map_err(|e| n.err(e))?;
        fr = sub(c, n, ew::mul, "Mul", vec![fr, wr], &[])?;
    }
    let onesided = n.int("onesided", 1);
    let y = sub(
        c,
        n,
        dft::dft,
        "DFT",
        vec![
            fr,
            Value::constant(HostTensor::from_ints(DataType::Int64, &[], &[fl])),
            ints(&[2]),
        ],
        &[("axis", vec![2]), ("onesided", vec![onesided])],
    )?;
    Ok(vec![y])
}
