//! Scalar semantics of `arith` and `math`, exactly as MLIR defines them.
//!
//! * Integers wrap at their width (two's complement); `index` is 64-bit.
//!   `divsi`/`remsi` truncate toward zero, `floordivsi`/`ceildivsi` round
//!   toward -inf/+inf, `divui`/`remui` are unsigned. Division by zero and the
//!   signed overflow `MIN / -1` are undefined in MLIR: they are errors
//!   here. Shifts by the bit width or more (poison in MLIR) give kiln's
//!   one definition on every backend: 0 for `shli`/`shrui`, the sign fill
//!   for `shrsi`, the amount read unsigned.
//! * `f32` ops compute in `f32`; `f16` and `bf16` compute in `f32` and
//!   round (to nearest even) to their format after every op, which for
//!   `+ - * /` and `sqrt` is exactly the IEEE result in the narrow format;
//!   `f64` computes in `f64`. Transcendental functions are Rust's (`std`,
//!   the platform libm; `erf` from the `libm` crate) in the operation's
//!   format (`f32` for f16/bf16); `math.fma` on f16/bf16 is rounded once
//!   (computed exactly, rounded to odd in f64, then to the format).
//! * `maximumf`/`minimumf` propagate NaN and order -0 < +0;
//!   `maxnumf`/`minnumf` return the other operand when one is NaN (and
//!   +0 / -0 for equal zeros).
//! * `fptosi`/`fptoui` truncate toward zero and saturate at the target's
//!   range (NaN gives 0): MLIR leaves out-of-range results undefined.
//! * `math.round` rounds half away from zero, `roundeven` half to even.

use super::value::{unsigned, wrap, Scalar};
use crate::host::eval::{maximum, minimum};
use crate::ir::FloatKind;
use crate::tensor::attr::{CmpFPred, CmpIPred};
use crate::tensor::ops::{ArithOp, MathOp};
use crate::tensor::types::ElemType;
use crate::text::float::round_to;

/// Rounds `v` to the format of `elem`.
pub fn round(elem: ElemType, v: f64) -> f64 {
    match elem {
        ElemType::F32 => f64::from(v as f32),
        ElemType::F16 => round_to(FloatKind::F16, v),
        ElemType::BF16 => round_to(FloatKind::BF16, v),
        _ => v,
    }
}

/// A float op computed in `f32` (narrow formats rounded after) or `f64`.
fn float_op(
    elem: ElemType,
    args: &[f64],
    f32op: impl Fn(&[f32]) -> f32,
    f64op: impl Fn(&[f64]) -> f64,
) -> Scalar {
    let v = if elem == ElemType::F64 {
        f64op(args)
    } else {
        let mut a = [0f32; 3];
        for (d, &x) in a.iter_mut().zip(args) {
            *d = x as f32;
        }
        f64::from(f32op(&a[..args.len()]))
    };
    Scalar::Float(round(elem, v))
}

/// `a * b + c` rounded once to f16 or bf16 (`elem`), for values of that
/// format. Their product is exact in f64 (at most 22 significant bits,
/// exponents far inside f64's), and so is the sum `s` with its error `e`
/// (TwoSum). `s` rounded to odd (moved one ulp toward `e` where `e != 0`
/// and its last bit is 0) then rounded to nearest in the narrow format is
/// the exact sum rounded once: 53 bits >= the format's 11 + 2 (Boldo and
/// Melquiond, rounding to odd). An `f32` fma rounded again (what the
/// other ops' `f32` computation would give) rounds twice.
fn fma_narrow(elem: ElemType, a: f64, b: f64, c: f64) -> f64 {
    let p = a * b;
    let s = p + c;
    if !s.is_finite() {
        return round(elem, s);
    }
    let bb = s - p;
    let e = (p - (s - bb)) + (c - bb);
    let bits = s.to_bits();
    let odd = if e != 0.0 && bits & 1 == 0 {
        // s is not 0 (an exact sum of 0 has no error): step its magnitude.
        f64::from_bits(if (e > 0.0) == (s > 0.0) {
            bits + 1
        } else {
            bits - 1
        })
    } else {
        s
    };
    round(elem, odd)
}

/// maxNum: the non-NaN operand; +0 for equal zeros.
fn maxnum(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else {
        maximum(x, y)
    }
}

/// minNum: the non-NaN operand; -0 for equal zeros.
fn minnum(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() {
        x
    } else {
        minimum(x, y)
    }
}

/// Converts a float to an integer of `to`, truncating and saturating.
fn float_to_int(v: f64, to: ElemType, signed: bool) -> i64 {
    if v.is_nan() {
        return 0;
    }
    let w = to.bits();
    let t = v.trunc();
    if signed {
        let (lo, hi) = if w >= 64 {
            (i64::MIN as f64, i64::MAX as f64)
        } else {
            (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1) - 1.0)
        };
        wrap(to, t.clamp(lo, hi) as i64)
    } else {
        let hi = if w >= 64 {
            u64::MAX as f64
        } else {
            2f64.powi(w as i32) - 1.0
        };
        let u = t.clamp(0.0, hi) as u64;
        wrap(to, u as i64)
    }
}

/// An integer converted to the float format `to` (rounded once for f32
/// and f64).
fn int_to_float(v: i64, unsigned_value: Option<u64>, to: ElemType) -> f64 {
    match (to, unsigned_value) {
        (ElemType::F64, None) => v as f64,
        (ElemType::F64, Some(u)) => u as f64,
        (_, None) => round(to, f64::from(v as f32)),
        (_, Some(u)) => round(to, f64::from(u as f32)),
    }
}

/// The bits of a float of `elem`.
fn float_bits(elem: ElemType, v: f64) -> u64 {
    match elem.float_kind() {
        Some(FloatKind::F64) => v.to_bits(),
        Some(kind) => crate::text::float::from_f64_bits(kind, v.to_bits()),
        None => 0,
    }
}

/// The float of `elem` with `bits`.
fn float_from_bits(elem: ElemType, bits: u64) -> f64 {
    match elem.float_kind() {
        Some(FloatKind::F64) => f64::from_bits(bits),
        Some(kind) => f64::from_bits(crate::text::float::to_f64_bits(kind, bits)),
        None => 0.0,
    }
}

/// A scalar op with no defined result for its operands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScalarError {
    /// An integer division or remainder by zero.
    #[error("{}: division by zero", .op.name())]
    DivisionByZero {
        /// The op.
        op: ArithOp,
    },
    /// The signed division of the type's minimum by -1.
    #[error("{}: signed division overflow ({dividend} / -1)", .op.name())]
    SignedDivisionOverflow {
        /// The op.
        op: ArithOp,
        /// The dividend (the type's minimum).
        dividend: i64,
    },
    /// `math.ipowi` of zero to a negative power.
    #[error("math.ipowi: zero to a negative power")]
    ZeroToNegativePower,
}

/// Evaluates `arith` op `op` on scalar `args` of type `arg_elem` giving a
/// result of type `res_elem`.
pub fn arith(
    op: ArithOp,
    args: &[Scalar],
    arg_elem: ElemType,
    res_elem: ElemType,
) -> Result<Scalar, ScalarError> {
    use ArithOp::*;
    let e = arg_elem;
    let i = |k: usize| args[k].int();
    let u = |k: usize| unsigned(e, args[k].int());
    let f = |k: usize| args[k].float();
    let int = |v: i64| Ok(Scalar::Int(wrap(res_elem, v)));
    let fl = |g32: fn(f32, f32) -> f32, g64: fn(f64, f64) -> f64| {
        Ok(float_op(
            e,
            &[f(0), f(1)],
            |a| g32(a[0], a[1]),
            |a| g64(a[0], a[1]),
        ))
    };
    match op {
        AddF => fl(|a, b| a + b, |a, b| a + b),
        SubF => fl(|a, b| a - b, |a, b| a - b),
        MulF => fl(|a, b| a * b, |a, b| a * b),
        DivF => fl(|a, b| a / b, |a, b| a / b),
        RemF => fl(|a, b| a % b, |a, b| a % b),
        NegF => Ok(Scalar::Float(-f(0))),
        MaximumF => Ok(Scalar::Float(maximum(f(0), f(1)))),
        MinimumF => Ok(Scalar::Float(minimum(f(0), f(1)))),
        MaxNumF => Ok(Scalar::Float(maxnum(f(0), f(1)))),
        MinNumF => Ok(Scalar::Float(minnum(f(0), f(1)))),
        AddI => int(i(0).wrapping_add(i(1))),
        SubI => int(i(0).wrapping_sub(i(1))),
        MulI => int(i(0).wrapping_mul(i(1))),
        DivSI | RemSI | FloorDivSI | CeilDivSI => {
            let (a, b) = (i(0), i(1));
            if b == 0 {
                return Err(ScalarError::DivisionByZero { op });
            }
            let min = wrap(e, i64::MIN >> (64 - e.bits().min(64)));
            if a == min && b == -1 && op != RemSI {
                return Err(ScalarError::SignedDivisionOverflow { op, dividend: a });
            }
            let q = a.wrapping_div(b);
            let r = a.wrapping_rem(b);
            int(match op {
                DivSI => q,
                RemSI => r,
                FloorDivSI if r != 0 && ((r < 0) != (b < 0)) => q - 1,
                CeilDivSI if r != 0 && ((r < 0) == (b < 0)) => q + 1,
                _ => q,
            })
        }
        DivUI | RemUI | CeilDivUI => {
            let (a, b) = (u(0), u(1));
            if b == 0 {
                return Err(ScalarError::DivisionByZero { op });
            }
            int(match op {
                DivUI => a / b,
                RemUI => a % b,
                _ => a.div_ceil(b),
            } as i64)
        }
        AndI => int(i(0) & i(1)),
        OrI => int(i(0) | i(1)),
        XOrI => int(i(0) ^ i(1)),
        ShLI | ShRSI | ShRUI => {
            let s = u(1);
            // Poison in MLIR; kiln defines it as numpy does (and as its
            // kernels compute it, `lower/arith.rs::shift`): 0, or the
            // sign fill for `shrsi`.
            if s >= u64::from(e.bits()) {
                return int(match op {
                    ShRSI if i(0) < 0 => -1,
                    _ => 0,
                });
            }
            int(match op {
                ShLI => i(0).wrapping_shl(s as u32),
                ShRSI => i(0) >> s,
                _ => (u(0) >> s) as i64,
            })
        }
        MaxSI => int(i(0).max(i(1))),
        MinSI => int(i(0).min(i(1))),
        MaxUI => int(u(0).max(u(1)) as i64),
        MinUI => int(u(0).min(u(1)) as i64),
        CmpI(p) => {
            let (a, b, ua, ub) = (i(0), i(1), u(0), u(1));
            let r = match p {
                CmpIPred::Eq => a == b,
                CmpIPred::Ne => a != b,
                CmpIPred::Slt => a < b,
                CmpIPred::Sle => a <= b,
                CmpIPred::Sgt => a > b,
                CmpIPred::Sge => a >= b,
                CmpIPred::Ult => ua < ub,
                CmpIPred::Ule => ua <= ub,
                CmpIPred::Ugt => ua > ub,
                CmpIPred::Uge => ua >= ub,
            };
            Ok(bool_(r))
        }
        CmpF(p) => Ok(bool_(cmpf(p, f(0), f(1)))),
        Select => Ok(if i(0) & 1 != 0 { args[1] } else { args[2] }),
        ExtSI | TruncI | IndexCast => int(i(0)),
        ExtUI | IndexCastUI => int(u(0) as i64),
        ExtF | TruncF => Ok(Scalar::Float(round(res_elem, f(0)))),
        SIToFP => Ok(Scalar::Float(int_to_float(i(0), None, res_elem))),
        UIToFP => Ok(Scalar::Float(int_to_float(0, Some(u(0)), res_elem))),
        FPToSI => Ok(Scalar::Int(float_to_int(f(0), res_elem, true))),
        FPToUI => Ok(Scalar::Int(float_to_int(f(0), res_elem, false))),
        Bitcast => {
            let bits = match args[0] {
                Scalar::Float(v) => float_bits(e, v),
                Scalar::Int(v) => unsigned(e, v),
            };
            Ok(if res_elem.is_float() {
                Scalar::Float(float_from_bits(res_elem, bits))
            } else {
                Scalar::Int(wrap(res_elem, bits as i64))
            })
        }
    }
}

fn bool_(b: bool) -> Scalar {
    Scalar::Int(if b { -1 } else { 0 })
}

fn cmpf(p: CmpFPred, a: f64, b: f64) -> bool {
    let uno = a.is_nan() || b.is_nan();
    match p {
        CmpFPred::False => false,
        CmpFPred::True => true,
        CmpFPred::Ord => !uno,
        CmpFPred::Uno => uno,
        CmpFPred::Oeq => !uno && a == b,
        CmpFPred::Ogt => !uno && a > b,
        CmpFPred::Oge => !uno && a >= b,
        CmpFPred::Olt => !uno && a < b,
        CmpFPred::Ole => !uno && a <= b,
        CmpFPred::One => !uno && a != b,
        CmpFPred::Ueq => uno || a == b,
        CmpFPred::Ugt => uno || a > b,
        CmpFPred::Uge => uno || a >= b,
        CmpFPred::Ult => uno || a < b,
        CmpFPred::Ule => uno || a <= b,
        CmpFPred::Une => uno || a != b,
    }
}

/// Evaluates `math` op `op` on scalars of type `elem`.
pub fn math(op: MathOp, args: &[Scalar], elem: ElemType) -> Result<Scalar, ScalarError> {
    use MathOp::*;
    let f = |k: usize| args[k].float();
    let un = |g32: fn(f32) -> f32, g64: fn(f64) -> f64| {
        Ok(float_op(elem, &[f(0)], |a| g32(a[0]), |a| g64(a[0])))
    };
    let bin = |g32: fn(f32, f32) -> f32, g64: fn(f64, f64) -> f64| {
        Ok(float_op(
            elem,
            &[f(0), f(1)],
            |a| g32(a[0], a[1]),
            |a| g64(a[0], a[1]),
        ))
    };
    let w = elem.bits();
    let iu = |k: usize| unsigned(elem, args[k].int());
    let int = |v: i64| Ok(Scalar::Int(wrap(elem, v)));
    match op {
        AbsF => Ok(Scalar::Float(f(0).abs())),
        AbsI => int(args[0].int().wrapping_abs()),
        Acos => un(f32::acos, f64::acos),
        Acosh => un(f32::acosh, f64::acosh),
        Asin => un(f32::asin, f64::asin),
        Asinh => un(f32::asinh, f64::asinh),
        Atan => un(f32::atan, f64::atan),
        Atan2 => bin(f32::atan2, f64::atan2),
        Atanh => un(f32::atanh, f64::atanh),
        Cbrt => un(f32::cbrt, f64::cbrt),
        Ceil => un(f32::ceil, f64::ceil),
        CopySign => bin(f32::copysign, f64::copysign),
        Cos => un(f32::cos, f64::cos),
        Cosh => un(f32::cosh, f64::cosh),
        Ctlz => int(i64::from(iu(0).leading_zeros()) - (64 - i64::from(w))),
        Cttz => int(i64::from(iu(0).trailing_zeros().min(w))),
        Ctpop => int(i64::from(iu(0).count_ones())),
        Erf => un(libm::erff, libm::erf),
        Exp => un(f32::exp, f64::exp),
        Exp2 => un(f32::exp2, f64::exp2),
        ExpM1 => un(f32::exp_m1, f64::exp_m1),
        Floor => un(f32::floor, f64::floor),
        Fma if matches!(elem, ElemType::F16 | ElemType::BF16) => {
            Ok(Scalar::Float(fma_narrow(elem, f(0), f(1), f(2))))
        }
        Fma => Ok(float_op(
            elem,
            &[f(0), f(1), f(2)],
            |a| a[0].mul_add(a[1], a[2]),
            |a| a[0].mul_add(a[1], a[2]),
        )),
        Log => un(f32::ln, f64::ln),
        Log10 => un(f32::log10, f64::log10),
        Log1p => un(f32::ln_1p, f64::ln_1p),
        Log2 => un(f32::log2, f64::log2),
        PowF => bin(f32::powf, f64::powf),
        IPowI => {
            let (b, x) = (args[0].int(), args[1].int());
            if x < 0 {
                return match b {
                    0 => Err(ScalarError::ZeroToNegativePower),
                    1 => int(1),
                    -1 => int(if x % 2 == 0 { 1 } else { -1 }),
                    _ => int(0),
                };
            }
            let mut r: i64 = 1;
            let mut base = b;
            let mut e = x as u64;
            while e > 0 {
                if e & 1 == 1 {
                    r = r.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
                e >>= 1;
            }
            int(r)
        }
        FPowI => {
            // x^n = |x|^n, with x's sign when n is odd (IEEE pow on an
            // integer exponent; the parity comes from the integer, exact
            // for every n).
            let n = args[1].int();
            let odd = n & 1 != 0;
            Ok(float_op(
                elem,
                &[f(0), n as f64],
                |a| {
                    let p = a[0].abs().powf(a[1]);
                    if odd {
                        p.copysign(a[0])
                    } else {
                        p
                    }
                },
                |a| {
                    let p = a[0].abs().powf(a[1]);
                    if odd {
                        p.copysign(a[0])
                    } else {
                        p
                    }
                },
            ))
        }
        Round => un(f32::round, f64::round),
        RoundEven => un(f32::round_ties_even, f64::round_ties_even),
        Rsqrt => un(|x| 1.0 / x.sqrt(), |x| 1.0 / x.sqrt()),
        Sin => un(f32::sin, f64::sin),
        Sinh => un(f32::sinh, f64::sinh),
        Sqrt => un(f32::sqrt, f64::sqrt),
        Tan => un(f32::tan, f64::tan),
        Tanh => un(f32::tanh, f64::tanh),
        Trunc => un(f32::trunc, f64::trunc),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32s(v: i64) -> Scalar {
        Scalar::Int(v)
    }

    #[test]
    fn signed_division_rounds_toward_zero_and_floor_ceil_as_named() {
        let t = ElemType::I32;
        let cases = [
            (ArithOp::DivSI, -7, 2, -3),
            (ArithOp::RemSI, -7, 2, -1),
            (ArithOp::RemSI, 7, -2, 1),
            (ArithOp::FloorDivSI, -7, 2, -4),
            (ArithOp::CeilDivSI, -7, 2, -3),
            (ArithOp::CeilDivSI, 7, 2, 4),
            (ArithOp::DivUI, -1, 2, 0x7fff_ffff),
            (ArithOp::RemUI, -1, 16, 15),
        ];
        for (op, a, b, want) in cases {
            assert_eq!(
                arith(op, &[i32s(a), i32s(b)], t, t),
                Ok(Scalar::Int(want)),
                "{op:?} {a} {b}"
            );
        }
        assert!(arith(ArithOp::DivSI, &[i32s(1), i32s(0)], t, t).is_err());
        assert!(arith(ArithOp::DivSI, &[i32s(i32::MIN as i64), i32s(-1)], t, t).is_err());
    }

    #[test]
    fn integers_wrap_at_their_width() {
        let t = ElemType::I8;
        assert_eq!(
            arith(ArithOp::AddI, &[i32s(127), i32s(1)], t, t),
            Ok(Scalar::Int(-128))
        );
        assert_eq!(
            arith(ArithOp::MulI, &[i32s(16), i32s(16)], t, t),
            Ok(Scalar::Int(0))
        );
        // extsi of i1 true is -1, extui is 1.
        let b = ElemType::I1;
        assert_eq!(
            arith(ArithOp::ExtSI, &[Scalar::Int(-1)], b, ElemType::I32),
            Ok(Scalar::Int(-1))
        );
        assert_eq!(
            arith(ArithOp::ExtUI, &[Scalar::Int(-1)], b, ElemType::I32),
            Ok(Scalar::Int(1))
        );
    }

    #[test]
    fn nan_rules_of_max_and_min() {
        let t = ElemType::F32;
        let nan = Scalar::Float(f64::NAN);
        let one = Scalar::Float(1.0);
        assert!(
            matches!(arith(ArithOp::MaximumF, &[nan, one], t, t), Ok(Scalar::Float(v)) if v.is_nan())
        );
        assert_eq!(arith(ArithOp::MaxNumF, &[nan, one], t, t), Ok(one));
        assert_eq!(arith(ArithOp::MinNumF, &[one, nan], t, t), Ok(one));
        let (pz, nz) = (Scalar::Float(0.0), Scalar::Float(-0.0));
        assert!(
            matches!(arith(ArithOp::MaximumF, &[nz, pz], t, t), Ok(Scalar::Float(v)) if v == 0.0 && v.is_sign_positive())
        );
        assert!(
            matches!(arith(ArithOp::MinimumF, &[pz, nz], t, t), Ok(Scalar::Float(v)) if v.is_sign_negative())
        );
    }

    #[test]
    fn half_precision_rounds_after_every_op() {
        // 2049 is not an f16 value: 2048 + 1 rounds to 2048 (ties to even).
        let h = ElemType::F16;
        let r = arith(
            ArithOp::AddF,
            &[Scalar::Float(2048.0), Scalar::Float(1.0)],
            h,
            h,
        );
        assert_eq!(r, Ok(Scalar::Float(2048.0)));
        // bf16 keeps 8 significant bits: 1 + 2^-8 rounds to 1.
        let b = ElemType::BF16;
        let r = arith(
            ArithOp::AddF,
            &[Scalar::Float(1.0), Scalar::Float(1.0 / 256.0)],
            b,
            b,
        );
        assert_eq!(r, Ok(Scalar::Float(1.0)));
        // f32 arithmetic, not f64: 0.1 + 0.2 in f32.
        let f = ElemType::F32;
        let (a, c) = (f64::from(0.1f32), f64::from(0.2f32));
        let r = arith(ArithOp::AddF, &[Scalar::Float(a), Scalar::Float(c)], f, f);
        assert_eq!(r, Ok(Scalar::Float(f64::from(0.1f32 + 0.2f32))));
    }

    #[test]
    fn half_fma_rounds_once() {
        // Expected values: Python's fractions, the exact a * b + c rounded
        // once (gen.py's round_fraction). Rounded to f32 first, each one
        // lands on a midpoint of the format and ties the other way.
        let fma = |elem, a: f64, b: f64, c: f64| {
            let args = [Scalar::Float(a), Scalar::Float(b), Scalar::Float(c)];
            math(MathOp::Fma, &args, elem)
        };
        let h = ElemType::F16;
        let r = fma(h, 1.0859375, -2.283203125, -7.623434066772461e-05);
        assert_eq!(r, Ok(Scalar::Float(-2.478515625)));
        // 63 * 1040 = 65520, f16's overflow threshold: -2^-24 keeps it finite.
        let r = fma(h, 63.0, 1040.0, -(2f64.powi(-24)));
        assert_eq!(r, Ok(Scalar::Float(65504.0)));
        let b = ElemType::BF16;
        let r = fma(b, 6.75, 4.25, -1.673470251262188e-09);
        assert_eq!(r, Ok(Scalar::Float(28.625)));
        // A product past f32's range brought back by the addend.
        let max = 2f64.powi(128) - 2f64.powi(120);
        let r = fma(b, 2f64.powi(64), 2f64.powi(64), -max);
        assert_eq!(r, Ok(Scalar::Float(2f64.powi(120))));
    }

    #[test]
    fn casts_saturate_and_bitcast_keeps_bits() {
        let r = arith(
            ArithOp::FPToSI,
            &[Scalar::Float(300.7)],
            ElemType::F32,
            ElemType::I8,
        );
        assert_eq!(r, Ok(Scalar::Int(127)));
        let r = arith(
            ArithOp::FPToSI,
            &[Scalar::Float(-2.9)],
            ElemType::F32,
            ElemType::I32,
        );
        assert_eq!(r, Ok(Scalar::Int(-2)));
        let r = arith(
            ArithOp::Bitcast,
            &[Scalar::Float(1.0)],
            ElemType::F32,
            ElemType::I32,
        );
        assert_eq!(r, Ok(Scalar::Int(0x3f80_0000)));
        let r = arith(
            ArithOp::Bitcast,
            &[Scalar::Int(0x3c00)],
            ElemType::I16,
            ElemType::F16,
        );
        assert_eq!(r, Ok(Scalar::Float(1.0)));
        // i64 -> f32 rounds once: 2^53 + 1 is not representable in f64 either.
        let big = (1i64 << 53) + 1;
        let r = arith(
            ArithOp::SIToFP,
            &[Scalar::Int(big)],
            ElemType::I64,
            ElemType::F32,
        );
        assert_eq!(r, Ok(Scalar::Float(f64::from(big as f32))));
    }

    #[test]
    fn math_functions() {
        let f = ElemType::F32;
        assert_eq!(
            math(MathOp::Ctpop, &[Scalar::Int(-1)], ElemType::I8),
            Ok(Scalar::Int(8))
        );
        assert_eq!(
            math(MathOp::Ctlz, &[Scalar::Int(1)], ElemType::I16),
            Ok(Scalar::Int(15))
        );
        assert_eq!(
            math(MathOp::Cttz, &[Scalar::Int(0)], ElemType::I16),
            Ok(Scalar::Int(16))
        );
        assert_eq!(
            math(
                MathOp::IPowI,
                &[Scalar::Int(3), Scalar::Int(4)],
                ElemType::I32
            ),
            Ok(Scalar::Int(81))
        );
        assert_eq!(
            math(MathOp::Round, &[Scalar::Float(-2.5)], f),
            Ok(Scalar::Float(-3.0))
        );
        assert_eq!(
            math(MathOp::RoundEven, &[Scalar::Float(-2.5)], f),
            Ok(Scalar::Float(-2.0))
        );
        // erf(1) = 0.8427007929497149 (Abramowitz & Stegun table 7.1).
        let Ok(Scalar::Float(e)) = math(MathOp::Erf, &[Scalar::Float(1.0)], f) else {
            panic!()
        };
        assert!((e - 0.842_700_8).abs() < 1e-6, "{e}");
    }
}
