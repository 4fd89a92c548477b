//! Arithmetic, bitwise, shift, cast, comparison and logical ops (the
//! seed's tables of direct conversions and its special cases).
//!
//! Beyond the seed: `SMod` and `FMod` (the remainder takes the divisor's
//! sign: `srem`/`frem`, plus the divisor when the signs differ),
//! `IAddCarry`/`ISubBorrow`/`UMulExtended`/`SMulExtended` (a `{low,
//! high}` struct, the products computed at twice the width), `Dot`,
//! `VectorTimesScalar`, `Any`/`All`, `IsNan`/`IsInf`/`IsFinite`,
//! `Ordered`/`Unordered`, `SignBitSet`, `QuantizeToF16`, `CopyObject`,
//! `Undef`. Shifts and bitfield operands narrower than the base are
//! zero-extended (sign-extended for signed types), wider ones truncated.
//! In the kernel ABI integer division and remainder never trap: a zero
//! divisor (or `INT_MIN / -1`) divides by one instead.

use super::super::error::ConvertError;
use super::super::ir::{BinOp, CastOp, FPred, IPred, InstKind, LType, LValue};
use super::Fx;
use crate::ir::{Op, Signedness, TypeKind};

impl Fx<'_, '_> {
    /// Handles the op if it is one of this family.
    pub(crate) fn arith(&mut self, op: Op, name: &str) -> Result<bool, ConvertError> {
        if let Some(bin) = binary_op(name) {
            let a = self.arg(op, 0)?;
            let mut b = self.arg(op, 1)?;
            if matches!(bin, BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem) {
                b = self.safe_divisor(a, b, matches!(bin, BinOp::SDiv | BinOp::SRem));
            }
            let v = self.b.bin(bin, a, b);
            self.set(op, v);
            return Ok(true);
        }
        if let Some(pred) = icmp_pred(name) {
            let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
            let v = self.b.icmp(pred, a, b);
            self.set(op, v);
            return Ok(true);
        }
        if let Some(pred) = fcmp_pred(name) {
            let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
            let v = self.b.fcmp(pred, a, b);
            self.set(op, v);
            return Ok(true);
        }
        match name {
            "FNegate" => {
                let a = self.arg(op, 0)?;
                let ty = self.b.ty(a).clone();
                let v = self.b.inst(InstKind::FNeg, vec![a], ty);
                self.set(op, v);
            }
            "SNegate" => {
                let a = self.arg(op, 0)?;
                let ty = self.b.ty(a).clone();
                let zero = self.b.const_int(ty, 0);
                let v = self.b.bin(BinOp::Sub, zero, a);
                self.set(op, v);
            }
            "Not" | "LogicalNot" => {
                let a = self.arg(op, 0)?;
                let ty = self.b.ty(a).clone();
                let mask = self.b.const_int(ty, -1);
                let v = self.b.bin(BinOp::Xor, a, mask);
                self.set(op, v);
            }
            "SMod" => {
                let a = self.arg(op, 0)?;
                let b = self.arg(op, 1)?;
                let b = self.safe_divisor(a, b, true);
                let r = self.b.bin(BinOp::SRem, a, b);
                let ty = self.b.ty(a).clone();
                let zero = self.b.const_int(ty, 0);
                let nonzero = self.b.icmp(IPred::Ne, r, zero);
                let rneg = self.b.icmp(IPred::Slt, r, zero);
                let bneg = self.b.icmp(IPred::Slt, b, zero);
                let differ = self.b.bin(BinOp::Xor, rneg, bneg);
                let fix = self.b.bin(BinOp::And, nonzero, differ);
                let sum = self.b.bin(BinOp::Add, r, b);
                let v = self.b.select(fix, sum, r);
                self.set(op, v);
            }
            "FMod" => {
                let a = self.arg(op, 0)?;
                let b = self.arg(op, 1)?;
                let r = self.b.bin(BinOp::FRem, a, b);
                let ty = self.b.ty(a).clone();
                let zero = self.b.const_float(ty, 0.0);
                let nonzero = self.b.fcmp(FPred::One, r, zero);
                let rneg = self.b.fcmp(FPred::Olt, r, zero);
                let bneg = self.b.fcmp(FPred::Olt, b, zero);
                let differ = self.b.bin(BinOp::Xor, rneg, bneg);
                let fix = self.b.bin(BinOp::And, nonzero, differ);
                let sum = self.b.bin(BinOp::FAdd, r, b);
                let v = self.b.select(fix, sum, r);
                self.set(op, v);
            }
            "IAddCarry" | "ISubBorrow" | "UMulExtended" | "SMulExtended" => {
                self.extended(op, name)?
            }
            "Dot" => {
                let a = self.arg(op, 0)?;
                let b = self.arg(op, 1)?;
                let prod = self.b.bin(BinOp::FMul, a, b);
                let v = self.reduce(prod, BinOp::FAdd);
                self.set(op, v);
            }
            "VectorTimesScalar" => {
                let a = self.arg(op, 0)?;
                let s = self.arg(op, 1)?;
                let ty = self.b.ty(a).clone();
                let splat = self.b.splat(s, &ty);
                let v = self.b.bin(BinOp::FMul, a, splat);
                self.set(op, v);
            }
            "Any" | "All" => {
                let a = self.arg(op, 0)?;
                let v = self.reduce(a, if name == "Any" { BinOp::Or } else { BinOp::And });
                self.set(op, v);
            }
            "IsNan" | "Unordered" | "Ordered" => {
                let a = self.arg(op, 0)?;
                let b = if name == "IsNan" { a } else { self.arg(op, 1)? };
                let pred = if name == "Ordered" {
                    FPred::Ord
                } else {
                    FPred::Uno
                };
                let v = self.b.fcmp(pred, a, b);
                self.set(op, v);
            }
            "IsInf" | "IsFinite" => {
                let a = self.arg(op, 0)?;
                let abs = self.b.unary_intrinsic("fabs", vec![a]);
                let ty = self.b.ty(a).clone();
                let inf = self.b.const_float(ty, f64::INFINITY);
                let pred = if name == "IsInf" {
                    FPred::Oeq
                } else {
                    FPred::Olt
                };
                let v = self.b.fcmp(pred, abs, inf);
                self.set(op, v);
            }
            "SignBitSet" => {
                let a = self.arg(op, 0)?;
                let ty = self.b.ty(a).clone();
                let ity = ty.with_scalar(LType::Int(ty.bits()));
                let bits = self.b.cast(CastOp::Bitcast, a, ity.clone());
                let zero = self.b.const_int(ity, 0);
                let v = self.b.icmp(IPred::Slt, bits, zero);
                self.set(op, v);
            }
            "LogicalEqual" | "LogicalNotEqual" => {
                let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let pred = if name == "LogicalEqual" {
                    IPred::Eq
                } else {
                    IPred::Ne
                };
                let v = self.b.icmp(pred, a, b);
                self.set(op, v);
            }
            "LogicalAnd" | "LogicalOr" => {
                let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let bin = if name == "LogicalAnd" {
                    BinOp::And
                } else {
                    BinOp::Or
                };
                let v = self.b.bin(bin, a, b);
                self.set(op, v);
            }
            "Select" => {
                let c = self.arg(op, 0)?;
                let a = self.arg(op, 1)?;
                let b = self.arg(op, 2)?;
                let v = self.b.select(c, a, b);
                self.set(op, v);
            }
            "ShiftLeftLogical" | "ShiftRightLogical" | "ShiftRightArithmetic" => {
                let base = self.arg(op, 0)?;
                let shift = self.arg(op, 1)?;
                let signed = self.is_signed(op, 1)?;
                let ty = self.b.ty(base).clone();
                let shift = self.fit_width(shift, &ty, signed);
                let bin = match name {
                    "ShiftLeftLogical" => BinOp::Shl,
                    "ShiftRightLogical" => BinOp::LShr,
                    _ => BinOp::AShr,
                };
                let v = self.b.bin(bin, base, shift);
                self.set(op, v);
            }
            "BitCount" | "BitReverse" => {
                let a = self.arg(op, 0)?;
                let r = self.b.unary_intrinsic(
                    if name == "BitCount" {
                        "ctpop"
                    } else {
                        "bitreverse"
                    },
                    vec![a],
                );
                let ty = self.res_ty(op)?;
                let v = self.fit_width(r, &ty, false);
                self.set(op, v);
            }
            "BitFieldInsert" | "BitFieldSExtract" | "BitFieldUExtract" => {
                self.bitfield(op, name)?
            }
            "ConvertFToU" | "ConvertFToS" | "ConvertSToF" | "ConvertUToF" | "ConvertPtrToU"
            | "ConvertUToPtr" => {
                let a = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let cast = match name {
                    "ConvertFToU" => CastOp::FPToUI,
                    "ConvertFToS" => CastOp::FPToSI,
                    "ConvertSToF" => CastOp::SIToFP,
                    "ConvertUToF" => CastOp::UIToFP,
                    "ConvertPtrToU" => CastOp::PtrToInt,
                    _ => CastOp::IntToPtr,
                };
                let v = self.b.cast(cast, a, ty);
                self.set(op, v);
            }
            "FConvert" | "SConvert" | "UConvert" => {
                let a = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let (from, to) = (self.b.ty(a).bits(), ty.bits());
                let cast = match (name, from < to) {
                    ("FConvert", true) => CastOp::FPExt,
                    ("FConvert", false) => CastOp::FPTrunc,
                    ("SConvert", true) => CastOp::SExt,
                    ("UConvert", true) => CastOp::ZExt,
                    _ => CastOp::Trunc,
                };
                let v = if from == to {
                    a
                } else {
                    self.b.cast(cast, a, ty)
                };
                self.set(op, v);
            }
            "QuantizeToF16" => {
                let a = self.arg(op, 0)?;
                let ty = self.b.ty(a).clone();
                let half = self.b.cast(CastOp::FPTrunc, a, ty.with_scalar(LType::Half));
                let v = self.b.cast(CastOp::FPExt, half, ty);
                self.set(op, v);
            }
            "Bitcast" => {
                let a = self.arg(op, 0)?;
                let ty = self.res_ty(op)?;
                let from = self.b.ty(a).clone();
                let v = match (&from, &ty) {
                    (LType::Ptr(_), LType::Ptr(_)) => a,
                    (LType::Ptr(_), _) => self.b.cast(CastOp::PtrToInt, a, ty),
                    (_, LType::Ptr(_)) => self.b.cast(CastOp::IntToPtr, a, ty),
                    _ => self.b.cast(CastOp::Bitcast, a, ty),
                };
                self.set(op, v);
            }
            "CopyObject" => {
                let a = self.arg(op, 0)?;
                self.set(op, a);
            }
            "Undef" => {
                let ty = self.res_ty(op)?;
                let v = self.b.undef(ty);
                self.set(op, v);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether operand `i` has a signed integer type (`siN`).
    fn is_signed(&self, op: Op, i: usize) -> Result<bool, ConvertError> {
        let t = self.arg_ty(op, i)?;
        let s = self.m().types.scalar_of(t);
        Ok(matches!(
            self.m().types.kind(s),
            TypeKind::Int {
                signedness: Signedness::Signed,
                ..
            }
        ))
    }

    /// `v` extended or truncated to the integer width of `like`, broadcast
    /// to its lanes when `v` is a scalar and `like` a vector.
    pub(crate) fn fit_width(&mut self, v: LValue, like: &LType, signed: bool) -> LValue {
        let vty = self.b.ty(v).clone();
        let v = if like.lanes() > 1 && vty.lanes() == 1 {
            let vec = LType::vector(like.lanes(), vty.clone());
            self.b.splat(v, &vec)
        } else {
            v
        };
        let (from, to) = (vty.bits(), like.bits());
        let target = like.clone();
        if from < to {
            self.b
                .cast(if signed { CastOp::SExt } else { CastOp::ZExt }, v, target)
        } else if from > to {
            self.b.cast(CastOp::Trunc, v, target)
        } else {
            v
        }
    }

    /// In the kernel ABI, a divisor that cannot trap: 1 where `d` is 0 (or,
    /// signed, where `a / d` overflows).
    fn safe_divisor(&mut self, a: LValue, d: LValue, signed: bool) -> LValue {
        if !self.cx.kernel() {
            return d;
        }
        let ty = self.b.ty(d).clone();
        let zero = self.b.const_int(ty.clone(), 0);
        let one = self.b.const_int(ty.clone(), 1);
        let mut bad = self.b.icmp(IPred::Eq, d, zero);
        if signed {
            let bits = ty.bits();
            let min = self.b.const_int(ty.clone(), -(1i128 << (bits - 1)));
            let minus_one = self.b.const_int(ty, -1);
            let a_min = self.b.icmp(IPred::Eq, a, min);
            let d_m1 = self.b.icmp(IPred::Eq, d, minus_one);
            let overflow = self.b.bin(BinOp::And, a_min, d_m1);
            bad = self.b.bin(BinOp::Or, bad, overflow);
        }
        self.b.select(bad, one, d)
    }

    /// Folds the lanes of a vector with `op`, first to last; a scalar is
    /// its own fold.
    pub(crate) fn reduce(&mut self, v: LValue, op: BinOp) -> LValue {
        let n = self.b.ty(v).lanes();
        if !matches!(self.b.ty(v), LType::Vector(..)) {
            return v;
        }
        let i0 = self.b.i32(0);
        let mut acc = self.b.extract_element(v, i0);
        for lane in 1..n {
            let i = self.b.i32(i64::from(lane));
            let x = self.b.extract_element(v, i);
            acc = self.b.bin(op, acc, x);
        }
        acc
    }

    fn extended(&mut self, op: Op, name: &str) -> Result<(), ConvertError> {
        let a = self.arg(op, 0)?;
        let b = self.arg(op, 1)?;
        let res = self.res_ty(op)?;
        let ty = self.b.ty(a).clone();
        let (lo, hi) = match name {
            "IAddCarry" | "ISubBorrow" => {
                let (bin, pred) = if name == "IAddCarry" {
                    (BinOp::Add, None)
                } else {
                    (BinOp::Sub, Some(()))
                };
                let r = self.b.bin(bin, a, b);
                let flag = match pred {
                    None => self.b.icmp(IPred::Ult, r, a),
                    Some(()) => self.b.icmp(IPred::Ult, a, b),
                };
                let flag = self.b.cast(CastOp::ZExt, flag, ty.clone());
                (r, flag)
            }
            _ => {
                let bits = ty.bits();
                let wide = ty.with_scalar(LType::Int(bits * 2));
                let ext = if name == "SMulExtended" {
                    CastOp::SExt
                } else {
                    CastOp::ZExt
                };
                let wa = self.b.cast(ext, a, wide.clone());
                let wb = self.b.cast(ext, b, wide.clone());
                let p = self.b.bin(BinOp::Mul, wa, wb);
                let lo = self.b.cast(CastOp::Trunc, p, ty.clone());
                let sh = self.b.const_int(wide, i128::from(bits));
                let h = self.b.bin(BinOp::LShr, p, sh);
                let hi = self.b.cast(CastOp::Trunc, h, ty.clone());
                (lo, hi)
            }
        };
        let s = self.b.undef(res);
        let s = self.b.insert_value(s, lo, vec![0]);
        let s = self.b.insert_value(s, hi, vec![1]);
        self.set(op, s);
        Ok(())
    }

    /// The seed's bitfield patterns.
    fn bitfield(&mut self, op: Op, name: &str) -> Result<(), ConvertError> {
        let base = self.arg(op, 0)?;
        let ty = self.b.ty(base).clone();
        let (insert, offset_at) = if name == "BitFieldInsert" {
            (Some(self.arg(op, 1)?), 2)
        } else {
            (None, 1)
        };
        let offset = self.arg(op, offset_at)?;
        let count = self.arg(op, offset_at + 1)?;
        // Offset and count are unsigned: zero-extended (or truncated) and
        // broadcast to the base's shape.
        let offset = self.fit_width(offset, &ty, false);
        let count = self.fit_width(count, &ty, false);
        let minus_one = self.b.const_int(ty.clone(), -1);
        let v = match (name, insert) {
            ("BitFieldInsert", Some(insert)) => {
                let t0 = self.b.bin(BinOp::Shl, minus_one, count);
                let t1 = self.b.bin(BinOp::Xor, t0, minus_one);
                let t2 = self.b.bin(BinOp::Shl, t1, offset);
                let mask = self.b.bin(BinOp::Xor, t2, minus_one);
                let kept = self.b.bin(BinOp::And, base, mask);
                let shifted = self.b.bin(BinOp::Shl, insert, offset);
                self.b.bin(BinOp::Or, kept, shifted)
            }
            ("BitFieldSExtract", _) => {
                let size = self.b.const_int(ty.clone(), i128::from(ty.bits()));
                let t0 = self.b.bin(BinOp::Add, count, offset);
                let t1 = self.b.bin(BinOp::Sub, size, t0);
                let left = self.b.bin(BinOp::Shl, base, t1);
                let t2 = self.b.bin(BinOp::Add, offset, t1);
                self.b.bin(BinOp::AShr, left, t2)
            }
            _ => {
                let t0 = self.b.bin(BinOp::Shl, minus_one, count);
                let mask = self.b.bin(BinOp::Xor, t0, minus_one);
                let shifted = self.b.bin(BinOp::LShr, base, offset);
                self.b.bin(BinOp::And, shifted, mask)
            }
        };
        self.set(op, v);
        Ok(())
    }
}

/// Ops that are one LLVM binary instruction.
fn binary_op(name: &str) -> Option<BinOp> {
    Some(match name {
        "IAdd" => BinOp::Add,
        "ISub" => BinOp::Sub,
        "IMul" => BinOp::Mul,
        "UDiv" => BinOp::UDiv,
        "SDiv" => BinOp::SDiv,
        "UMod" => BinOp::URem,
        "SRem" => BinOp::SRem,
        "FAdd" => BinOp::FAdd,
        "FSub" => BinOp::FSub,
        "FMul" => BinOp::FMul,
        "FDiv" => BinOp::FDiv,
        "FRem" => BinOp::FRem,
        "BitwiseAnd" => BinOp::And,
        "BitwiseOr" => BinOp::Or,
        "BitwiseXor" => BinOp::Xor,
        _ => return None,
    })
}

/// Integer comparisons.
fn icmp_pred(name: &str) -> Option<IPred> {
    Some(match name {
        "IEqual" => IPred::Eq,
        "INotEqual" => IPred::Ne,
        "SGreaterThan" => IPred::Sgt,
        "SGreaterThanEqual" => IPred::Sge,
        "SLessThan" => IPred::Slt,
        "SLessThanEqual" => IPred::Sle,
        "UGreaterThan" => IPred::Ugt,
        "UGreaterThanEqual" => IPred::Uge,
        "ULessThan" => IPred::Ult,
        "ULessThanEqual" => IPred::Ule,
        _ => return None,
    })
}

/// Float comparisons.
fn fcmp_pred(name: &str) -> Option<FPred> {
    Some(match name {
        "FOrdEqual" => FPred::Oeq,
        "FOrdGreaterThan" => FPred::Ogt,
        "FOrdGreaterThanEqual" => FPred::Oge,
        "FOrdLessThan" => FPred::Olt,
        "FOrdLessThanEqual" => FPred::Ole,
        "FOrdNotEqual" => FPred::One,
        "FUnordEqual" => FPred::Ueq,
        "FUnordGreaterThan" => FPred::Ugt,
        "FUnordGreaterThanEqual" => FPred::Uge,
        "FUnordLessThan" => FPred::Ult,
        "FUnordLessThanEqual" => FPred::Ule,
        "FUnordNotEqual" => FPred::Une,
        _ => return None,
    })
}
