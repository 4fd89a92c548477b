//! `exp`, `exp2`, `expm1` and `tanh` (fdlibm's `e_exp.c`, `s_expm1.c`'s
//! reduction, `s_tanh.c`).

use crate::grammar::Opcode;
use crate::ir::Value;

use super::{Fb, Prec};

/// `1 / ln 2`.
const INVLN2: f64 = std::f64::consts::LOG2_E;
/// `ln 2` rounded to 33 bits (f64: `k * LN2HI` is exact for `|k| < 2^20`).
const LN2HI_64: f64 = 6.931_471_803_691_238e-1;
/// `ln 2 - LN2HI_64`.
const LN2LO_64: f64 = 1.908_214_929_270_587_7e-10;
/// `ln 2` rounded to 17 bits (fdlibm's `expf`: `0x3f317180`).
const LN2HI_32: f64 = 6.931_381_225_585_938e-1;
/// `ln 2 - LN2HI_32` (`0x3717f7d1`).
const LN2LO_32: f64 = 9.058_000_614_5e-6;
/// fdlibm's `P1`..`P5`: `R(r^2) = r (exp(r) + 1) / (exp(r) - 1) = 2 + r^2 P(r^2)`
/// on `|r| <= ln2 / 2` (remez error below 2^-59).
const P: [f64; 5] = [
    1.666_666_666_666_660_2e-1,
    -2.777_777_777_701_559_3e-3,
    6.613_756_321_437_934e-5,
    -1.653_390_220_546_525_2e-6,
    4.138_136_797_057_238_5e-8,
];
/// `ln 2` as a double-double (`exp2`).
const LN2: f64 = std::f64::consts::LN_2;
/// `ln 2 - LN2`.
const LN2_LO: f64 = 2.319_046_813_846_299_6e-17;

fn ln2_split(prec: Prec) -> (f64, f64) {
    match prec {
        Prec::F64 => (LN2HI_64, LN2LO_64),
        Prec::F32 => (LN2HI_32, LN2LO_32),
    }
}

/// `c = r - r^2 P(r^2)`: `exp(r) = 1 + r + r c / (2 - c)`.
fn c_of(f: &mut Fb, r: Value) -> Value {
    let t = f.mul(r, r);
    let p = f.poly(t, &P);
    let tp = f.mul(t, p);
    f.sub(r, tp)
}

/// `x` clamped to `[lo, hi]`, NaN kept as NaN (the comparisons fail).
fn clamp(f: &mut Fb, x: Value, lo: f64, hi: f64) -> Value {
    let above = f.gt_c(x, hi);
    let x = f.sel_c(above, hi, x);
    let below = f.lt_c(x, lo);
    f.sel_c(below, lo, x)
}

/// `exp(hi + lo)` for `|lo| <= ulp(hi)` (the caller's double-double), NaN
/// `hi` not handled (the caller selects it).
pub(crate) fn exp_dd(f: &mut Fb, hi: Value, lo: Value) -> Value {
    let (lo_lim, hi_lim) = match f.prec {
        Prec::F64 => (-746.0, 710.0),
        Prec::F32 => (-104.0, 89.0),
    };
    let xc = clamp(f, hi, lo_lim, hi_lim);
    // Beyond the range, the low part is meaningless (and may be NaN).
    let same = f.cmp(Opcode::FOrdEqual, xc, hi);
    let zero = f.c(0.0);
    let lo_in = f.sel(same, lo, zero);
    let (kf, rhi, klo) = reduce_ln2(f, xc);
    let rlo = f.sub(klo, lo_in);
    let r = f.sub(rhi, rlo);
    let c = c_of(f, r);
    // y = 1 - ((rlo - r c / (2 - c)) - rhi)
    let rc = f.mul(r, c);
    let two = f.c(2.0);
    let d = f.sub(two, c);
    let q = f.div(rc, d);
    let a = f.sub(rlo, q);
    let b = f.sub(a, rhi);
    let one = f.c(1.0);
    let y = f.sub(one, b);
    let k = f.f_to_i(kf);
    f.scale(y, k)
}

/// `exp(x)`.
pub(crate) fn exp(f: &mut Fb, x: Value) -> Value {
    let zero = f.c(0.0);
    let r = exp_dd(f, x, zero);
    let nan = f.is_nan(x);
    f.sel(nan, x, r)
}

/// `exp2(x) = exp(x ln 2)`, the product taken as a double-double.
pub(crate) fn exp2(f: &mut Fb, x: Value) -> Value {
    let ln2 = f.c(LN2);
    let (ph, pe) = f.two_prod(x, ln2);
    let ln2lo = f.c(LN2_LO);
    let pl = f.mul_add(x, ln2lo, pe);
    let r = exp_dd(f, ph, pl);
    let nan = f.is_nan(x);
    f.sel(nan, x, r)
}

/// `exp(x) - 1`: `x = k ln2 + r`, `expm1(r) = r + r c / (2 - c)`
/// (with the low part of the reduction), then `2^k (1 + expm1(r)) - 1`
/// as `2^k expm1(r) + (2^k - 1)` (exact `2^k - 1` for the `k` it is used
/// with).
pub(crate) fn expm1(f: &mut Fb, x: Value) -> Value {
    let (lo_lim, hi_lim, big_k) = match f.prec {
        Prec::F64 => (-60.0, 710.0, 52.0),
        Prec::F32 => (-30.0, 89.0, 23.0),
    };
    let xc = clamp(f, x, lo_lim, hi_lim);
    let (kf, rhi, rlo) = reduce_ln2(f, xc);
    let r = f.sub(rhi, rlo);
    let c = c_of(f, r);
    // er = rhi - (rlo - r c / (2 - c))
    let rc = f.mul(r, c);
    let two = f.c(2.0);
    let d = f.sub(two, c);
    let q = f.div(rc, d);
    let a = f.sub(rlo, q);
    let er = f.sub(rhi, a);
    // Moderate k: 2^k er + (2^k - 1).
    let kbig = f.gt_c(kf, big_k);
    let kmod = f.sel_c(kbig, 0.0, kf);
    let km = f.f_to_i(kmod);
    let p = f.pow2(km);
    let one = f.c(1.0);
    let pm1 = f.sub(p, one);
    let moderate = f.mul_add(p, er, pm1);
    // Large k: exp(x) - 1 = exp(x), scaled in two steps.
    let k = f.f_to_i(kf);
    let e1 = f.add(one, er);
    let large = f.scale(e1, k);
    let r = f.sel(kbig, large, moderate);
    let k0 = f.eq_c(kf, 0.0);
    let r = f.sel(k0, er, r);
    // expm1(±0) = ±0, NaN stays NaN.
    let z = f.eq_c(x, 0.0);
    let nan = f.is_nan(x);
    let keep = f.or(z, nan);
    f.sel(keep, x, r)
}

/// `tanh(x)` (fdlibm): `1 - 2 / (expm1(2|x|) + 2)` for `|x| >= 1`,
/// `-t / (t + 2)` with `t = expm1(-2|x|)` below, 1 from 22 on; the sign
/// of `x`; `±0` and NaN as they are.
pub(crate) fn tanh(f: &mut Fb, x: Value) -> Value {
    let ax = f.abs(x);
    let big = f.lt_c(ax, 1.0);
    let big = f.not(big);
    let two = f.c(2.0);
    let m2 = f.c(-2.0);
    let s = f.sel(big, two, m2);
    let arg = f.mul(s, ax);
    // expm1 of a NaN (|x| NaN) is NaN; the final select keeps x.
    let t = expm1(f, arg);
    let t2 = f.add(t, two);
    let q = f.div(two, t2);
    let one = f.c(1.0);
    let zb = f.sub(one, q);
    let nt = f.neg(t);
    let zs = f.div(nt, t2);
    let z = f.sel(big, zb, zs);
    let huge = f.lt_c(ax, 22.0);
    let huge = f.not(huge);
    let z = f.sel_c(huge, 1.0, z);
    let neg = f.lt_c(x, 0.0);
    let nz = f.neg(z);
    let r = f.sel(neg, nz, z);
    let zero = f.eq_c(x, 0.0);
    let nan = f.is_nan(x);
    let keep = f.or(zero, nan);
    f.sel(keep, x, r)
}

/// The shared argument reduction of exp and expm1: `k = roundeven(x /
/// ln 2)` and `x - k ln2_hi`, `k ln2_lo` (fdlibm's split of ln 2, so the
/// high product is exact).
fn reduce_ln2(f: &mut Fb, xc: Value) -> (Value, Value, Value) {
    let inv = f.c(INVLN2);
    let kx = f.mul(xc, inv);
    let kf = f.round_even(kx);
    let (l2h, l2l) = ln2_split(f.prec);
    let l2h = f.c(l2h);
    let l2l = f.c(l2l);
    let khi = f.mul(kf, l2h);
    let rhi = f.sub(xc, khi);
    let klo = f.mul(kf, l2l);
    (kf, rhi, klo)
}
