//! `math.ctlz`, `math.cttz` and `math.ctpop` on integers of every width
//! (`math`). Vulkan allows `OpBitCount`, `FindUMsb` and `FindILsb` on
//! 32-bit integers only, so the count is taken on 32-bit words:
//!
//! * `i32`: directly;
//! * `i8` / `i16`: the value zero-extended to `i32` (a native narrow type
//!   through `OpUConvert`, an emulated one, held sign-extended in an
//!   `i32`, through a mask), counted there: `ctlz` less the `32 - w`
//!   leading zeros the extension added, `cttz` of zero `w`;
//! * `i64`: its low and high words (`OpUConvert` of the value and of the
//!   value shifted right by 32): `ctpop` the sum of the words' counts,
//!   `ctlz` the high word's where it is not zero, else 32 plus the low
//!   word's, `cttz` likewise from the low word; zero gives 64.
//!
//! The count is converted back to the operand's type. (`i64` without the
//! `Int64` capability never reaches here: the tensor compiler counts its
//! two words itself, `codegen/kernels/int64.rs`.)

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{Type, Value};
use crate::kernel::{KOpKind, KType};

use crate::lower::context::Lowerer;
use crate::lower::error::LowerError;

use super::ints::{bool_like, zext_emulated};

/// The count `kind` (`MathCtlz`, `MathCttz` or `MathCtpop`) of the
/// current op's operand, in the result's type `ty`.
pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind, ty: Type) -> Result<Value, LowerError> {
    let a = l.operand(0)?;
    let kty = l.result_kernel_type(0)?;
    let width = match kty.scalar() {
        KType::Int(w @ (8 | 16 | 32 | 64)) => *w,
        _ => {
            return Err(
                l.unsupported("bit counting is lowered for 8-, 16-, 32- and 64-bit integers only")
            )
        }
    };
    let i32t = like(l, ty, 32);
    match width {
        32 => Ok(count32(l, kind, a, i32t)),
        64 => {
            let c32 = l.const_int(ty, 32);
            let shifted = l.core_op(Opcode::ShiftRightLogical, vec![a, c32], ty);
            let hi = l.core_op(Opcode::UConvert, vec![shifted], i32t);
            let lo = l.core_op(Opcode::UConvert, vec![a], i32t);
            let r = count64(l, kind, lo, hi, i32t);
            Ok(l.core_op(Opcode::UConvert, vec![r], ty))
        }
        w => {
            let emulated = l.type_converter.emulated_bits(kty).is_some();
            let x = if emulated {
                zext_emulated(l, a, kty)
            } else {
                l.core_op(Opcode::UConvert, vec![a], i32t)
            };
            let r = count32(l, kind, x, i32t);
            let r = match kind {
                KOpKind::MathCtlz => {
                    let extra = l.const_int(i32t, 32 - i128::from(w));
                    l.core_op(Opcode::ISub, vec![r, extra], i32t)
                }
                KOpKind::MathCttz => {
                    let bt = bool_like(l, i32t);
                    let zero = l.const_int(i32t, 0);
                    let is_zero = l.core_op(Opcode::IEqual, vec![x, zero], bt);
                    let cw = l.const_int(i32t, i128::from(w));
                    l.core_op(Opcode::Select, vec![is_zero, cw, r], i32t)
                }
                _ => r,
            };
            // Counts are at most 16: an emulated type's i32 already holds
            // the value sign-extended.
            Ok(if emulated {
                r
            } else {
                l.core_op(Opcode::UConvert, vec![r], ty)
            })
        }
    }
}

/// The integer type of `bits` with the shape of `ty`.
fn like(l: &mut Lowerer, ty: Type, bits: u32) -> Type {
    let i = l.module.types.int(bits);
    match l.module.types.component_count(ty) {
        1 => i,
        n => l.module.types.vector(n, i),
    }
}

/// The count of 32-bit `a` (of type `ty`); zero has 32 leading and
/// trailing zeros.
fn count32(l: &mut Lowerer, kind: KOpKind, a: Value, ty: Type) -> Value {
    let bt = bool_like(l, ty);
    let zero = l.const_int(ty, 0);
    let c32 = l.const_int(ty, 32);
    match kind {
        KOpKind::MathCtlz => {
            let msb = l.glsl_op(GlslOp::FindUMsb, vec![a], ty);
            let c31 = l.const_int(ty, 31);
            let r = l.core_op(Opcode::ISub, vec![c31, msb], ty);
            let is_zero = l.core_op(Opcode::IEqual, vec![a, zero], bt);
            l.core_op(Opcode::Select, vec![is_zero, c32, r], ty)
        }
        KOpKind::MathCttz => {
            let lsb = l.glsl_op(GlslOp::FindILsb, vec![a], ty);
            let is_zero = l.core_op(Opcode::IEqual, vec![a, zero], bt);
            l.core_op(Opcode::Select, vec![is_zero, c32, lsb], ty)
        }
        _ => l.core_op(Opcode::BitCount, vec![a], ty),
    }
}

/// The count of the 64-bit value whose 32-bit words are `lo` and `hi`
/// (of type `ty`), in `ty`.
fn count64(l: &mut Lowerer, kind: KOpKind, lo: Value, hi: Value, ty: Type) -> Value {
    let cl = count32(l, kind, lo, ty);
    let ch = count32(l, kind, hi, ty);
    if kind == KOpKind::MathCtpop {
        return l.core_op(Opcode::IAdd, vec![cl, ch], ty);
    }
    // ctlz: the high word's count unless it is zero (32), then 32 plus
    // the low word's; cttz the same from the low word.
    let (first, first_count, second_count) = if kind == KOpKind::MathCtlz {
        (hi, ch, cl)
    } else {
        (lo, cl, ch)
    };
    let bt = bool_like(l, ty);
    let zero = l.const_int(ty, 0);
    let c32 = l.const_int(ty, 32);
    let first_zero = l.core_op(Opcode::IEqual, vec![first, zero], bt);
    let both = l.core_op(Opcode::IAdd, vec![c32, second_count], ty);
    l.core_op(Opcode::Select, vec![first_zero, both, first_count], ty)
}
