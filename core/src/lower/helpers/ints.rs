//! Integers: emulated narrow integers live in `i32`, sign-extended (see
//! [`TypeConverter::emulated_bits`](crate::lower::TypeConverter::emulated_bits));
//! these helpers keep them so, and lower integer comparisons on them.

use crate::grammar::Opcode;
use crate::ir::{Type, Value};
use crate::kernel::KType;

use crate::lower::context::Lowerer;
use crate::lower::error::LowerError;

/// Sign-extends the low `bits` of `v` in place when `kty` is emulated.
pub(crate) fn normalize(l: &mut Lowerer, v: Value, kty: &KType) -> Value {
    match l.type_converter.emulated_bits(kty) {
        Some(bits) => {
            let ty = l.module.value_type(v);
            let s = l.const_int(ty, 32 - bits as i128);
            let x = l.core_op(Opcode::ShiftLeftLogical, vec![v, s], ty);
            l.core_op(Opcode::ShiftRightArithmetic, vec![x, s], ty)
        }
        None => v,
    }
}

/// The low `bits` of `v` zero-extended, when `kty` is emulated.
pub(crate) fn zext_emulated(l: &mut Lowerer, v: Value, kty: &KType) -> Value {
    match l.type_converter.emulated_bits(kty) {
        Some(bits) => {
            let ty = l.module.value_type(v);
            let mask = l.const_int(ty, (1i128 << bits) - 1);
            l.core_op(Opcode::BitwiseAnd, vec![v, mask], ty)
        }
        None => v,
    }
}

/// The bool type with the shape of `ty`.
pub(crate) fn bool_like(l: &mut Lowerer, ty: Type) -> Type {
    let b = l.module.types.bool();
    match l.module.types.component_count(ty) {
        1 => b,
        n => l.module.types.vector(n, b),
    }
}

const CMPI: [(&str, Opcode); 10] = [
    ("eq", Opcode::IEqual),
    ("ne", Opcode::INotEqual),
    ("slt", Opcode::SLessThan),
    ("sle", Opcode::SLessThanEqual),
    ("sgt", Opcode::SGreaterThan),
    ("sge", Opcode::SGreaterThanEqual),
    ("ult", Opcode::ULessThan),
    ("ule", Opcode::ULessThanEqual),
    ("ugt", Opcode::UGreaterThan),
    ("uge", Opcode::UGreaterThanEqual),
];

/// Lowers an integer comparison `pred` of `a` and `b` (kernel type `kty`).
pub(crate) fn compare_int(
    l: &mut Lowerer,
    pred: &str,
    a: Value,
    b: Value,
    kty: &KType,
    bt: Type,
) -> Result<Value, LowerError> {
    let Some(&(_, name)) = CMPI.iter().find(|(p, _)| *p == pred) else {
        return Err(l.malformed(format!("unknown integer predicate '{pred}'")));
    };
    let at = l.module.value_type(a);
    if l.module.types.is_bool(l.module.types.scalar_of(at)) {
        return Ok(compare_bool(l, pred, a, b, bt));
    }
    let (a, b) = if pred.starts_with('u') {
        (zext_emulated(l, a, kty), zext_emulated(l, b, kty))
    } else {
        (a, b)
    };
    if pred.starts_with('s') {
        return Ok(signed_compare(l, name, a, b, bt));
    }
    Ok(l.core_op(name, vec![a, b], bt))
}

/// A comparison of two `i1` values. As integers of one bit, true is 1
/// unsigned and -1 signed, so `ult` is `!a & b` and `slt` is `a & !b`.
fn compare_bool(l: &mut Lowerer, pred: &str, a: Value, b: Value, bt: Type) -> Value {
    match pred {
        "eq" => l.core_op(Opcode::LogicalEqual, vec![a, b], bt),
        "ne" => l.core_op(Opcode::LogicalNotEqual, vec![a, b], bt),
        _ => {
            // Put the predicate in the form x < y or x <= y.
            let (x, y, or_equal) = match pred {
                "ult" | "sgt" => (a, b, false),
                "ule" | "sge" => (a, b, true),
                "ugt" | "slt" => (b, a, false),
                _ => (b, a, true), // "uge" | "sle"
            };
            // As unsigned: x < y is !x & y; x <= y is !x | y.
            let nx = l.core_op(Opcode::LogicalNot, vec![x], bt);
            let name = if or_equal {
                Opcode::LogicalOr
            } else {
                Opcode::LogicalAnd
            };
            l.core_op(name, vec![nx, y], bt)
        }
    }
}

/// A signed integer comparison `name` (`SLessThan`, ...). On 64-bit
/// integers it is emitted as the unsigned comparison of the operands with
/// their sign bits flipped (`a <s b` iff `a ^ MIN <u b ^ MIN`): Mesa's NIR
/// (lavapipe 22.3 here) rewrites a signed comparison of a sign-extended
/// 32-bit value with a 64-bit constant using -2^31 read as +2^31, so
/// `extsi(x) > 0` is true for every x (issue 30: the ONNX `Trilu` tests).
pub(crate) fn signed_compare(l: &mut Lowerer, name: Opcode, a: Value, b: Value, bt: Type) -> Value {
    let ty = l.module.value_type(a);
    if l.module.types.bit_width(ty) != Some(64) {
        return l.core_op(name, vec![a, b], bt);
    }
    let min = l.const_int(ty, i128::from(i64::MIN));
    let fa = l.core_op(Opcode::BitwiseXor, vec![a, min], ty);
    let fb = l.core_op(Opcode::BitwiseXor, vec![b, min], ty);
    let unsigned = match name {
        Opcode::SLessThan => Opcode::ULessThan,
        Opcode::SLessThanEqual => Opcode::ULessThanEqual,
        Opcode::SGreaterThan => Opcode::UGreaterThan,
        _ => Opcode::UGreaterThanEqual,
    };
    l.core_op(unsigned, vec![fa, fb], bt)
}
