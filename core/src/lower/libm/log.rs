//! `log`, `log2`, `log10`, `log1p` (fdlibm's `e_log.c`, and a
//! double-double variant for `pow`).

use crate::ir::Value;

use super::{Fb, Prec};

/// `ln 2` split as in [`super::exp`] (`k * LN2HI` exact).
const LN2HI_64: f64 = 6.931_471_803_691_238e-1;
const LN2LO_64: f64 = 1.908_214_929_270_587_7e-10;
const LN2HI_32: f64 = 6.931_381_225_585_938e-1;
const LN2LO_32: f64 = 9.058_000_614_5e-6;
/// fdlibm's `Lg1`..`Lg7`: `log(1 + f) = f - f^2/2 + s (f^2/2 + R(z))`,
/// `s = f / (2 + f)`, `R(z) ~ Lg1 s^2 + Lg2 s^4 + ...` (error below 2^-58.45).
const LG: [f64; 7] = [
    6.666_666_666_666_735e-1,
    3.999_999_999_940_942e-1,
    2.857_142_874_366_239e-1,
    2.222_219_843_214_978_4e-1,
    1.818_357_216_161_805e-1,
    1.531_383_769_920_937_3e-1,
    1.479_819_860_511_658_6e-1,
];
/// `sqrt(1/2)`.
const SQRT_HALF: f64 = std::f64::consts::FRAC_1_SQRT_2;
/// `2/3` as a double-double.
const TWO_THIRDS: f64 = 2.0 / 3.0;
const TWO_THIRDS_LO: f64 = 3.700_743_415_417_188e-17;
/// `1 / ln 2` and `1 / ln 10` as double-doubles.
const INVLN2: f64 = std::f64::consts::LOG2_E;
const INVLN2_LO: f64 = 2.035_527_374_093_103_3e-17;
const INVLN10: f64 = std::f64::consts::LOG10_E;
const INVLN10_LO: f64 = 1.098_319_650_216_765e-17;

/// `(m, k)` with `x = m 2^k`, `m` in `[sqrt(1/2), sqrt(2))`, `k` an
/// integral float, for finite `x > 0` (subnormals included).
fn reduce(f: &mut Fb, x: Value) -> (Value, Value) {
    let (tiny, scale, shift) = match f.prec {
        Prec::F64 => (f64::MIN_POSITIVE, 18_014_398_509_481_984.0, 54),
        Prec::F32 => (f64::from(f32::MIN_POSITIVE), 33_554_432.0, 25),
    };
    let den = f.lt_c(x, tiny);
    let sc = f.c(scale);
    let xs = f.mul(x, sc);
    let xs = f.sel(den, xs, x);
    let (m, e) = f.frexp(xs);
    let sh = f.ci(shift);
    let zero = f.ci(0);
    let adj = f.sel_i(den, sh, zero);
    let e = f.isub(e, adj);
    let small = f.lt_c(m, SQRT_HALF);
    let two = f.c(2.0);
    let m2 = f.mul(m, two);
    let m = f.sel(small, m2, m);
    let one = f.ci(1);
    let e1 = f.isub(e, one);
    let e = f.sel_i(small, e1, e);
    let k = f.i_to_f(e);
    (m, k)
}

/// fdlibm's `log` of finite `x > 0`.
fn log_core(f: &mut Fb, x: Value) -> Value {
    let (m, dk) = reduce(f, x);
    let one = f.c(1.0);
    let fr = f.sub(m, one);
    let two = f.c(2.0);
    let d = f.add(two, fr);
    let s = f.div(fr, d);
    let z = f.mul(s, s);
    let w = f.mul(z, z);
    let t1p = f.poly(w, &[LG[1], LG[3], LG[5]]);
    let t1 = f.mul(w, t1p);
    let t2p = f.poly(w, &[LG[0], LG[2], LG[4], LG[6]]);
    let t2 = f.mul(z, t2p);
    let r = f.add(t2, t1);
    let half = f.c(0.5);
    let hf = f.mul(half, fr);
    let hfsq = f.mul(hf, fr);
    // dk LN2HI - ((hfsq - (s (hfsq + R) + dk LN2LO)) - f)
    let (l2h, l2l) = match f.prec {
        Prec::F64 => (LN2HI_64, LN2LO_64),
        Prec::F32 => (LN2HI_32, LN2LO_32),
    };
    let l2h = f.c(l2h);
    let l2l = f.c(l2l);
    let hr = f.add(hfsq, r);
    let shr = f.mul(s, hr);
    let kl = f.mul(dk, l2l);
    let a = f.add(shr, kl);
    let b = f.sub(hfsq, a);
    let c = f.sub(b, fr);
    let kh = f.mul(dk, l2h);
    f.sub(kh, c)
}

/// `log(x)` of finite `x > 0` as a double-double `(hi, lo)` with relative
/// error below 2^-63: `log(m) = 2s + 2s^3/3 + s^5 R(s^2)`, `s = (m - 1) /
/// (m + 1)`, with `s`, `s^3` and `2s^3/3` carried in double-double (f64).
pub(crate) fn log_dd(f: &mut Fb, x: Value) -> (Value, Value) {
    let (m, dk) = reduce(f, x);
    let one = f.c(1.0);
    let fr = f.sub(m, one);
    let two = f.c(2.0);
    // u = 2 + f exactly as uh + ul.
    let uh = f.add(two, fr);
    let t = f.sub(uh, two);
    let ul = f.sub(fr, t);
    let sh = f.div(fr, uh);
    // sl = (f - sh uh - sh ul) / uh, f - p exact (Sterbenz).
    let (p, pe) = f.two_prod(sh, uh);
    let rem = f.sub(fr, p);
    let rem = f.sub(rem, pe);
    let shul = f.mul(sh, ul);
    let rem = f.sub(rem, shul);
    let sl = f.div(rem, uh);
    // s^2 and s^3 with their errors.
    let (z, zl) = f.two_prod(sh, sh);
    let (s3, s3e) = f.two_prod(z, sh);
    let three = f.c(3.0);
    let zs = f.mul(three, z);
    let zsl = f.mul(zs, sl);
    let zlsh = f.mul_add(zl, sh, zsl);
    let s3l = f.add(s3e, zlsh);
    // a = 2/3 s^3 (double-double).
    let tt = f.c(TWO_THIRDS);
    let ttl = f.c(TWO_THIRDS_LO);
    let (a, ae) = f.two_prod(s3, tt);
    let x1 = f.mul(s3, ttl);
    let x2 = f.mul_add(s3l, tt, x1);
    let al = f.add(ae, x2);
    // tail = s^5 (2/5 + 2/7 z + ...), below 2^-11 of the total.
    let q: Vec<f64> = (2..=10).map(|n| 2.0 / f64::from(2 * n + 1)).collect();
    let qz = f.poly(z, &q);
    let s5 = f.mul(s3, z);
    let tail = f.mul(s5, qz);
    // k ln2 + 2 sh + a + (2 sl + al + tail + k LN2LO)
    let l2h = f.c(LN2HI_64);
    let l2l = f.c(LN2LO_64);
    let kh = f.mul(dk, l2h);
    let s2 = f.add(sh, sh);
    let (h, e1) = f.two_sum(kh, s2);
    let (h, e2) = f.two_sum(h, a);
    let sl2 = f.add(sl, sl);
    let lo = f.add(sl2, al);
    let lo = f.add(lo, tail);
    let lo = f.mul_add(dk, l2l, lo);
    let e = f.add(e1, e2);
    let lo = f.add(e, lo);
    f.fast_two_sum(h, lo)
}

/// The special values of a logarithm: NaN below 0 (and for NaN), -inf at
/// ±0, +inf at +inf; `r` otherwise.
fn specials(f: &mut Fb, x: Value, r: Value) -> Value {
    let inf = f.eq_c(x, f64::INFINITY);
    let r = f.sel(inf, x, r);
    let zero = f.eq_c(x, 0.0);
    let r = f.sel_c(zero, f64::NEG_INFINITY, r);
    let neg = f.lt_c(x, 0.0);
    let nan = f.is_nan(x);
    let bad = f.or(neg, nan);
    f.sel_c(bad, f64::NAN, r)
}

/// `log(x)`.
pub(crate) fn log(f: &mut Fb, x: Value) -> Value {
    let r = log_core(f, x);
    specials(f, x, r)
}

/// `log(x) c` with `c = (ch + cl)` in double-double.
fn log_times(f: &mut Fb, x: Value, ch: f64, cl: f64) -> Value {
    let (h, l) = log_dd(f, x);
    let chv = f.c(ch);
    let clv = f.c(cl);
    let (p, pe) = f.two_prod(h, chv);
    let a = f.mul(h, clv);
    let b = f.mul_add(l, chv, a);
    let lo = f.add(pe, b);
    let r = f.add(p, lo);
    specials(f, x, r)
}

/// `log2(x)`.
pub(crate) fn log2(f: &mut Fb, x: Value) -> Value {
    log_times(f, x, INVLN2, INVLN2_LO)
}

/// `log10(x)`.
pub(crate) fn log10(f: &mut Fb, x: Value) -> Value {
    log_times(f, x, INVLN10, INVLN10_LO)
}

/// `log(1 + x)`: `u = 1 + x` rounded, `log(u) + (x - (u - 1)) / u` (the
/// rounding of `u` corrected to first order); the series `x - x^2/2 +
/// ... - x^6/6` for `|x| < 2^-13` (f64) or `2^-7` (f32), where its first
/// omitted term is below 2^-78 (resp. 2^-42) of the result.
pub(crate) fn log1p(f: &mut Fb, x: Value) -> Value {
    let one = f.c(1.0);
    let u = f.add(one, x);
    let um1 = f.sub(u, one);
    let d = f.sub(x, um1);
    let c = f.div(d, u);
    let lu = log_core(f, u);
    let r = f.add(lu, c);
    // Near 0: the series.
    let small = match f.prec {
        Prec::F64 => 1.0 / 8192.0,
        Prec::F32 => 1.0 / 128.0,
    };
    let p = f.poly(x, &[1.0, -0.5, 1.0 / 3.0, -0.25, 0.2, -1.0 / 6.0]);
    let series = f.mul(x, p);
    let ax = f.abs(x);
    let near = f.lt_c(ax, small);
    let r = f.sel(near, series, r);
    // log1p(-1) = -inf, below -1 NaN, +inf and ±0 as they are.
    let inf = f.eq_c(x, f64::INFINITY);
    let zero = f.eq_c(x, 0.0);
    let keep = f.or(inf, zero);
    let r = f.sel(keep, x, r);
    let m1 = f.eq_c(x, -1.0);
    let r = f.sel_c(m1, f64::NEG_INFINITY, r);
    let below = f.lt_c(x, -1.0);
    let nan = f.is_nan(x);
    let bad = f.or(below, nan);
    f.sel_c(bad, f64::NAN, r)
}
