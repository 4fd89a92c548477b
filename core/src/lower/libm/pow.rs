//! `pow(x, y)` on f64: `exp(y log|x|)` with `log|x|` and the product in
//! double-double ([`super::log::log_dd`], [`super::exp::exp_dd`]), the sign
//! of a negative base for odd integer `y`, and C99 Annex F's special cases.

use crate::grammar::Opcode;
use crate::ir::Value;

use super::exp::exp_dd;
use super::log::log_dd;
use super::Fb;

/// `|x|` is finite (not infinite; NaN counts as finite here).
fn axinf_not(f: &mut Fb, ax: Value) -> Value {
    let inf = f.eq_c(ax, f64::INFINITY);
    f.not(inf)
}

/// `pow(x, y)`.
pub(crate) fn pow(f: &mut Fb, x: Value, y: Value) -> Value {
    let ax = f.abs(x);
    // The finite, non-zero case.
    let (lh, ll) = log_dd(f, ax);
    let (ph, pe) = f.two_prod(y, lh);
    let pl = f.mul_add(y, ll, pe);
    let mag = exp_dd(f, ph, pl);
    // |x| = 0 or inf, y = ±inf.
    let ylt0 = f.lt_c(y, 0.0);
    let zero = f.eq_c(ax, 0.0);
    let inf = f.c(f64::INFINITY);
    let nil = f.c(0.0);
    let z_mag = f.sel(ylt0, inf, nil);
    let mag = f.sel(zero, z_mag, mag);
    let axinf = f.eq_c(ax, f64::INFINITY);
    let i_mag = f.sel(ylt0, nil, inf);
    let mag = f.sel(axinf, i_mag, mag);
    let ay = f.abs(y);
    let yinf = f.eq_c(ay, f64::INFINITY);
    let below1 = f.lt_c(ax, 1.0);
    let ygt0 = f.gt_c(y, 0.0);
    let shrink = f.cmp(Opcode::LogicalEqual, below1, ygt0);
    let y_mag = f.sel(shrink, nil, inf);
    let one = f.c(1.0);
    let ax1 = f.eq_c(ax, 1.0);
    let y_mag = f.sel(ax1, one, y_mag);
    let mag = f.sel(yinf, y_mag, mag);
    // Sign: negative x (-0 included) and odd integer y.
    let yt = f.trunc(y);
    let is_int = f.cmp(Opcode::FOrdEqual, y, yt);
    let half = f.c(0.5);
    let hy = f.mul(y, half);
    let hyt = f.trunc(hy);
    let odd = f.cmp(Opcode::FOrdNotEqual, hy, hyt);
    let odd = f.and(is_int, odd);
    let xlt0 = f.lt_c(x, 0.0);
    let inv = f.div(one, x);
    let neg_zero = f.lt_c(inv, 0.0);
    let neg_zero = f.and(zero, neg_zero);
    let neg = f.or(xlt0, neg_zero);
    let flip = f.and(neg, odd);
    let nmag = f.neg(mag);
    let r = f.sel(flip, nmag, mag);
    // NaN: a finite negative base with a non-integer y, and NaN operands.
    let not_int = f.not(is_int);
    let bad = f.and(xlt0, not_int);
    let finite = axinf_not(f, ax);
    let bad = f.and(bad, finite);
    let xn = f.is_nan(x);
    let yn = f.is_nan(y);
    let n = f.or(xn, yn);
    let bad = f.or(bad, n);
    let r = f.sel_c(bad, f64::NAN, r);
    // pow(x, ±0) = 1, pow(1, y) = 1, even for NaN.
    let y0 = f.eq_c(y, 0.0);
    let x1 = f.eq_c(x, 1.0);
    let unit = f.or(y0, x1);
    f.sel_c(unit, 1.0, r)
}
