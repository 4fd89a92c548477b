//! f64 `trunc` and `roundeven` built so that a driver's double-precision
//! rounding cannot get them wrong: lavapipe (Mesa 23-25) returns +0 for
//! `Trunc(-0.25)` and `RoundEven(-0.0)`, and 1 for `RoundEven(1.5)`, 3 for
//! `RoundEven(3.5)`. Only `Trunc` of a value's magnitude is used (right
//! there for every non-zero result), and signed zeros come from
//! comparisons and constants, never from arithmetic a driver may fold
//! (`x * 0` becomes +0 on lavapipe even with `NoContraction`).

use crate::grammar::Opcode;
use crate::ir::Value;

use super::Fb;

/// `r` with the sign of `x` for `x < 0` (`r` is `>= 0` or NaN), `x` itself
/// for `x = ±0`.
fn signed_like(f: &mut Fb, x: Value, r: Value) -> Value {
    let neg = f.lt_c(x, 0.0);
    let nr = f.neg(r);
    let nz = f.c(-0.0);
    let zero = f.eq_c(r, 0.0);
    let nr = f.sel(zero, nz, nr);
    let v = f.sel(neg, nr, r);
    let xz = f.eq_c(x, 0.0);
    f.sel(xz, x, v)
}

/// `trunc(x)`: toward zero, the sign kept (`trunc(-0.25) = -0`).
pub(crate) fn trunc(f: &mut Fb, x: Value) -> Value {
    let ax = f.abs(x);
    let t = f.trunc(ax);
    signed_like(f, x, t)
}

/// `roundeven(x)`: to the nearest integer, ties to even, the sign kept.
pub(crate) fn round_even(f: &mut Fb, x: Value) -> Value {
    let ax = f.abs(x);
    let t = f.trunc(ax);
    // frac is exact: t and ax share their exponent or t = 0.
    let frac = f.sub(ax, t);
    let above = f.gt_c(frac, 0.5);
    let tie = f.eq_c(frac, 0.5);
    let half = f.c(0.5);
    let ht = f.mul(t, half);
    let hti = f.trunc(ht);
    let odd = f.cmp(Opcode::FOrdNotEqual, ht, hti);
    let tie_up = f.and(tie, odd);
    let up = f.or(above, tie_up);
    let one = f.c(1.0);
    let t1 = f.add(t, one);
    // inf: frac is NaN, no step; NaN stays NaN.
    let r = f.sel(up, t1, t);
    signed_like(f, x, r)
}
