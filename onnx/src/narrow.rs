//! The narrow types (see [`crate::dtype`]): decoding a narrow float's bit
//! pattern on the host, and the scalar bodies converting between f32 and
//! the narrow types on the device (ONNX's Cast rules: round to nearest
//! even, `saturate` for out-of-range values; E8M0 by `round_mode`).

use kiln_core::tensor::attr::{CmpFPred, CmpIPred, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, MathOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{ElemType, TValue};

use crate::dtype::{DataType, SmallFloat};

/// The value of narrow float `dt`'s bit pattern `code`.
pub fn decode(dt: DataType, code: u8) -> f64 {
    if dt == DataType::Float8e8m0 {
        return if code == 0xFF {
            f64::NAN
        } else {
            2f64.powi(i32::from(code) - 127)
        };
    }
    let Some(f) = dt.small_float() else {
        return f64::from(code);
    };
    let code = u32::from(code);
    let sign_bit = f.exp + f.man;
    let neg = (code >> sign_bit) & 1 != 0;
    let ef = (code >> f.man) & ((1 << f.exp) - 1);
    let mf = code & ((1 << f.man) - 1);
    let emax = (1 << f.exp) - 1;
    if f.uz && code == 0x80 {
        return f64::NAN;
    }
    if f.fn_nan && ef == emax && mf == (1 << f.man) - 1 {
        return f64::NAN;
    }
    if f.inf && ef == emax {
        return if mf != 0 {
            f64::NAN
        } else if neg {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    let mag = if ef == 0 {
        f64::from(mf) * 2f64.powi(1 - f.bias - f.man as i32)
    } else {
        f64::from(mf + (1 << f.man)) * 2f64.powi(ef as i32 - f.bias - f.man as i32)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// The largest finite code (positive) of `f`.
fn max_code(f: SmallFloat) -> u32 {
    let emax = (1u32 << f.exp) - 1;
    let mmax = (1u32 << f.man) - 1;
    if f.fn_nan {
        (emax << f.man) | (mmax - 1)
    } else if f.inf {
        ((emax - 1) << f.man) | mmax
    } else {
        (emax << f.man) | mmax
    }
}

fn i32c(b: &mut BodyBuilder<'_>, v: i64) -> TValue {
    b.constant(ScalarBits::Int(v), ElemType::I32)
}

fn f32c(b: &mut BodyBuilder<'_>, v: f64) -> TValue {
    b.constant(ScalarBits::Float(v), ElemType::F32)
}

fn op(b: &mut BodyBuilder<'_>, o: ArithOp, args: Vec<TValue>, ty: ElemType) -> TValue {
    b.arith(o, args, ty)
}

fn icmp(b: &mut BodyBuilder<'_>, p: CmpIPred, x: TValue, y: TValue) -> TValue {
    b.arith(ArithOp::CmpI(p), vec![x, y], ElemType::I1)
}

fn sel(b: &mut BodyBuilder<'_>, c: TValue, x: TValue, y: TValue) -> TValue {
    let ty = b.elem(x);
    b.arith(ArithOp::Select, vec![c, x, y], ty)
}

/// `2^e` as f32 for an i32 `e` in f32's normal exponent range.
fn pow2(b: &mut BodyBuilder<'_>, e: TValue) -> TValue {
    let k = i32c(b, 127);
    let t = op(b, ArithOp::AddI, vec![e, k], ElemType::I32);
    let s = i32c(b, 23);
    let t = op(b, ArithOp::ShLI, vec![t, s], ElemType::I32);
    op(b, ArithOp::Bitcast, vec![t], ElemType::F32)
}

/// `floor(log2 |x|)` of a finite non-zero f32 from its exponent field
/// (f32 subnormals give -127).
fn ilog2(b: &mut BodyBuilder<'_>, x: TValue) -> TValue {
    let bits = op(b, ArithOp::Bitcast, vec![x], ElemType::I32);
    let s = i32c(b, 23);
    let e = op(b, ArithOp::ShRUI, vec![bits, s], ElemType::I32);
    let m = i32c(b, 0xFF);
    let e = op(b, ArithOp::AndI, vec![e, m], ElemType::I32);
    let k = i32c(b, 127);
    op(b, ArithOp::SubI, vec![e, k], ElemType::I32)
}

/// The f32 value of narrow float `dt`'s bit pattern `x` (an i8).
pub fn decode_body(b: &mut BodyBuilder<'_>, dt: DataType, x: TValue) -> TValue {
    let u = op(b, ArithOp::ExtUI, vec![x], ElemType::I32);
    let nan = f32c(b, f64::NAN);
    if dt == DataType::Float8e8m0 {
        // 2^(u - 127): the exponent field itself; 0 is 2^-127 (subnormal).
        let s = i32c(b, 23);
        let bits = op(b, ArithOp::ShLI, vec![u, s], ElemType::I32);
        let v = op(b, ArithOp::Bitcast, vec![bits], ElemType::F32);
        let z = i32c(b, 0);
        let is0 = icmp(b, CmpIPred::Eq, u, z);
        let tiny = f32c(b, 2f64.powi(-127));
        let v = sel(b, is0, tiny, v);
        let ff = i32c(b, 0xFF);
        let isnan = icmp(b, CmpIPred::Eq, u, ff);
        return sel(b, isnan, nan, v);
    }
    let f = dt.small_float().expect("a narrow float");
    let man = f.man as i64;
    let sb = i32c(b, i64::from(f.exp + f.man));
    let sign = op(b, ArithOp::ShRUI, vec![u, sb], ElemType::I32);
    let one = i32c(b, 1);
    let sign = op(b, ArithOp::AndI, vec![sign, one], ElemType::I32);
    let mshift = i32c(b, man);
    let ef = op(b, ArithOp::ShRUI, vec![u, mshift], ElemType::I32);
    let emask = i32c(b, (1 << f.exp) - 1);
    let ef = op(b, ArithOp::AndI, vec![ef, emask], ElemType::I32);
    let mmask = i32c(b, (1 << f.man) - 1);
    let mf = op(b, ArithOp::AndI, vec![u, mmask], ElemType::I32);
    let zero = i32c(b, 0);
    let sub = icmp(b, CmpIPred::Eq, ef, zero);
    let implicit = i32c(b, 1 << f.man);
    let full = op(b, ArithOp::AddI, vec![mf, implicit], ElemType::I32);
    let mant = sel(b, sub, mf, full);
    let e_eff = sel(b, sub, one, ef);
    let k = i32c(b, -i64::from(f.bias) - man);
    let e = op(b, ArithOp::AddI, vec![e_eff, k], ElemType::I32);
    let p = pow2(b, e);
    let mfl = op(b, ArithOp::SIToFP, vec![mant], ElemType::F32);
    let mag = op(b, ArithOp::MulF, vec![mfl, p], ElemType::F32);
    let neg = op(b, ArithOp::NegF, vec![mag], ElemType::F32);
    let is_neg = icmp(b, CmpIPred::Ne, sign, zero);
    let mut v = sel(b, is_neg, neg, mag);
    let emax = (1 << f.exp) - 1;
    if f.uz {
        let c80 = i32c(b, 0x80);
        let isnan = icmp(b, CmpIPred::Eq, u, c80);
        v = sel(b, isnan, nan, v);
    }
    if f.fn_nan {
        let low = i32c(b, 0x7F);
        let l = op(b, ArithOp::AndI, vec![u, low], ElemType::I32);
        let isnan = icmp(b, CmpIPred::Eq, l, low);
        v = sel(b, isnan, nan, v);
    }
    if f.inf {
        let em = i32c(b, emax);
        let top = icmp(b, CmpIPred::Eq, ef, em);
        let m0 = icmp(b, CmpIPred::Eq, mf, zero);
        let pinf = f32c(b, f64::INFINITY);
        let ninf = f32c(b, f64::NEG_INFINITY);
        let inf = sel(b, is_neg, ninf, pinf);
        let special = sel(b, m0, inf, nan);
        v = sel(b, top, special, v);
    }
    v
}

/// The bit pattern (an i8) of f32 `x` as narrow float `dt`: round to
/// nearest even; NaN to NaN; out of range (infinities too) to the largest
/// finite value of the sign when `saturate`, else to NaN (infinity for
/// E5M2). FLOAT4E2M1 has no NaN or infinity: it always saturates, NaN
/// giving 0. E8M0 rounds by `round_mode` (`up` or `down`).
pub fn encode_body(
    b: &mut BodyBuilder<'_>,
    dt: DataType,
    x: TValue,
    saturate: bool,
    round_up: bool,
) -> TValue {
    if dt == DataType::Float8e8m0 {
        return encode_e8m0(b, x, saturate, round_up);
    }
    let f = dt.small_float().expect("a narrow float");
    let saturate = saturate || !f.nan;
    let man = i64::from(f.man);
    let emin = 1 - i64::from(f.bias);
    let a = b.math(MathOp::AbsF, vec![x]);
    let bits = op(b, ArithOp::Bitcast, vec![x], ElemType::I32);
    let zero = i32c(b, 0);
    let is_neg = icmp(b, CmpIPred::Slt, bits, zero);
    let isnan = b.arith(ArithOp::CmpF(CmpFPred::Uno), vec![x, x], ElemType::I1);
    // The grid of a's binade (the subnormal one below emin), at most the
    // binade above the largest finite value: everything from there on
    // overflows alike, and a grid step of 2^(127 - man) (for infinities)
    // would make a / q divide by a value whose reciprocal is an f32
    // denormal, which NVIDIA's driver flushes to zero (+inf cast to
    // FLOAT4E2M1 gave -4 there, not 6).
    let e = ilog2(b, a);
    let lo = i32c(b, emin);
    let e = op(b, ArithOp::MaxSI, vec![e, lo], ElemType::I32);
    let top = decode(dt, max_code(f) as u8).log2().floor() as i64 + 1;
    let hi = i32c(b, top);
    let e = op(b, ArithOp::MinSI, vec![e, hi], ElemType::I32);
    let mk = i32c(b, man);
    let eq = op(b, ArithOp::SubI, vec![e, mk], ElemType::I32);
    let q = pow2(b, eq);
    let t = op(b, ArithOp::DivF, vec![a, q], ElemType::F32);
    let t = b.math(MathOp::RoundEven, vec![t]);
    let r = op(b, ArithOp::MulF, vec![t, q], ElemType::F32);
    let maxc = max_code(f);
    let maxv = decode(dt, maxc as u8);
    let maxf = f32c(b, maxv);
    let over = b.arith(ArithOp::CmpF(CmpFPred::Ogt), vec![r, maxf], ElemType::I1);
    // The code of r (finite, at most the maximum).
    let rc = op(b, ArithOp::MinimumF, vec![r, maxf], ElemType::F32);
    let er = ilog2(b, rc);
    let sub = icmp(b, CmpIPred::Slt, er, lo);
    let er = op(b, ArithOp::MaxSI, vec![er, lo], ElemType::I32);
    let eqr = op(b, ArithOp::SubI, vec![er, mk], ElemType::I32);
    let qr = pow2(b, eqr);
    let mt = op(b, ArithOp::DivF, vec![rc, qr], ElemType::F32);
    let mt = op(b, ArithOp::FPToSI, vec![mt], ElemType::I32);
    let implicit = i32c(b, 1 << f.man);
    let mnorm = op(b, ArithOp::SubI, vec![mt, implicit], ElemType::I32);
    let mant = sel(b, sub, mt, mnorm);
    let bias = i32c(b, i64::from(f.bias));
    let ef = op(b, ArithOp::AddI, vec![er, bias], ElemType::I32);
    let ef = sel(b, sub, zero, ef);
    let ef = op(b, ArithOp::ShLI, vec![ef, mk], ElemType::I32);
    let mut code = op(b, ArithOp::OrI, vec![ef, mant], ElemType::I32);
    let maxk = i32c(b, i64::from(maxc));
    let overflow_code = if saturate {
        maxk
    } else if f.inf {
        i32c(b, i64::from(((1u32 << f.exp) - 1) << f.man))
    } else if f.uz {
        i32c(b, 0x80)
    } else {
        i32c(b, 0x7F)
    };
    code = sel(b, over, overflow_code, code);
    let nan_code = if !f.nan {
        zero
    } else if f.uz {
        i32c(b, 0x80)
    } else {
        i32c(b, 0x7F)
    };
    // The sign, except on FNUZ's zero and NaN (0x80 is NaN there).
    let sbit = i32c(b, 1 << (f.exp + f.man));
    let signed = op(b, ArithOp::OrI, vec![code, sbit], ElemType::I32);
    let mut apply = is_neg;
    if f.uz {
        let nz = icmp(b, CmpIPred::Ne, code, zero);
        let not80 = icmp(b, CmpIPred::Ne, code, nan_code);
        let ok = op(b, ArithOp::AndI, vec![nz, not80], ElemType::I1);
        apply = op(b, ArithOp::AndI, vec![apply, ok], ElemType::I1);
    }
    code = sel(b, apply, signed, code);
    if f.nan {
        code = sel(b, isnan, nan_code, code);
    } else {
        code = sel(b, isnan, zero, code);
    }
    op(b, ArithOp::TruncI, vec![code], ElemType::I8)
}

/// E8M0 (an exponent only, 0xFF NaN): `down` takes x's exponent field,
/// `up` one more when the mantissa is not zero; out of range gives the
/// nearest end when saturating, else NaN.
fn encode_e8m0(b: &mut BodyBuilder<'_>, x: TValue, saturate: bool, up: bool) -> TValue {
    let a = b.math(MathOp::AbsF, vec![x]);
    let bits = op(b, ArithOp::Bitcast, vec![a], ElemType::I32);
    let s = i32c(b, 23);
    let ef = op(b, ArithOp::ShRUI, vec![bits, s], ElemType::I32);
    let mm = i32c(b, 0x7F_FFFF);
    let mf = op(b, ArithOp::AndI, vec![bits, mm], ElemType::I32);
    let zero = i32c(b, 0);
    let one = i32c(b, 1);
    let mut code = ef;
    if up {
        let nz = icmp(b, CmpIPred::Ne, mf, zero);
        let bump = op(b, ArithOp::AddI, vec![ef, one], ElemType::I32);
        code = sel(b, nz, bump, ef);
    }
    let ff = i32c(b, 0xFF);
    let top = i32c(b, 0xFE);
    let nan = ff;
    let isnan = b.arith(ArithOp::CmpF(CmpFPred::Uno), vec![x, x], ElemType::I1);
    // Above the largest (infinities included: field 0xFF).
    let over = icmp(b, CmpIPred::Sgt, code, top);
    let zf = f32c(b, 0.0);
    let is0 = b.arith(ArithOp::CmpF(CmpFPred::Oeq), vec![a, zf], ElemType::I1);
    if saturate {
        code = sel(b, over, top, code);
    } else {
        code = sel(b, over, nan, code);
        code = sel(b, is0, nan, code);
    }
    code = sel(b, isnan, nan, code);
    op(b, ArithOp::TruncI, vec![code], ElemType::I8)
}

/// The ops that take narrow-typed inputs: conversions and data movement
/// (the rest would compute on bit patterns or unwrapped values).
pub const NARROW_OPS: &[&str] = &[
    "Cast",
    "CastLike",
    "QuantizeLinear",
    "DequantizeLinear",
    "Identity",
    "Reshape",
    "Flatten",
    "Squeeze",
    "Unsqueeze",
    "Transpose",
    "Concat",
    "Slice",
    "Gather",
    "Shape",
    "Size",
    "BitCast",
];

/// The stand-in a narrow integer type converts through (its value held
/// in a byte): INT8 for INT4/INT2, UINT8 for UINT4/UINT2.
pub fn int_standin(dt: DataType) -> Option<DataType> {
    match dt {
        DataType::Int4 | DataType::Int2 => Some(DataType::Int8),
        DataType::Uint4 | DataType::Uint2 => Some(DataType::Uint8),
        _ => None,
    }
}

/// An i8 holding an integer wrapped to narrow integer `dt`'s width (the
/// high bits discarded, then sign-extended for the signed types).
pub fn wrap_int(b: &mut BodyBuilder<'_>, dt: DataType, x: TValue) -> TValue {
    let bits = i64::from(dt.packed_bits());
    let i8t = ElemType::I8;
    let sh = b.constant(ScalarBits::Int(8 - bits), i8t);
    let up = b.arith(ArithOp::ShLI, vec![x, sh], i8t);
    let o = if matches!(dt, DataType::Int4 | DataType::Int2) {
        ArithOp::ShRSI
    } else {
        ArithOp::ShRUI
    };
    b.arith(o, vec![up, sh], i8t)
}
