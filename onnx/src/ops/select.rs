//! `ReverseSequence` (a generic reading each element's source by the
//! per-batch lengths) and `Compress` (a `Gather` of the indices where a
//! condition known before running is true).

use kiln_core::tensor::attr::{CmpIPred, ScalarBits};
use kiln_core::tensor::ops::ArithOp;
use kiln_core::tensor::{AffineExpr, AffineMap, ElemType};

use super::gather::{extract, indexed_generic};
use super::scalar::{convert, select};
use super::{shape, OpResult};
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

/// `ReverseSequence(input, sequence_lens, batch_axis, time_axis)`: along
/// the time axis, the first `sequence_lens[b]` elements of batch `b`
/// reversed, the rest copied.
pub fn reverse_sequence(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, lens) = (n.input(0)?, n.input(1)?);
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let r = s.len();
    if r < 2 {
        return Err(n.err("the input needs rank >= 2"));
    }
    let ba = n.axis(n.int("batch_axis", 1), r)?;
    let ta = n.axis(n.int("time_axis", 0), r)?;
    if ba == ta {
        return Err(n.err("batch_axis and time_axis must differ"));
    }
    if lens.static_shape().as_deref() != Some(&[s[ba]][..]) || lens.dtype.is_float() {
        return Err(n.err(format!("sequence_lens must be {} integers", s[ba])));
    }
    let src = c.ssa(x);
    let lv = c.ssa(lens);
    let ldt = lens.dtype;
    let map = AffineMap::new(r as u32, 0, vec![AffineExpr::Dim(ba as u32)]);
    let elem = x.dtype.elem();
    let tmax = s[ta] as i64;
    let y = indexed_generic(c, &s, x.dtype, &[(lv, map)], |bb, li, args| {
        let i64t = ElemType::I64;
        let len = convert(bb, ldt, DataType::Int64, args[0]);
        let lo = bb.constant(ScalarBits::Int(0), i64t);
        let hi = bb.constant(ScalarBits::Int(tmax), i64t);
        let len = bb.arith(ArithOp::MaxSI, vec![len, lo], i64t);
        let len = bb.arith(ArithOp::MinSI, vec![len, hi], i64t);
        let t = bb.arith(ArithOp::IndexCast, vec![li[ta]], i64t);
        let inside = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![t, len], ElemType::I1);
        let one = bb.constant(ScalarBits::Int(1), i64t);
        let last = bb.arith(ArithOp::SubI, vec![len, one], i64t);
        let rev = bb.arith(ArithOp::SubI, vec![last, t], i64t);
        let src_t = select(bb, inside, rev, t);
        let mut at = li.to_vec();
        at[ta] = bb.arith(ArithOp::IndexCast, vec![src_t], ElemType::Index);
        extract(bb, src, &at, elem)
    });
    Ok(vec![y])
}

/// `Compress(input, condition, axis?)`: the slices along `axis` (the
/// flattened input without one) whose condition is true; the condition
/// must be known before running (it sets the output's size).
pub fn compress(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let cond = n.known(1)?;
    let s = x
        .static_shape()
        .ok_or_else(|| n.err("dynamic shapes are not supported"))?;
    let (src, axis) = if n.has("axis") {
        (x.clone(), n.axis(n.int("axis", 0), s.len())?)
    } else {
        let total: u64 = s.iter().product();
        (c.reshape(x, &[total]).map_err(|e| n.err(e))?, 0)
    };
    let size = src.static_shape().unwrap_or_default()[axis] as usize;
    if cond.len() > size {
        return Err(n.err(format!(
            "condition has {} entries, the axis {size}",
            cond.len()
        )));
    }
    let picks: Vec<i64> = (0..cond.len())
        .filter(|&i| cond.int(i) != 0)
        .map(|i| i as i64)
        .collect();
    let idx = Value::constant(HostTensor::from_ints(
        DataType::Int64,
        &[picks.len()],
        &picks,
    ));
    let y = super::attention::sub(
        c,
        n,
        shape::gather,
        "Gather",
        vec![src, idx],
        &[("axis", vec![axis as i64])],
    )?;
    Ok(vec![y])
}
