//! Integer dot products (`SPV_KHR_integer_dot_product`, core in SPIR-V
//! 1.6): `SDot`, `UDot`, `SUDot` and their `AccSat` forms, on vectors of
//! integers or on 32-bit integers holding four 8-bit components
//! (`PackedVectorFormat4x8Bit`, component `k` in bits `8k .. 8k + 7`).
//!
//! Semantics (the SPIR-V specification): each component is sign-extended
//! (`SDot`; `SUDot`'s first operand) or zero-extended (`UDot`; `SUDot`'s
//! second operand), the products are summed, and the result is the sum's
//! low-order bits in the result's width; the `AccSat` forms add the
//! accumulator (third operand) to the exact sum and saturate to the
//! result type's range, signed for `SDotAccSat` / `SUDotAccSat` and
//! unsigned for `UDotAccSat`. The sum is formed in 128-bit integers, exact
//! for components of up to 32 bits (64-bit components, which need
//! `DotProductInputAll` and a 64-bit result, could wrap at 2^127).

use super::super::error::ConvertError;
use super::super::ir::{BinOp, CastOp, IPred, LType, LValue};
use super::Fx;
use crate::ir::Op;

/// The width the products are summed in.
const WIDE: u32 = 128;

impl Fx<'_, '_> {
    /// Handles the op if it is an integer dot product.
    pub(crate) fn int_dot(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        let (signed_a, signed_b, sat) = match name {
            "SDot" => (true, true, false),
            "UDot" => (false, false, false),
            "SUDot" => (true, false, false),
            "SDotAccSat" => (true, true, true),
            "UDotAccSat" => (false, false, true),
            "SUDotAccSat" => (true, false, true),
            _ => return Ok(false),
        };
        let a = self.arg(op, 0)?;
        let b = self.arg(op, 1)?;
        let res = self.res_ty(op)?;
        let wide = LType::Int(WIDE);
        let ca = self.dot_components(a, signed_a);
        let cb = self.dot_components(b, signed_b);
        if ca.len() != cb.len() || ca.is_empty() {
            return Err(self.malformed(op, "has operands of different component counts"));
        }
        let mut sum = self.b.const_int(wide.clone(), 0);
        for (x, y) in ca.into_iter().zip(cb) {
            let p = self.b.bin(BinOp::Mul, x, y);
            sum = self.b.bin(BinOp::Add, sum, p);
        }
        let v = if sat {
            let acc = self.arg(op, 2)?;
            // The unsigned form's accumulator is unsigned; the others' signed.
            let ext = if signed_a { CastOp::SExt } else { CastOp::ZExt };
            let acc = self.b.cast(ext, acc, wide.clone());
            let s = self.b.bin(BinOp::Add, sum, acc);
            let bits = res.bits();
            let (lo, hi) = if signed_a {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            };
            let lo = self.b.const_int(wide.clone(), lo);
            let hi = self.b.const_int(wide.clone(), hi);
            let below = self.b.icmp(IPred::Slt, s, lo);
            let s = self.b.select(below, lo, s);
            let above = self.b.icmp(IPred::Sgt, s, hi);
            let s = self.b.select(above, hi, s);
            self.b.cast(CastOp::Trunc, s, res)
        } else {
            self.b.cast(CastOp::Trunc, sum, res)
        };
        self.set(op, v);
        Ok(true)
    }

    /// The components of a dot product's operand, each extended to
    /// [`WIDE`] bits: the lanes of a vector, or the four bytes of a packed
    /// 32-bit integer (least significant first).
    fn dot_components(&mut self, v: LValue, signed: bool) -> Vec<LValue> {
        let wide = LType::Int(WIDE);
        let ext = if signed { CastOp::SExt } else { CastOp::ZExt };
        let ty = self.b.ty(v).clone();
        if let LType::Vector(n, _) = ty {
            return (0..n)
                .map(|k| {
                    let i = self.b.i32(i64::from(k));
                    let x = self.b.extract_element(v, i);
                    self.b.cast(ext, x, wide.clone())
                })
                .collect();
        }
        let i8t = LType::Int(8);
        (0..4)
            .map(|k| {
                let sh = self.b.const_int(ty.clone(), i128::from(8 * k));
                let x = self.b.bin(BinOp::LShr, v, sh);
                let x = self.b.cast(CastOp::Trunc, x, i8t.clone());
                self.b.cast(ext, x, wide.clone())
            })
            .collect()
    }
}
