//! `DFT` (opsets 17 and 20) as one matmul with a matrix of the cosines and
//! sines of the transform's length, computed on the host: forward, inverse,
//! one-sided (real-input) forward and inverse (`irfft`); real or complex
//! input, `dft_length` padding or truncating like numpy's `fft(n=)`.

use super::{matmul, OpResult};
use crate::ctx::Ctx;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// `DFT(input, dft_length?, axis?)`.
pub fn dft(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("DFT of {}", dt.name())));
    }
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let r = s.len();
    let last = s.last().copied().unwrap_or(0);
    if r < 2 || !(last == 1 || last == 2) {
        return Err(n.err("the input's last dim must be 1 (real) or 2 (complex)"));
    }
    let axis = if n.opset >= 20 {
        match n.opt_input(2) {
            Some(_) => n.known(2)?.int(0),
            None => -2,
        }
    } else {
        n.int("axis", 1)
    };
    let axis = axis.rem_euclid(r as i64) as usize;
    if axis == r - 1 {
        return Err(n.err("the axis cannot be the real/imaginary one"));
    }
    let inverse = n.int("inverse", 0) != 0;
    let onesided = n.int("onesided", 0) != 0;
    let len_in = s[axis] as usize;
    let len = match n.opt_input(1) {
        Some(_) => n.known(1)?.int(0),
        None if inverse && onesided => 2 * (len_in as i64 - 1),
        None => len_in as i64,
    };
    if len <= 0 {
        return Err(n.err(format!("dft_length {len} must be positive")));
    }
    let len = len as usize;
    // Output frequencies (or samples).
    let n_out = if onesided && !inverse {
        len / 2 + 1
    } else {
        len
    };
    let irfft = inverse && onesided;
    // Move the axis next to the last: [..., L, last] -> [B, L] parts.
    let mut perm: Vec<usize> = (0..r).filter(|&d| d != axis && d != r - 1).collect();
    perm.push(axis);
    perm.push(r - 1);
    let xt = c.transpose(x, &perm).map_err(|e| n.err(e))?;
    let batch: u64 = perm[..r - 2].iter().map(|&d| s[d]).product();
    let x3 = c
        .reshape(&xt, &[batch, len_in as u64, last])
        .map_err(|e| n.err(e))?;
    // One matmul: [xr | xi] ([B, last * L]) by [[C, S], [-S, C]], the
    // columns [yr | yi] (yr alone for irfft).
    let xp = c.transpose(&x3, &[0, 2, 1]).map_err(|e| n.err(e))?;
    let xf = c
        .reshape(&xp, &[batch, last * len_in as u64])
        .map_err(|e| n.err(e))?;
    let sign = if inverse { 1.0 } else { -1.0 };
    let scale = if inverse { 1.0 / len as f64 } else { 1.0 };
    // cos/sin of 2 pi j k / len for input j and output k; rows past the
    // length are zero (truncation), missing rows are the zero padding.
    let rows = if irfft {
        len_in.min(len / 2 + 1)
    } else {
        len_in.min(len)
    };
    let cs = |j: usize, k: usize| -> (f64, f64) {
        if j >= rows {
            return (0.0, 0.0);
        }
        // irfft: input j is frequency j, output k a sample; the Hermitian
        // half counts twice but DC and Nyquist once.
        let w = if irfft && j != 0 && !(len % 2 == 0 && j == len / 2) {
            2.0
        } else {
            1.0
        };
        let t = 2.0 * std::f64::consts::PI * ((j * k) % len) as f64 / len as f64;
        (w * scale * t.cos(), w * scale * sign * t.sin())
    };
    let out_last = if irfft { 1 } else { 2 };
    let cols = n_out
        .checked_mul(out_last as usize)
        .ok_or_else(|| n.err(format!("dft_length {len} is too large")))?;
    let cells = (last as usize)
        .checked_mul(len_in)
        .and_then(|x| x.checked_mul(cols))
        .ok_or_else(|| n.err(format!("dft_length {len} is too large")))?;
    crate::size::on_host(cells as u64, 8, "DFT's matrix").map_err(|m| n.err(m))?;
    let mut m = Vec::with_capacity(cells);
    for part in 0..last as usize {
        for j in 0..len_in {
            for half in 0..out_last as usize {
                for k in 0..n_out {
                    let (cv, sv) = cs(j, k);
                    // real in: [C | S]; imaginary in: [-S | C].
                    m.push(match (part, half) {
                        (0, 0) => cv,
                        (0, _) => sv,
                        (_, 0) => -sv,
                        _ => cv,
                    });
                }
            }
        }
    }
    let mat = Value::constant(HostTensor::from_floats(
        dt,
        &[last as usize * len_in, cols],
        &m,
    ));
    let y = matmul::matmul_values(c, n, &xf, &mat)?;
    let y = c
        .reshape(&y, &[batch, out_last, n_out as u64])
        .map_err(|e| n.err(e))?;
    let y3 = c.transpose(&y, &[0, 2, 1]).map_err(|e| n.err(e))?;
    // Back to the input's layout.
    let mut ts: Vec<u64> = perm[..r - 2].iter().map(|&d| s[d]).collect();
    ts.push(n_out as u64);
    ts.push(out_last);
    let yt = c.reshape(&y3, &ts).map_err(|e| n.err(e))?;
    let mut inv = vec![0usize; r];
    for (i, &p) in perm.iter().enumerate() {
        inv[p] = i;
    }
    Ok(vec![c.transpose(&yt, &inv).map_err(|e| n.err(e))?])
}
