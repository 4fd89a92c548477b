//! `BitCast(to)` (opset 26): the same bits read as another type of the
//! same width.

use kiln_core::tensor::ops::ArithOp;

use super::scalar::{cmp, cst, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;

/// The width of `dt` in bits as ONNX counts it (bool: 8).
fn width(dt: DataType) -> u32 {
    if dt == DataType::Bool {
        8
    } else {
        dt.elem().bits()
    }
}

/// `BitCast(to)`.
pub fn bit_cast(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let from = x.dtype;
    let to = DataType::from_code(n.int("to", 0) as i32, &format!("node {}", n.name()))?;
    if width(from) != width(to) {
        return Err(n.err(format!(
            "{} ({} bits) and {} ({} bits) differ in width",
            from.name(),
            width(from),
            to.name(),
            width(to)
        )));
    }
    if from.elem() == to.elem() {
        let mut y = x.clone();
        y.dtype = to;
        if let Some(k) = &y.known {
            let mut t = (**k).clone();
            t.dtype = to;
            y.known = Some(std::rc::Rc::new(t));
        }
        return Ok(vec![y]);
    }
    let y = c
        .elementwise(&[x], to, |bb, v| {
            if from == DataType::Bool {
                // A bool's byte is 0 or 1.
                return bb.arith(ArithOp::ExtUI, vec![v[0]], to.elem());
            }
            if to == DataType::Bool {
                let z = cst(bb, from, 0.0);
                return cmp(bb, from, Cmp::Ne, v[0], z);
            }
            bb.arith(ArithOp::Bitcast, vec![v[0]], to.elem())
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}
