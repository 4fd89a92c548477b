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

use crate::grammar::{Capability, Opcode};
use crate::ir::{FloatKind, Type, TypeKind, Value};

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
    let zero_addend = signed_zero::is_zero_constant(l, c);
    if !l.options.exact_fma || !f32_kind || !wide_ok || zero_addend {
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
