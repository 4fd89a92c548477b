//! Scalar and vector `arith` semantics for host code.
//!
//! Integers follow MLIR's two's-complement semantics at their width (index
//! is 64-bit on the host); floats are computed in their own format (`f32`
//! results are rounded to `f32`). Vectors apply the scalar op lane by lane.

use super::value::{mask, HostValue};
use crate::kernel::{FloatTy, KOpKind, KType};

/// Why a scalar op could not be evaluated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum EvalError {
    /// Operand kinds do not fit the op.
    Mismatch,
    /// Integer division by zero.
    DivByZero,
    /// Not an arith op the host evaluates.
    Unsupported,
}

type R = Result<HostValue, EvalError>;

/// Applies `f` lane by lane when the operands are vectors.
fn lanes(args: &[HostValue], f: &dyn Fn(&[HostValue]) -> R) -> R {
    if let Some(HostValue::Vector(first)) = args.first() {
        let n = first.len();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let lane: Vec<HostValue> = args
                .iter()
                .map(|a| match a {
                    HostValue::Vector(v) => v.get(i).cloned().ok_or(EvalError::Mismatch),
                    scalar => Ok(scalar.clone()),
                })
                .collect::<Result<_, _>>()?;
            out.push(f(&lane)?);
        }
        return Ok(HostValue::Vector(out));
    }
    f(args)
}

fn int2(args: &[HostValue]) -> Result<(u32, u64, u64, i64, i64), EvalError> {
    match args {
        [a @ HostValue::Int { bits, raw: x }, b @ HostValue::Int { raw: y, .. }, ..] => Ok((
            *bits,
            *x,
            *y,
            a.as_signed().ok_or(EvalError::Mismatch)?,
            b.as_signed().ok_or(EvalError::Mismatch)?,
        )),
        _ => Err(EvalError::Mismatch),
    }
}

fn flt2(args: &[HostValue]) -> Result<(FloatTy, f64, f64), EvalError> {
    match args {
        [HostValue::Float { ty, value: x }, HostValue::Float { value: y, .. }, ..] => {
            Ok((*ty, *x, *y))
        }
        _ => Err(EvalError::Mismatch),
    }
}

fn fbin(args: &[HostValue], f: fn(f64, f64) -> f64, f32op: fn(f32, f32) -> f32) -> R {
    let (ty, x, y) = flt2(args)?;
    Ok(match ty {
        FloatTy::F64 => HostValue::float(ty, f(x, y)),
        _ => HostValue::float(ty, f64::from(f32op(x as f32, y as f32))),
    })
}

fn bool_val(b: bool) -> HostValue {
    HostValue::int(1, u64::from(b))
}

fn signed_of(bits: u32, v: i64) -> HostValue {
    HostValue::int(bits, v as u64)
}

/// `arith.cmpi` by predicate keyword.
fn cmpi(pred: &str, args: &[HostValue]) -> R {
    let (_, x, y, sx, sy) = int2(args)?;
    Ok(bool_val(match pred {
        "eq" => x == y,
        "ne" => x != y,
        "slt" => sx < sy,
        "sle" => sx <= sy,
        "sgt" => sx > sy,
        "sge" => sx >= sy,
        "ult" => x < y,
        "ule" => x <= y,
        "ugt" => x > y,
        "uge" => x >= y,
        _ => return Err(EvalError::Mismatch),
    }))
}

/// `arith.cmpf` by predicate keyword.
fn cmpf(pred: &str, args: &[HostValue]) -> R {
    let (_, x, y) = flt2(args)?;
    let unordered = x.is_nan() || y.is_nan();
    let (ordered_only, rel) = match pred.strip_prefix('o') {
        Some(r) => (true, r),
        None => match pred.strip_prefix('u') {
            Some(r) => (false, r),
            None => {
                return Ok(bool_val(match pred {
                    "false" => false,
                    "true" => true,
                    "ord" => !unordered,
                    "uno" => unordered,
                    _ => return Err(EvalError::Mismatch),
                }))
            }
        },
    };
    if pred == "ord" {
        return Ok(bool_val(!unordered));
    }
    if pred == "uno" {
        return Ok(bool_val(unordered));
    }
    if unordered {
        return Ok(bool_val(!ordered_only));
    }
    Ok(bool_val(match rel {
        "eq" => x == y,
        "ne" => x != y,
        "lt" => x < y,
        "le" => x <= y,
        "gt" => x > y,
        "ge" => x >= y,
        _ => return Err(EvalError::Mismatch),
    }))
}

/// Evaluates the arith op `op` with `args`; `pred` is the comparison
/// keyword for `cmpi`/`cmpf`; `result` is the result type (for casts).
pub(crate) fn eval(op: KOpKind, args: &[HostValue], pred: Option<&str>, result: &KType) -> R {
    use KOpKind::*;
    let elem = result.scalar().clone();
    let f = |a: &[HostValue]| -> R {
        match op {
            ArithAddI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x.wrapping_add(y))),
            ArithSubI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x.wrapping_sub(y))),
            ArithMulI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x.wrapping_mul(y))),
            ArithAndI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x & y)),
            ArithOrI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x | y)),
            ArithXOrI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x ^ y)),
            ArithDivSI | ArithRemSI | ArithCeilDivSI | ArithFloorDivSI => {
                let (b, _, _, x, y) = int2(a)?;
                if y == 0 {
                    return Err(EvalError::DivByZero);
                }
                let q = x.wrapping_div(y);
                let r = x.wrapping_rem(y);
                let v = match op {
                    ArithDivSI => q,
                    ArithRemSI => r,
                    ArithCeilDivSI if r != 0 && ((r < 0) == (y < 0)) => q + 1,
                    ArithFloorDivSI if r != 0 && ((r < 0) != (y < 0)) => q - 1,
                    _ => q,
                };
                Ok(signed_of(b, v))
            }
            ArithDivUI | ArithRemUI | ArithCeilDivUI => {
                let (b, x, y, ..) = int2(a)?;
                if y == 0 {
                    return Err(EvalError::DivByZero);
                }
                Ok(HostValue::int(
                    b,
                    match op {
                        ArithDivUI => x / y,
                        ArithRemUI => x % y,
                        _ => x.div_ceil(y),
                    },
                ))
            }
            ArithShLI | ArithShRSI | ArithShRUI => {
                let (b, x, y, sx, _) = int2(a)?;
                if y >= u64::from(b) {
                    // Poison in MLIR; the host gives zero / the sign.
                    return Ok(HostValue::int(
                        b,
                        if op == ArithShRSI && sx < 0 {
                            u64::MAX
                        } else {
                            0
                        },
                    ));
                }
                Ok(match op {
                    ArithShLI => HostValue::int(b, x << y),
                    ArithShRSI => signed_of(b, sx >> y),
                    _ => HostValue::int(b, x >> y),
                })
            }
            ArithMinSI => int2(a).map(|(b, _, _, x, y)| signed_of(b, x.min(y))),
            ArithMaxSI => int2(a).map(|(b, _, _, x, y)| signed_of(b, x.max(y))),
            ArithMinUI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x.min(y))),
            ArithMaxUI => int2(a).map(|(b, x, y, ..)| HostValue::int(b, x.max(y))),
            ArithAddF => fbin(a, |x, y| x + y, |x, y| x + y),
            ArithSubF => fbin(a, |x, y| x - y, |x, y| x - y),
            ArithMulF => fbin(a, |x, y| x * y, |x, y| x * y),
            ArithDivF => fbin(a, |x, y| x / y, |x, y| x / y),
            ArithRemF => fbin(a, |x, y| x % y, |x, y| x % y),
            ArithMaximumF => fbin(a, maximum, |x, y| {
                maximum(f64::from(x), f64::from(y)) as f32
            }),
            ArithMinimumF => fbin(a, minimum, |x, y| {
                minimum(f64::from(x), f64::from(y)) as f32
            }),
            ArithMaxNumF => fbin(a, f64::max, f32::max),
            ArithMinNumF => fbin(a, f64::min, f32::min),
            ArithNegF => match a {
                [HostValue::Float { ty, value }] => Ok(HostValue::float(*ty, -value)),
                _ => Err(EvalError::Mismatch),
            },
            ArithCmpI => cmpi(pred.ok_or(EvalError::Mismatch)?, a),
            ArithCmpF => cmpf(pred.ok_or(EvalError::Mismatch)?, a),
            ArithSelect => match a {
                [c @ HostValue::Int { .. }, t, e] => Ok(if c.as_unsigned() == Some(1) {
                    t.clone()
                } else {
                    e.clone()
                }),
                _ => Err(EvalError::Mismatch),
            },
            ArithExtSI | ArithIndexCast => match (&a[0], &elem) {
                (v @ HostValue::Int { .. }, KType::Int(b)) => {
                    Ok(signed_of(*b, v.as_signed().ok_or(EvalError::Mismatch)?))
                }
                (v @ HostValue::Int { .. }, KType::Index) => {
                    Ok(HostValue::index(v.as_signed().ok_or(EvalError::Mismatch)?))
                }
                _ => Err(EvalError::Mismatch),
            },
            ArithExtUI | ArithTruncI | ArithIndexCastUI => match (&a[0], &elem) {
                (HostValue::Int { raw, .. }, KType::Int(b)) => Ok(HostValue::int(*b, *raw)),
                (HostValue::Int { raw, .. }, KType::Index) => Ok(HostValue::int(64, *raw)),
                _ => Err(EvalError::Mismatch),
            },
            ArithSIToFP | ArithUIToFP => match (&a[0], &elem) {
                (v @ HostValue::Int { .. }, KType::Float(t)) => {
                    let x = if op == ArithSIToFP {
                        v.as_signed().ok_or(EvalError::Mismatch)? as f64
                    } else {
                        v.as_unsigned().ok_or(EvalError::Mismatch)? as f64
                    };
                    // i64 -> f32 through f64 could double-round; the
                    // widths runner files use (<= 32 bits) are exact in f64.
                    Ok(HostValue::float(*t, x))
                }
                _ => Err(EvalError::Mismatch),
            },
            ArithFPToSI | ArithFPToUI => match (&a[0], &elem) {
                (HostValue::Float { value, .. }, KType::Int(b)) => {
                    let t = value.trunc();
                    Ok(if op == ArithFPToSI {
                        signed_of(*b, t as i64)
                    } else {
                        HostValue::int(*b, t as u64)
                    })
                }
                _ => Err(EvalError::Mismatch),
            },
            ArithExtF | ArithTruncF => match (&a[0], &elem) {
                (HostValue::Float { value, .. }, KType::Float(t)) => {
                    Ok(HostValue::float(*t, *value))
                }
                _ => Err(EvalError::Mismatch),
            },
            ArithBitcast => match (&a[0], &elem) {
                (
                    HostValue::Float {
                        ty: FloatTy::F32,
                        value,
                    },
                    KType::Int(32),
                ) => Ok(HostValue::int(32, u64::from((*value as f32).to_bits()))),
                (
                    HostValue::Float {
                        ty: FloatTy::F64,
                        value,
                    },
                    KType::Int(64),
                ) => Ok(HostValue::int(64, value.to_bits())),
                (HostValue::Int { raw, .. }, KType::Float(FloatTy::F32)) => Ok(HostValue::float(
                    FloatTy::F32,
                    f64::from(f32::from_bits(*raw as u32)),
                )),
                (HostValue::Int { raw, .. }, KType::Float(FloatTy::F64)) => {
                    Ok(HostValue::float(FloatTy::F64, f64::from_bits(*raw)))
                }
                (HostValue::Int { raw, .. }, KType::Int(b)) => {
                    Ok(HostValue::int(*b, *raw & mask(*b)))
                }
                _ => Err(EvalError::Mismatch),
            },
            _ => Err(EvalError::Unsupported),
        }
    };
    lanes(args, &f)
}

/// IEEE 754-2019 maximum (NaN propagating, -0 < +0).
pub(crate) fn maximum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() {
            y
        } else {
            x
        }
    } else {
        x.max(y)
    }
}

/// IEEE 754-2019 minimum (NaN propagating, -0 < +0).
pub(crate) fn minimum(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        if x.is_sign_negative() {
            x
        } else {
            y
        }
    } else {
        x.min(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i(v: i64) -> HostValue {
        HostValue::int(32, v as u64)
    }

    #[test]
    fn signed_division_family() {
        let t = KType::i32();
        let cases = [
            (KOpKind::ArithDivSI, -7, 2, -3),
            (KOpKind::ArithRemSI, -7, 2, -1),
            (KOpKind::ArithCeilDivSI, 7, 2, 4),
            (KOpKind::ArithCeilDivSI, -7, 2, -3),
            (KOpKind::ArithCeilDivSI, 7, -2, -3),
            (KOpKind::ArithFloorDivSI, -7, 2, -4),
            (KOpKind::ArithFloorDivSI, 7, -2, -4),
            (KOpKind::ArithFloorDivSI, -7, -2, 3),
        ];
        for (op, a, b, want) in cases {
            let got = eval(op, &[i(a), i(b)], None, &t).unwrap();
            assert_eq!(got.as_signed(), Some(want), "{op:?} {a} {b}");
        }
        assert_eq!(
            eval(KOpKind::ArithDivSI, &[i(1), i(0)], None, &t),
            Err(EvalError::DivByZero)
        );
    }

    #[test]
    fn f32_rounding_and_casts() {
        let f = |v: f64| HostValue::float(FloatTy::F32, v);
        let s = eval(KOpKind::ArithAddF, &[f(1.1), f(2.2)], None, &KType::f32()).unwrap();
        assert_eq!(s.as_float(), Some(f64::from(1.1f32 + 2.2f32)));
        let t = eval(KOpKind::ArithTruncI, &[i(300)], None, &KType::Int(8)).unwrap();
        assert_eq!(t.as_signed(), Some(44));
        let c = eval(
            KOpKind::ArithCmpI,
            &[i(-1), i(1)],
            Some("ult"),
            &KType::bool(),
        )
        .unwrap();
        assert_eq!(c.as_unsigned(), Some(0));
    }
}
