//! Float arithmetic with a constant `+0.0` operand, written so that
//! llvmpipe computes it as IEEE does.
//!
//! lavapipe's code generator (gallivm) returns the other operand for
//! `x + 0.0`, `0.0` for `x * 0.0` and `0.0 / x`, and nothing defined for
//! `x / 0.0` when the zero is the constant `+0.0`, even with
//! `SignedZeroInfNanPreserve` declared (DRIVERS.md): `-0 + 0.0` gives `-0`,
//! `-1 * 0.0` gives `+0`, `inf * 0.0` gives `0`. A constant `-0.0` and
//! values computed at run time are left alone. So where an operand is the
//! constant `+0.0` (a scalar or a splat vector), [`float_arith`] emits an
//! exact identity instead:
//!
//! * `x * +0` = `-(x * -0)` (either operand order), `x / +0` = `-(x / -0)`,
//!   `+0 / x` = `-(-0 / x)` (negation is exact; only the sign of a NaN may
//!   differ, which IEEE leaves open);
//! * `x + +0` = `x - -0` = `x == 0 ? +0 : x`, `+0 - x` = `x == 0 ? +0 : -x`
//!   (the driver also reads `x - -0.0` as `x`);
//! * `x - +0` = `x` exactly, as emitted;
//! * `Fma(a, b, +0)` ([`fma`]).
//!
//! [`negate`] negates a constant into a constant, so that a `+0.0` made by
//! negating `-0.0` is seen as one (the driver folds the negation first).

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{AttrKind, DenseValues, OpKind, Type, Value};

use super::super::context::Lowerer;
use super::ints::bool_like;

/// Whether `v` is the float constant with `f64` bits `bits` (`+0.0`: 0,
/// `-0.0`: the sign bit): a scalar, or a vector whose elements all are.
fn is_constant_bits(l: &Lowerer, v: Value, bits: u64) -> bool {
    let m = &l.module;
    let Some(op) = m.defining_op(v) else {
        return false;
    };
    if m.op(op).kind != OpKind::Constant {
        return false;
    }
    match m.attr_kind(op, "value") {
        Some(AttrKind::Float { bits: b, .. }) => *b == bits,
        Some(AttrKind::Dense {
            values: DenseValues::Floats(values),
            ..
        }) => !values.is_empty() && values.iter().all(|&b| b == bits),
        _ => false,
    }
}

/// Whether `v` is the constant `+0.0`.
fn is_positive_zero(l: &Lowerer, v: Value) -> bool {
    is_constant_bits(l, v, 0)
}

/// Whether `v` is the constant `-0.0`.
fn is_negative_zero(l: &Lowerer, v: Value) -> bool {
    is_constant_bits(l, v, (-0.0f64).to_bits())
}

/// Whether `v` is a constant zero of either sign.
pub(crate) fn is_zero_constant(l: &Lowerer, v: Value) -> bool {
    is_positive_zero(l, v) || is_negative_zero(l, v)
}

/// `x + +0`: `+0` for a zero `x`, else `x` (exact).
fn plus_zero(l: &mut Lowerer, x: Value, ty: Type) -> Value {
    let zero = l.const_float(ty, 0.0);
    let bt = bool_like(l, ty);
    let is_zero = l.core_op(Opcode::FOrdEqual, vec![x, zero], bt);
    l.core_op(Opcode::Select, vec![is_zero, zero, x], ty)
}

/// GLSL.std.450 `Fma(a, b, c)`; with `c` the constant `+0.0`, `Fma(a, b,
/// -0.0)` (the product rounded once) made `+0` where the exact product is
/// zero (IEEE: `±0 + +0` is `+0`; a product that rounds to zero keeps its
/// sign). lavapipe drops a `+0.0` addend, giving `-0` for `-1 * 0 + 0`.
pub(crate) fn fma(l: &mut Lowerer, a: Value, b: Value, c: Value, ty: Type) -> Value {
    if !is_positive_zero(l, c) {
        return l.glsl_op(GlslOp::Fma, vec![a, b, c], ty);
    }
    let neg_zero = l.const_float(ty, -0.0);
    let r = l.glsl_op(GlslOp::Fma, vec![a, b, neg_zero], ty);
    let zero = l.const_float(ty, 0.0);
    let bt = bool_like(l, ty);
    let a0 = l.core_op(Opcode::FOrdEqual, vec![a, zero], bt);
    let b0 = l.core_op(Opcode::FOrdEqual, vec![b, zero], bt);
    let r0 = l.core_op(Opcode::FOrdEqual, vec![r, zero], bt);
    let exact_zero = l.core_op(Opcode::LogicalOr, vec![a0, b0], bt);
    let exact_zero = l.core_op(Opcode::LogicalAnd, vec![exact_zero, r0], bt);
    l.core_op(Opcode::Select, vec![exact_zero, zero, r], ty)
}

/// The core float op `name` (`FAdd`, `FSub`, `FMul`, `FDiv`) of `a` and
/// `b`, with a constant `+0.0` operand rewritten (see the module docs).
pub(crate) fn float_arith(l: &mut Lowerer, name: Opcode, a: Value, b: Value, ty: Type) -> Value {
    let (a_zero, b_zero) = (is_positive_zero(l, a), is_positive_zero(l, b));
    if name == Opcode::FSub && is_negative_zero(l, b) {
        // x - -0 = x + +0, which the driver reads as `x`.
        return plus_zero(l, a, ty);
    }
    if !a_zero && !b_zero {
        return l.core_op(name, vec![a, b], ty);
    }
    match (name, a_zero, b_zero) {
        (Opcode::FMul, ..) | (Opcode::FDiv, ..) => {
            let neg_zero = l.const_float(ty, -0.0);
            let (a, b) = if a_zero { (neg_zero, b) } else { (a, neg_zero) };
            let v = l.core_op(name, vec![a, b], ty);
            l.core_op(Opcode::FNegate, vec![v], ty)
        }
        (Opcode::FAdd, ..) => plus_zero(l, if a_zero { b } else { a }, ty),
        (Opcode::FSub, true, false) => {
            // 0 - x: +0 for a zero x, else -x.
            let neg = l.core_op(Opcode::FNegate, vec![b], ty);
            let bt = bool_like(l, ty);
            let is_zero = l.core_op(Opcode::FOrdEqual, vec![b, a], bt);
            l.core_op(Opcode::Select, vec![is_zero, a, neg], ty)
        }
        _ => l.core_op(name, vec![a, b], ty),
    }
}

/// `-v`: a constant's negation as a constant (so that [`float_arith`]
/// sees a `+0.0` made from `-0.0`), `FNegate` otherwise.
pub(crate) fn negate(l: &mut Lowerer, v: Value, ty: Type) -> Value {
    let constant = l
        .module
        .defining_op(v)
        .filter(|&op| l.module.op(op).kind == OpKind::Constant)
        .and_then(|op| match l.module.attr_kind(op, "value") {
            Some(AttrKind::Float { bits, .. }) => Some(f64::from_bits(*bits)),
            Some(AttrKind::Dense {
                values: DenseValues::Floats(values),
                splat: true,
                ..
            }) if values.len() == 1 => Some(f64::from_bits(values[0])),
            _ => None,
        });
    match constant {
        Some(c) => l.const_float(ty, -c),
        None => l.core_op(Opcode::FNegate, vec![v], ty),
    }
}
