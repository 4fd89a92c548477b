//! `MelWeightMatrix` (opset 17): the triangular mel filters over
//! `dft_length / 2 + 1` spectrogram bins. The filters' edge bins depend
//! only on the scalar inputs (known before running) and are computed on
//! the host as ONNX's reference does (float32 `log1p` of the edge
//! frequencies, the rest in f64, floored); the weights are one generic
//! over `[bins, mel]` reading them.

use kiln_core::tensor::attr::ScalarBits;
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::ElemType;

use super::gather::{extract, indexed_generic};
use super::scalar::{arith, cmp, convert, cst, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// `MelWeightMatrix(num_mel_bins, dft_length, sample_rate,
/// lower_edge_hertz, upper_edge_hertz; output_datatype)`.
pub fn mel_weight_matrix(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let mel = n.known(0)?.int(0);
    let dft = n.known(1)?.int(0);
    let rate = n.known(2)?.int(0);
    let (lo, hi) = (n.known(3)?.float(0) as f32, n.known(4)?.float(0) as f32);
    if mel <= 0 || dft <= 0 || rate <= 0 {
        return Err(n.err("num_mel_bins, dft_length and sample_rate must be positive"));
    }
    let to = DataType::from_code(n.int("output_datatype", 1) as i32, "output_datatype")?;
    let bins = dft / 2 + 1;
    crate::size::addressable(&[bins as u64, mel as u64], to).map_err(|m| n.err(m))?;
    crate::size::on_host(mel as u64 + 2, 8, "the mel edges").map_err(|m| n.err(m))?;
    let to_mel = |hz: f32| f64::from(2595f32 * (hz / 700f32).ln_1p()) / 10f64.ln();
    let (lm, hm) = (to_mel(lo), to_mel(hi));
    let step = (hm - lm) / (mel + 2) as f64;
    let edges: Vec<i64> = (0..mel + 2)
        .map(|i| {
            let m = i as f64 * step + lm;
            let hz = 700.0 * (m / 2595.0 * 10f64.ln()).exp_m1();
            ((dft as f64 + 1.0) * hz / rate as f64).floor() as i64
        })
        .collect();
    if edges.iter().any(|&e| !(0..bins).contains(&e)) {
        return Err(n.err(format!("mel edges {edges:?} fall outside the {bins} bins")));
    }
    let ev = Value::constant(HostTensor::from_ints(
        DataType::Int64,
        &[edges.len()],
        &edges,
    ));
    let ev = c.ssa(&ev);
    let i64d = DataType::Int64;
    let y = indexed_generic(c, &[bins as u64, mel as u64], to, &[], |bb, li, _| {
        let (i64t, f) = (ElemType::I64, DataType::Double);
        let j = bb.arith(ArithOp::IndexCast, vec![li[0]], i64t);
        let i = bb.arith(ArithOp::IndexCast, vec![li[1]], i64t);
        let at = |bb: &mut BodyBuilder<'_>, k: i64| {
            let kc = bb.constant(ScalarBits::Int(k), i64t);
            let p = bb.arith(ArithOp::AddI, vec![i, kc], i64t);
            let p = bb.arith(ArithOp::IndexCast, vec![p], ElemType::Index);
            extract(bb, ev, &[p], i64t)
        };
        let (l, m, h) = (at(bb, 0), at(bb, 1), at(bb, 2));
        let fl = |bb: &mut BodyBuilder<'_>, v| convert(bb, i64d, f, v);
        let (jf, lf, mf, hf) = (fl(bb, j), fl(bb, l), fl(bb, m), fl(bb, h));
        let zero = cst(bb, f, 0.0);
        let one = cst(bb, f, 1.0);
        // Rising edge [l, m]: (j - l) / (m - l), or 1 at m when l == m.
        let up = arith(bb, f, Bin::Sub, jf, lf);
        let span = arith(bb, f, Bin::Sub, mf, lf);
        let rise = arith(bb, f, Bin::Div, up, span);
        let flat = cmp(bb, i64d, Cmp::Eq, l, m);
        let at_m = cmp(bb, i64d, Cmp::Eq, j, m);
        let ge_l = cmp(bb, i64d, Cmp::Ge, j, l);
        let le_m = cmp(bb, i64d, Cmp::Le, j, m);
        let in_rise = bb.arith(ArithOp::AndI, vec![ge_l, le_m], ElemType::I1);
        let one_or_zero = select(bb, at_m, one, zero);
        let r = select(bb, in_rise, rise, zero);
        let v = select(bb, flat, one_or_zero, r);
        // Falling edge [m, h): (h - j) / (h - m) when m < h.
        let down = arith(bb, f, Bin::Sub, hf, jf);
        let width = arith(bb, f, Bin::Sub, hf, mf);
        let fall = arith(bb, f, Bin::Div, down, width);
        let lt_h = cmp(bb, i64d, Cmp::Lt, j, h);
        let ge_m = cmp(bb, i64d, Cmp::Ge, j, m);
        let in_fall = bb.arith(ArithOp::AndI, vec![ge_m, lt_h], ElemType::I1);
        let v = select(bb, in_fall, fall, v);
        convert(bb, f, to, v)
    });
    Ok(vec![y])
}
