//! `arith.fptosi` / `arith.fptoui` that saturate, the same on every
//! backend.
//!
//! MLIR leaves a conversion whose truncated value does not fit the integer
//! type undefined (poison), as do SPIR-V (`OpConvertFToS`: "undefined") and
//! LLVM (`fptosi`: poison; x86 returns the "integer indefinite" `INT_MIN`).
//! kiln defines it, on the device, the CPU runner and the reference
//! evaluator alike, as Rust's `as`, LLVM's `fptosi.sat` and WebAssembly's
//! `trunc_sat` do: NaN gives 0, values at or above the type's maximum + 1
//! (+inf included) give the maximum, values below its minimum (-inf
//! included; for unsigned types anything at or below -1) give the minimum.
//! Out-of-range inputs are replaced by 0 before the conversion, so the
//! driver never converts one.

use crate::grammar::Opcode;
use crate::ir::Value;
use crate::kernel::KType;

use super::super::context::Lowerer;
use super::super::error::LowerError;
use super::ints::{bool_like, normalize};

/// Converts the float `a` to the current op's integer result, saturating.
pub(crate) fn float_to_int(l: &mut Lowerer, a: Value, signed: bool) -> Result<Value, LowerError> {
    let ty = l.result_type(0)?;
    let dst = l.result_kernel_type(0)?;
    let bits = match dst.scalar() {
        KType::Int(w) => *w,
        _ => return Err(l.unsupported("converts to an integer type only")),
    };
    let lowered_bits = l.module.types.bit_width(ty).unwrap_or(32);
    let src = l.module.value_type(a);
    let bt = bool_like(l, src);
    if bits == 1 {
        // i1 holds -1 (true) and 0 signed, 0 and 1 (true) unsigned: true
        // exactly when the saturated value is -1 (x <= -1) resp. 1 (x >= 1);
        // NaN compares false.
        let (name, k) = if signed {
            (Opcode::FOrdLessThanEqual, -1.0)
        } else {
            (Opcode::FOrdGreaterThanEqual, 1.0)
        };
        let kc = l.const_float(src, k);
        return Ok(l.core_op(name, vec![a, kc], bt));
    }
    let (lo, hi) = if signed {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
    } else {
        (-1.0, 2f64.powi(bits as i32))
    };
    // The bounds may round to infinities in a narrow float type (2^31 in
    // f16): the infinities are tested for themselves.
    let hi_c = l.const_float(src, hi);
    let inf = l.const_float(src, f64::INFINITY);
    let ninf = l.const_float(src, f64::NEG_INFINITY);
    let above = l.core_op(Opcode::FOrdGreaterThanEqual, vec![a, hi_c], bt);
    let is_inf = l.core_op(Opcode::FOrdEqual, vec![a, inf], bt);
    let above = l.core_op(Opcode::LogicalOr, vec![above, is_inf], bt);
    let lo_c = l.const_float(src, lo);
    let below_name = if signed {
        Opcode::FOrdLessThan
    } else {
        Opcode::FOrdLessThanEqual
    };
    let below = l.core_op(below_name, vec![a, lo_c], bt);
    let is_ninf = l.core_op(Opcode::FOrdEqual, vec![a, ninf], bt);
    let below = l.core_op(Opcode::LogicalOr, vec![below, is_ninf], bt);
    let nan = l.core_op(Opcode::IsNan, vec![a], bt);
    let out = l.core_op(Opcode::LogicalOr, vec![above, below], bt);
    let bad = l.core_op(Opcode::LogicalOr, vec![out, nan], bt);
    let zero_f = l.const_float(src, 0.0);
    let safe = l.core_op(Opcode::Select, vec![bad, zero_f, a], src);
    let name = if signed {
        Opcode::ConvertFToS
    } else {
        Opcode::ConvertFToU
    };
    let v = l.core_op(name, vec![safe], ty);
    // The extremes as values of the lowered type (its bits, read signed).
    let as_lowered = |v: i128| -> i128 {
        if v >= 1i128 << (lowered_bits - 1) {
            v - (1i128 << lowered_bits)
        } else {
            v
        }
    };
    let (min, max) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    let max_c = l.const_int(ty, as_lowered(max));
    let min_c = l.const_int(ty, as_lowered(min));
    let v = l.core_op(Opcode::Select, vec![above, max_c, v], ty);
    let v = l.core_op(Opcode::Select, vec![below, min_c, v], ty);
    Ok(normalize(l, v, dst))
}
