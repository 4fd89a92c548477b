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
use crate::tensor::types::ElemType;

use super::super::bufferize::BufferId;
use super::super::strategy::TypeRepr;
use super::emitter::Emitter;

impl Emitter<'_, '_, '_> {
    /// Element `idx` of `buf` (holding `elem`s) in its compute type, read
    /// as its 16-byte group, where [`wide_reads`](Emitter::wide_reads) is
    /// on and the buffer qualifies; `None` otherwise.
    pub(super) fn wide_load(&mut self, buf: BufferId, idx: KValue, elem: ElemType) -> Option<KValue> {
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
        let native_f16 = elem == ElemType::F16 && self.c.strategy.repr(elem) == TypeRepr::F16Storage;
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
        if bytes == 1 {
            // Byte `idx`: byte `idx % 4` of 32-bit word `idx / 4`, lane
            // `(idx / 4) % 4` of 16-byte group `idx / 16`.
            let sixteen = self.index(16);
            let q = self.div(idx, sixteen);
            let mem = self.buffer_vec4_i32(buf);
            let vec = self.b.load(mem, &[q]);
            let w = self.div(idx, four);
            let lane = self.rem(w, four);
            let word = self.pick_lane(vec, lane);
            let b = self.rem(idx, four);
            let eight = self.index(8);
            let bits = self.mul(b, eight);
            let bits = self.b.index_cast(bits, KType::i32());
            let shifted = self.b.binary(KOpKind::ArithShRUI, word, bits);
            let raw = self.b.cast(KOpKind::ArithTruncI, shifted, KType::Int(8));
            return Some(self.load_conv(raw, elem));
        }
        let q = self.div(idx, four);
        let mem = self.buffer_vec4(buf);
        let vec = self.b.load(mem, &[q]);
        let lane = self.rem(idx, four);
        let raw = self.pick_lane(vec, lane);
        Some(self.load_conv(raw, elem))
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
