//! Accurate expansions of `math` functions GLSL.std.450 lacks or defines
//! too loosely: every transcendental function on f64 (GLSL.std.450 has
//! `Exp`, `Log`, `Pow`, trigonometric and hyperbolic functions for 16- and
//! 32-bit floats only) and `math.expm1`, `math.log1p` and `math.tanh` on
//! every float type (`exp(x) - 1` and `log(1 + x)` lose every digit near
//! 0, and so does lavapipe's `Tanh`, `(e^2x - 1) / (e^2x + 1)`: ONNX's
//! Mish node test failed on it).
//!
//! The algorithms are fdlibm's (Sun's freely distributable libm, the one
//! behind musl, FreeBSD and Java's `StrictMath`), written with SPIR-V's
//! arithmetic ops plus GLSL.std.450 `FrexpStruct`, `Ldexp`, `RoundEven`,
//! `Trunc` and `FAbs`, which Vulkan defines for 64-bit floats. Every
//! float op is decorated `NoContraction`, so that a driver neither fuses
//! nor rewrites it (the error-free transformations depend on it), and
//! none relies on a fused `Fma` (Vulkan does not require one; lavapipe's
//! f64 `Fma` is not fused): products are made exact by Dekker's method.
//!
//! * [`exp`]: `exp`, `exp2`, `expm1`, `tanh` — `x = k ln2 + r` (Cody-Waite,
//!   `ln2` split in two), a degree-5 rational approximation of `exp(r)` on
//!   `|r| <= ln2 / 2`, the result scaled by `2^k` in two steps (so that
//!   neither factor leaves the normal range).
//! * [`log`]: `log`, `log2`, `log10`, `log1p` — `x = 2^k m` with `m` in
//!   `[sqrt(1/2), sqrt(2))` (`FrexpStruct`; subnormals are scaled by 2^54
//!   first), then `log(m) = 2 atanh(s)`, `s = (m - 1) / (m + 1)`. `pow`,
//!   `log2` and `log10` use a double-double form of it (error below
//!   2^-63 relative).
//! * [`pow`]: `pow(x, y) = exp(y log|x|)` in double-double, with C99's
//!   (IEEE 754's `pow`) special cases.
//! * [`fma`]: f32 `fma` rounded once where the device's `Fma` may round
//!   twice (computed in f64, an f32 tie broken by the sum's error), and
//!   f16/bf16 `fma` computed in f32 rounded to odd, so that the rounding to
//!   the format is the only one.
//! * [`round`]: f64 `trunc` and `roundeven` with IEEE's results where
//!   lavapipe's `Trunc` / `RoundEven` on doubles are wrong (`trunc(-0.25)`
//!   is +0 there, `roundeven(1.5)` is 1).
//!
//! Measured against mpmath at 200 bits (a prototype of the same operation
//! sequence, and the corpus file `math_f64.mlir` on lavapipe and the CPU
//! runner): see the figures in `math_f64.mlir`'s generator (gen.py).
//!
//! Special values follow IEEE 754 / C99 Annex F: `exp(-inf) = 0`,
//! `log(0) = -inf`, `log(x < 0) = NaN`, `expm1(-0) = -0`, `pow(x, 0) = 1`
//! (NaN `x` included), `pow(1, y) = 1`, `pow(-1, ±inf) = 1`, and NaN in,
//! NaN out otherwise.

pub(crate) mod exp;
pub(crate) mod fma;
pub(crate) mod fma64;
pub(crate) mod log;
pub(crate) mod pow;
pub(crate) mod round;

use crate::grammar::{GlslOp, Opcode};
use crate::ir::{Type, Value};
use crate::kernel::{FloatTy, KOpKind, KType};

use super::context::Lowerer;
use super::error::LowerError;
use super::helpers::ints::bool_like;

/// The precision an expansion computes in: its constants and thresholds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Prec {
    /// IEEE binary32.
    F32,
    /// IEEE binary64.
    F64,
}

/// Lowers `kind` when this module has an expansion for it at the current
/// op's element type; `None` leaves the op to [`super::math`].
pub(crate) fn lower(l: &mut Lowerer, kind: KOpKind) -> Result<Option<Value>, LowerError> {
    use KOpKind::*;
    let elem = match l.result_kernel_type(0)?.scalar() {
        KType::Float(f) => *f,
        _ => return Ok(None),
    };
    let ty = l.result_type(0)?;
    if elem == FloatTy::F64 {
        let mut f = Fb::new(l, ty, Prec::F64);
        let x = f.l.operand(0)?;
        let v = match kind {
            MathExp => exp::exp(&mut f, x),
            MathExp2 => exp::exp2(&mut f, x),
            MathExpM1 => exp::expm1(&mut f, x),
            MathTanh => exp::tanh(&mut f, x),
            MathLog => log::log(&mut f, x),
            MathLog2 => log::log2(&mut f, x),
            MathLog10 => log::log10(&mut f, x),
            MathLog1p => log::log1p(&mut f, x),
            MathPowF => {
                let y = f.l.operand(1)?;
                pow::pow(&mut f, x, y)
            }
            MathTrunc => round::trunc(&mut f, x),
            MathRoundEven => round::round_even(&mut f, x),
            _ => return Ok(None),
        };
        return Ok(Some(v));
    }
    if !matches!(kind, MathExpM1 | MathLog1p | MathTanh) {
        return Ok(None);
    }
    // f32, and f16 computed in f32 (one rounding back to f16).
    let x = l.operand(0)?;
    let wide = if elem == FloatTy::F32 {
        ty
    } else {
        let f32 = l.module.types.float(crate::ir::FloatKind::F32);
        match l.module.types.component_count(ty) {
            1 => f32,
            n => l.module.types.vector(n, f32),
        }
    };
    let xw = if wide == ty {
        x
    } else {
        l.core_op(Opcode::FConvert, vec![x], wide)
    };
    let mut f = Fb::new(l, wide, Prec::F32);
    let v = match kind {
        MathExpM1 => exp::expm1(&mut f, xw),
        MathTanh => exp::tanh(&mut f, xw),
        _ => log::log1p(&mut f, xw),
    };
    Ok(Some(if wide == ty {
        v
    } else {
        l.core_op(Opcode::FConvert, vec![v], ty)
    }))
}

/// A builder of float expressions of one type (scalar or vector) `ty`,
/// with its bool type `bt` and 32-bit integer type `it` of the same shape.
pub(crate) struct Fb<'a, 'k> {
    /// The lowerer the ops go to.
    pub l: &'a mut Lowerer<'k>,
    /// The float type.
    pub ty: Type,
    /// The bool type of the same shape.
    pub bt: Type,
    /// The `i32` type of the same shape.
    pub it: Type,
    /// The precision (chooses constants).
    pub prec: Prec,
}

impl<'a, 'k> Fb<'a, 'k> {
    fn new(l: &'a mut Lowerer<'k>, ty: Type, prec: Prec) -> Self {
        let bt = bool_like(l, ty);
        let i = l.module.types.int(32);
        let it = match l.module.types.component_count(ty) {
            1 => i,
            n => l.module.types.vector(n, i),
        };
        Fb {
            l,
            ty,
            bt,
            it,
            prec,
        }
    }

    /// A float constant (splat for vectors).
    pub fn c(&mut self, v: f64) -> Value {
        self.l.const_float(self.ty, v)
    }

    /// An `i32` constant (splat for vectors).
    pub fn ci(&mut self, v: i32) -> Value {
        self.l.const_int(self.it, i128::from(v))
    }

    /// A float op decorated `NoContraction`: drivers must neither fuse it
    /// with another op nor rewrite it algebraically (Mesa's NIR marks such
    /// ops exact; without it `(1 + x) - 1` becomes `x` and TwoSum's error
    /// term becomes 0 on lavapipe).
    fn exact(&mut self, name: Opcode, operands: Vec<Value>) -> Value {
        let unit = self.l.module.attrs.unit();
        let ty = self.ty;
        self.l
            .core_op_with_attrs(name, operands, ty, vec![("no_contraction", unit)])
    }

    fn bin(&mut self, name: Opcode, a: Value, b: Value) -> Value {
        self.exact(name, vec![a, b])
    }

    /// `a + b`.
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.bin(Opcode::FAdd, a, b)
    }

    /// `a - b`.
    pub fn sub(&mut self, a: Value, b: Value) -> Value {
        self.bin(Opcode::FSub, a, b)
    }

    /// `a * b`.
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        self.bin(Opcode::FMul, a, b)
    }

    /// `a / b`.
    pub fn div(&mut self, a: Value, b: Value) -> Value {
        self.bin(Opcode::FDiv, a, b)
    }

    /// `-a`.
    pub fn neg(&mut self, a: Value) -> Value {
        self.exact(Opcode::FNegate, vec![a])
    }

    /// `a * b + c`, rounded twice: GLSL.std.450 `Fma` need not be fused
    /// (lavapipe's f64 one is not), so nothing here relies on it.
    pub fn mul_add(&mut self, a: Value, b: Value, c: Value) -> Value {
        let m = self.mul(a, b);
        self.add(m, c)
    }

    /// `|a|`.
    pub fn abs(&mut self, a: Value) -> Value {
        self.l.glsl_op(GlslOp::FAbs, vec![a], self.ty)
    }

    /// `a` rounded to an integral value, ties to even.
    pub fn round_even(&mut self, a: Value) -> Value {
        self.l.glsl_op(GlslOp::RoundEven, vec![a], self.ty)
    }

    /// The sign of `a`: -1, 0 or 1 (`FSign`).
    pub fn sign(&mut self, a: Value) -> Value {
        self.l.glsl_op(GlslOp::FSign, vec![a], self.ty)
    }

    /// `a` truncated toward zero (an integral float).
    pub fn trunc(&mut self, a: Value) -> Value {
        self.l.glsl_op(GlslOp::Trunc, vec![a], self.ty)
    }

    /// Horner's scheme: `c[0] + t (c[1] + t (c[2] + ...))`.
    pub fn poly(&mut self, t: Value, c: &[f64]) -> Value {
        let mut acc = self.c(c[c.len() - 1]);
        for &k in c[..c.len() - 1].iter().rev() {
            let m = self.mul(acc, t);
            let kc = self.c(k);
            acc = self.add(m, kc);
        }
        acc
    }

    /// A float comparison (`FOrdLessThan`, ...; NaN compares false).
    pub fn cmp(&mut self, name: Opcode, a: Value, b: Value) -> Value {
        self.l.core_op(name, vec![a, b], self.bt)
    }

    /// `a < k` for a constant `k`.
    pub fn lt_c(&mut self, a: Value, k: f64) -> Value {
        let kc = self.c(k);
        self.cmp(Opcode::FOrdLessThan, a, kc)
    }

    /// `a > k` for a constant `k`.
    pub fn gt_c(&mut self, a: Value, k: f64) -> Value {
        let kc = self.c(k);
        self.cmp(Opcode::FOrdGreaterThan, a, kc)
    }

    /// `a == k` for a constant `k`.
    pub fn eq_c(&mut self, a: Value, k: f64) -> Value {
        let kc = self.c(k);
        self.cmp(Opcode::FOrdEqual, a, kc)
    }

    /// `a` is NaN.
    pub fn is_nan(&mut self, a: Value) -> Value {
        self.l.core_op(Opcode::IsNan, vec![a], self.bt)
    }

    /// `a && b` on bools.
    pub fn and(&mut self, a: Value, b: Value) -> Value {
        self.l.core_op(Opcode::LogicalAnd, vec![a, b], self.bt)
    }

    /// `a || b` on bools.
    pub fn or(&mut self, a: Value, b: Value) -> Value {
        self.l.core_op(Opcode::LogicalOr, vec![a, b], self.bt)
    }

    /// `!a` on bools.
    pub fn not(&mut self, a: Value) -> Value {
        self.l.core_op(Opcode::LogicalNot, vec![a], self.bt)
    }

    /// `c ? a : b` (floats).
    pub fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.l.core_op(Opcode::Select, vec![c, a, b], self.ty)
    }

    /// `c ? k : b` for a constant `k`.
    pub fn sel_c(&mut self, c: Value, k: f64, b: Value) -> Value {
        let kc = self.c(k);
        self.sel(c, kc, b)
    }

    /// `c ? a : b` (i32s).
    pub fn sel_i(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.l.core_op(Opcode::Select, vec![c, a, b], self.it)
    }

    /// An integral float in i32 range to i32.
    pub fn f_to_i(&mut self, a: Value) -> Value {
        self.l.core_op(Opcode::ConvertFToS, vec![a], self.it)
    }

    /// An i32 to float (exact).
    pub fn i_to_f(&mut self, a: Value) -> Value {
        self.l.core_op(Opcode::ConvertSToF, vec![a], self.ty)
    }

    /// An i32 `a` clamped to `[lo, hi]` (`SClamp`).
    pub fn clamp_i(&mut self, a: Value, lo: i32, hi: i32) -> Value {
        let (lo, hi) = (self.ci(lo), self.ci(hi));
        self.l.glsl_op(GlslOp::SClamp, vec![a, lo, hi], self.it)
    }

    /// `a - b` on i32s.
    pub fn isub(&mut self, a: Value, b: Value) -> Value {
        self.l.core_op(Opcode::ISub, vec![a, b], self.it)
    }

    /// `2^k` for an i32 `k` inside the normal range.
    pub fn pow2(&mut self, k: Value) -> Value {
        let one = self.c(1.0);
        self.l.glsl_op(GlslOp::Ldexp, vec![one, k], self.ty)
    }

    /// `y * 2^k` for an i32 `k` whose halves keep `2^(k/2)` normal: two
    /// exact scalings and one rounding, whatever the driver's `Ldexp` does
    /// at the ends of the range.
    pub fn scale(&mut self, y: Value, k: Value) -> Value {
        let two = self.ci(2);
        let k1 = self.l.core_op(Opcode::SDiv, vec![k, two], self.it);
        let k2 = self.isub(k, k1);
        let p1 = self.pow2(k1);
        let p2 = self.pow2(k2);
        let y1 = self.mul(y, p1);
        self.mul(y1, p2)
    }

    /// `(m, e)` with `a = m 2^e`, `|m|` in `[0.5, 1)` (for normal `a`).
    pub fn frexp(&mut self, a: Value) -> (Value, Value) {
        let st = self
            .l
            .module
            .types
            .struct_of(vec![(self.ty, None), (self.it, None)]);
        let s = self.l.glsl_op(GlslOp::FrexpStruct, vec![a], st);
        let (ty, it) = (self.ty, self.it);
        (self.l.extract(s, 0, ty), self.l.extract(s, 1, it))
    }

    /// `a + b` as a double-double `(s, e)`, exact (Knuth's TwoSum).
    pub fn two_sum(&mut self, a: Value, b: Value) -> (Value, Value) {
        let s = self.add(a, b);
        let bb = self.sub(s, a);
        let sb = self.sub(s, bb);
        let da = self.sub(a, sb);
        let db = self.sub(b, bb);
        let e = self.add(da, db);
        (s, e)
    }

    /// `a + b` as `(s, e)` for `|a| >= |b|` (Dekker's Fast2Sum).
    pub fn fast_two_sum(&mut self, a: Value, b: Value) -> (Value, Value) {
        let s = self.add(a, b);
        let d = self.sub(s, a);
        let e = self.sub(b, d);
        (s, e)
    }

    /// `(hi, lo)` with `a = hi + lo`, each half of 26 bits (Veltkamp's
    /// split; f64, `|a| < 2^995`).
    fn split(&mut self, a: Value) -> (Value, Value) {
        let k = self.c(134_217_729.0); // 2^27 + 1
        let t = self.mul(k, a);
        let d = self.sub(t, a);
        let hi = self.sub(t, d);
        let lo = self.sub(a, hi);
        (hi, lo)
    }

    /// `a * b` as `(p, e)`, exact (Dekker's product, without `Fma`); `e`
    /// is 0 where a factor is too large to split (the product then
    /// overflows or the caller does not use `e`).
    pub fn two_prod(&mut self, a: Value, b: Value) -> (Value, Value) {
        let p = self.mul(a, b);
        let (ah, al) = self.split(a);
        let (bh, bl) = self.split(b);
        let hh = self.mul(ah, bh);
        let e = self.sub(hh, p);
        let hl = self.mul(ah, bl);
        let e = self.add(e, hl);
        let lh = self.mul(al, bh);
        let e = self.add(e, lh);
        let ll = self.mul(al, bl);
        let e = self.add(e, ll);
        let nan = self.is_nan(e);
        let zero = self.c(0.0);
        let e = self.sel(nan, zero, e);
        (p, e)
    }
}

/// Whether [`lower`] expands `kind` at kernel element type `elem`, so
/// that the GLSL.std.450 refusal of f64 does not apply.
pub(crate) fn expands(kind: KOpKind, elem: &KType) -> bool {
    use KOpKind::*;
    match elem {
        KType::Float(FloatTy::F64) => matches!(
            kind,
            MathExp
                | MathExp2
                | MathExpM1
                | MathTanh
                | MathLog
                | MathLog2
                | MathLog10
                | MathLog1p
                | MathPowF
                | MathTrunc
                | MathRoundEven
        ),
        KType::Float(_) => matches!(kind, MathExpM1 | MathLog1p | MathTanh),
        _ => false,
    }
}
