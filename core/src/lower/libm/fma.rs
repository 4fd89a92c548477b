//! `math.fma` / `vector.fma` rounded once where the device's `Fma` may
//! round twice.
//!
//! Vulkan lets GLSL.std.450 `Fma` be a multiply then an add, and
//! llvmpipe's is (for f32 and f64): `fma(1 + 2^-12, 1 + 2^-12, -(1 +
//! 2^-11))` gives 0 there, not 2^-24. With
//! [`LowerOptions::exact_fma`](crate::lower::LowerOptions::exact_fma) an
//! f32 fma is computed in f64 instead: the product of two f32 values is
//! exact in f64 (48 significant bits), the sum `s` with its error `e`
//! (TwoSum, every op `NoContraction`) is made round-to-odd (`s` nudged one
//! ulp toward `e` when `e != 0` and `s` is even), and round-to-odd at 53
//! bits then round-to-nearest at 24 is the once-rounded result (Boldo and
//! Melquiond, 2008: it holds for any precision at least 2 bits wider).
//! Infinities and NaN pass through unchanged (`e` is NaN, which compares
//! unequal to nothing). Without `Float64` and `Int64`, and for other
//! widths, the driver's `Fma` stands.

use crate::grammar::{Capability, Opcode};
use crate::ir::{FloatKind, Type, TypeKind, Value};

use super::super::context::Lowerer;
use super::super::helpers::ints::bool_like;
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
    let wide_ok =
        l.type_converter.has(Capability::Float64) && l.type_converter.has(Capability::Int64);
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
    let i64_scalar = l.module.types.int(64);
    let it = shaped(l, i64_scalar);
    let [aw, bw, cw] = [a, b, c].map(|v| l.core_op(Opcode::FConvert, vec![v], wide));
    let mut f = Fb::new(l, wide, Prec::F64);
    let p = f.mul(aw, bw);
    let (s, e) = f.two_sum(p, cw);
    let zero = f.c(0.0);
    let inexact = f.cmp(Opcode::FOrdNotEqual, e, zero);
    let e_up = f.cmp(Opcode::FOrdGreaterThan, e, zero);
    let s_up = f.cmp(Opcode::FOrdGreaterThan, s, zero);
    let l = f.l;
    let bt = bool_like(l, wide);
    // Toward `e` is away from zero when `e` and `s` have one sign.
    let away = l.core_op(Opcode::LogicalEqual, vec![e_up, s_up], bt);
    let bits = l.core_op(Opcode::Bitcast, vec![s], it);
    let one = l.const_int(it, 1);
    let izero = l.const_int(it, 0);
    let low = l.core_op(Opcode::BitwiseAnd, vec![bits, one], it);
    let even = l.core_op(Opcode::IEqual, vec![low, izero], bt);
    let nudge = l.core_op(Opcode::LogicalAnd, vec![inexact, even], bt);
    let bigger = l.core_op(Opcode::IAdd, vec![bits, one], it);
    let smaller = l.core_op(Opcode::ISub, vec![bits, one], it);
    let moved = l.core_op(Opcode::Select, vec![away, bigger, smaller], it);
    let odd = l.core_op(Opcode::Select, vec![nudge, moved, bits], it);
    let s_odd = l.core_op(Opcode::Bitcast, vec![odd], wide);
    l.core_op(Opcode::FConvert, vec![s_odd], ty)
}
