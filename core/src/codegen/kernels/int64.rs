//! `i64` without the `Int64` capability: a value is a `vector<2xi32>`
//! (low word, high word) in kernels and two consecutive 32-bit words in
//! memory (the little-endian layout of the i64, so host data needs no
//! conversion). Every `arith` op on i64 is built from 32-bit operations:
//! additions with carries, products with `mului_extended` and the cross
//! terms, comparisons on the high words then the low ones, shifts across
//! the two words, and division by 64 steps of restoring long division (a
//! loop of 64 iterations, well within any loop cap).

use crate::kernel::KValue;
use crate::kernel::{FloatTy, KOpKind, KType};
use crate::tensor::attr::CmpIPred;
use crate::tensor::ops::ArithOp;
use crate::tensor::types::ElemType;

use super::super::error::CodegenError;
use super::super::strategy::TypeRepr;
use super::emitter::Emitter;

fn pair_ty() -> KType {
    KType::vector(2, KType::i32())
}

impl Emitter<'_, '_, '_> {
    /// Whether `elem` is an emulated i64.
    pub fn is_pair(&self, elem: ElemType) -> bool {
        elem == ElemType::I64 && self.c.strategy.repr(elem) == TypeRepr::I64Pair
    }

    fn c32(&mut self, v: i64) -> KValue {
        self.b.const_int(i128::from(v as i32), KType::i32())
    }

    /// The pair `(lo, hi)`.
    pub fn pair(&mut self, lo: KValue, hi: KValue) -> KValue {
        let v = self.b.broadcast(lo, pair_ty());
        self.b.insert(hi, v, 1)
    }

    fn lo(&mut self, v: KValue) -> KValue {
        self.b.extract(v, 0)
    }

    fn hi(&mut self, v: KValue) -> KValue {
        self.b.extract(v, 1)
    }

    /// The pair holding `v`.
    pub fn pair_const(&mut self, v: i64) -> KValue {
        self.b.const_int_vector(
            &[i128::from(v as i32), i128::from((v >> 32) as i32)],
            pair_ty(),
        )
    }

    /// Loads the pair at element `idx` of `mem` (`memref<?xi32>`).
    pub fn pair_load(&mut self, mem: KValue, idx: KValue) -> KValue {
        let two = self.index(2);
        let i = self.mul(idx, two);
        let one = self.index(1);
        let j = self.add(i, one);
        let lo = self.b.load(mem, &[i]);
        let hi = self.b.load(mem, &[j]);
        self.pair(lo, hi)
    }

    /// Stores pair `v` at element `idx` of `mem`.
    pub fn pair_store(&mut self, v: KValue, mem: KValue, idx: KValue) {
        let two = self.index(2);
        let i = self.mul(idx, two);
        let one = self.index(1);
        let j = self.add(i, one);
        let lo = self.lo(v);
        let hi = self.hi(v);
        self.b.store(lo, mem, &[i]);
        self.b.store(hi, mem, &[j]);
    }

    fn pair_add(&mut self, a: KValue, b: KValue) -> KValue {
        let (al, ah, bl, bh) = (self.lo(a), self.hi(a), self.lo(b), self.hi(b));
        let (lo, carry) = self.b.addui_extended(al, bl);
        let c = self.b.cast(KOpKind::ArithExtUI, carry, KType::i32());
        let hi = self.b.addi(ah, bh);
        let hi = self.b.addi(hi, c);
        self.pair(lo, hi)
    }

    fn pair_neg(&mut self, a: KValue) -> KValue {
        let all = self.pair_const(-1);
        let inv = self.b.xori(a, all);
        let one = self.pair_const(1);
        self.pair_add(inv, one)
    }

    fn pair_sub(&mut self, a: KValue, b: KValue) -> KValue {
        let nb = self.pair_neg(b);
        self.pair_add(a, nb)
    }

    fn pair_mul(&mut self, a: KValue, b: KValue) -> KValue {
        let (al, ah, bl, bh) = (self.lo(a), self.hi(a), self.lo(b), self.hi(b));
        let (lo, h) = self.b.mul_extended(al, bl, false);
        let x = self.b.muli(al, bh);
        let y = self.b.muli(ah, bl);
        let hi = self.b.addi(h, x);
        let hi = self.b.addi(hi, y);
        self.pair(lo, hi)
    }

    pub(super) fn pair_select(&mut self, c: KValue, a: KValue, b: KValue) -> KValue {
        let (al, ah, bl, bh) = (self.lo(a), self.hi(a), self.lo(b), self.hi(b));
        let lo = self.b.select(c, al, bl);
        let hi = self.b.select(c, ah, bh);
        self.pair(lo, hi)
    }

    pub(super) fn pair_cmp(&mut self, p: CmpIPred, a: KValue, b: KValue) -> KValue {
        let (al, ah, bl, bh) = (self.lo(a), self.hi(a), self.lo(b), self.hi(b));
        let heq = self.b.cmpi("eq", ah, bh);
        let leq = self.b.cmpi("eq", al, bl);
        let eq = self.b.andi(heq, leq);
        // a < b, signed or unsigned on the high words, unsigned on the low.
        let less = |e: &mut Self, signed: bool, x: (KValue, KValue), y: (KValue, KValue)| {
            let h = e.b.cmpi(if signed { "slt" } else { "ult" }, x.1, y.1);
            let hq = e.b.cmpi("eq", x.1, y.1);
            let l = e.b.cmpi("ult", x.0, y.0);
            let t = e.b.andi(hq, l);
            e.b.ori(h, t)
        };
        let t = self.b.const_int(1, KType::bool());
        let not = |e: &mut Self, v: KValue| e.b.xori(v, t);
        match p {
            CmpIPred::Eq => eq,
            CmpIPred::Ne => not(self, eq),
            CmpIPred::Slt | CmpIPred::Ult => less(self, p == CmpIPred::Slt, (al, ah), (bl, bh)),
            CmpIPred::Sgt | CmpIPred::Ugt => less(self, p == CmpIPred::Sgt, (bl, bh), (al, ah)),
            CmpIPred::Sge | CmpIPred::Uge => {
                let l = less(self, p == CmpIPred::Sge, (al, ah), (bl, bh));
                not(self, l)
            }
            CmpIPred::Sle | CmpIPred::Ule => {
                let g = less(self, p == CmpIPred::Sle, (bl, bh), (al, ah));
                not(self, g)
            }
        }
    }

    /// An `arith` shift of an i64 pair by any amount: by 64 or more (the
    /// amount read unsigned) 0, or the sign fill for `shrsi`, as the
    /// lowering of native shifts gives (`lower/arith.rs::shift`).
    fn user_shift(&mut self, a: KValue, s: KValue, op: ArithOp) -> KValue {
        let shifted = self.pair_shift(a, s, op);
        let (sl, sh) = (self.lo(s), self.hi(s));
        let zero = self.c32(0);
        let c64 = self.c32(64);
        let high = self.b.cmpi("ne", sh, zero);
        let low = self.b.cmpi("uge", sl, c64);
        let too_far = self.b.ori(high, low);
        let fill = if op == ArithOp::ShRSI {
            let ah = self.hi(a);
            let c31 = self.c32(31);
            self.b.shrsi(ah, c31)
        } else {
            zero
        };
        let (lo, hi) = (self.lo(shifted), self.hi(shifted));
        let lo = self.b.select(too_far, fill, lo);
        let hi = self.b.select(too_far, fill, hi);
        self.pair(lo, hi)
    }

    /// `a << s`, `a >>u s` or `a >>s s` for a shift amount below 64.
    fn pair_shift(&mut self, a: KValue, s: KValue, op: ArithOp) -> KValue {
        let (al, ah) = (self.lo(a), self.hi(a));
        let sl = self.lo(s);
        let c63 = self.c32(63);
        let s = self.b.andi(sl, c63);
        let c31 = self.c32(31);
        let c32 = self.c32(32);
        let sw = self.b.andi(s, c31);
        let small = self.b.cmpi("ult", s, c32);
        let one = self.c32(1);
        let back = self.b.subi(c31, sw);
        let zero = self.c32(0);
        match op {
            ArithOp::ShLI => {
                // s < 32: lo << s, (hi << s) | (lo >> 1 >> (31 - s)).
                let lo1 = self.b.shli(al, sw);
                let h1 = self.b.shli(ah, sw);
                let spill = self.b.shrui(al, one);
                let spill = self.b.shrui(spill, back);
                let h1 = self.b.ori(h1, spill);
                // s >= 32: 0, lo << (s - 32).
                let h2 = self.b.shli(al, sw);
                let lo = self.b.select(small, lo1, zero);
                let hi = self.b.select(small, h1, h2);
                self.pair(lo, hi)
            }
            _ => {
                let signed = op == ArithOp::ShRSI;
                let shr = |e: &mut Self, x: KValue, n: KValue| {
                    if signed {
                        e.b.shrsi(x, n)
                    } else {
                        e.b.shrui(x, n)
                    }
                };
                // s < 32: (lo >> s) | (hi << 1 << (31 - s)), hi >> s.
                let l1 = self.b.shrui(al, sw);
                let spill = self.b.shli(ah, one);
                let spill = self.b.shli(spill, back);
                let l1 = self.b.ori(l1, spill);
                let h1 = shr(self, ah, sw);
                // s >= 32: hi >> (s - 32), sign or zero.
                let l2 = shr(self, ah, sw);
                let h2 = if signed { self.b.shrsi(ah, c31) } else { zero };
                let lo = self.b.select(small, l1, l2);
                let hi = self.b.select(small, h1, h2);
                self.pair(lo, hi)
            }
        }
    }

    /// Unsigned 64-bit division: (quotient, remainder).
    fn pair_udivrem(&mut self, n: KValue, d: KValue) -> Result<(KValue, KValue), CodegenError> {
        let zero = self.pair_const(0);
        let lb = self.index(0);
        let ub = self.index(64);
        let step = self.index(1);
        let one = self.pair_const(1);
        let r = self.for_(lb, ub, step, &[zero, zero], |e, i, qr| {
            let (q, r) = (qr[0], qr[1]);
            // bit = (n >> (63 - i)) & 1
            let ii = e.b.index_cast(i, KType::i32());
            let c63 = e.c32(63);
            let sh = e.b.subi(c63, ii);
            let sh = e.pair(sh, sh);
            let bits = e.pair_shift(n, sh, ArithOp::ShRUI);
            let bit = e.b.andi(bits, one);
            let r2 = e.pair_shift(r, one, ArithOp::ShLI);
            let r2 = e.b.ori(r2, bit);
            let q2 = e.pair_shift(q, one, ArithOp::ShLI);
            let ge = e.pair_cmp(CmpIPred::Uge, r2, d);
            let rs = e.pair_sub(r2, d);
            let qs = e.b.ori(q2, one);
            let r3 = e.pair_select(ge, rs, r2);
            let q3 = e.pair_select(ge, qs, q2);
            Ok(vec![q3, r3])
        })?;
        Ok((r[0], r[1]))
    }

    /// `|a|` (`math.absi`, wrapping at the minimum) and whether `a` is
    /// negative.
    pub(super) fn pair_abs(&mut self, a: KValue) -> (KValue, KValue) {
        let zero = self.pair_const(0);
        let neg = self.pair_cmp(CmpIPred::Slt, a, zero);
        let na = self.pair_neg(a);
        (self.pair_select(neg, na, a), neg)
    }

    /// `math.ctlz` / `cttz` / `ctpop` (`kind`) of `a`, counted on its two
    /// 32-bit words (not the op on the vector of words, which gives each
    /// word's count: a count of `c_hi * 2^32 + c_lo`): `ctpop` their sum,
    /// `ctlz` the high word's unless it is zero, then 32 plus the low
    /// word's, `cttz` likewise from the low word (zero gives 64).
    pub(super) fn pair_bit_count(&mut self, kind: KOpKind, a: KValue) -> KValue {
        let (lo, hi) = (self.lo(a), self.hi(a));
        let count = |e: &mut Self, w: KValue| {
            let op = e.b.op(kind, &[w], &[KType::i32()], Vec::new());
            e.b.module().op(op).results[0]
        };
        let (cl, ch) = (count(self, lo), count(self, hi));
        let r = if kind == KOpKind::MathCtpop {
            self.b.addi(cl, ch)
        } else {
            let (first, first_count, second_count) = if kind == KOpKind::MathCtlz {
                (hi, ch, cl)
            } else {
                (lo, cl, ch)
            };
            let zero = self.c32(0);
            let c32 = self.c32(32);
            let first_zero = self.b.cmpi("eq", first, zero);
            let both = self.b.addi(c32, second_count);
            self.b.select(first_zero, both, first_count)
        };
        let zero = self.c32(0);
        self.pair(r, zero)
    }

    /// An `arith` op with an emulated i64 operand or result.
    pub fn pair_arith(
        &mut self,
        loc: crate::ir::Location,
        a: ArithOp,
        args: &[KValue],
        arg_elem: ElemType,
        res_elem: ElemType,
    ) -> Result<KValue, CodegenError> {
        use ArithOp::*;
        let res_ty = self.compute_type(res_elem);
        Ok(match a {
            AddI => self.pair_add(args[0], args[1]),
            SubI => self.pair_sub(args[0], args[1]),
            MulI => self.pair_mul(args[0], args[1]),
            AndI => self.b.andi(args[0], args[1]),
            OrI => self.b.ori(args[0], args[1]),
            XOrI => self.b.xori(args[0], args[1]),
            ShLI | ShRSI | ShRUI => self.user_shift(args[0], args[1], a),
            CmpI(p) => self.pair_cmp(p, args[0], args[1]),
            Select => self.pair_select(args[0], args[1], args[2]),
            MaxSI | MinSI | MaxUI | MinUI => {
                let p = match a {
                    MaxSI => CmpIPred::Sgt,
                    MinSI => CmpIPred::Slt,
                    MaxUI => CmpIPred::Ugt,
                    _ => CmpIPred::Ult,
                };
                let c = self.pair_cmp(p, args[0], args[1]);
                self.pair_select(c, args[0], args[1])
            }
            DivUI | RemUI | CeilDivUI => {
                let (q, r) = self.pair_udivrem(args[0], args[1])?;
                match a {
                    DivUI => q,
                    RemUI => r,
                    _ => {
                        let zero = self.pair_const(0);
                        let nz = self.pair_cmp(CmpIPred::Ne, r, zero);
                        let one = self.pair_const(1);
                        let q1 = self.pair_add(q, one);
                        self.pair_select(nz, q1, q)
                    }
                }
            }
            DivSI | RemSI | FloorDivSI | CeilDivSI => {
                let (na, sa) = self.pair_abs(args[0]);
                let (nb, sb) = self.pair_abs(args[1]);
                let (q, r) = self.pair_udivrem(na, nb)?;
                let diff = self.b.xori(sa, sb);
                let nq = self.pair_neg(q);
                let q = self.pair_select(diff, nq, q);
                let nr = self.pair_neg(r);
                let r = self.pair_select(sa, nr, r);
                match a {
                    DivSI => q,
                    RemSI => r,
                    _ => {
                        let zero = self.pair_const(0);
                        let nz = self.pair_cmp(CmpIPred::Ne, r, zero);
                        let one = self.pair_const(1);
                        // floor: q - 1 when signs differ; ceil: q + 1 when
                        // they agree (and the division is inexact).
                        let (adj, cond) = if a == FloorDivSI {
                            (self.pair_sub(q, one), diff)
                        } else {
                            let t = self.b.const_int(1, KType::bool());
                            let same = self.b.xori(diff, t);
                            (self.pair_add(q, one), same)
                        };
                        let c = self.b.andi(nz, cond);
                        self.pair_select(c, adj, q)
                    }
                }
            }
            ExtSI | ExtUI | IndexCast | IndexCastUI if res_elem == ElemType::I64 => {
                let x = args[0];
                let lo = match self.b.type_of(x) {
                    KType::Int(32) => x,
                    KType::Index => self.b.index_cast(x, KType::i32()),
                    KType::Int(w) if w < 32 => {
                        let k = if a == ExtUI {
                            KOpKind::ArithExtUI
                        } else {
                            KOpKind::ArithExtSI
                        };
                        self.b.cast(k, x, KType::i32())
                    }
                    _ => x,
                };
                let hi = if matches!(a, ExtUI | IndexCastUI) {
                    self.c32(0)
                } else {
                    let c31 = self.c32(31);
                    self.b.shrsi(lo, c31)
                };
                self.pair(lo, hi)
            }
            TruncI | IndexCast | IndexCastUI => {
                let lo = self.lo(args[0]);
                match res_ty {
                    KType::Int(32) => lo,
                    KType::Index => self.b.index_cast(lo, KType::Index),
                    KType::Int(w) => self.b.cast(KOpKind::ArithTruncI, lo, KType::Int(w)),
                    _ => lo,
                }
            }
            SIToFP | UIToFP => {
                // Exact (one rounding) when the value fits 32 bits; else
                // the magnitude's words, scaled and added.
                let x = args[0];
                let (lo, hi) = (self.lo(x), self.hi(x));
                let (fits, small) = if a == SIToFP {
                    let c31 = self.c32(31);
                    let sign = self.b.shrsi(lo, c31);
                    let fits = self.b.cmpi("eq", hi, sign);
                    (fits, self.b.cast(KOpKind::ArithSIToFP, lo, res_ty.clone()))
                } else {
                    let zero = self.c32(0);
                    let fits = self.b.cmpi("eq", hi, zero);
                    (fits, self.b.cast(KOpKind::ArithUIToFP, lo, res_ty.clone()))
                };
                let (m, neg) = if a == SIToFP {
                    self.pair_abs(x)
                } else {
                    let f = self.b.const_int(0, KType::bool());
                    (x, f)
                };
                let (ml, mh) = (self.lo(m), self.hi(m));
                let hf = self.b.cast(KOpKind::ArithUIToFP, mh, res_ty.clone());
                let lf = self.b.cast(KOpKind::ArithUIToFP, ml, res_ty.clone());
                let scale = self.b.const_float(4_294_967_296.0, res_ty);
                let hs = self.b.mulf(hf, scale);
                let big = self.b.addf(hs, lf);
                let nbig = self.b.negf(big);
                let big = self.b.select(neg, nbig, big);
                let v = self.b.select(fits, small, big);
                self.round(v, res_elem)
            }
            FPToSI | FPToUI => {
                let f = args[0];
                // f16 cannot hold 2^-32 (the split's scale): widen first.
                let f = if self.b.type_of(f) == KType::Float(FloatTy::F16) {
                    self.b.cast(KOpKind::ArithExtF, f, KType::f32())
                } else {
                    f
                };
                let fty = self.b.type_of(f);
                let t = self.b.unary(KOpKind::MathTrunc, f);
                // The magnitude is split into halves, then negated as a
                // pair: splitting a negative value with floor leaves a low
                // half of 2^32 - |t|, which needs more bits than f32 has
                // (-65504 gave -65536). For |t| < 2^64 both halves are exact.
                let m = self.b.unary(KOpKind::MathAbsF, t);
                let inv = self.b.const_float(1.0 / 4_294_967_296.0, fty.clone());
                let scale = self.b.const_float(4_294_967_296.0, fty.clone());
                let h = self.b.mulf(m, inv);
                let h = self.b.unary(KOpKind::MathFloor, h);
                let hs = self.b.mulf(h, scale);
                let l = self.b.subf(m, hs);
                let hi = self.b.cast(KOpKind::ArithFPToUI, h, KType::i32());
                let lo = self.b.cast(KOpKind::ArithFPToUI, l, KType::i32());
                let mag = self.pair(lo, hi);
                let fzero = self.b.const_float(0.0, fty);
                let negative = self.b.cmpf("olt", t, fzero);
                let neg_mag = self.pair_neg(mag);
                let v = self.pair_select(negative, neg_mag, mag);
                let (lo, hi) = (self.lo(v), self.hi(v));
                // Out of range saturates at i64's (u64's) range, NaN gives
                // 0, as everywhere in kiln (lower/helpers/saturate.rs): the
                // halves alone would saturate separately.
                let signed = a == FPToSI;
                let fty = self.b.type_of(t);
                let (lo_b, hi_b) = if signed {
                    (-(2f64.powi(63)), 2f64.powi(63))
                } else {
                    (-1.0, 2f64.powi(64))
                };
                let hi_c = self.b.const_float(hi_b, fty.clone());
                let lo_c = self.b.const_float(lo_b, fty.clone());
                // (2^63 is +inf in f16: the infinities are tested apart.)
                let inf = self.b.const_float(f64::INFINITY, fty.clone());
                let ninf = self.b.const_float(f64::NEG_INFINITY, fty);
                let above = self.b.cmpf("oge", t, hi_c);
                let is_inf = self.b.cmpf("oeq", t, inf);
                let above = self.b.binary(KOpKind::ArithOrI, above, is_inf);
                let below = self.b.cmpf(if signed { "olt" } else { "ole" }, t, lo_c);
                let is_ninf = self.b.cmpf("oeq", t, ninf);
                let below = self.b.binary(KOpKind::ArithOrI, below, is_ninf);
                let nan = self.b.cmpf("uno", t, t);
                let (max_hi, min_hi) = if signed {
                    (0x7fff_ffff, -0x8000_0000)
                } else {
                    (-1, 0)
                };
                let ones = self.b.const_int(-1, KType::i32());
                let zero = self.b.const_int(0, KType::i32());
                let max_hi = self.b.const_int(max_hi, KType::i32());
                let min_hi = self.b.const_int(min_hi, KType::i32());
                let lo = self.b.select(above, ones, lo);
                let hi = self.b.select(above, max_hi, hi);
                let lo = self.b.select(below, zero, lo);
                let hi = self.b.select(below, min_hi, hi);
                let lo = self.b.select(nan, zero, lo);
                let hi = self.b.select(nan, zero, hi);
                self.pair(lo, hi)
            }
            _ => {
                return Err(CodegenError::MissingCapability {
                    loc,
                    ty: "i64".into(),
                    capability: crate::grammar::Capability::Int64,
                    what: format!(
                        "{} is not emulated on i64 ({arg_elem} -> {res_elem})",
                        a.name()
                    ),
                })
            }
        })
    }
}
