//! Bytes of a wide read kept in their 32-bit words: a fused decoding's
//! unpacking of 8-bit codes done on the word the byte came from.
//!
//! Under wide reads (`wide.rs`) a byte is its 32-bit word shifted and
//! truncated to `i8`; a Q4_0 body then shifts the byte right by 0 or 4,
//! masks it with 15 and extends it to `i32`. On lavapipe (AVX2/AVX-512,
//! 8 lanes) every `i8` op of that chain is a pack or unpack around the
//! 32-bit lanes: per step of a 4096 x 4096 Q4_0 matvec the JIT code held
//! 384 each of `vpmovdb`, `vpsrlw`, `vpandq` and `vpmovzxbd` beside 512
//! `vpandd` and 530 `vpsrld` (objdump of the running pipeline,
//! `bench/quant/README.md`). The same bits come out of the word: the
//! byte's low `n` bits are the word's, so `(b >> c) & m` extended to
//! `i32` is `(w >> c) & m` (`m` below `2^n`). This module records, for
//! each narrow integer computed from such a byte, the word it lives in,
//! and an extension to `i32` of a value with a record returns the
//! word's value instead: the narrow ops are left unused (the driver's
//! dead-code pass drops them) and the value is the same, bit for bit.

use crate::kernel::{KAttr, KOpKind, KType, KValue};
use crate::tensor::ops::ArithOp;

use super::emitter::Emitter;

/// Where a narrow integer `v` (of `width` bits, fewer than 32) lives in
/// a 32-bit word: the low `bits` bits of `v` are the low `bits` bits of
/// `word`, `v`'s bits from `bits` up are zero, and where `exact`,
/// `word` is `v` zero-extended.
#[derive(Clone, Copy, Debug)]
pub(crate) struct InWord {
    word: KValue,
    bits: u32,
    exact: bool,
}

impl Emitter<'_, '_, '_> {
    /// Notes that the `width`-bit integer `v` is the low bits of the
    /// 32-bit `word` (a byte of a wide read).
    pub(super) fn note_in_word(&mut self, v: KValue, word: KValue, width: u32) {
        if width < 32 {
            let rec = InWord {
                word,
                bits: width,
                exact: false,
            };
            self.in_word.insert(v, rec);
        }
    }

    /// The value of integer constant `v`, where it is one.
    fn int_const(&mut self, v: KValue) -> Option<i128> {
        let km = self.b.module();
        let op = km.defining_op(v)?;
        if km.op(op).kind != KOpKind::ArithConstant {
            return None;
        }
        match km.attr(op, "value")? {
            KAttr::Int { value, .. } => Some(*value),
            _ => None,
        }
    }

    /// Records where `r`, the result of narrow op `a` on `args`, lives in
    /// a word, where an operand has a record: `x >> c` (`c` a constant
    /// below the record's bits) is the word shifted by `c`, its low
    /// `bits - c` bits valid; `x >> s` (`s` a value with a record) is
    /// `x` zero-extended shifted by `s` zero-extended, exactly (a shift
    /// by the width or more has no defined value either way); `x & m`
    /// (`m` a constant) is the word masked by `m`'s low `bits` bits,
    /// exactly. `width` is the ops' bit width.
    pub(super) fn track_in_word(&mut self, a: ArithOp, args: &[KValue], r: KValue, width: u32) {
        if width >= 32 || args.len() != 2 {
            return;
        }
        let low = |bits: u32, c: i128| c & ((1i128 << bits) - 1);
        let rec = match a {
            ArithOp::ShRUI => {
                let Some(x) = self.in_word.get(&args[0]).copied() else {
                    return;
                };
                let Some(c) = self.int_const(args[1]) else {
                    // A shift by a value: the zero-extended operand
                    // shifted by the zero-extended amount, where that
                    // has a record too (an `index_cast` of an index).
                    let i32t = KType::i32();
                    let Some(s) = self.ext_from_word(args[1], &i32t) else {
                        return;
                    };
                    let base = self.ext_from_word(args[0], &i32t).unwrap_or(x.word);
                    let word = self.b.shrui(base, s);
                    let rec = InWord {
                        word,
                        bits: width,
                        exact: true,
                    };
                    self.in_word.insert(r, rec);
                    return;
                };
                // A shift by the width or more has no defined value.
                if !(0..i128::from(x.bits.min(width))).contains(&c) {
                    return;
                }
                let word = if c == 0 {
                    x.word
                } else {
                    let s = self.b.const_int(c, KType::i32());
                    self.b.shrui(x.word, s)
                };
                InWord {
                    word,
                    bits: x.bits - c as u32,
                    exact: false,
                }
            }
            ArithOp::AndI => {
                let found = [(0, 1), (1, 0)].into_iter().find_map(|(i, j)| {
                    let x = *self.in_word.get(&args[i])?;
                    Some((x, self.int_const(args[j])?))
                });
                let Some((x, m)) = found else {
                    return;
                };
                let m = self.b.const_int(low(x.bits, m), KType::i32());
                InWord {
                    word: self.b.binary(KOpKind::ArithAndI, x.word, m),
                    bits: width,
                    exact: true,
                }
            }
            _ => return,
        };
        self.in_word.insert(r, rec);
    }

    /// `x` zero-extended to `i32` from the word it lives in, where it has
    /// a record (`None` otherwise): the word itself where exact, else its
    /// low bits.
    pub(super) fn ext_from_word(&mut self, x: KValue, to: &KType) -> Option<KValue> {
        if *to != KType::i32() {
            return None;
        }
        let rec = *self.in_word.get(&x)?;
        if rec.exact {
            return Some(rec.word);
        }
        let m = self.b.const_int((1i128 << rec.bits) - 1, KType::i32());
        Some(self.b.binary(KOpKind::ArithAndI, rec.word, m))
    }
}
