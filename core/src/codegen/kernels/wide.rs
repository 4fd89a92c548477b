//! Wide reads of a matvec's dequantized weights: the operands of a
//! dequantization fused into a matvec's loads ([`super::super::dequant`])
//! read through 16-byte views of their buffers.
//!
//! A fused dequantization reads its codes and scales element by element,
//! at coordinates its maps give (`(k floordiv 32) * 16 + k mod 16`), never
//! at a vector group's lanes. An element load from a storage buffer costs
//! lavapipe a per-lane loop (address, bounds check and load for each
//! invocation of the SIMD batch: 810–985 ms for a 4096x4096 Q4_0 matvec,
//! 0.001x the read bandwidth), where a texel fetch is one gather. So each
//! such element is read as its 16-byte group — `memref<?xvector<4xT>>`
//! for 32-bit and natively stored f16 elements, a `vector<4xi32>` view of
//! a byte buffer — and picked out of it in registers (a select over the
//! 4 lanes, a shift for a byte); read-only views of both kinds are bound
//! as uniform texel buffers where the strategy reads texels
//! ([`Emitter::bind_texel_reads`]). Only buffers whose static byte length
//! is a multiple of 16 qualify, so every element lies in a whole group.

use crate::kernel::{KOpKind, KType, KValue};
use crate::tensor::eval::Scalar;
use crate::tensor::ops::ArithOp;
use crate::tensor::types::ElemType;

use super::super::bufferize::BufferId;
use super::super::strategy::TypeRepr;
use super::emitter::{Emitter, Key};

impl Emitter<'_, '_, '_> {
    /// `floordiv(x, y)` under wide reads where `x` is `base + c` (`base`
    /// a multiple of `m`, `0 <= c`) and `y` a constant `d > 0`:
    /// `base / d + c / d` where `m` is a multiple of `d`, `base / d` where
    /// `d` is a multiple of `m` and `c < m` (no multiple of `d` lies in
    /// `(base, base + c]`) — the same value for the lanes of a vector
    /// group.
    pub(super) fn wide_floordiv(&mut self, x: KValue, y: KValue) -> Option<KValue> {
        let d = self.const_of(y).filter(|&d| d > 0 && self.wide_reads)?;
        self.const_of(x).is_none().then_some(())?;
        let (base, c, m) = self.split_index(x);
        if m % d == 0 {
            let q = self.div(base, y);
            self.note_multiple(q, m / d);
            Some(self.add_const(q, c / d))
        } else if d % m == 0 && c < m {
            Some(self.div(base, y))
        } else {
            None
        }
    }

    /// `x mod y` under wide reads, as [`wide_floordiv`](Self::wide_floordiv):
    /// `c mod d` where `m` is a multiple of `d`, `(base mod d) + c` where
    /// `d` is a multiple of `m` and `c < m`.
    pub(super) fn wide_mod(&mut self, x: KValue, y: KValue) -> Option<KValue> {
        let d = self.const_of(y).filter(|&d| d > 0 && self.wide_reads)?;
        self.const_of(x).is_none().then_some(())?;
        let (base, c, m) = self.split_index(x);
        if m % d == 0 {
            Some(self.index(c % d))
        } else if d % m == 0 && c < m {
            let r = self.rem(base, y);
            self.note_multiple(r, m);
            Some(self.add_const(r, c))
        } else {
            None
        }
    }

    /// A body's index arithmetic under wide reads, folded where the
    /// emitter knows its operands: an unsigned division or remainder by a
    /// constant of a coordinate `base + c` as
    /// [`wide_floordiv`](Self::wide_floordiv) and
    /// [`wide_mod`](Self::wide_mod) fold the maps' (a Q4_0 body's
    /// `k mod 32`, `(k mod 32) / 16`: constants for each weight of a
    /// block), and `+ - * / mod` and `index_cast` of constants (results in
    /// `0 .. 2^31`, and that fit the cast's type); `None` otherwise, and
    /// always without wide reads.
    pub(super) fn wide_index_arith(
        &mut self,
        a: ArithOp,
        args: &[KValue],
        arg_elem: ElemType,
        res_elem: ElemType,
    ) -> Option<KValue> {
        if !self.wide_reads || arg_elem != ElemType::Index {
            return None;
        }
        let consts: Vec<Option<i64>> = args.iter().map(|&v| self.const_of(v)).collect();
        let fits = |v: i64| (0..=i64::from(i32::MAX)).contains(&v);
        match (a, consts.as_slice()) {
            (ArithOp::IndexCast | ArithOp::IndexCastUI, &[Some(x)]) => {
                let bits = res_elem.bits();
                let fits_res = res_elem.is_int_or_index()
                    && (bits >= 32 || x < 1i64 << (bits.saturating_sub(1)));
                (fits(x) && fits_res).then(|| self.konst(Scalar::Int(x), res_elem))
            }
            (_, &[Some(x), Some(y)]) => {
                let v = match a {
                    ArithOp::AddI => x.checked_add(y),
                    ArithOp::SubI => x.checked_sub(y),
                    ArithOp::MulI => x.checked_mul(y),
                    ArithOp::DivUI if x >= 0 && y > 0 => Some(x / y),
                    ArithOp::RemUI if x >= 0 && y > 0 => Some(x % y),
                    _ => None,
                }?;
                fits(v).then(|| self.index(v))
            }
            (ArithOp::DivUI, &[None, Some(_)]) => self.wide_floordiv(args[0], args[1]),
            (ArithOp::RemUI, &[None, Some(_)]) => self.wide_mod(args[0], args[1]),
            _ => None,
        }
    }

    /// Element `idx` of `buf` (holding `elem`s) in its compute type, read
    /// as its 16-byte group, where [`wide_reads`](Emitter::wide_reads) is
    /// on and the buffer qualifies; `None` otherwise. Where `idx` is
    /// `base + c` with `base` a multiple of 4, the element's word (or
    /// lane) is `base / 4 + c / 4` and its place in it the constant
    /// `c mod 4`: the 4 lanes of a vector group read one group, once.
    pub(super) fn wide_load(
        &mut self,
        buf: BufferId,
        idx: KValue,
        elem: ElemType,
    ) -> Option<KValue> {
        if !self.wide_reads {
            return None;
        }
        let info = &self.c.buffers.buffers[buf];
        if info.elem != elem {
            return None;
        }
        let elems = info
            .shape
            .iter()
            .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?))?;
        let native_f16 =
            elem == ElemType::F16 && self.c.strategy.repr(elem) == TypeRepr::F16Storage;
        let bytes: u64 = match elem {
            ElemType::F32 | ElemType::Int(32) => 4,
            ElemType::F16 if native_f16 => 2,
            ElemType::Int(8) if self.memory_type(elem) == KType::Int(8) => 1,
            _ => return None,
        };
        if elems == 0 || (elems * bytes) % 16 != 0 {
            return None;
        }
        let four = self.index(4);
        // Element `idx` as position `at` (constant where known) of 4-group
        // `w`: a 32-bit word of bytes, or a vec4 of elements.
        let (base, c, m) = self.split_index(idx);
        let (w, at) = if m % 4 == 0 {
            let q = self.div(base, four);
            self.note_multiple(q, m / 4);
            (self.add_const(q, c / 4), Err(c % 4))
        } else {
            (self.div(idx, four), Ok(self.rem(idx, four)))
        };
        if bytes == 1 {
            // Word `w`: lane `w mod 4` of 16-byte group `w / 4`.
            let word = self.wide_word(buf, w);
            let bits = match at {
                Err(b) => self.b.const_int(i128::from(b * 8), KType::i32()),
                Ok(b) => {
                    let eight = self.index(8);
                    let bits = self.mul(b, eight);
                    self.b.index_cast(bits, KType::i32())
                }
            };
            let shifted = self.b.binary(KOpKind::ArithShRUI, word, bits);
            let raw = self.b.cast(KOpKind::ArithTruncI, shifted, KType::Int(8));
            self.note_in_word(raw, shifted, 8);
            return Some(self.load_conv(raw, elem));
        }
        let key = Key::Wide(buf, w);
        let vec = match self.memo(&key) {
            Some(x) => x[0],
            None => {
                let mem = self.buffer_vec4(buf);
                let x = self.b.load(mem, &[w]);
                self.remember(key, vec![x]);
                x
            }
        };
        let raw = match at {
            Err(lane) => self.b.extract(vec, lane),
            Ok(lane) => self.pick_lane(vec, lane),
        };
        Some(self.load_conv(raw, elem))
    }

    /// 32-bit word `w` of byte buffer `buf`, read once per scope, from
    /// its 16-byte group (read once per scope too: where `w` is `base +
    /// c` with `base` a multiple of 4, the group is `base / 4 + c / 4`
    /// and the word its constant lane `c mod 4`, so the words of a
    /// quantized block share one fetch).
    fn wide_word(&mut self, buf: BufferId, w: KValue) -> KValue {
        let key = Key::Wide(buf, w);
        if let Some(x) = self.memo(&key) {
            return x[0];
        }
        let four = self.index(4);
        let (base, c, m) = self.split_index(w);
        let (q, lane) = if m % 4 == 0 {
            let q = self.div(base, four);
            (self.add_const(q, c / 4), Err(c % 4))
        } else {
            (self.div(w, four), Ok(self.rem(w, four)))
        };
        let group = Key::WideGroup(buf, q);
        let vec = match self.memo(&group) {
            Some(x) => x[0],
            None => {
                let mem = self.buffer_vec4_i32(buf);
                let x = self.b.load(mem, &[q]);
                self.remember(group, vec![x]);
                x
            }
        };
        let word = match lane {
            Err(l) => self.b.extract(vec, l),
            Ok(lane) => match self.const_of(lane) {
                Some(l) => self.b.extract(vec, l),
                None => self.pick_lane(vec, lane),
            },
        };
        self.remember(key, vec![word]);
        word
    }

    /// Lane `lane` (an index below 4) of the 4-vector `vec`: a select
    /// over its lanes.
    fn pick_lane(&mut self, vec: KValue, lane: KValue) -> KValue {
        let mut x = self.b.extract(vec, 3);
        for j in (0..3).rev() {
            let lj = self.b.extract(vec, j);
            let jv = self.index(j);
            let is_j = self.b.cmpi("eq", lane, jv);
            x = self.b.select(is_j, lj, x);
        }
        x
    }
}
