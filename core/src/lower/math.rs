//! `math` -> GLSL.std.450 (MLIR's `convert-math-to-spirv` for Vulkan).
//!
//! Direct mappings where GLSL.std.450 has the function; expansions where
//! it does not or where its semantics differ from `math`'s: `math.round`
//! rounds half away from zero (GLSL `Round` leaves halves to the
//! implementation), `math.powf` handles negative bases like MLIR (an odd
//! integer exponent keeps the sign, a non-integer one gives NaN),
//! `math.copysign` works on the bits, `math.erf` uses the
//! Abramowitz-Stegun 7.1.26 approximation (|error| < 1.5e-7).

use crate::ir::{Type, Value};
use crate::kernel::{KOp, KType};

use super::arith::{bool_like, normalize};
use super::ctx::Lowerer;
use super::error::LowerError;

pub(crate) fn lower(l: &mut Lowerer, kind: KOp) -> Result<(), LowerError> {
    use KOp::*;
    let direct = match kind {
        MathExp => Some("Exp"),
        MathExp2 => Some("Exp2"),
        MathLog => Some("Log"),
        MathLog2 => Some("Log2"),
        MathSqrt => Some("Sqrt"),
        MathRsqrt => Some("InverseSqrt"),
        MathTanh => Some("Tanh"),
        MathSin => Some("Sin"),
        MathCos => Some("Cos"),
        MathTan => Some("Tan"),
        MathAsin => Some("Asin"),
        MathAcos => Some("Acos"),
        MathAtan => Some("Atan"),
        MathAtan2 => Some("Atan2"),
        MathSinh => Some("Sinh"),
        MathCosh => Some("Cosh"),
        MathFma => Some("Fma"),
        MathAbsF => Some("FAbs"),
        MathFloor => Some("Floor"),
        MathCeil => Some("Ceil"),
        MathRoundEven => Some("RoundEven"),
        MathTrunc => Some("Trunc"),
        _ => None,
    };
    if let Some(name) = direct {
        let args = l.opnds()?;
        let ty = l.res_type(0)?;
        let v = l.gl(name, args, ty);
        return l.set_res(0, v);
    }
    let ty = l.res_type(0)?;
    let v = match kind {
        MathAbsI => {
            let a = l.opnd(0)?;
            let v = l.gl("SAbs", vec![a], ty);
            let kty = l.res_ktype(0)?;
            normalize(l, v, kty)
        }
        MathExpM1 => {
            let a = l.opnd(0)?;
            let e = l.gl("Exp", vec![a], ty);
            let one = l.const_float(ty, 1.0);
            l.op1("FSub", vec![e, one], ty)
        }
        MathLog1p => {
            let a = l.opnd(0)?;
            let one = l.const_float(ty, 1.0);
            let s = l.op1("FAdd", vec![one, a], ty);
            l.gl("Log", vec![s], ty)
        }
        MathLog10 => {
            let a = l.opnd(0)?;
            let lg = l.gl("Log2", vec![a], ty);
            let k = l.const_float(ty, std::f64::consts::LOG10_2);
            l.op1("FMul", vec![lg, k], ty)
        }
        MathRound => {
            let a = l.opnd(0)?;
            let abs = l.gl("FAbs", vec![a], ty);
            // trunc(|a|) + (frac >= 0.5): floor(|a| + 0.5) would round
            // 0.49999997 and 2^23 + 1 wrongly (the sum rounds first).
            let t = l.gl("Trunc", vec![abs], ty);
            let frac = l.op1("FSub", vec![abs, t], ty);
            let half = l.const_float(ty, 0.5);
            let bt0 = bool_like(l, ty);
            let up = l.op1("FOrdGreaterThanEqual", vec![frac, half], bt0);
            let one = l.const_float(ty, 1.0);
            let nil = l.const_float(ty, 0.0);
            let inc = l.op1("Select", vec![up, one, nil], ty);
            let f = l.op1("FAdd", vec![t, inc], ty);
            let sign = l.gl("FSign", vec![a], ty);
            // Keep -0.0 and NaN: copy the sign bit instead of multiplying.
            let r = l.op1("FMul", vec![f, sign], ty);
            let bt = bool_like(l, ty);
            let zero = l.const_float(ty, 0.0);
            let is_zero = l.op1("FOrdEqual", vec![f, zero], bt);
            let z = copysign(l, zero, a, ty)?;
            l.op1("Select", vec![is_zero, z, r], ty)
        }
        MathPowF => powf(l, ty)?,
        MathCopySign => {
            let (a, b) = (l.opnd(0)?, l.opnd(1)?);
            copysign(l, a, b, ty)?
        }
        MathCtlz => {
            let a = l.opnd(0)?;
            check_i32(l)?;
            let msb = l.gl("FindUMsb", vec![a], ty);
            let c31 = l.const_int(ty, 31);
            let r = l.op1("ISub", vec![c31, msb], ty);
            let bt = bool_like(l, ty);
            let zero = l.const_int(ty, 0);
            let is_zero = l.op1("IEqual", vec![a, zero], bt);
            let c32 = l.const_int(ty, 32);
            l.op1("Select", vec![is_zero, c32, r], ty)
        }
        MathCttz => {
            let a = l.opnd(0)?;
            check_i32(l)?;
            let lsb = l.gl("FindILsb", vec![a], ty);
            let bt = bool_like(l, ty);
            let zero = l.const_int(ty, 0);
            let is_zero = l.op1("IEqual", vec![a, zero], bt);
            let c32 = l.const_int(ty, 32);
            l.op1("Select", vec![is_zero, c32, lsb], ty)
        }
        MathCtpop => {
            let a = l.opnd(0)?;
            check_i32(l)?;
            l.op1("BitCount", vec![a], ty)
        }
        MathErf => erf(l, ty)?,
        _ => return Err(l.unsupported("no lowering for this math op")),
    };
    l.set_res(0, v)
}

fn check_i32(l: &Lowerer) -> Result<(), LowerError> {
    match l.res_ktype(0)?.scalar() {
        KType::Int(32) => Ok(()),
        _ => Err(l.unsupported("bit counting is lowered for 32-bit integers only")),
    }
}

/// The integer type with the shape and width of float type `ty`.
fn int_like(l: &mut Lowerer, ty: Type) -> Result<Type, LowerError> {
    let bits = l.m.types.bit_width(ty).unwrap_or(32);
    if bits != 32 {
        return Err(l.unsupported("copysign is lowered for f32 only"));
    }
    let i = l.m.types.int(32);
    Ok(match l.m.types.component_count(ty) {
        1 => i,
        n => l.m.types.vector(n, i),
    })
}

/// `a` with the sign of `b` (bitwise).
fn copysign(l: &mut Lowerer, a: Value, b: Value, ty: Type) -> Result<Value, LowerError> {
    let it = int_like(l, ty)?;
    let ai = l.op1("Bitcast", vec![a], it);
    let bi = l.op1("Bitcast", vec![b], it);
    let mag = l.const_int(it, 0x7fff_ffff);
    let sign = l.const_int(it, 0x8000_0000u32 as i32 as i128);
    let am = l.op1("BitwiseAnd", vec![ai, mag], it);
    let bs = l.op1("BitwiseAnd", vec![bi, sign], it);
    let r = l.op1("BitwiseOr", vec![am, bs], it);
    Ok(l.op1("Bitcast", vec![r], ty))
}

/// `pow(x, y)`: `pow(|x|, y)`, negated for a negative base and an odd
/// integer exponent, NaN for a negative base and a non-integer exponent.
fn powf(l: &mut Lowerer, ty: Type) -> Result<Value, LowerError> {
    let (x, y) = (l.opnd(0)?, l.opnd(1)?);
    let bt = bool_like(l, ty);
    let ax = l.gl("FAbs", vec![x], ty);
    let p = l.gl("Pow", vec![ax, y], ty);
    let zero = l.const_float(ty, 0.0);
    let neg = l.op1("FOrdLessThan", vec![x, zero], bt);
    let yt = l.gl("Trunc", vec![y], ty);
    let is_int = l.op1("FOrdEqual", vec![y, yt], bt);
    let half = l.const_float(ty, 0.5);
    let hy = l.op1("FMul", vec![y, half], ty);
    let hyt = l.gl("Trunc", vec![hy], ty);
    let odd = l.op1("FOrdNotEqual", vec![hy, hyt], bt);
    let odd_int = l.op1("LogicalAnd", vec![is_int, odd], bt);
    let flip = l.op1("LogicalAnd", vec![neg, odd_int], bt);
    let np = l.op1("FNegate", vec![p], ty);
    let r = l.op1("Select", vec![flip, np, p], ty);
    let not_int = l.op1("LogicalNot", vec![is_int], bt);
    let bad = l.op1("LogicalAnd", vec![neg, not_int], bt);
    let nan = l.const_float(ty, f64::NAN);
    Ok(l.op1("Select", vec![bad, nan, r], ty))
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
    let x = l.opnd(0)?;
    let ax = l.gl("FAbs", vec![x], ty);
    let one = l.const_float(ty, 1.0);
    let p = l.const_float(ty, P);
    let px = l.op1("FMul", vec![p, ax], ty);
    let d = l.op1("FAdd", vec![one, px], ty);
    let t = l.op1("FDiv", vec![one, d], ty);
    // Horner: ((((a5 t + a4) t + a3) t + a2) t + a1) t
    let mut acc = l.const_float(ty, A[4]);
    for &a in A[..4].iter().rev() {
        let m = l.op1("FMul", vec![acc, t], ty);
        let c = l.const_float(ty, a);
        acc = l.op1("FAdd", vec![m, c], ty);
    }
    let poly = l.op1("FMul", vec![acc, t], ty);
    let x2 = l.op1("FMul", vec![ax, ax], ty);
    let nx2 = l.op1("FNegate", vec![x2], ty);
    let e = l.gl("Exp", vec![nx2], ty);
    let pe = l.op1("FMul", vec![poly, e], ty);
    let y = l.op1("FSub", vec![one, pe], ty);
    let sign = l.gl("FSign", vec![x], ty);
    Ok(l.op1("FMul", vec![y, sign], ty))
}
