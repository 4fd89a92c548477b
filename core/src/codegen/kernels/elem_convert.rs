//! Element types in kernels: each tensor element type has a compute type
//! (what ops work on) and a memory type (what buffers hold), chosen by the
//! strategy's [`TypeRepr`]; loads and stores convert between them, and
//! [`Emitter::round`] keeps f16/bf16 values exact in their format after
//! every op (they are computed in f32, as the reference evaluator does).
//!
//! Without `Float16`, f16 lives in memory as its `i16` bits and converts
//! with integer operations (round to nearest even, subnormals, infinities,
//! NaN kept quiet); bf16 always does (its f32 value is its bits shifted
//! left by 16).

use crate::kernel::KValue;
use crate::kernel::{FloatTy, KOpKind, KType};
use crate::tensor::types::ElemType;

use super::super::strategy::TypeRepr;
use super::emitter::Emitter;

impl Emitter<'_, '_, '_> {
    /// The type ops on `elem` values compute in.
    pub fn compute_type(&self, elem: ElemType) -> KType {
        match elem {
            ElemType::F16 | ElemType::BF16 | ElemType::F32 => KType::f32(),
            ElemType::F64 => KType::Float(FloatTy::F64),
            ElemType::Int(64) if self.is_pair(elem) => KType::vector(2, KType::i32()),
            ElemType::Int(w) => KType::Int(w),
            ElemType::Index => KType::Index,
        }
    }

    /// The type buffers of `elem` hold.
    pub fn memory_type(&self, elem: ElemType) -> KType {
        match (elem, self.c.strategy.repr(elem)) {
            (ElemType::F16, TypeRepr::F16Storage) => KType::Float(FloatTy::F16),
            (ElemType::F16 | ElemType::BF16, _) => KType::Int(16),
            (ElemType::Index, _) => KType::Int(64),
            (ElemType::Int(64), TypeRepr::I64Pair) => KType::i32(),
            _ => self.compute_type(elem),
        }
    }

    fn i32c(&mut self, v: i64) -> KValue {
        self.b.const_int(i128::from(v), KType::i32())
    }

    /// A value loaded from memory (memory type) in its compute type.
    pub fn load_conv(&mut self, v: KValue, elem: ElemType) -> KValue {
        match (elem, self.c.strategy.repr(elem)) {
            (ElemType::F16, TypeRepr::F16Storage) => {
                self.b.cast(KOpKind::ArithExtF, v, KType::f32())
            }
            (ElemType::F16, _) => self.half_bits_to_f32(v),
            (ElemType::BF16, _) => {
                let w = self.b.cast(KOpKind::ArithExtUI, v, KType::i32());
                let s = self.i32c(16);
                let w = self.b.shli(w, s);
                self.b.cast(KOpKind::ArithBitcast, w, KType::f32())
            }
            _ => v,
        }
    }

    /// A compute value (exact in its format) in its memory type.
    pub fn store_conv(&mut self, v: KValue, elem: ElemType) -> KValue {
        match (elem, self.c.strategy.repr(elem)) {
            (ElemType::F16, TypeRepr::F16Storage) => {
                self.b
                    .cast(KOpKind::ArithTruncF, v, KType::Float(FloatTy::F16))
            }
            (ElemType::F16, _) => self.f32_to_half_bits(v),
            (ElemType::BF16, _) => {
                let w = self.b.cast(KOpKind::ArithBitcast, v, KType::i32());
                let s = self.i32c(16);
                let w = self.b.shrui(w, s);
                self.b.cast(KOpKind::ArithTruncI, w, KType::Int(16))
            }
            _ => v,
        }
    }

    /// `v` (f32) rounded to `elem`'s format (no-op for other types).
    ///
    /// f16 is rounded with integer operations even where the device has
    /// Float16: NVIDIA's compiler folds an in-register `OpFConvert` round
    /// trip f32 -> f16 -> f32 into nothing (seen on an H200, driver
    /// 580.159.04: `casts.mlir`'s `extf_truncf_chain` returned the f32
    /// inputs unrounded), and only a store to 16-bit memory forces it.
    pub fn round(&mut self, v: KValue, elem: ElemType) -> KValue {
        match (elem, self.c.strategy.repr(elem)) {
            (ElemType::F16, _) => self.round_f16(v),
            (ElemType::BF16, _) => self.round_bf16(v),
            _ => v,
        }
    }

    /// f32 `v` rounded to bf16 (nearest even; NaN stays a quiet NaN).
    fn round_bf16(&mut self, v: KValue) -> KValue {
        let bits = self.b.cast(KOpKind::ArithBitcast, v, KType::i32());
        let abs_mask = self.i32c(0x7fff_ffff);
        let abs = self.b.andi(bits, abs_mask);
        let inf = self.i32c(0x7f80_0000);
        let is_nan = self.b.cmpi("ugt", abs, inf);
        let c16 = self.i32c(16);
        let one = self.i32c(1);
        let lsb = self.b.shrui(bits, c16);
        let lsb = self.b.andi(lsb, one);
        let bias = self.i32c(0x7fff);
        let r = self.b.addi(bits, bias);
        let r = self.b.addi(r, lsb);
        let quiet = self.i32c(0x0040_0000);
        let q = self.b.ori(bits, quiet);
        let r = self.b.select(is_nan, q, r);
        let mask = self.i32c(0xffff_0000_u32 as i32 as i64);
        let r = self.b.andi(r, mask);
        self.b.cast(KOpKind::ArithBitcast, r, KType::f32())
    }

    /// f32 `v` rounded to f16 precision and range, as an f32 (integer
    /// operations only: no Float16 needed), nearest even.
    ///
    /// The f32 bit pattern is rounded in place: clearing its low `drop`
    /// bits rounds the value to a multiple of `2^(e - 150 + drop)` within
    /// its binade (a carry moves it to the next one), and the bit above
    /// them is the kept multiple's parity. f16 keeps 10 of f32's 23
    /// mantissa bits (`drop = 13`); below 2^-14 its values are multiples
    /// of 2^-24 (`drop = 126 - e`, up to 23 at 2^-24); below 2^-24 the
    /// result is 2^-24 above 2^-25, else zero (2^-25 itself ties to the
    /// even zero). One path for every range, about 30 operations.
    fn round_f16(&mut self, v: KValue) -> KValue {
        let bits = self.b.cast(KOpKind::ArithBitcast, v, KType::i32());
        let sign_mask = self.i32c(0x8000_0000_u32 as i32 as i64);
        let sign = self.b.andi(bits, sign_mask);
        let abs_mask = self.i32c(0x7fff_ffff);
        let a = self.b.andi(bits, abs_mask);
        let c23 = self.i32c(23);
        let e = self.b.shrui(a, c23);
        let c126 = self.i32c(126);
        let drop = self.b.subi(c126, e);
        let c13 = self.i32c(13);
        let drop = self.b.maxsi(drop, c13);
        // Shifts stay below 32 (only the tiny range, decided below, has
        // more to drop).
        let c31 = self.i32c(31);
        let drop = self.b.minsi(drop, c31);
        let one = self.i32c(1);
        let lsb = self.b.shrui(a, drop);
        let lsb = self.b.andi(lsb, one);
        let dm1 = self.b.subi(drop, one);
        let half = self.b.shli(one, dm1);
        let bias = self.b.subi(half, one);
        let r = self.b.addi(a, bias);
        let r = self.b.addi(r, lsb);
        let unit = self.b.shli(one, drop);
        let low = self.b.subi(unit, one);
        let all = self.i32c(-1);
        let keep = self.b.xori(low, all);
        let r = self.b.andi(r, keep);
        let max_finite = self.i32c(0x477f_e000);
        let inf = self.i32c(0x7f80_0000);
        let over = self.b.cmpi("ugt", r, max_finite);
        let r = self.b.select(over, inf, r);
        // Below 2^-24: 2^-24 above 2^-25, else zero.
        let smallest = self.i32c(0x3380_0000);
        let tiny = self.b.cmpi("ult", a, smallest);
        let quarter = self.i32c(0x3300_0000);
        let up = self.b.cmpi("ugt", a, quarter);
        let zero = self_zero(self);
        let t = self.b.select(up, smallest, zero);
        let r = self.b.select(tiny, t, r);
        let is_special = self.b.cmpi("uge", a, inf);
        let r = self.b.select(is_special, a, r);
        let r = self.b.ori(r, sign);
        self.b.cast(KOpKind::ArithBitcast, r, KType::f32())
    }

    /// f16 bits (`i16`) to the f32 of the same value.
    fn half_bits_to_f32(&mut self, h: KValue) -> KValue {
        let h = self.b.cast(KOpKind::ArithExtUI, h, KType::i32());
        let c10 = self.i32c(10);
        let c13 = self.i32c(13);
        let c16 = self.i32c(16);
        let c23 = self.i32c(23);
        let smask = self.i32c(0x8000);
        let sign = self.b.andi(h, smask);
        let sign = self.b.shli(sign, c16);
        let e = self.b.shrui(h, c10);
        let emask = self.i32c(0x1f);
        let e = self.b.andi(e, emask);
        let mmask = self.i32c(0x3ff);
        let m = self.b.andi(h, mmask);
        let m13 = self.b.shli(m, c13);
        // Normal: rebias the exponent.
        let c112 = self.i32c(112);
        let en = self.b.addi(e, c112);
        let en = self.b.shli(en, c23);
        let normal = self.b.ori(en, m13);
        // Inf/NaN.
        let inf = self.i32c(0x7f80_0000);
        let special = self.b.ori(inf, m13);
        // Subnormal: m * 2^-24.
        let mf = self.b.cast(KOpKind::ArithUIToFP, m, KType::f32());
        let scale = self.b.const_float(2f64.powi(-24), KType::f32());
        let sub = self.b.mulf(mf, scale);
        let sub = self.b.cast(KOpKind::ArithBitcast, sub, KType::i32());
        let zero = self_zero(self);
        let c31 = self.i32c(31);
        let is_sub = self.b.cmpi("eq", e, zero);
        let is_special = self.b.cmpi("eq", e, c31);
        let r = self.b.select(is_special, special, normal);
        let r = self.b.select(is_sub, sub, r);
        let r = self.b.ori(r, sign);
        self.b.cast(KOpKind::ArithBitcast, r, KType::f32())
    }

    /// An f32 exactly representable in f16 to its f16 bits (`i16`).
    fn f32_to_half_bits(&mut self, v: KValue) -> KValue {
        let bits = self.b.cast(KOpKind::ArithBitcast, v, KType::i32());
        let c16 = self.i32c(16);
        let c13 = self.i32c(13);
        let c23 = self.i32c(23);
        let smask = self.i32c(0x8000);
        let sign = self.b.shrui(bits, c16);
        let sign = self.b.andi(sign, smask);
        let abs_mask = self.i32c(0x7fff_ffff);
        let a = self.b.andi(bits, abs_mask);
        // Normal.
        let e = self.b.shrui(a, c23);
        let c112 = self.i32c(112);
        let e = self.b.subi(e, c112);
        let c10 = self.i32c(10);
        let e = self.b.shli(e, c10);
        let m = self.b.shrui(a, c13);
        let mmask = self.i32c(0x3ff);
        let m = self.b.andi(m, mmask);
        let normal = self.b.ori(e, m);
        // Subnormal: |v| * 2^24.
        let af = self.b.cast(KOpKind::ArithBitcast, a, KType::f32());
        let scale = self.b.const_float(2f64.powi(24), KType::f32());
        let s = self.b.mulf(af, scale);
        let sub = self.b.cast(KOpKind::ArithFPToUI, s, KType::i32());
        // Inf / NaN.
        let inf = self.i32c(0x7f80_0000);
        let is_nan = self.b.cmpi("ugt", a, inf);
        let h_inf = self.i32c(0x7c00);
        let h_nan = self.i32c(0x7e00);
        let special = self.b.select(is_nan, h_nan, h_inf);
        let min_normal = self.i32c(0x3880_0000);
        let is_sub = self.b.cmpi("ult", a, min_normal);
        let is_special = self.b.cmpi("uge", a, inf);
        let r = self.b.select(is_sub, sub, normal);
        let r = self.b.select(is_special, special, r);
        let r = self.b.ori(r, sign);
        self.b.cast(KOpKind::ArithTruncI, r, KType::Int(16))
    }
}

fn self_zero(e: &mut Emitter<'_, '_, '_>) -> KValue {
    e.b.const_int(0, KType::i32())
}
