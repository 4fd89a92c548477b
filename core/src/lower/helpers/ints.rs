//! Integers: emulated narrow integers live in `i32`, sign-extended (see
//! [`TypeConverter::emulated_bits`](crate::lower::TypeConverter::emulated_bits));
//! these helpers keep them so, and lower integer comparisons on them.

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
            let x = l.core_op("ShiftLeftLogical", vec![v, s], ty);
            l.core_op("ShiftRightArithmetic", vec![x, s], ty)
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
            l.core_op("BitwiseAnd", vec![v, mask], ty)
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

const CMPI: [(&str, &str); 10] = [
    ("eq", "IEqual"),
    ("ne", "INotEqual"),
    ("slt", "SLessThan"),
    ("sle", "SLessThanEqual"),
    ("sgt", "SGreaterThan"),
    ("sge", "SGreaterThanEqual"),
    ("ult", "ULessThan"),
    ("ule", "ULessThanEqual"),
    ("ugt", "UGreaterThan"),
    ("uge", "UGreaterThanEqual"),
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
        let name = match pred {
            "eq" => "LogicalEqual",
            "ne" => "LogicalNotEqual",
            _ => return Err(l.unsupported(format!("predicate '{pred}' on i1"))),
        };
        return Ok(l.core_op(name, vec![a, b], bt));
    }
    let (a, b) = if pred.starts_with('u') {
        (zext_emulated(l, a, kty), zext_emulated(l, b, kty))
    } else {
        (a, b)
    };
    Ok(l.core_op(name, vec![a, b], bt))
}
