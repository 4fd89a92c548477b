//! GLSL.std.450 ops.
//!
//! Direct conversions to LLVM intrinsics: `FAbs` (`fabs`), `Ceil`, `Floor`,
//! `Trunc`, `Round`, `RoundEven`, `Sqrt`, `Sin`, `Cos`, `Exp`, `Exp2`,
//! `Log`, `Log2`, `Pow`, `Fma`, `FMin`/`NMin` (`minnum`), `FMax`/`NMax`
//! (`maxnum`), `SMin`, `SMax`, `UMin`, `UMax`, `SAbs` (`abs`).
//!
//! The seed's special cases: `InverseSqrt` = `1 / sqrt(x)`, `Tan` =
//! `sin(x) / cos(x)`, `Tanh` = `(exp(2x) - 1) / (exp(2x) + 1)` (in the
//! kernel ABI `copysign(1 - 2 / (exp(2|x|) + 1), x)`, which does not
//! overflow into NaN for large `|x|`).
//!
//! Beyond the seed, as formulas: `FSign` (±1, or `x` itself for zeros and
//! NaN), `SSign` (`smax(smin(x, 1), -1)`), `Fract` (`x - floor(x)`),
//! `Radians`, `Degrees`, the clamps (`min(max(x, lo), hi)`), `FMix` (`x +
//! a * (y - x)`), `Step`, `SmoothStep`, `Length`, `Distance`, `Normalize`,
//! `Cross`, `FaceForward`, `Reflect`, `Refract`, `FindILsb` (`cttz`),
//! `FindSMsb` / `FindUMsb` (`ctlz`; -1 when no bit is found), `ModfStruct`,
//! `FrexpStruct` (`llvm.frexp`).
//! `Asin`, `Acos`, `Atan`, `Atan2`, `Sinh`, `Cosh`, `Asinh`, `Acosh`,
//! `Atanh` and `Ldexp` have no LLVM intrinsic: they call C's libm
//! (`asinf`/`asin`, ...), lane by lane for vectors, `half` through
//! `float`. The packing ops, `Frexp` (pointer form), `Modf` (pointer form), `Determinant`
//! and `MatrixInverse` have no conversion.

use super::super::error::ConvertError;
use super::super::ir::{BinOp, CastOp, FPred, IPred, InstKind, Intrinsic, LType, LValue};
use super::Fx;
use crate::ir::Op;

impl Fx<'_, '_> {
    /// Converts a GLSL.std.450 op.
    pub(crate) fn glsl(&mut self, op: Op, name: &str) -> Result<(), ConvertError> {
        let v = match name {
            "FAbs" | "Ceil" | "Floor" | "Trunc" | "Round" | "RoundEven" | "Sqrt" | "Sin"
            | "Cos" | "Exp" | "Exp2" | "Log" | "Log2" => {
                let x = self.arg(op, 0)?;
                let intr = match name {
                    "FAbs" => "fabs",
                    "Ceil" => "ceil",
                    "Floor" => "floor",
                    "Trunc" => "trunc",
                    "Round" => "round",
                    "RoundEven" => "roundeven",
                    "Sqrt" => "sqrt",
                    "Sin" => "sin",
                    "Cos" => "cos",
                    "Exp" => "exp",
                    "Exp2" => "exp2",
                    "Log" => "log",
                    _ => "log2",
                };
                self.b.unary_intrinsic(intr, vec![x])
            }
            "Pow" | "FMin" | "NMin" | "FMax" | "NMax" | "SMin" | "SMax" | "UMin" | "UMax" => {
                let (x, y) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let intr = match name {
                    "Pow" => "pow",
                    "FMin" | "NMin" => "minnum",
                    "FMax" | "NMax" => "maxnum",
                    "SMin" => "smin",
                    "SMax" => "smax",
                    "UMin" => "umin",
                    _ => "umax",
                };
                self.b.unary_intrinsic(intr, vec![x, y])
            }
            "Fma" => {
                let args = self.args(op)?;
                self.b.unary_intrinsic("fma", args)
            }
            "SAbs" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                self.b.inst(
                    InstKind::Intrinsic(Intrinsic {
                        name: "abs",
                        overloads: vec![ty.clone()],
                        flag: Some(false),
                    }),
                    vec![x],
                    ty,
                )
            }
            "InverseSqrt" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let one = self.b.const_float(ty, 1.0);
                let s = self.b.unary_intrinsic("sqrt", vec![x]);
                self.b.bin(BinOp::FDiv, one, s)
            }
            "Tan" => {
                let x = self.arg(op, 0)?;
                let s = self.b.unary_intrinsic("sin", vec![x]);
                let c = self.b.unary_intrinsic("cos", vec![x]);
                self.b.bin(BinOp::FDiv, s, c)
            }
            "Tanh" if self.cx.kernel() => {
                // 1 - 2 / (exp(2|x|) + 1) with x's sign: no inf / inf for
                // large |x|, where the seed's formula gives NaN.
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let ax = self.b.unary_intrinsic("fabs", vec![x]);
                let two = self.b.const_float(ty.clone(), 2.0);
                let x2 = self.b.bin(BinOp::FMul, two, ax);
                let e = self.b.unary_intrinsic("exp", vec![x2]);
                let one = self.b.const_float(ty, 1.0);
                let den = self.b.bin(BinOp::FAdd, e, one);
                let q = self.b.bin(BinOp::FDiv, two, den);
                let t = self.b.bin(BinOp::FSub, one, q);
                self.b.unary_intrinsic("copysign", vec![t, x])
            }
            "Tanh" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let two = self.b.const_float(ty.clone(), 2.0);
                let x2 = self.b.bin(BinOp::FMul, two, x);
                let e = self.b.unary_intrinsic("exp", vec![x2]);
                let one = self.b.const_float(ty, 1.0);
                let num = self.b.bin(BinOp::FSub, e, one);
                let den = self.b.bin(BinOp::FAdd, e, one);
                self.b.bin(BinOp::FDiv, num, den)
            }
            "FSign" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let zero = self.b.const_float(ty.clone(), 0.0);
                let one = self.b.const_float(ty.clone(), 1.0);
                let minus = self.b.const_float(ty, -1.0);
                let gt = self.b.fcmp(FPred::Ogt, x, zero);
                let lt = self.b.fcmp(FPred::Olt, x, zero);
                let neg = self.b.select(lt, minus, x);
                self.b.select(gt, one, neg)
            }
            "SSign" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let one = self.b.const_int(ty.clone(), 1);
                let minus = self.b.const_int(ty, -1);
                let lo = self.b.unary_intrinsic("smin", vec![x, one]);
                self.b.unary_intrinsic("smax", vec![lo, minus])
            }
            "Fract" => {
                let x = self.arg(op, 0)?;
                let f = self.b.unary_intrinsic("floor", vec![x]);
                self.b.bin(BinOp::FSub, x, f)
            }
            "Radians" | "Degrees" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let k = if name == "Radians" {
                    std::f64::consts::PI / 180.0
                } else {
                    180.0 / std::f64::consts::PI
                };
                let k = self.b.const_float(ty, k);
                self.b.bin(BinOp::FMul, x, k)
            }
            "FClamp" | "NClamp" | "SClamp" | "UClamp" => {
                let (x, lo, hi) = (self.arg(op, 0)?, self.arg(op, 1)?, self.arg(op, 2)?);
                let (max, min) = match name {
                    "SClamp" => ("smax", "smin"),
                    "UClamp" => ("umax", "umin"),
                    _ => ("maxnum", "minnum"),
                };
                let m = self.b.unary_intrinsic(max, vec![x, lo]);
                self.b.unary_intrinsic(min, vec![m, hi])
            }
            "FMix" => {
                let (x, y, a) = (self.arg(op, 0)?, self.arg(op, 1)?, self.arg(op, 2)?);
                let d = self.b.bin(BinOp::FSub, y, x);
                let t = self.b.bin(BinOp::FMul, a, d);
                self.b.bin(BinOp::FAdd, x, t)
            }
            "Step" => {
                let (edge, x) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let ty = self.b.ty(x).clone();
                let zero = self.b.const_float(ty.clone(), 0.0);
                let one = self.b.const_float(ty, 1.0);
                let below = self.b.fcmp(FPred::Olt, x, edge);
                self.b.select(below, zero, one)
            }
            "SmoothStep" => {
                let (e0, e1, x) = (self.arg(op, 0)?, self.arg(op, 1)?, self.arg(op, 2)?);
                let ty = self.b.ty(x).clone();
                let num = self.b.bin(BinOp::FSub, x, e0);
                let den = self.b.bin(BinOp::FSub, e1, e0);
                let q = self.b.bin(BinOp::FDiv, num, den);
                let zero = self.b.const_float(ty.clone(), 0.0);
                let one = self.b.const_float(ty.clone(), 1.0);
                let lo = self.b.unary_intrinsic("maxnum", vec![q, zero]);
                let t = self.b.unary_intrinsic("minnum", vec![lo, one]);
                let two = self.b.const_float(ty.clone(), 2.0);
                let three = self.b.const_float(ty, 3.0);
                let t2 = self.b.bin(BinOp::FMul, two, t);
                let s = self.b.bin(BinOp::FSub, three, t2);
                let tt = self.b.bin(BinOp::FMul, t, t);
                self.b.bin(BinOp::FMul, tt, s)
            }
            "Length" => {
                let x = self.arg(op, 0)?;
                self.length(x)
            }
            "Distance" => {
                let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let d = self.b.bin(BinOp::FSub, a, b);
                self.length(d)
            }
            "Normalize" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let len = self.length(x);
                let l = if ty.lanes() > 1 {
                    self.b.splat(len, &ty)
                } else {
                    len
                };
                self.b.bin(BinOp::FDiv, x, l)
            }
            "Cross" => {
                let (a, b) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let ty = self.b.ty(a).clone();
                let shuf = |fx: &mut Self, v: LValue, m: [i32; 3]| {
                    fx.b.inst(InstKind::ShuffleVector(m.to_vec()), vec![v, v], ty.clone())
                };
                let a1 = shuf(self, a, [1, 2, 0]);
                let b1 = shuf(self, b, [2, 0, 1]);
                let a2 = shuf(self, a, [2, 0, 1]);
                let b2 = shuf(self, b, [1, 2, 0]);
                let p = self.b.bin(BinOp::FMul, a1, b1);
                let q = self.b.bin(BinOp::FMul, a2, b2);
                self.b.bin(BinOp::FSub, p, q)
            }
            "FaceForward" => {
                let (n, i, nref) = (self.arg(op, 0)?, self.arg(op, 1)?, self.arg(op, 2)?);
                let d = self.dot(nref, i);
                let dty = self.b.ty(d).clone();
                let zero = self.b.const_float(dty, 0.0);
                let neg = self.b.fcmp(FPred::Olt, d, zero);
                let ty = self.b.ty(n).clone();
                let minus_n = self.b.inst(InstKind::FNeg, vec![n], ty);
                self.b.select(neg, n, minus_n)
            }
            "Reflect" => {
                let (i, n) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let ty = self.b.ty(i).clone();
                let d = self.dot(n, i);
                let dty = self.b.ty(d).clone();
                let two = self.b.const_float(dty, 2.0);
                let k = self.b.bin(BinOp::FMul, two, d);
                let k = self.splat_like(k, &ty);
                let kn = self.b.bin(BinOp::FMul, k, n);
                self.b.bin(BinOp::FSub, i, kn)
            }
            "Refract" => {
                let (i, n, eta) = (self.arg(op, 0)?, self.arg(op, 1)?, self.arg(op, 2)?);
                let ty = self.b.ty(i).clone();
                let d = self.dot(n, i);
                let sty = self.b.ty(d).clone();
                let one = self.b.const_float(sty.clone(), 1.0);
                let dd = self.b.bin(BinOp::FMul, d, d);
                let t = self.b.bin(BinOp::FSub, one, dd);
                let ee = self.b.bin(BinOp::FMul, eta, eta);
                let et = self.b.bin(BinOp::FMul, ee, t);
                let k = self.b.bin(BinOp::FSub, one, et);
                let zero = self.b.const_float(sty, 0.0);
                let neg = self.b.fcmp(FPred::Olt, k, zero);
                let sk = self.b.unary_intrinsic("sqrt", vec![k]);
                let ed = self.b.bin(BinOp::FMul, eta, d);
                let f = self.b.bin(BinOp::FAdd, ed, sk);
                let ev = self.splat_like(eta, &ty);
                let fv = self.splat_like(f, &ty);
                let ei = self.b.bin(BinOp::FMul, ev, i);
                let fn_ = self.b.bin(BinOp::FMul, fv, n);
                let r = self.b.bin(BinOp::FSub, ei, fn_);
                let z = self.b.zero(ty);
                self.b.select(neg, z, r)
            }
            "FindILsb" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let tz = self.b.inst(
                    InstKind::Intrinsic(Intrinsic {
                        name: "cttz",
                        overloads: vec![ty.clone()],
                        flag: Some(false),
                    }),
                    vec![x],
                    ty.clone(),
                );
                let zero = self.b.const_int(ty.clone(), 0);
                let none = self.b.const_int(ty, -1);
                let is_zero = self.b.icmp(IPred::Eq, x, zero);
                self.b.select(is_zero, none, tz)
            }
            "FindSMsb" | "FindUMsb" => {
                let x = self.arg(op, 0)?;
                let ty = self.b.ty(x).clone();
                let y = if name == "FindSMsb" {
                    let zero = self.b.const_int(ty.clone(), 0);
                    let neg = self.b.icmp(IPred::Slt, x, zero);
                    let ones = self.b.const_int(ty.clone(), -1);
                    let inv = self.b.bin(BinOp::Xor, x, ones);
                    self.b.select(neg, inv, x)
                } else {
                    x
                };
                let lz = self.b.inst(
                    InstKind::Intrinsic(Intrinsic {
                        name: "ctlz",
                        overloads: vec![ty.clone()],
                        flag: Some(false),
                    }),
                    vec![y],
                    ty.clone(),
                );
                let top = self.b.const_int(ty.clone(), i128::from(ty.bits()) - 1);
                self.b.bin(BinOp::Sub, top, lz)
            }
            "ModfStruct" => {
                let x = self.arg(op, 0)?;
                let whole = self.b.unary_intrinsic("trunc", vec![x]);
                let fract = self.b.bin(BinOp::FSub, x, whole);
                let ty = self.res_ty(op)?;
                let s = self.b.undef(ty);
                let s = self.b.insert_value(s, fract, vec![0]);
                self.b.insert_value(s, whole, vec![1])
            }
            "FrexpStruct" => {
                // llvm.frexp returns a literal (unpacked) struct; the
                // SPIR-V struct converts to a packed one: fields moved over.
                let x = self.arg(op, 0)?;
                let xty = self.b.ty(x).clone();
                let ety = xty.with_scalar(LType::I32);
                let lit = LType::Struct {
                    packed: false,
                    fields: vec![xty.clone(), ety.clone()],
                };
                let r = self
                    .b
                    .intrinsic("frexp", vec![xty.clone(), ety.clone()], vec![x], lit);
                let m = self.b.extract_value(r, vec![0], xty);
                let e = self.b.extract_value(r, vec![1], ety);
                let ty = self.res_ty(op)?;
                let s = self.b.undef(ty);
                let s = self.b.insert_value(s, m, vec![0]);
                self.b.insert_value(s, e, vec![1])
            }
            "Asin" | "Acos" | "Atan" | "Sinh" | "Cosh" | "Asinh" | "Acosh" | "Atanh" => {
                let x = self.arg(op, 0)?;
                let f = name.to_ascii_lowercase();
                self.libm(op, &f, vec![x])?
            }
            "Atan2" => {
                let (y, x) = (self.arg(op, 0)?, self.arg(op, 1)?);
                self.libm(op, "atan2", vec![y, x])?
            }
            "Ldexp" => {
                let (x, e) = (self.arg(op, 0)?, self.arg(op, 1)?);
                let ety = self.b.ty(e).with_scalar(LType::I32);
                let e = self.fit_width(e, &ety, true);
                self.libm(op, "ldexp", vec![x, e])?
            }
            _ => return Err(self.unsupported(op, None)),
        };
        self.set(op, v);
        Ok(())
    }

    fn dot(&mut self, a: LValue, b: LValue) -> LValue {
        let p = self.b.bin(BinOp::FMul, a, b);
        self.reduce(p, BinOp::FAdd)
    }

    fn length(&mut self, x: LValue) -> LValue {
        if self.b.ty(x).lanes() == 1 && !matches!(self.b.ty(x), LType::Vector(..)) {
            return self.b.unary_intrinsic("fabs", vec![x]);
        }
        let d = self.dot(x, x);
        self.b.unary_intrinsic("sqrt", vec![d])
    }

    fn splat_like(&mut self, s: LValue, ty: &LType) -> LValue {
        if matches!(ty, LType::Vector(..)) && !matches!(self.b.ty(s), LType::Vector(..)) {
            self.b.splat(s, ty)
        } else {
            s
        }
    }

    /// Calls C's `f` (`asinf` for `float`, `asin` for `double`) lane by
    /// lane; `half` goes through `float`.
    fn libm(&mut self, op: Op, f: &str, args: Vec<LValue>) -> Result<LValue, ConvertError> {
        let ty = self.b.ty(args[0]).clone();
        let (scalar, symbol) = match ty.scalar() {
            LType::Double => (LType::Double, f.to_owned()),
            LType::Float | LType::Half => (LType::Float, format!("{f}f")),
            _ => return Err(self.unsupported(op, Some("on this type".into()))),
        };
        let params: Vec<LType> = args
            .iter()
            .map(|&a| {
                if self.b.ty(a).is_float() {
                    scalar.clone()
                } else {
                    LType::I32
                }
            })
            .collect();
        self.cx.declare(&symbol, &params, scalar.clone());
        let lanes = if matches!(ty, LType::Vector(..)) {
            Some(ty.lanes())
        } else {
            None
        };
        let call_scalar = |fx: &mut Self, xs: Vec<LValue>| -> LValue {
            let xs: Vec<LValue> = xs
                .into_iter()
                .map(|x| {
                    if *fx.b.ty(x) == LType::Half {
                        fx.b.cast(CastOp::FPExt, x, LType::Float)
                    } else {
                        x
                    }
                })
                .collect();
            let r =
                fx.b.call(&symbol, xs, scalar.clone())
                    .expect("libm functions return a value");
            if *ty.scalar() == LType::Half {
                fx.b.cast(CastOp::FPTrunc, r, LType::Half)
            } else {
                r
            }
        };
        match lanes {
            None => Ok(call_scalar(self, args)),
            Some(n) => {
                let mut acc = self.b.undef(ty.clone());
                for lane in 0..n {
                    let i = self.b.i32(i64::from(lane));
                    let xs: Vec<LValue> =
                        args.iter().map(|&a| self.b.extract_element(a, i)).collect();
                    let r = call_scalar(self, xs);
                    acc = self.b.insert_element(acc, r, i);
                }
                Ok(acc)
            }
        }
    }
}
