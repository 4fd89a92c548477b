//! `math` -> GLSL.std.450 (MLIR's `convert-math-to-spirv` for Vulkan).
//!
//! Direct mappings where GLSL.std.450 has the function; expansions where
//! it does not or where its semantics differ from `math`'s: `math.round`
//! rounds half away from zero (GLSL `Round` leaves halves to the
//! implementation), `math.powf` gives C99's `pow` (GLSL `Pow` leaves
//! negative and zero bases undefined; see [`powf`]),
//! `math.copysign` tests the sign bit and selects `±|a|` (see
//! [`copysign`]), `math.erf` uses the
//! Abramowitz-Stegun 7.1.26 approximation (|error| < 1.5e-7), and
//! `ctlz` / `cttz` / `ctpop` of 8- to 64-bit integers count 32-bit words
//! (see [`bit_count`]).
//!
//! GLSL.std.450 defines Exp, Exp2, Log, Log2, Pow and the trigonometric
//! and hyperbolic functions for 16- and 32-bit floats only: on f64, exp,
//! exp2, expm1, log, log2, log10, log1p, powf and tanh are expanded by
//! [`super::libm`] (as are expm1, log1p and tanh on every float type, and
//! f64 trunc and roundeven, which lavapipe gets wrong); the others are
//! refused, naming the op, rather than emitted as a module spirv-val
//! rejects or computed in f32.

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{Type, Value};
use crate::kernel::{FloatTy, KOpKind, KType};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::bit_count;
use super::helpers::ints::{bool_like, normalize};

pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<(), LowerError> {
    use KOpKind::*;
    if super::libm::expands(kind, l.result_kernel_type(0)?.scalar()) {
        if let Some(v) = super::libm::lower(l, kind)? {
            return l.set_result(0, v);
        }
    }
    let glsl_32bit_only = matches!(
        kind,
        MathExp
            | MathExp2
            | MathExpM1
            | MathLog
            | MathLog2
            | MathLog10
            | MathLog1p
            | MathPowF
            | MathTanh
            | MathSin
            | MathCos
            | MathTan
            | MathAsin
            | MathAcos
            | MathAtan
            | MathAtan2
            | MathSinh
            | MathCosh
            | MathAsinh
            | MathAcosh
            | MathAtanh
            | MathErf
    );
    if glsl_32bit_only && l.result_kernel_type(0)?.scalar() == &KType::Float(FloatTy::F64) {
        return Err(l.unsupported(
            "on f64 is refused: GLSL.std.450 defines it for 16- and 32-bit floats only, \
             and kiln has no f64-accurate lowering",
        ));
    }
    let direct = match kind {
        MathExp => Some(GlslOp::Exp),
        MathExp2 => Some(GlslOp::Exp2),
        MathLog => Some(GlslOp::Log),
        MathLog2 => Some(GlslOp::Log2),
        MathSqrt => Some(GlslOp::Sqrt),
        MathRsqrt => Some(GlslOp::InverseSqrt),
        MathTanh => Some(GlslOp::Tanh),
        MathSin => Some(GlslOp::Sin),
        MathCos => Some(GlslOp::Cos),
        MathTan => Some(GlslOp::Tan),
        MathAsin => Some(GlslOp::Asin),
        MathAcos => Some(GlslOp::Acos),
        MathAtan => Some(GlslOp::Atan),
        MathAtan2 => Some(GlslOp::Atan2),
        MathSinh => Some(GlslOp::Sinh),
        MathCosh => Some(GlslOp::Cosh),
        MathAsinh => Some(GlslOp::Asinh),
        MathAcosh => Some(GlslOp::Acosh),
        MathAtanh => Some(GlslOp::Atanh),
        MathAbsF => Some(GlslOp::FAbs),
        MathFloor => Some(GlslOp::Floor),
        MathCeil => Some(GlslOp::Ceil),
        MathRoundEven => Some(GlslOp::RoundEven),
        MathTrunc => Some(GlslOp::Trunc),
        _ => None,
    };
    if matches!(kind, MathFma) {
        let args = l.operands()?;
        let ty = l.result_type(0)?;
        let [a, b, c] = args[..] else {
            return Err(l.malformed("math.fma takes three operands"));
        };
        let v = super::libm::fma::fma(l, a, b, c, ty);
        return l.set_result(0, v);
    }
    if let Some(name) = direct {
        let args = l.operands()?;
        let ty = l.result_type(0)?;
        let v = l.glsl_op(name, args, ty);
        return l.set_result(0, v);
    }
    let ty = l.result_type(0)?;
    let v = match kind {
        MathAbsI => {
            let a = l.operand(0)?;
            let v = l.glsl_op(GlslOp::SAbs, vec![a], ty);
            let kty = l.result_kernel_type(0)?;
            normalize(l, v, kty)
        }
        MathLog10 => {
            let a = l.operand(0)?;
            let lg = l.glsl_op(GlslOp::Log2, vec![a], ty);
            let k = l.const_float(ty, std::f64::consts::LOG10_2);
            l.core_op(Opcode::FMul, vec![lg, k], ty)
        }
        MathRound => {
            let a = l.operand(0)?;
            let abs = l.glsl_op(GlslOp::FAbs, vec![a], ty);
            // trunc(|a|) + (frac >= 0.5): floor(|a| + 0.5) would round
            // 0.49999997 and 2^23 + 1 wrongly (the sum rounds first).
            let t = l.glsl_op(GlslOp::Trunc, vec![abs], ty);
            let frac = l.core_op(Opcode::FSub, vec![abs, t], ty);
            let half = l.const_float(ty, 0.5);
            let bt0 = bool_like(l, ty);
            let up = l.core_op(Opcode::FOrdGreaterThanEqual, vec![frac, half], bt0);
            let one = l.const_float(ty, 1.0);
            let nil = l.const_float(ty, 0.0);
            let inc = l.core_op(Opcode::Select, vec![up, one, nil], ty);
            let f = l.core_op(Opcode::FAdd, vec![t, inc], ty);
            if l.module.types.bit_width(ty) == Some(32) {
                // `f` is +0, positive or NaN: OR in `a`'s sign bit (-0.3
                // gives -0, 0.3 +0; no float compare or select to fold).
                let (it, _) = int_like(l, ty)?;
                let fi = l.core_op(Opcode::Bitcast, vec![f], it);
                let ai = l.core_op(Opcode::Bitcast, vec![a], it);
                let sign_bit = l.const_int(it, i128::from(i32::MIN));
                let sign = l.core_op(Opcode::BitwiseAnd, vec![ai, sign_bit], it);
                let r = l.core_op(Opcode::BitwiseOr, vec![fi, sign], it);
                let v = l.core_op(Opcode::Bitcast, vec![r], ty);
                return l.set_result(0, v);
            }
            let sign = l.glsl_op(GlslOp::FSign, vec![a], ty);
            // Keep -0.0 and NaN: copy the sign bit instead of multiplying.
            let r = l.core_op(Opcode::FMul, vec![f, sign], ty);
            let bt = bool_like(l, ty);
            let zero = l.const_float(ty, 0.0);
            let is_zero = l.core_op(Opcode::FOrdEqual, vec![f, zero], bt);
            // f16 / f64: the signed zero by comparisons (a bitcast would
            // need Int16 / Int64): -0 for a < 0, a for a = ±0.
            let neg_zero = l.const_float(ty, -0.0);
            let neg = l.core_op(Opcode::FOrdLessThan, vec![a, zero], bt);
            let a_zero = l.core_op(Opcode::FOrdEqual, vec![a, zero], bt);
            let z = l.core_op(Opcode::Select, vec![a_zero, a, zero], ty);
            let z = l.core_op(Opcode::Select, vec![neg, neg_zero, z], ty);
            l.core_op(Opcode::Select, vec![is_zero, z, r], ty)
        }
        MathPowF => powf(l, ty)?,
        MathCopySign => {
            let (a, b) = (l.operand(0)?, l.operand(1)?);
            copysign(l, a, b, ty)?
        }
        MathCtlz | MathCttz | MathCtpop => bit_count::lower(l, kind, ty)?,
        MathErf => erf(l, ty)?,
        _ => return Err(l.unsupported("no lowering for this math op")),
    };
    l.set_result(0, v)
}

/// The integer type with the shape and width of float type `ty`, and
/// that width.
fn int_like(l: &mut Lowerer, ty: Type) -> Result<(Type, u32), LowerError> {
    let bits = l.module.types.bit_width(ty).unwrap_or(32);
    if !matches!(bits, 16 | 32 | 64) {
        return Err(l.unsupported("copysign is lowered for 16-, 32- and 64-bit floats only"));
    }
    let i = l.module.types.int(bits);
    Ok((
        match l.module.types.component_count(ty) {
            1 => i,
            n => l.module.types.vector(n, i),
        },
        bits,
    ))
}

/// `a` with the sign of `b`: `-|a|` where `b`'s sign bit is set (read as
/// a signed integer of the float's width below zero), else `|a|`.
///
/// Not the bit-select `(a & MAG) | (b & SIGN)`: on x86 CPUs with AVX-512,
/// lavapipe's LLVM 15 compiles that idiom, when a select on it follows,
/// to a `vpternlog` whose immediate does not match its commuted operands
/// (llvm/llvm-project#157929): `math.fpowi` of a negative base to an odd
/// `i64` power gave `|a|` or `a | (b & MAG)` there (8 for `(-2)^3`, NaN for
/// `(-1.5)^3`). A compare and a select of `FAbs`/`FNegate` give the same
/// bits, NaN's sign included.
fn copysign(l: &mut Lowerer, a: Value, b: Value, ty: Type) -> Result<Value, LowerError> {
    let (it, _) = int_like(l, ty)?;
    let bi = l.core_op(Opcode::Bitcast, vec![b], it);
    let zero = l.const_int(it, 0);
    let bt = bool_like(l, ty);
    let negative = l.core_op(Opcode::SLessThan, vec![bi, zero], bt);
    let mag = l.glsl_op(GlslOp::FAbs, vec![a], ty);
    let neg = l.core_op(Opcode::FNegate, vec![mag], ty);
    Ok(l.core_op(Opcode::Select, vec![negative, neg, mag], ty))
}

/// `pow(x, y)` with C99 Annex F.9.4.4's values (MLIR lowers `math.powf`
/// to libm's `powf`): GLSL.std.450 leaves `Pow` undefined for `x < 0` and
/// for `x = 0, y <= 0`, and lavapipe gives 0 for `0^-1` and `NaN^y`, NaN
/// for `1^inf` and `inf^0`. GLSL's `Pow` computes `|x|^y` only where `|x|`
/// and `y` are finite and non-zero (a denormal `|x|` scaled into the
/// normal range first, and `2^(-k y)` multiplied back: lavapipe's `Log2`
/// takes a denormal's exponent for the smallest normal one's); then
/// - `|x| = 0`, `|x| = inf` or `y = ±inf`: inf where `|x| > 1` and `y > 0`
///   agree, else 0; `|x| = 1`: 1 (`pow(-1, ±inf) = 1`);
/// - the sign of `x` (`-0` included) for an odd integer `y`;
/// - NaN for a finite `x < 0` and a non-integer `y`, and for NaN operands;
/// - 1 for `y = ±0` and for `x = 1`, even when the other operand is NaN.
fn powf(l: &mut Lowerer, ty: Type) -> Result<Value, LowerError> {
    let (x, y) = (l.operand(0)?, l.operand(1)?);
    let bt = bool_like(l, ty);
    // The smallest normal value and the scale bringing a denormal above it.
    let (min_normal, k) = match l.module.types.bit_width(ty) {
        Some(16) => (2f64.powi(-14), 11.0),
        _ => (2f64.powi(-126), 24.0),
    };
    let ax = l.glsl_op(GlslOp::FAbs, vec![x], ty);
    let tiny = l.const_float(ty, min_normal);
    let denormal = l.core_op(Opcode::FOrdLessThan, vec![ax, tiny], bt);
    let scale = l.const_float(ty, 2f64.powf(k));
    let scaled = l.core_op(Opcode::FMul, vec![ax, scale], ty);
    let base = l.core_op(Opcode::Select, vec![denormal, scaled, ax], ty);
    let p = l.glsl_op(GlslOp::Pow, vec![base, y], ty);
    let neg_k = l.const_float(ty, -k);
    let ky = l.core_op(Opcode::FMul, vec![y, neg_k], ty);
    let unscale = l.glsl_op(GlslOp::Exp2, vec![ky], ty);
    let pu = l.core_op(Opcode::FMul, vec![p, unscale], ty);
    let mag = l.core_op(Opcode::Select, vec![denormal, pu, p], ty);
    // |x| = 0, |x| = inf, y = ±inf: 0 or inf; |x| = 1: 1.
    let zero = l.const_float(ty, 0.0);
    let one = l.const_float(ty, 1.0);
    let inf = l.const_float(ty, f64::INFINITY);
    let x0 = l.core_op(Opcode::FOrdEqual, vec![ax, zero], bt);
    let xinf = l.core_op(Opcode::FOrdEqual, vec![ax, inf], bt);
    let ay = l.glsl_op(GlslOp::FAbs, vec![y], ty);
    let yinf = l.core_op(Opcode::FOrdEqual, vec![ay, inf], bt);
    let extreme = l.core_op(Opcode::LogicalOr, vec![x0, xinf], bt);
    let extreme = l.core_op(Opcode::LogicalOr, vec![extreme, yinf], bt);
    let above1 = l.core_op(Opcode::FOrdGreaterThan, vec![ax, one], bt);
    let ypos = l.core_op(Opcode::FOrdGreaterThan, vec![y, zero], bt);
    let grows = l.core_op(Opcode::LogicalEqual, vec![above1, ypos], bt);
    let big = l.core_op(Opcode::Select, vec![grows, inf, zero], ty);
    let mag = l.core_op(Opcode::Select, vec![extreme, big, mag], ty);
    let x1 = l.core_op(Opcode::FOrdEqual, vec![ax, one], bt);
    let mag = l.core_op(Opcode::Select, vec![x1, one, mag], ty);
    // The sign of x for an odd integer y (infinities are even).
    let yt = l.glsl_op(GlslOp::Trunc, vec![y], ty);
    let is_int = l.core_op(Opcode::FOrdEqual, vec![y, yt], bt);
    let half = l.const_float(ty, 0.5);
    let hy = l.core_op(Opcode::FMul, vec![y, half], ty);
    let hyt = l.glsl_op(GlslOp::Trunc, vec![hy], ty);
    let odd = l.core_op(Opcode::FOrdNotEqual, vec![hy, hyt], bt);
    let odd_int = l.core_op(Opcode::LogicalAnd, vec![is_int, odd], bt);
    let neg = l.core_op(Opcode::FOrdLessThan, vec![x, zero], bt);
    // -0 is the zero whose reciprocal is negative.
    let inv = l.core_op(Opcode::FDiv, vec![one, x], ty);
    let inv_neg = l.core_op(Opcode::FOrdLessThan, vec![inv, zero], bt);
    let signed = l.core_op(Opcode::LogicalOr, vec![neg, inv_neg], bt);
    let flip = l.core_op(Opcode::LogicalAnd, vec![signed, odd_int], bt);
    let nmag = l.core_op(Opcode::FNegate, vec![mag], ty);
    let r = l.core_op(Opcode::Select, vec![flip, nmag, mag], ty);
    // NaN: a finite negative base and a non-integer y; NaN operands.
    let not_int = l.core_op(Opcode::LogicalNot, vec![is_int], bt);
    let bad = l.core_op(Opcode::LogicalAnd, vec![neg, not_int], bt);
    let finite = l.core_op(Opcode::LogicalNot, vec![xinf], bt);
    let bad = l.core_op(Opcode::LogicalAnd, vec![bad, finite], bt);
    let xn = l.core_op(Opcode::IsNan, vec![x], bt);
    let yn = l.core_op(Opcode::IsNan, vec![y], bt);
    let nan_in = l.core_op(Opcode::LogicalOr, vec![xn, yn], bt);
    let bad = l.core_op(Opcode::LogicalOr, vec![bad, nan_in], bt);
    let nan = l.const_float(ty, f64::NAN);
    let r = l.core_op(Opcode::Select, vec![bad, nan, r], ty);
    // pow(x, ±0) = pow(1, y) = 1, NaN operands included.
    let y0 = l.core_op(Opcode::FOrdEqual, vec![y, zero], bt);
    let xone = l.core_op(Opcode::FOrdEqual, vec![x, one], bt);
    let unit = l.core_op(Opcode::LogicalOr, vec![y0, xone], bt);
    Ok(l.core_op(Opcode::Select, vec![unit, one, r], ty))
}

/// `erf(x)` by Abramowitz-Stegun 7.1.26.
fn erf(l: &mut Lowerer, ty: Type) -> Result<Value, LowerError> {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] = [
        0.254_829_592,
        -0.284_496_736,
        1.421_413_741,
        -1.453_152_027,
        1.061_405_429,
    ];
    let x = l.operand(0)?;
    let ax = l.glsl_op(GlslOp::FAbs, vec![x], ty);
    let one = l.const_float(ty, 1.0);
    let p = l.const_float(ty, P);
    let px = l.core_op(Opcode::FMul, vec![p, ax], ty);
    let d = l.core_op(Opcode::FAdd, vec![one, px], ty);
    let t = l.core_op(Opcode::FDiv, vec![one, d], ty);
    // Horner: ((((a5 t + a4) t + a3) t + a2) t + a1) t
    let mut acc = l.const_float(ty, A[4]);
    for &a in A[..4].iter().rev() {
        let m = l.core_op(Opcode::FMul, vec![acc, t], ty);
        let c = l.const_float(ty, a);
        acc = l.core_op(Opcode::FAdd, vec![m, c], ty);
    }
    let poly = l.core_op(Opcode::FMul, vec![acc, t], ty);
    let x2 = l.core_op(Opcode::FMul, vec![ax, ax], ty);
    let nx2 = l.core_op(Opcode::FNegate, vec![x2], ty);
    let e = l.glsl_op(GlslOp::Exp, vec![nx2], ty);
    let pe = l.core_op(Opcode::FMul, vec![poly, e], ty);
    let y = l.core_op(Opcode::FSub, vec![one, pe], ty);
    let sign = l.glsl_op(GlslOp::FSign, vec![x], ty);
    let r = l.core_op(Opcode::FMul, vec![y, sign], ty);
    // erf(+-0) = +-0: FSign(-0) may be +0 (lavapipe's is).
    let bt = bool_like(l, ty);
    let zero = l.const_float(ty, 0.0);
    let is_zero = l.core_op(Opcode::FOrdEqual, vec![x, zero], bt);
    Ok(l.core_op(Opcode::Select, vec![is_zero, x, r], ty))
}
