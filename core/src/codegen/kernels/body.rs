//! Scalar `arith` and `math` ops of the tensor IR as kernel ops, on
//! compute types: f16/bf16 results are rounded to their format after every
//! op, casts between float formats are roundings, and `bitcast`s of
//! f16/bf16 go through their bits.

use crate::kernel::ops::ROUND_TO_ODD_ATTR;
use crate::kernel::KValue;
use crate::kernel::{FloatTy, KAttr, KOpKind, KType};
use crate::tensor::attr::{CmpFPred, CmpIPred};
use crate::tensor::ops::{ArithOp, MathOp, OpKind};
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::error::CodegenError;
use super::emitter::Emitter;

fn is_half(e: ElemType) -> bool {
    matches!(e, ElemType::F16 | ElemType::BF16)
}

impl Emitter<'_, '_, '_> {
    /// Emits scalar op `kind` on `args` (compute types of `arg_elem`,
    /// the element type of the first operand — the second for `select`)
    /// giving `res_elem`; `op` names the op in errors.
    pub fn scalar_op(
        &mut self,
        op: TOp,
        kind: &OpKind,
        args: &[KValue],
        arg_elem: ElemType,
        res_elem: ElemType,
    ) -> Result<KValue, CodegenError> {
        // The kernel ops carry the body op's location, so that an error of
        // the lowering to SPIR-V names its line (not `<unknown>`).
        self.b.set_location(self.c.info.m.op(op).loc);
        let r = match kind {
            OpKind::Arith { op: a, .. } => self.arith(op, *a, args, arg_elem, res_elem),
            OpKind::Math { op: m, .. } => self.math(op, *m, args, res_elem),
            OpKind::OptimizationBarrier => Ok(args[0]),
            other => Err(self.unsupported(op, format!("'{}' in a kernel body", other.name()))),
        };
        self.b.set_location(self.loc);
        r
    }

    /// A binary arith op the combiners use (`addf`, `maxsi`, ...).
    pub fn combine(&mut self, a: ArithOp, x: KValue, y: KValue, elem: ElemType) -> KValue {
        if self.is_pair(elem) {
            // Every combining op is emulated on pairs.
            if let Ok(v) = self.pair_arith(self.loc, a, &[x, y], elem, elem) {
                return v;
            }
        }
        let k = arith_kop(a).unwrap_or(KOpKind::ArithAddF);
        let v = self.b.binary(k, x, y);
        self.round(v, elem)
    }

    fn arith(
        &mut self,
        op: TOp,
        a: ArithOp,
        args: &[KValue],
        arg_elem: ElemType,
        res_elem: ElemType,
    ) -> Result<KValue, CodegenError> {
        use ArithOp::*;
        let pair_arg = self.is_pair(arg_elem) && !matches!(a, Select);
        if pair_arg || self.is_pair(res_elem) {
            let loc = self.c.info.m.op(op).loc;
            return self.pair_arith(loc, a, args, arg_elem, res_elem);
        }
        if let Some(v) = self.wide_index_arith(a, args, arg_elem, res_elem) {
            return Ok(v);
        }
        let res_ty = self.compute_type(res_elem);
        Ok(match a {
            NegF => {
                let v = self.b.negf(args[0]);
                self.round(v, res_elem)
            }
            CmpI(p) => self.b.cmpi(cmpi_name(p), args[0], args[1]),
            CmpF(p) => self.b.cmpf(cmpf_name(p), args[0], args[1]),
            Select => self.b.select(args[0], args[1], args[2]),
            ExtSI => self.b.cast(KOpKind::ArithExtSI, args[0], res_ty),
            ExtUI => match self.ext_from_word(args[0], &res_ty) {
                Some(v) => v,
                None => self.b.cast(KOpKind::ArithExtUI, args[0], res_ty),
            },
            TruncI => self.b.cast(KOpKind::ArithTruncI, args[0], res_ty),
            IndexCast | IndexCastUI => {
                let k = if a == IndexCast {
                    KOpKind::ArithIndexCast
                } else {
                    KOpKind::ArithIndexCastUI
                };
                let v = self.b.cast(k, args[0], res_ty.clone());
                // A narrow integer from an index (a shift amount of a
                // body's unpacking): its bits are the low ones of the
                // index's 32-bit form (`narrow.rs`).
                if let KType::Int(w @ 1..=31) = res_ty {
                    if self.wide_reads {
                        let word = self.b.cast(k, args[0], KType::i32());
                        self.note_in_word(v, word, w);
                    }
                }
                v
            }
            ExtF | TruncF => {
                let from = self.compute_type(arg_elem);
                let v = if from == res_ty {
                    args[0]
                } else if matches!(res_ty, KType::Float(FloatTy::F64)) {
                    self.b.cast(KOpKind::ArithExtF, args[0], res_ty)
                } else {
                    self.b.cast(KOpKind::ArithTruncF, args[0], res_ty)
                };
                self.round(v, res_elem)
            }
            SIToFP | UIToFP => {
                let k = if a == SIToFP {
                    KOpKind::ArithSIToFP
                } else {
                    KOpKind::ArithUIToFP
                };
                let v = self.b.cast(k, args[0], res_ty);
                self.round(v, res_elem)
            }
            FPToSI | FPToUI => {
                let k = if a == FPToSI {
                    KOpKind::ArithFPToSI
                } else {
                    KOpKind::ArithFPToUI
                };
                self.b.cast(k, args[0], res_ty)
            }
            Bitcast => self.bitcast(args[0], arg_elem, res_elem),
            RemF => {
                let v = self.fmod(args[0], args[1], res_elem)?;
                self.round(v, res_elem)
            }
            _ => {
                let k = arith_kop(a).ok_or_else(|| {
                    self.unsupported(op, format!("no kernel form of {}", a.name()))
                })?;
                let v = self.b.binary(k, args[0], args[1]);
                if let KType::Int(w) = res_ty {
                    self.track_in_word(a, args, v, w);
                }
                if is_half(res_elem) {
                    self.round(v, res_elem)
                } else {
                    v
                }
            }
        })
    }

    /// `arith.remf`, C's `fmod`, exactly: SPIR-V's `OpFRem` is
    /// `x - y * trunc(x / y)` within Vulkan's precision (lavapipe gives
    /// -inf for fmod(FLT_MAX, 1.5)) and undefined for an infinite divisor.
    /// Binary long division on the magnitudes, every step exact: double
    /// `t = |y|` while `2t <= |x|` (at most the exponent range of `elem`
    /// times), then for each `t` down to `|y|` subtract it when it fits
    /// (Sterbenz: `t <= r < 2t` makes `r - t` exact) and halve it. The
    /// remainder takes the sign of `x`; `|x| < |y|` (an infinite `y`
    /// too) gives `x` itself; an infinite `x`, a zero `y` or a NaN give NaN.
    fn fmod(&mut self, x: KValue, y: KValue, elem: ElemType) -> Result<KValue, CodegenError> {
        // Exponent range in steps: largest exponent - smallest denormal's.
        let steps = match elem {
            ElemType::F16 => 15 + 24 + 2,
            ElemType::F64 => 1023 + 1074 + 2,
            _ => 127 + 149 + 2,
        };
        let ty = self.b.type_of(x);
        let ax = self.b.unary(KOpKind::MathAbsF, x);
        let ay = self.b.unary(KOpKind::MathAbsF, y);
        let (lb, ub, step) = (self.index(0), self.index(steps), self.index(1));
        let two = self.b.const_float(2.0, ty.clone());
        let half = self.b.const_float(0.5, ty.clone());
        let t = self.for_(lb, ub, step, &[ay], |e, _, v| {
            let t2 = e.b.binary(KOpKind::ArithMulF, v[0], two);
            let fits = e.b.cmpf("ole", t2, ax);
            Ok(vec![e.b.select(fits, t2, v[0])])
        })?[0];
        let r = self.for_(lb, ub, step, &[ax, t], |e, _, v| {
            let (r, t) = (v[0], v[1]);
            let fits = e.b.cmpf("oge", r, t);
            let d = e.b.binary(KOpKind::ArithSubF, r, t);
            let r = e.b.select(fits, d, r);
            let above = e.b.cmpf("ogt", t, ay);
            let th = e.b.binary(KOpKind::ArithMulF, t, half);
            let t = e.b.select(above, th, t);
            Ok(vec![r, t])
        })?[0];
        let zero = self.b.const_float(0.0, ty.clone());
        let neg = self.b.cmpf("olt", x, zero);
        let nr = self.b.negf(r);
        let r = self.b.select(neg, nr, r);
        let small = self.b.cmpf("olt", ax, ay);
        let r = self.b.select(small, x, r);
        let inf = self.b.const_float(f64::INFINITY, ty.clone());
        let x_inf = self.b.cmpf("oeq", ax, inf);
        let y_zero = self.b.cmpf("oeq", ay, zero);
        let nan_in = self.b.cmpf("uno", x, y);
        let bad = self.b.ori(x_inf, y_zero);
        let bad = self.b.ori(bad, nan_in);
        let nan = self.b.const_float(f64::NAN, ty);
        Ok(self.b.select(bad, nan, r))
    }

    fn bitcast(&mut self, x: KValue, from: ElemType, to: ElemType) -> KValue {
        // Bits of the source as an integer of its width.
        let bits = match from {
            ElemType::F16 | ElemType::BF16 => self.bits_of_half(x, from),
            ElemType::F32 => self.b.cast(KOpKind::ArithBitcast, x, KType::i32()),
            ElemType::F64 => self.b.cast(KOpKind::ArithBitcast, x, KType::Int(64)),
            _ => x,
        };
        match to {
            ElemType::F16 | ElemType::BF16 => self.half_of_bits(bits, to),
            ElemType::F32 => self.b.cast(KOpKind::ArithBitcast, bits, KType::f32()),
            ElemType::F64 => self
                .b
                .cast(KOpKind::ArithBitcast, bits, KType::Float(FloatTy::F64)),
            _ => bits,
        }
    }

    /// The `i16` bits of an f16/bf16 compute value.
    fn bits_of_half(&mut self, x: KValue, elem: ElemType) -> KValue {
        let m = self.store_conv(x, elem);
        if matches!(self.b.type_of(m), KType::Float(_)) {
            self.b.cast(KOpKind::ArithBitcast, m, KType::Int(16))
        } else {
            m
        }
    }

    /// The f16/bf16 compute value of `i16` bits.
    fn half_of_bits(&mut self, bits: KValue, elem: ElemType) -> KValue {
        let mem = self.memory_type(elem);
        let m = if matches!(mem, KType::Float(_)) {
            self.b.cast(KOpKind::ArithBitcast, bits, mem)
        } else {
            bits
        };
        self.load_conv(m, elem)
    }

    fn math(
        &mut self,
        op: TOp,
        m: MathOp,
        args: &[KValue],
        res_elem: ElemType,
    ) -> Result<KValue, CodegenError> {
        use MathOp::*;
        if m == AbsI && self.is_pair(res_elem) {
            // Not the op on the vector of words: |lo| and |hi| apart is
            // 2^32 too large for a negative value.
            return Ok(self.pair_abs(args[0]).0);
        }
        if matches!(m, Ctlz | Cttz | Ctpop) && self.is_pair(res_elem) {
            let kind = match m {
                Ctlz => KOpKind::MathCtlz,
                Cttz => KOpKind::MathCttz,
                _ => KOpKind::MathCtpop,
            };
            return Ok(self.pair_bit_count(kind, args[0]));
        }
        let k = match m {
            AbsF => KOpKind::MathAbsF,
            AbsI => KOpKind::MathAbsI,
            Acos => KOpKind::MathAcos,
            Asin => KOpKind::MathAsin,
            Atan => KOpKind::MathAtan,
            Atan2 => KOpKind::MathAtan2,
            Ceil => KOpKind::MathCeil,
            CopySign => KOpKind::MathCopySign,
            Cos => KOpKind::MathCos,
            Cosh => KOpKind::MathCosh,
            Ctlz => KOpKind::MathCtlz,
            Cttz => KOpKind::MathCttz,
            Ctpop => KOpKind::MathCtpop,
            Erf => KOpKind::MathErf,
            Exp => KOpKind::MathExp,
            Exp2 => KOpKind::MathExp2,
            ExpM1 => KOpKind::MathExpM1,
            Floor => KOpKind::MathFloor,
            Fma => KOpKind::MathFma,
            Log => KOpKind::MathLog,
            Log10 => KOpKind::MathLog10,
            Log1p => KOpKind::MathLog1p,
            Log2 => KOpKind::MathLog2,
            PowF => KOpKind::MathPowF,
            Round => KOpKind::MathRound,
            RoundEven => KOpKind::MathRoundEven,
            Rsqrt => KOpKind::MathRsqrt,
            Sin => KOpKind::MathSin,
            Sinh => KOpKind::MathSinh,
            Sqrt => KOpKind::MathSqrt,
            Tan => KOpKind::MathTan,
            Tanh => KOpKind::MathTanh,
            Trunc => KOpKind::MathTrunc,
            Acosh => KOpKind::MathAcosh,
            Asinh => KOpKind::MathAsinh,
            Atanh => KOpKind::MathAtanh,
            FPowI => return self.fpowi(op, args, res_elem),
            Cbrt | IPowI => return Err(self.unsupported(op, "has no GPU lowering in kiln yet")),
        };
        if res_elem == ElemType::F64 && glsl_32bit_only(m) {
            return Err(self.unsupported(op, F64_REFUSAL));
        }
        let ty = self.compute_type(res_elem);
        // An f16/bf16 fma computed in f32 and rounded to the format after
        // would round twice: ask the lowering for the sum rounded to odd.
        let attrs = if m == Fma && is_half(res_elem) {
            vec![(ROUND_TO_ODD_ATTR.to_owned(), KAttr::Unit)]
        } else {
            Vec::new()
        };
        let v = self.b.op(k, args, &[ty], attrs);
        let v = self.b.module().op(v).results[0];
        Ok(self.round(v, res_elem))
    }
}

impl Emitter<'_, '_, '_> {
    /// `math.fpowi %x, %n`: `powf(|x|, n)` on `n` converted to the float
    /// type, with `x`'s sign when `n` is odd. The parity is read from the
    /// integer's low bits, so it is exact for every `n` (a float `n` would
    /// round odd exponents above 2^24 to even ones); the sign comes from
    /// `copysign`, so `(-0)^3` is -0 and `(-0)^-1` is -inf; `x^0` is 1 and
    /// `0^n` for negative `n` is inf whatever GLSL's `Pow` gives.
    fn fpowi(
        &mut self,
        op: TOp,
        args: &[KValue],
        res_elem: ElemType,
    ) -> Result<KValue, CodegenError> {
        let m = self.c.info.m;
        let Some(n_elem) = m.op(op).operands.get(1).map(|&v| m.value_kind(v).elem()) else {
            return Err(self.unsupported(op, "needs two operands"));
        };
        let (x, n) = (args[0], args[1]);
        let nf = self.arith(op, ArithOp::SIToFP, &[n], n_elem, res_elem)?;
        let ax = self.math(op, MathOp::AbsF, &[x], res_elem)?;
        let p = self.math(op, MathOp::PowF, &[ax, nf], res_elem)?;
        // 0^n for n < 0 is inf (GLSL's Pow leaves it undefined; lavapipe
        // gives 0).
        let f_ty = self.b.type_of(nf);
        let fzero = self.b.const_float(0.0, f_ty.clone());
        let inf = self.b.const_float(f64::INFINITY, f_ty.clone());
        let cmp = |e: &mut Self, pred: CmpFPred, a: KValue, b: KValue| {
            e.arith(op, ArithOp::CmpF(pred), &[a, b], res_elem, ElemType::I1)
        };
        let zero_base = cmp(self, CmpFPred::Oeq, ax, fzero)?;
        let neg_n = cmp(self, CmpFPred::Olt, nf, fzero)?;
        let pole = self.arith(
            op,
            ArithOp::AndI,
            &[zero_base, neg_n],
            ElemType::I1,
            ElemType::I1,
        )?;
        let p = self.arith(op, ArithOp::Select, &[pole, inf, p], res_elem, res_elem)?;
        let signed = self.math(op, MathOp::CopySign, &[p, x], res_elem)?;
        let n32 = match n_elem.bits() {
            32 => n,
            b if b > 32 => self.arith(op, ArithOp::TruncI, &[n], n_elem, ElemType::I32)?,
            _ => self.arith(op, ArithOp::ExtSI, &[n], n_elem, ElemType::I32)?,
        };
        let i32_ty = self.compute_type(ElemType::I32);
        let one = self.b.const_int(1, i32_ty.clone());
        let zero = self.b.const_int(0, i32_ty);
        let low = self.arith(op, ArithOp::AndI, &[n32, one], ElemType::I32, ElemType::I32)?;
        let odd = self.arith(
            op,
            ArithOp::CmpI(CmpIPred::Ne),
            &[low, zero],
            ElemType::I32,
            ElemType::I1,
        )?;
        let r = self.arith(op, ArithOp::Select, &[odd, signed, p], res_elem, res_elem)?;
        // x^0 is 1 for every x (NaN too); GLSL's Pow leaves 0^0 and
        // inf^0 undefined. A nonzero integer converts to a nonzero float.
        let fone = self.b.const_float(1.0, f_ty);
        let n_zero = cmp(self, CmpFPred::Oeq, nf, fzero)?;
        self.arith(op, ArithOp::Select, &[n_zero, fone, r], res_elem, res_elem)
    }
}

/// Why f64 transcendental functions are refused.
const F64_REFUSAL: &str = "on f64 is refused: GLSL.std.450 defines it for 16- and 32-bit floats \
     only, and kiln has no f64-accurate lowering (computing it in f32 would give f32 accuracy)";

/// Whether `m` lowers through a GLSL.std.450 instruction defined for 16-
/// and 32-bit floats only (the trigonometric and hyperbolic functions;
/// `erf` uses Exp). exp, exp2, expm1, log, log2, log10, log1p, powf and
/// tanh have f64 expansions of their own (`lower::libm`).
fn glsl_32bit_only(m: MathOp) -> bool {
    use MathOp::*;
    matches!(
        m,
        Sin | Cos | Tan | Asin | Acos | Atan | Atan2 | Sinh | Cosh | Asinh | Acosh | Atanh | Erf
    )
}

fn arith_kop(a: ArithOp) -> Option<KOpKind> {
    use ArithOp::*;
    Some(match a {
        AddF => KOpKind::ArithAddF,
        SubF => KOpKind::ArithSubF,
        MulF => KOpKind::ArithMulF,
        DivF => KOpKind::ArithDivF,
        RemF => KOpKind::ArithRemF,
        MaximumF => KOpKind::ArithMaximumF,
        MinimumF => KOpKind::ArithMinimumF,
        MaxNumF => KOpKind::ArithMaxNumF,
        MinNumF => KOpKind::ArithMinNumF,
        AddI => KOpKind::ArithAddI,
        SubI => KOpKind::ArithSubI,
        MulI => KOpKind::ArithMulI,
        DivSI => KOpKind::ArithDivSI,
        DivUI => KOpKind::ArithDivUI,
        CeilDivSI => KOpKind::ArithCeilDivSI,
        CeilDivUI => KOpKind::ArithCeilDivUI,
        FloorDivSI => KOpKind::ArithFloorDivSI,
        RemSI => KOpKind::ArithRemSI,
        RemUI => KOpKind::ArithRemUI,
        AndI => KOpKind::ArithAndI,
        OrI => KOpKind::ArithOrI,
        XOrI => KOpKind::ArithXOrI,
        ShLI => KOpKind::ArithShLI,
        ShRSI => KOpKind::ArithShRSI,
        ShRUI => KOpKind::ArithShRUI,
        MaxSI => KOpKind::ArithMaxSI,
        MaxUI => KOpKind::ArithMaxUI,
        MinSI => KOpKind::ArithMinSI,
        MinUI => KOpKind::ArithMinUI,
        _ => return None,
    })
}

fn cmpi_name(p: CmpIPred) -> &'static str {
    p.name()
}

fn cmpf_name(p: CmpFPred) -> &'static str {
    p.name()
}
