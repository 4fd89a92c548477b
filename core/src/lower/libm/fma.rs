//! `math.fma` / `vector.fma` rounded once where the device's `Fma` may
//! round twice.
//!
//! Vulkan lets GLSL.std.450 `Fma` be a multiply then an add, and
//! llvmpipe's is (for f32 and f64): `fma(1 + 2^-12, 1 + 2^-12, -(1 +
//! 2^-11))` gives 0 there, not 2^-24. With
//! [`LowerOptions::exact_fma`](crate::lower::LowerOptions::exact_fma) an
//! f32 fma is computed in f64 instead. The product of two f32 values is
//! exact in f64 (48 significant bits); the sum `s = RN53(x)` of the exact
//! `x = a b + c` comes with its error `e = x - s` (TwoSum, every op
//! `NoContraction`). Rounding `s` to f32 gives `RN24(x)` except where `s`
//! is exactly halfway between two f32 values and `e != 0`: there the tie
//! is broken toward `e`. `s` is such a midpoint when, with `r = RN24(s)`
//! and `d = s - r` (exact), `s + d` is an f32 value at distance `d` from
//! `s` (the other neighbour); no value other than a midpoint has one at
//! `2 d` from `r` with `0 < |2 d| < ` the spacing. Where `r` overflows, `d`
//! is infinite and the test fails by itself; the one sum on the overflow
//! threshold (`2^128 - 2^103`, which ties to infinity) with an error
//! toward zero gives the largest finite value. Infinities and NaN operands
//! pass through (`e` is NaN). Only `Float64` is needed (no 64-bit
//! integers), so this works for vectors of any width; without it, and for
//! other widths, the driver's `Fma` stands.
//!
//! An f64 `math.fma` there has no wider float to compute in: it is kept
//! as unevaluated sums and rounded once ([`super::fma64`]).
//!
//! An f16/bf16 `math.fma` is computed in f32 and rounded to its format
//! after; the tensor compiler marks it
//! [`ROUND_TO_ODD_ATTR`](crate::kernel::ops::ROUND_TO_ODD_ATTR), and it is
//! computed in f32 alone, whatever the driver fuses (a fused f32 `Fma`
//! rounded again to f16 rounds twice too): the product of two such values
//! (at most 2 x 11 significant bits) is exact in f32, so is the sum `s`
//! with its error `e` (TwoSum); `s` moved one ulp toward `e` where `e !=
//! 0` and its last bit is 0 is the exact sum rounded to odd, which the
//! rounding to the format (11 or 8 bits, at most 24 - 2) turns into the
//! exact sum rounded once (Boldo and Melquiond, "Emulation of FMA and
//! correctly rounded sums: proved algorithms using rounding to odd").
//! f16 products and sums stay far inside f32's normal range. A bf16
//! product can pass f32's maximum (up to 2^256) while the addend brings
//! the sum back: there the product is computed halved (`a / 2` is exact:
//! `|a| >= 1`), the addend halved (a subnormal addend that loses its last
//! bit only adds to an infinite result) and the sum doubled (exact, or
//! infinite exactly where the sum is 2^128 or more). Tiny bf16 products
//! rounded to f32's subnormals cannot move the sum across, nor onto, a bf16
//! midpoint (both lie on f32's 2^-149 grid, and a product within 2^-150 of
//! one off the grid needs more than 16 bits).

use crate::grammar::{Capability, Opcode};
use crate::ir::{FloatKind, Type, TypeKind, Value};
use crate::kernel::ops::ROUND_TO_ODD_ATTR;

use super::super::context::Lowerer;
use super::super::helpers::signed_zero;
use super::{Fb, Prec};

/// `a * b + c` of type `ty` (a float scalar or vector), rounded once where
/// the options ask for it and the target allows it (see the module docs).
pub(crate) fn fma(l: &mut Lowerer, a: Value, b: Value, c: Value, ty: Type) -> Value {
    let scalar = match l.module.types.kind(ty) {
        TypeKind::Vector { element, .. } => *element,
        _ => ty,
    };
    let f32_kind = matches!(l.module.types.kind(scalar), TypeKind::Float(FloatKind::F32));
    let wide_ok = l.type_converter.has(Capability::Float64);
    // A constant zero addend: `Fma(a, b, ±0)` is the product rounded once
    // whatever the driver fuses.
    // With f16/bf16 operands too: their product rounded to f32 is exact,
    // infinite where the format's would be, or a subnormal that rounds to
    // bf16 as the exact product does (see the module docs).
    let zero_addend = signed_zero::is_zero_constant(l, c);
    if zero_addend {
        return signed_zero::fma(l, a, b, c, ty);
    }
    if f32_kind && l.kernel_attr(ROUND_TO_ODD_ATTR).is_some() {
        return fma_to_odd(l, a, b, c, ty);
    }
    let f64_kind = matches!(l.module.types.kind(scalar), TypeKind::Float(FloatKind::F64));
    if l.options.exact_fma && f64_kind {
        return super::fma64::fma_f64(l, a, b, c, ty);
    }
    if !l.options.exact_fma || !f32_kind || !wide_ok {
        return signed_zero::fma(l, a, b, c, ty);
    }
    let n = l.module.types.component_count(ty);
    let shaped = |l: &mut Lowerer, t: Type| {
        if n == 1 {
            t
        } else {
            l.module.types.vector(n, t)
        }
    };
    let f64_scalar = l.module.types.float(FloatKind::F64);
    let wide = shaped(l, f64_scalar);
    let [aw, bw, cw] = [a, b, c].map(|v| l.core_op(Opcode::FConvert, vec![v], wide));
    let mut f = Fb::new(l, wide, Prec::F64);
    let p = f.mul(aw, bw);
    let (s, e) = f.two_sum(p, cw);
    let r = f.l.core_op(Opcode::FConvert, vec![s], ty);
    let back = f.l.core_op(Opcode::FConvert, vec![r], wide);
    let d = f.sub(s, back);
    let beyond = f.add(s, d);
    let other = f.l.core_op(Opcode::FConvert, vec![beyond], ty);
    let other_back = f.l.core_op(Opcode::FConvert, vec![other], wide);
    let other_d = f.sub(other_back, s);
    let zero = f.c(0.0);
    let mid = f.cmp(Opcode::FOrdEqual, other_d, d);
    let off = f.cmp(Opcode::FOrdNotEqual, d, zero);
    let mid = f.and(mid, off);
    let inexact = f.cmp(Opcode::FOrdNotEqual, e, zero);
    let e_up = f.cmp(Opcode::FOrdGreaterThan, e, zero);
    let d_up = f.cmp(Opcode::FOrdGreaterThan, d, zero);
    let s_up = f.cmp(Opcode::FOrdGreaterThan, s, zero);
    let bt = f.bt;
    let toward = f.l.core_op(Opcode::LogicalEqual, vec![e_up, d_up], bt);
    let take_other = f.and(mid, inexact);
    let take_other = f.and(take_other, toward);
    // The overflow threshold: a tie that RN24 sends to infinity.
    let edge = f.abs(s);
    let edge = f.eq_c(edge, 2f64.powi(128) - 2f64.powi(103));
    let inward = f.l.core_op(Opcode::LogicalNotEqual, vec![e_up, s_up], bt);
    let edge = f.and(edge, inexact);
    let edge = f.and(edge, inward);
    let l = f.l;
    let rt = l.core_op(Opcode::Select, vec![take_other, other, r], ty);
    let max = l.const_float(ty, f64::from(f32::MAX));
    let neg_max = l.const_float(ty, -f64::from(f32::MAX));
    let signed_max = l.core_op(Opcode::Select, vec![s_up, max, neg_max], ty);
    l.core_op(Opcode::Select, vec![edge, signed_max, rt], ty)
}

/// `a * b + c` rounded to odd at f32's precision, for f32 `a`, `b`, `c`
/// holding f16 or bf16 values (see the module docs).
fn fma_to_odd(l: &mut Lowerer, a: Value, b: Value, c: Value, ty: Type) -> Value {
    let mut f = Fb::new(l, ty, Prec::F32);
    // A product past f32's range (bf16 only): halve it and the addend.
    let p0 = f.mul(a, b);
    let p0 = f.abs(p0);
    let big = f.eq_c(p0, f64::INFINITY);
    let one = f.c(1.0);
    let k = f.sel_c(big, 0.5, one);
    let ak = f.mul(a, k);
    let ck = f.mul(c, k);
    let p = f.mul(ak, b);
    let (s, e) = f.two_sum(p, ck);
    // Round to odd: an inexact sum with an even last bit moves one ulp
    // toward its error (`s` is not 0: an exact sum of 0 has no error).
    let (it, bt) = (f.it, f.bt);
    let bits = f.l.core_op(Opcode::Bitcast, vec![s], it);
    let one_i = f.ci(1);
    let low = f.l.core_op(Opcode::BitwiseAnd, vec![bits, one_i], it);
    let zero_i = f.ci(0);
    let even = f.l.core_op(Opcode::IEqual, vec![low, zero_i], bt);
    let zero = f.c(0.0);
    let inexact = f.cmp(Opcode::FOrdNotEqual, e, zero);
    let e_up = f.cmp(Opcode::FOrdGreaterThan, e, zero);
    let s_up = f.cmp(Opcode::FOrdGreaterThan, s, zero);
    let away = f.l.core_op(Opcode::LogicalEqual, vec![e_up, s_up], bt);
    let minus_one = f.ci(-1);
    let step = f.sel_i(away, one_i, minus_one);
    let moved = f.l.core_op(Opcode::IAdd, vec![bits, step], it);
    let moved = f.l.core_op(Opcode::Bitcast, vec![moved], ty);
    let fix = f.and(inexact, even);
    let odd = f.sel(fix, moved, s);
    let back = f.sel_c(big, 2.0, one);
    f.mul(odd, back)
}
