//! `ai.onnx.ml` ops on tensors: `Binarizer` and `ArrayFeatureExtractor`.

use super::attention::sub;
use super::scalar::{cmp, cst, select, Cmp};
use super::{shape, OpResult};
use crate::ctx::Ctx;
use crate::node::Node;

/// `Binarizer(threshold)`: 1 where `x > threshold`, else 0.
pub fn binarizer(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("Binarizer of {} is not supported", dt.name())));
    }
    let t = f64::from(n.float("threshold", 0.0));
    let y = c
        .elementwise(&[x], dt, |bb, v| {
            let th = cst(bb, dt, t);
            let gt = cmp(bb, dt, Cmp::Gt, v[0], th);
            let (one, zero) = (cst(bb, dt, 1.0), cst(bb, dt, 0.0));
            select(bb, gt, one, zero)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `ArrayFeatureExtractor(X, Y)`: the elements of `X`'s last axis at the
/// indices `Y` (a rank-1 `X` gives `[1, K]`).
pub fn array_feature_extractor(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (x, y) = (n.input(0)?, n.input(1)?);
    let r = x.rank();
    if r == 0 {
        return Err(n.err("X must have a rank of at least 1"));
    }
    let k: u64 = y
        .static_shape()
        .ok_or_else(|| n.err("Y must be of static shape"))?
        .iter()
        .product();
    let flat = c.reshape(y, &[k]).map_err(|e| n.err(e))?;
    let mut g = sub(
        c,
        n,
        shape::gather,
        "Gather",
        vec![x.clone(), flat],
        &[("axis", vec![r as i64 - 1])],
    )?;
    if r == 1 {
        g = c.reshape(&g, &[1, k]).map_err(|e| n.err(e))?;
    }
    Ok(vec![g])
}
