//! `Swish` (opset 24), `SwiGLU` (opset 28) and `Shrink`: activations with
//! a gate or a dead zone, one `linalg.generic` each.

use super::elementwise::sigmoid_of;
use super::scalar::{arith, cmp, cst, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::node::Node;

/// `Swish(alpha)`: `x * sigmoid(alpha * x)`.
pub fn swish(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("Swish of {} is not supported", dt.name())));
    }
    let alpha = f64::from(n.float("alpha", 1.0));
    let y = c
        .elementwise(&[x], dt, |bb, v| {
            let a = cst(bb, dt, alpha);
            let ax = arith(bb, dt, Bin::Mul, a, v[0]);
            let s = sigmoid_of(bb, dt, ax);
            arith(bb, dt, Bin::Mul, v[0], s)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `SwiGLU(A, B, alpha)`: `A * sigmoid(alpha * A) * B` (same shapes).
pub fn swiglu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    if !dt.is_float() {
        return Err(n.err(format!("SwiGLU of {} is not supported", dt.name())));
    }
    if a.shape != b.shape {
        return Err(n.err("SwiGLU's inputs must have the same shape (no broadcasting)"));
    }
    let alpha = f64::from(n.float("alpha", 1.0));
    let y = c
        .elementwise(&[a, b], dt, |bb, v| {
            let k = cst(bb, dt, alpha);
            let ax = arith(bb, dt, Bin::Mul, k, v[0]);
            let s = sigmoid_of(bb, dt, ax);
            let g = arith(bb, dt, Bin::Mul, v[0], s);
            arith(bb, dt, Bin::Mul, g, v[1])
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}

/// `Shrink(bias, lambd)`: `x + bias` below `-lambd`, `x - bias` above
/// `lambd`, else 0 (any numeric type; the attributes converted to it).
pub fn shrink(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let dt = x.dtype;
    let bias = f64::from(n.float("bias", 0.0));
    let lambd = f64::from(n.float("lambd", 0.5));
    // Unsigned values are never below -lambd (<= 0); integer types take
    // lambd truncated toward zero, which keeps `x < -lambd` and `x >
    // lambd` exact for integers.
    let unsigned = dt.is_unsigned();
    let y = c
        .elementwise(&[x], dt, |bb, v| {
            let x = v[0];
            let z = cst(bb, dt, 0.0);
            let b = cst(bb, dt, bias);
            let hi = cst(bb, dt, lambd);
            let lo = cst(bb, dt, -lambd);
            let below = cmp(bb, dt, Cmp::Lt, x, lo);
            let above = cmp(bb, dt, Cmp::Gt, x, hi);
            let plus = arith(bb, dt, Bin::Add, x, b);
            let minus = arith(bb, dt, Bin::Sub, x, b);
            let r = select(bb, above, minus, z);
            if unsigned {
                return r;
            }
            select(bb, below, plus, r)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![y])
}
