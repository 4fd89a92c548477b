//! An f64 `math.fma` rounded once without a fused `Fma` and without
//! 64-bit integers, for drivers whose f64 `Fma` is a multiply then an add
//! (llvmpipe: `fma(1 + 2^-27, 1 + 2^-27, -(1 + 2^-26))` gives 0 there, not
//! 2^-54). f64 has no wider float to compute in, so the exact sum `a b + c`
//! is kept as unevaluated sums of f64 values and rounded once:
//!
//! 1. Zeros, infinities and NaN take `a * b + c` (the product is exact or
//!    the result is special either way), except `c == 0` (the product,
//!    which keeps the sign of a product that underflows) and an infinite
//!    `c` with finite factors (`c`, where `a * b` could overflow to the
//!    opposite infinity).
//! 2. The operands are brought to moderate exponents:
//!    `a = ma 2^ka`, `b = mb 2^kb`, `c = mc 2^kc` (`frexp`, after scaling
//!    subnormals up by 2^200), and the sum is computed as `2^kp (ma mb +
//!    c')` with `kp = ka + kb` and `c' = mc 2^(kc - kp)`. Where `kc - kp >
//!    60` the product is below a quarter of `c`'s spacing and the result is
//!    `c`; where `kc - kp < -110`, `c'` lies below every rounding boundary
//!    of `ma mb` (whose bits end at 2^-106) and only its sign matters, so
//!    it is replaced by `±2^-120`.
//! 3. `ma mb = uh + ul` exactly (Dekker's product), and `z = RN(uh + ul +
//!    c')` by Boldo and Melquiond's correctly rounded sum of three
//!    ("Emulation of FMA and correctly rounded sums: proved algorithms
//!    using rounding to odd", 2008): two TwoSums, the low parts' sum
//!    rounded to odd (one ulp toward its error where that is not zero and
//!    its last bit is even; the parity read from `frexp`'s significand),
//!    then one rounded addition. The exact residual's sign `x - z` is kept
//!    too: the sign of the last TwoSum's error, or, where that is 0, of the
//!    rounding to odd's own error.
//! 4. A result in the normal range is `z 2^kp` (exact) or an infinity. A
//!    subnormal result is rounded on its own grid: `Z = |z| 2^(1074 + kp)`
//!    is below 2^52 with midpoints representable, so `RN(x)`'s grid point
//!    is `floor(Z)` or the next, chosen by the fraction and, at exactly a
//!    half, by the residual's sign (an exact half goes to even). Rounding
//!    `z` again instead would round twice.
//!
//! A Python model of these steps (the same operations, in the same order)
//! agreed with exact rational arithmetic on 660,000 cases: random operands
//! over the whole range and sums placed on and beside rounding midpoints,
//! of normal results and of every binade of subnormal ones.

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{Type, Value};

use super::super::context::Lowerer;
use super::{Fb, Prec};

/// `a * b + c` of f64 type `ty` (scalar or vector), rounded once (see the
/// module docs).
pub(crate) fn fma_f64(l: &mut Lowerer, a: Value, b: Value, c: Value, ty: Type) -> Value {
    let mut f = Fb::new(l, ty, Prec::F64);
    let zero = f.c(0.0);
    // 1. The special cases.
    let fin = |f: &mut Fb, x: Value| {
        let ax = f.abs(x);
        f.lt_c(ax, f64::INFINITY)
    };
    let (fa, fb, fc) = (fin(&mut f, a), fin(&mut f, b), fin(&mut f, c));
    let fin_ab = f.and(fa, fb);
    let all_fin = f.and(fin_ab, fc);
    let a0 = f.eq_c(a, 0.0);
    let b0 = f.eq_c(b, 0.0);
    let c0 = f.eq_c(c, 0.0);
    let ab0 = f.or(a0, b0);
    let special = f.not(all_fin);
    let special = f.or(special, ab0);
    let special = f.or(special, c0);
    let prod = f.mul(a, b);
    let plain = f.add(prod, c);
    let c_inf = f.not(fc);
    let c_nan = f.is_nan(c);
    let c_num = f.not(c_nan);
    let c_inf = f.and(c_inf, c_num);
    let take_c = f.and(c_inf, fin_ab);
    let special_val = f.sel(take_c, c, plain);
    let ab_nonzero = f.not(ab0);
    let take_prod = f.and(c0, ab_nonzero);
    let take_prod = f.and(take_prod, fin_ab);
    let special_val = f.sel(take_prod, prod, special_val);

    // 2. Moderate exponents.
    let (ma, ka) = frexp_any(&mut f, a);
    let (mb, kb) = frexp_any(&mut f, b);
    let (mc, kc) = frexp_any(&mut f, c);
    let kp = f.l.core_op(Opcode::IAdd, vec![ka, kb], f.it);
    let d = f.isub(kc, kp);
    let it = f.it;
    let sixty = f.ci(60);
    let c_dominates = f.l.core_op(Opcode::SGreaterThan, vec![d, sixty], f.bt);
    let minus_110 = f.ci(-110);
    let c_tiny = f.l.core_op(Opcode::SLessThan, vec![d, minus_110], f.bt);
    let dc = f.clamp_i(d, -110, 60);
    let scale_c = f.pow2(dc);
    let cp = f.mul(mc, scale_c);
    let c_pos = f.gt_c(c, 0.0);
    let tiny = f.c(2f64.powi(-120));
    let neg_tiny = f.c(-(2f64.powi(-120)));
    let sticky = f.sel(c_pos, tiny, neg_tiny);
    let cp = f.sel(c_tiny, sticky, cp);

    // 3. The correctly rounded sum of three, and the residual's sign.
    let (uh, ul) = f.two_prod(ma, mb);
    let (u2, l2) = f.two_sum(ul, cp);
    let (th, tl) = f.two_sum(uh, u2);
    let (q, qe) = f.two_sum(tl, l2);
    let (mq, kq) = f.frexp(q);
    let amq = f.abs(mq);
    let two53 = f.c(2f64.powi(53));
    let t = f.mul(amq, two53);
    let half = f.c(0.5);
    let th_ = f.mul(t, half);
    let tt = f.trunc(th_);
    let odd = f.cmp(Opcode::FOrdNotEqual, th_, tt);
    let q0 = f.cmp(Opcode::FOrdEqual, q, zero);
    let inexact = f.cmp(Opcode::FOrdNotEqual, qe, zero);
    let even = f.not(odd);
    let moved = f.and(inexact, even);
    let q_nonzero = f.not(q0);
    let moved = f.and(moved, q_nonzero);
    let k53 = f.ci(53);
    let kulp = f.isub(kq, k53);
    let kulp = f.clamp_i(kulp, -1100, 1100);
    let ulp = f.pow2(kulp);
    let sqe = f.sign(qe);
    let step = f.mul(sqe, ulp);
    let v_moved = f.add(q, step);
    let v = f.sel(moved, v_moved, q);
    let neg_sqe = f.neg(sqe);
    let rho = f.sel(moved, neg_sqe, sqe);
    let (z, w) = f.two_sum(th, v);
    let w0 = f.cmp(Opcode::FOrdEqual, w, zero);
    let sw = f.sign(w);
    let rs = f.sel(w0, rho, sw);

    // 4. Back to the result's range.
    let (_, kz) = f.frexp(z);
    let e = f.l.core_op(Opcode::IAdd, vec![kz, kp], it);
    let k1024 = f.ci(1024);
    let overflow = f.l.core_op(Opcode::SGreaterThan, vec![e, k1024], f.bt);
    let kmin = f.ci(-1021);
    let normal = f.l.core_op(Opcode::SGreaterThanEqual, vec![e, kmin], f.bt);
    let kp_c = f.clamp_i(kp, -1200, 1200);
    let scaled = f.scale(z, kp_c);
    let inf = f.c(f64::INFINITY);
    let sz = f.sign(z);
    let signed_inf = f.mul(sz, inf);
    // The subnormal grid.
    let k1074 = f.ci(1074);
    let kg = f.l.core_op(Opcode::IAdd, vec![kp, k1074], it);
    let kg = f.clamp_i(kg, -200, 200);
    let g = f.pow2(kg);
    let az = f.abs(z);
    let big_z = f.mul(az, g);
    let rsa = f.mul(rs, sz);
    let fl = f.l.glsl_op(GlslOp::Floor, vec![big_z], ty);
    let fr = f.sub(big_z, fl);
    let fl_half = f.mul(fl, half);
    let fl_half_floor = f.l.glsl_op(GlslOp::Floor, vec![fl_half], ty);
    let fl_odd = f.cmp(Opcode::FOrdNotEqual, fl_half, fl_half_floor);
    let above = f.gt_c(fr, 0.5);
    let at_half = f.eq_c(fr, 0.5);
    let rs_up = f.gt_c(rsa, 0.0);
    let rs_zero = f.eq_c(rsa, 0.0);
    let tie_even = f.and(rs_zero, fl_odd);
    let tie_up = f.or(rs_up, tie_even);
    let tie_up = f.and(at_half, tie_up);
    let up = f.or(above, tie_up);
    let n = f.sel_c(up, 1.0, zero);
    let n = f.add(fl, n);
    let half_grid = f.c(2f64.powi(-537));
    let sub = f.mul(n, half_grid);
    let sub = f.mul(sub, half_grid);
    let sub = f.mul(sub, sz);
    let general = f.sel(normal, scaled, sub);
    let general = f.sel(overflow, signed_inf, general);
    let z0 = f.cmp(Opcode::FOrdEqual, z, zero);
    let general = f.sel(z0, zero, general);
    let general = f.sel(c_dominates, c, general);
    f.sel(special, special_val, general)
}

/// `frexp` of any finite `x`: subnormals are scaled up by 2^200 first
/// (exact), so the driver's `Frexp` only sees normal numbers.
fn frexp_any(f: &mut Fb, x: Value) -> (Value, Value) {
    let ax = f.abs(x);
    let tiny = f.lt_c(ax, 2f64.powi(-1000));
    let up = f.c(2f64.powi(200));
    let xs = f.mul(x, up);
    let xs = f.sel(tiny, xs, x);
    let (m, k) = f.frexp(xs);
    let adj = f.ci(200);
    let none = f.ci(0);
    let adj = f.sel_i(tiny, adj, none);
    let k = f.isub(k, adj);
    (m, k)
}
