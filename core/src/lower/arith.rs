//! `arith` -> spv (MLIR's `ArithToSPIRV` patterns).
//!
//! Integers narrower than 32 bits that the env cannot hold natively live in
//! `i32`, sign-extended; results that may leave the narrow range are
//! re-normalized (shift left, arithmetic shift right) and unsigned operations
//! mask their operands first. `arith.remsi` avoids `OpSRem` on negative
//! operands (undefined in Vulkan) as MLIR does.

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{AttrKind, DenseValues, Type, TypeKind, Value};
use crate::kernel::{KAttr, KOpKind, KType};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::{bool_like, compare_int, normalize, signed_compare, zext_emulated};
use super::helpers::reduce::with_nan_operands;
use super::helpers::saturate::float_to_int;
use super::helpers::signed_zero;
use super::types::IndexBits;

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    use KOpKind::*;
    match kind {
        ArithConstant => constant(l),
        ArithAddI => int_bin(l, Opcode::IAdd, Norm::Result),
        ArithSubI => int_bin(l, Opcode::ISub, Norm::Result),
        ArithMulI => int_bin(l, Opcode::IMul, Norm::Result),
        ArithDivSI => int_bin(l, Opcode::SDiv, Norm::Result),
        ArithDivUI => int_bin(l, Opcode::UDiv, Norm::Both),
        ArithRemUI => int_bin(l, Opcode::UMod, Norm::Both),
        ArithRemSI => remsi(l),
        ArithAndI => logic_bin(l, Opcode::BitwiseAnd, Opcode::LogicalAnd),
        ArithOrI => logic_bin(l, Opcode::BitwiseOr, Opcode::LogicalOr),
        ArithXOrI => logic_bin(l, Opcode::BitwiseXor, Opcode::LogicalNotEqual),
        ArithShLI => shift(l, Opcode::ShiftLeftLogical, Norm::Result),
        ArithShRSI => shift(l, Opcode::ShiftRightArithmetic, Norm::Result),
        ArithShRUI => shift(l, Opcode::ShiftRightLogical, Norm::Both),
        // On i1 (GLSL's min/max take no booleans): true is 1 unsigned and
        // -1 signed, so the unsigned maximum and the signed minimum are
        // `or`, the others `and`.
        ArithMaxSI => int_minmax(l, GlslOp::SMax, Norm::None, Opcode::LogicalAnd),
        ArithMinSI => int_minmax(l, GlslOp::SMin, Norm::None, Opcode::LogicalOr),
        ArithMaxUI => int_minmax(l, GlslOp::UMax, Norm::Both, Opcode::LogicalOr),
        ArithMinUI => int_minmax(l, GlslOp::UMin, Norm::Both, Opcode::LogicalAnd),
        ArithCeilDivUI => ceildivui(l),
        ArithCeilDivSI => signed_div_round(l, true),
        ArithFloorDivSI => signed_div_round(l, false),
        ArithAddUIExtended => extended(l, Opcode::IAddCarry, true),
        ArithMulUIExtended => extended(l, Opcode::UMulExtended, false),
        ArithMulSIExtended => extended(l, Opcode::SMulExtended, false),
        ArithAddF => float_bin(l, Opcode::FAdd),
        ArithSubF => float_bin(l, Opcode::FSub),
        ArithMulF => float_bin(l, Opcode::FMul),
        ArithDivF => divf(l),
        ArithRemF => remf(l),
        ArithNegF => {
            let a = l.operand(0)?;
            let ty = l.result_type(0)?;
            let v = l.core_op(Opcode::FNegate, vec![a], ty);
            l.set_result(0, v)
        }
        ArithMaximumF => minmaxf(l, GlslOp::FMax, true),
        ArithMinimumF => minmaxf(l, GlslOp::FMin, true),
        ArithMaxNumF => minmaxf(l, GlslOp::FMax, false),
        ArithMinNumF => minmaxf(l, GlslOp::FMin, false),
        ArithCmpI => cmpi(l),
        ArithCmpF => cmpf(l),
        ArithSelect => select(l),
        ArithExtSI | ArithTruncI | ArithIndexCast => cast_int(l, true),
        ArithExtUI | ArithIndexCastUI => cast_int(l, false),
        ArithExtF | ArithTruncF => {
            let a = l.operand(0)?;
            let ty = l.result_type(0)?;
            let v = if l.module.value_type(a) == ty {
                a
            } else {
                l.core_op(Opcode::FConvert, vec![a], ty)
            };
            l.set_result(0, v)
        }
        ArithSIToFP | ArithUIToFP => int_to_float(l, kind == ArithSIToFP),
        ArithFPToSI | ArithFPToUI => {
            let a = l.operand(0)?;
            let v = float_to_int(l, a, kind == ArithFPToSI)?;
            l.set_result(0, v)
        }
        ArithBitcast => {
            let a = l.operand(0)?;
            let ty = l.result_type(0)?;
            let v = if l.module.value_type(a) == ty {
                a
            } else {
                l.core_op(Opcode::Bitcast, vec![a], ty)
            };
            l.set_result(0, v)
        }
        _ => Err(l.unsupported("no lowering for this arith op")),
    }
}

/// Which values of an op on emulated narrow integers need fixing.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Norm {
    /// Nothing (the result stays in range).
    None,
    /// Re-normalize the result.
    Result,
    /// Mask the operands (unsigned semantics) and re-normalize the result.
    Both,
}

/// A binary integer op with emulation fix-ups.
fn int_bin(l: &mut Lowerer, name: Opcode, norm: Norm) -> Result<(), LowerError> {
    emulated_bin(l, Lowerer::core_op, name, norm)
}

/// `arith.shli` / `shrsi` / `shrui`. MLIR makes a shift by the bit width
/// or more poison, and drivers differ (lavapipe shifts by the amount mod
/// 32 for i32 and mod 8 for native i8; an i8 held in 32 bits shifts by
/// the real amount). With
/// [`LowerOptions::defined_shifts`](super::LowerOptions::defined_shifts)
/// such a shift gives what numpy and ONNX's `BitShift` give, and what the
/// reference evaluator computes: 0, or the sign fill for `shrsi` (the
/// amount read unsigned, so a negative one is too large).
fn shift(l: &mut Lowerer, name: Opcode, norm: Norm) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let kty = l.result_kernel_type(0)?;
    let ty = l.result_type(0)?;
    let width = match kty.scalar() {
        KType::Int(w) => u64::from(*w),
        _ => return int_bin(l, name, norm),
    };
    let in_range = super::helpers::memory::const_value(l, b)
        .is_some_and(|k| u64::try_from(k).is_ok_and(|k| k < width));
    if !l.options.defined_shifts || in_range || width == 1 {
        return int_bin(l, name, norm);
    }
    let v = emulated_value(l, Lowerer::core_op, name, norm)?;
    let bt = bool_like(l, ty);
    let amount = zext_emulated(l, b, kty);
    let w = l.const_int(ty, i128::from(width));
    let too_far = l.core_op(Opcode::UGreaterThanEqual, vec![amount, w], bt);
    let zero = l.const_int(ty, 0);
    let fill = if name == Opcode::ShiftRightArithmetic {
        let minus_one = l.const_int(ty, -1);
        let negative = l.core_op(Opcode::SLessThan, vec![a, zero], bt);
        l.core_op(Opcode::Select, vec![negative, minus_one, zero], ty)
    } else {
        zero
    };
    let r = l.core_op(Opcode::Select, vec![too_far, fill, v], ty);
    l.set_result(0, r)
}

/// A binary GLSL.std.450 integer op with emulation fix-ups.
fn gl_bin(l: &mut Lowerer, name: GlslOp, norm: Norm) -> Result<(), LowerError> {
    emulated_bin(l, Lowerer::glsl_op, name, norm)
}

/// Emits `name` through `emit` on the two operands, zero-extending them
/// first (`Norm::Both`) and normalizing the result (unless `Norm::None`).
fn emulated_bin<'k, O>(
    l: &mut Lowerer<'k>,
    emit: fn(&mut Lowerer<'k>, O, Vec<Value>, Type) -> Value,
    name: O,
    norm: Norm,
) -> Result<(), LowerError> {
    let v = emulated_value(l, emit, name, norm)?;
    l.set_result(0, v)
}

/// [`emulated_bin`]'s value, not yet the op's result.
fn emulated_value<'k, O>(
    l: &mut Lowerer<'k>,
    emit: fn(&mut Lowerer<'k>, O, Vec<Value>, Type) -> Value,
    name: O,
    norm: Norm,
) -> Result<Value, LowerError> {
    let (mut a, mut b) = (l.operand(0)?, l.operand(1)?);
    let kty = l.result_kernel_type(0)?;
    let ty = l.result_type(0)?;
    if norm == Norm::Both {
        a = zext_emulated(l, a, kty);
        b = zext_emulated(l, b, kty);
    }
    let mut v = emit(l, name, vec![a, b], ty);
    if norm != Norm::None {
        v = normalize(l, v, kty);
    }
    Ok(v)
}

/// An integer minimum or maximum: GLSL's `name`, or core `logical` on
/// booleans.
fn int_minmax(
    l: &mut Lowerer,
    name: GlslOp,
    norm: Norm,
    logical: Opcode,
) -> Result<(), LowerError> {
    let ty = l.result_type(0)?;
    if l.module.types.is_bool(l.module.types.scalar_of(ty)) {
        let (a, b) = (l.operand(0)?, l.operand(1)?);
        let v = l.core_op(logical, vec![a, b], ty);
        return l.set_result(0, v);
    }
    gl_bin(l, name, norm)
}

fn logic_bin(l: &mut Lowerer, int: Opcode, logical: Opcode) -> Result<(), LowerError> {
    let ty = l.result_type(0)?;
    let is_bool = l.module.types.is_bool(l.module.types.scalar_of(ty));
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let v = l.core_op(if is_bool { logical } else { int }, vec![a, b], ty);
    l.set_result(0, v)
}

/// `FAdd`, `FSub`, `FMul`, `FDiv`: a constant `+0.0` operand in a form
/// llvmpipe does not fold ([`signed_zero::float_arith`]).
fn float_bin(l: &mut Lowerer, name: Opcode) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let v = signed_zero::float_arith(l, name, a, b, ty);
    l.set_result(0, v)
}

/// `arith.divf`: `OpFDiv`, refined for f32 with
/// [`LowerOptions::refine_division`](super::LowerOptions::refine_division):
/// with `q = a / b` off by a few ulp, the residual `r = fma(-q, b, a)` is
/// exact, and `q + r / b` is the correctly rounded quotient (a tie such as
/// 51 / 2 comes out exactly). Where `r` is not finite (a or b infinite,
/// the quotient overflowing) or `q` is zero (whose sign the step would
/// lose), `q` stands.
fn divf(l: &mut Lowerer) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let q = signed_zero::float_arith(l, Opcode::FDiv, a, b, ty);
    let scalar = match l.module.types.kind(ty) {
        TypeKind::Vector { element, .. } => *element,
        _ => ty,
    };
    let f32_kind = matches!(
        l.module.types.kind(scalar),
        TypeKind::Float(crate::ir::FloatKind::F32)
    );
    if !l.options.refine_division || !f32_kind {
        return l.set_result(0, q);
    }
    let bt = bool_like(l, ty);
    let nq = l.core_op(Opcode::FNegate, vec![q], ty);
    let r = l.glsl_op(GlslOp::Fma, vec![nq, b, a], ty);
    let c = l.core_op(Opcode::FDiv, vec![r, b], ty);
    let refined = l.core_op(Opcode::FAdd, vec![q, c], ty);
    let r_inf = l.core_op(Opcode::IsInf, vec![r], bt);
    let r_nan = l.core_op(Opcode::IsNan, vec![r], bt);
    let zero = l.const_float(ty, 0.0);
    let q_zero = l.core_op(Opcode::FOrdEqual, vec![q, zero], bt);
    let keep = l.core_op(Opcode::LogicalOr, vec![r_inf, r_nan], bt);
    let keep = l.core_op(Opcode::LogicalOr, vec![keep, q_zero], bt);
    let v = l.core_op(Opcode::Select, vec![keep, q, refined], ty);
    l.set_result(0, v)
}

fn minmaxf(l: &mut Lowerer, name: GlslOp, propagate_nan: bool) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let bt = bool_like(l, ty);
    let mut m = l.glsl_op(name, vec![a, b], ty);
    if propagate_nan {
        // maximumf / minimumf order -0 below +0; FMax / FMin leave the
        // sign of a zero result undefined. For two zeros the sum is the
        // maximum (+0 unless both are -0) and the negated sum of the
        // negations the minimum.
        let zero = l.const_float(ty, 0.0);
        let a0 = l.core_op(Opcode::FOrdEqual, vec![a, zero], bt);
        let b0 = l.core_op(Opcode::FOrdEqual, vec![b, zero], bt);
        let zeros = l.core_op(Opcode::LogicalAnd, vec![a0, b0], bt);
        let z = if name == GlslOp::FMax {
            signed_zero::float_arith(l, Opcode::FAdd, a, b, ty)
        } else {
            let na = signed_zero::negate(l, a, ty);
            let nb = signed_zero::negate(l, b, ty);
            let s = signed_zero::float_arith(l, Opcode::FAdd, na, nb, ty);
            l.core_op(Opcode::FNegate, vec![s], ty)
        };
        m = l.core_op(Opcode::Select, vec![zeros, z, m], ty);
    }
    // With `nnan` (or `fast`) the operands are promised not to be NaN:
    // the GLSL op alone, as MLIR lowers it.
    let no_nans = matches!(
        l.kernel_attr("fastmath"),
        Some(KAttr::Enum(flags))
            if flags.split(',').any(|f| matches!(f.trim(), "nnan" | "fast"))
    );
    if no_nans {
        return l.set_result(0, m);
    }
    // maximumf: NaN if either is NaN; maxnumf: the other operand.
    let v = with_nan_operands(l, a, b, m, ty, propagate_nan);
    l.set_result(0, v)
}

/// `arith.remf`, C's `fmod`, in memref-level kernels: `OpFRem` with its
/// edges fixed: `|a| < |b|` (an infinite divisor too; FRem's result is
/// undefined there, lavapipe gives NaN) gives the dividend, a zero divisor,
/// an infinite dividend or a NaN gives NaN, and a zero result has the
/// dividend's sign. FRem itself is `a - b * trunc(a / b)` within Vulkan's
/// precision, inexact for large quotients: the tensor compiler emits an
/// exact long division instead (`codegen::kernels::body`).
fn remf(l: &mut Lowerer) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let bt = bool_like(l, ty);
    let r = l.core_op(Opcode::FRem, vec![a, b], ty);
    let zero = l.const_float(ty, 0.0);
    let neg_zero = l.const_float(ty, -0.0);
    let r_zero = l.core_op(Opcode::FOrdEqual, vec![r, zero], bt);
    let a_neg = l.core_op(Opcode::FOrdLessThan, vec![a, zero], bt);
    let signed_zero = l.core_op(Opcode::Select, vec![a_neg, neg_zero, zero], ty);
    let r = l.core_op(Opcode::Select, vec![r_zero, signed_zero, r], ty);
    let abs_a = l.glsl_op(GlslOp::FAbs, vec![a], ty);
    let abs_b = l.glsl_op(GlslOp::FAbs, vec![b], ty);
    let small = l.core_op(Opcode::FOrdLessThan, vec![abs_a, abs_b], bt);
    let r = l.core_op(Opcode::Select, vec![small, a, r], ty);
    let a_inf = l.core_op(Opcode::IsInf, vec![a], bt);
    let b_zero = l.core_op(Opcode::FOrdEqual, vec![b, zero], bt);
    let a_nan = l.core_op(Opcode::IsNan, vec![a], bt);
    let b_nan = l.core_op(Opcode::IsNan, vec![b], bt);
    let bad = l.core_op(Opcode::LogicalOr, vec![a_inf, b_zero], bt);
    let bad = l.core_op(Opcode::LogicalOr, vec![bad, a_nan], bt);
    let bad = l.core_op(Opcode::LogicalOr, vec![bad, b_nan], bt);
    let nan = l.const_float(ty, f64::NAN);
    let v = l.core_op(Opcode::Select, vec![bad, nan, r], ty);
    l.set_result(0, v)
}

/// `arith.remsi` as MLIR emulates it: `|a| umod |b|` with `a`'s sign.
fn remsi(l: &mut Lowerer) -> Result<(), LowerError> {
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let bt = bool_like(l, ty);
    let abs_a = l.glsl_op(GlslOp::SAbs, vec![a], ty);
    let abs_b = l.glsl_op(GlslOp::SAbs, vec![b], ty);
    let r = l.core_op(Opcode::UMod, vec![abs_a, abs_b], ty);
    let zero = l.const_int(ty, 0);
    let neg = signed_compare(l, Opcode::SLessThan, a, zero, bt);
    let nr = l.core_op(Opcode::SNegate, vec![r], ty);
    let v = l.core_op(Opcode::Select, vec![neg, nr, r], ty);
    l.set_result(0, v)
}

/// `ceildivui(a, b) = a == 0 ? 0 : (a - 1) / b + 1`.
fn ceildivui(l: &mut Lowerer) -> Result<(), LowerError> {
    let kty = l.result_kernel_type(0)?;
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let a = zext_emulated(l, a, kty);
    let b = zext_emulated(l, b, kty);
    let ty = l.result_type(0)?;
    let bt = bool_like(l, ty);
    let zero = l.const_int(ty, 0);
    let one = l.const_int(ty, 1);
    let is_zero = l.core_op(Opcode::IEqual, vec![a, zero], bt);
    let am1 = l.core_op(Opcode::ISub, vec![a, one], ty);
    let q = l.core_op(Opcode::UDiv, vec![am1, b], ty);
    let q1 = l.core_op(Opcode::IAdd, vec![q, one], ty);
    let v = l.core_op(Opcode::Select, vec![is_zero, zero, q1], ty);
    let v = normalize(l, v, kty);
    l.set_result(0, v)
}

/// `ceildivsi` (`ceil`) / `floordivsi`: truncated quotient adjusted by one
/// when the division is inexact and the signs agree (ceil) / differ (floor).
fn signed_div_round(l: &mut Lowerer, ceil: bool) -> Result<(), LowerError> {
    let kty = l.result_kernel_type(0)?;
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let bt = bool_like(l, ty);
    let zero = l.const_int(ty, 0);
    let one = l.const_int(ty, 1);
    let q = l.core_op(Opcode::SDiv, vec![a, b], ty);
    let p = l.core_op(Opcode::IMul, vec![q, b], ty);
    let inexact = l.core_op(Opcode::INotEqual, vec![p, a], bt);
    let a_neg = signed_compare(l, Opcode::SLessThan, a, zero, bt);
    let b_neg = signed_compare(l, Opcode::SLessThan, b, zero, bt);
    let signs = if ceil {
        l.core_op(Opcode::LogicalEqual, vec![a_neg, b_neg], bt)
    } else {
        l.core_op(Opcode::LogicalNotEqual, vec![a_neg, b_neg], bt)
    };
    let adjust = l.core_op(Opcode::LogicalAnd, vec![inexact, signs], bt);
    let q2 = if ceil {
        l.core_op(Opcode::IAdd, vec![q, one], ty)
    } else {
        l.core_op(Opcode::ISub, vec![q, one], ty)
    };
    let v = l.core_op(Opcode::Select, vec![adjust, q2, q], ty);
    let v = normalize(l, v, kty);
    l.set_result(0, v)
}

fn extended(l: &mut Lowerer, name: Opcode, carry: bool) -> Result<(), LowerError> {
    let kty = l.result_kernel_type(0)?;
    if l.type_converter.emulated_bits(kty).is_some() {
        return Err(l.unsupported("extended arithmetic on emulated narrow integers"));
    }
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let ty = l.result_type(0)?;
    let st = l.module.types.struct_of(vec![(ty, None), (ty, None)]);
    let r = l.core_op(name, vec![a, b], st);
    let lo = l.extract(r, 0, ty);
    let hi = l.extract(r, 1, ty);
    l.set_result(0, lo)?;
    if carry {
        let bt = l.result_type(1)?;
        let zero = l.const_int(ty, 0);
        let c = l.core_op(Opcode::INotEqual, vec![hi, zero], bt);
        l.set_result(1, c)
    } else {
        l.set_result(1, hi)
    }
}

fn cmpi(l: &mut Lowerer) -> Result<(), LowerError> {
    let pred = l.kernel_enum("predicate")?;
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let kty = l.kernel_type(l.kernel_operand(0)?);
    let bt = l.result_type(0)?;
    let v = compare_int(l, pred, a, b, kty, bt)?;
    l.set_result(0, v)
}

fn cmpf(l: &mut Lowerer) -> Result<(), LowerError> {
    let pred = l.kernel_enum("predicate")?;
    let (a, b) = (l.operand(0)?, l.operand(1)?);
    let bt = l.result_type(0)?;
    let name = match pred {
        "oeq" => Opcode::FOrdEqual,
        "ogt" => Opcode::FOrdGreaterThan,
        "oge" => Opcode::FOrdGreaterThanEqual,
        "olt" => Opcode::FOrdLessThan,
        "ole" => Opcode::FOrdLessThanEqual,
        "one" => Opcode::FOrdNotEqual,
        "ueq" => Opcode::FUnordEqual,
        "ugt" => Opcode::FUnordGreaterThan,
        "uge" => Opcode::FUnordGreaterThanEqual,
        "ult" => Opcode::FUnordLessThan,
        "ule" => Opcode::FUnordLessThanEqual,
        "une" => Opcode::FUnordNotEqual,
        "false" | "true" => {
            let v = l.const_int(bt, (pred == "true") as i128);
            return l.set_result(0, v);
        }
        "ord" | "uno" => {
            let an = l.core_op(Opcode::IsNan, vec![a], bt);
            let bn = l.core_op(Opcode::IsNan, vec![b], bt);
            let any = l.core_op(Opcode::LogicalOr, vec![an, bn], bt);
            let v = if pred == "uno" {
                any
            } else {
                l.core_op(Opcode::LogicalNot, vec![any], bt)
            };
            return l.set_result(0, v);
        }
        other => return Err(l.malformed(format!("unknown float predicate '{other}'"))),
    };
    let v = l.core_op(name, vec![a, b], bt);
    l.set_result(0, v)
}

fn select(l: &mut Lowerer) -> Result<(), LowerError> {
    let (mut c, t, f) = (l.operand(0)?, l.operand(1)?, l.operand(2)?);
    let ty = l.result_type(0)?;
    let n = l.module.types.component_count(ty);
    let cn = l.module.types.component_count(l.module.value_type(c));
    if n > 1 && cn == 1 {
        let bt = bool_like(l, ty);
        c = l.splat(c, bt);
    }
    let v = l.core_op(Opcode::Select, vec![c, t, f], ty);
    l.set_result(0, v)
}

/// The logical width of an integer-like kernel type (`index` -> its bits).
fn logical_bits(l: &Lowerer, kty: &KType) -> u32 {
    match kty.scalar() {
        KType::Int(w) => *w,
        KType::Index => match l.options.index_bits {
            IndexBits::I32 => 32,
            IndexBits::I64 => 64,
        },
        _ => 32,
    }
}

/// Converts integer `v` of kernel type `src` to kernel type `dst`
/// (extension with `signed` semantics, or truncation).
fn int_cast(
    l: &mut Lowerer,
    v: Value,
    src: &KType,
    dst: &KType,
    signed: bool,
) -> Result<Value, LowerError> {
    let dty = l.convert_type(dst)?;
    let sty = l.module.value_type(v);
    let src_bits = logical_bits(l, src);
    let dst_bits = logical_bits(l, dst);
    if src_bits == 1 && dst_bits == 1 {
        return Ok(v);
    }
    if src_bits == 1 {
        let on = l.const_int(dty, if signed { -1 } else { 1 });
        let off = l.const_int(dty, 0);
        return Ok(l.core_op(Opcode::Select, vec![v, on, off], dty));
    }
    if dst_bits == 1 {
        let one = l.const_int(sty, 1);
        let zero = l.const_int(sty, 0);
        let low = l.core_op(Opcode::BitwiseAnd, vec![v, one], sty);
        return Ok(l.core_op(Opcode::INotEqual, vec![low, zero], dty));
    }
    let mut x = v;
    if !signed && src_bits < dst_bits {
        x = zext_emulated(l, x, src);
    }
    if sty != dty {
        x = l.core_op(
            if signed {
                Opcode::SConvert
            } else {
                Opcode::UConvert
            },
            vec![x],
            dty,
        );
    }
    Ok(normalize(l, x, dst))
}

fn cast_int(l: &mut Lowerer, signed: bool) -> Result<(), LowerError> {
    let a = l.operand(0)?;
    let src = l.kernel_type(l.kernel_operand(0)?);
    let dst = l.result_kernel_type(0)?;
    let v = int_cast(l, a, src, dst, signed)?;
    l.set_result(0, v)
}

fn int_to_float(l: &mut Lowerer, signed: bool) -> Result<(), LowerError> {
    let a = l.operand(0)?;
    let src = l.kernel_type(l.kernel_operand(0)?);
    let ty = l.result_type(0)?;
    let v = if matches!(src.scalar(), KType::Int(1)) && signed {
        // i1 true is -1 signed (MLIR: sitofp of true is -1.0). Selected as
        // an integer and converted: Mesa folds a float select(a, -1.0,
        // 0.0) to -b2f(a), which is -0 for false.
        let it = {
            let i = l.module.types.int(32);
            match l.module.types.component_count(ty) {
                1 => i,
                n => l.module.types.vector(n, i),
            }
        };
        let m1 = l.const_int(it, -1);
        let zero = l.const_int(it, 0);
        let i = l.core_op(Opcode::Select, vec![a, m1, zero], it);
        l.core_op(Opcode::ConvertSToF, vec![i], ty)
    } else if matches!(src.scalar(), KType::Int(1)) {
        let one = l.const_float(ty, 1.0);
        let zero = l.const_float(ty, 0.0);
        l.core_op(Opcode::Select, vec![a, one, zero], ty)
    } else if signed {
        l.core_op(Opcode::ConvertSToF, vec![a], ty)
    } else {
        let a = zext_emulated(l, a, src);
        l.core_op(Opcode::ConvertUToF, vec![a], ty)
    };
    l.set_result(0, v)
}

/// Wraps `v` to the signed range of a `bits`-bit integer.
fn wrap(v: i128, bits: u32) -> i128 {
    if bits >= 128 {
        return v;
    }
    let m = 1i128 << bits;
    let x = v.rem_euclid(m);
    if bits > 1 && x >= m / 2 {
        x - m
    } else {
        x
    }
}

fn constant(l: &mut Lowerer) -> Result<(), LowerError> {
    let kty = l.result_kernel_type(0)?;
    let ty = l.result_type(0)?;
    let st = l.module.types.scalar_of(ty);
    let bits = l.module.types.bit_width(st).unwrap_or(32);
    let logical = match kty.scalar() {
        KType::Int(w) => *w,
        _ => bits,
    };
    let v = match l.kernel_attr("value") {
        Some(KAttr::Int { value, .. }) => {
            let x = if logical == 1 {
                *value & 1
            } else {
                wrap(*value, logical)
            };
            l.const_int(ty, x)
        }
        Some(KAttr::Bool(b)) => l.const_int(ty, *b as i128),
        Some(KAttr::Float { value, .. }) => l.const_float(ty, *value),
        Some(KAttr::DenseInts { values, .. }) => {
            let vals: Vec<i128> = values
                .iter()
                .map(|&x| {
                    if logical == 1 {
                        x & 1
                    } else {
                        wrap(x, logical)
                    }
                })
                .collect();
            dense(l, ty, DenseValues::Ints(vals))?
        }
        Some(KAttr::DenseFloats { values, .. }) => {
            let vals = values.iter().map(|f| f.to_bits()).collect();
            dense(l, ty, DenseValues::Floats(vals))?
        }
        _ => return Err(l.malformed("arith.constant needs a scalar or dense value")),
    };
    l.set_result(0, v)
}

fn dense(l: &mut Lowerer, ty: Type, values: DenseValues) -> Result<Value, LowerError> {
    let n = l.module.types.component_count(ty) as usize;
    let is_vec = matches!(l.module.types.kind(ty), TypeKind::Vector { .. });
    if !is_vec {
        return Ok(match values {
            DenseValues::Ints(v) => l.const_int(ty, v.first().copied().unwrap_or(0)),
            DenseValues::Floats(v) => {
                l.const_float(ty, f64::from_bits(v.first().copied().unwrap_or(0)))
            }
        });
    }
    let len = values.len();
    if len != 1 && len != n {
        return Err(l.malformed(format!("dense constant has {len} values for {n} lanes")));
    }
    let values = if l.module.types.is_bool(l.module.types.scalar_of(ty)) {
        // Bool vectors: the serializer wants explicit lanes.
        match values {
            DenseValues::Ints(v) if v.len() == 1 => DenseValues::Ints(vec![v[0]; n]),
            other => other,
        }
    } else {
        values
    };
    let splat = values.len() == 1;
    let attr = l.module.attrs.intern(AttrKind::Dense { ty, values, splat });
    Ok(l.constant(attr, ty))
}
