//! Softmax rows (`linalg.softmax`): a row's maximum, its sum of
//! exponentials and the quotients, by one invocation, a subgroup or a
//! workgroup per row, or — split rows — by several workgroups per row
//! whose partial maxima and sums a second kernel combines.

use crate::kernel::KValue;
use crate::kernel::{KOpKind, KType};
use crate::tensor::eval::Scalar;
use crate::tensor::ops::ArithOp;
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::combine::Combiner;
use super::super::error::{CodegenError, Invariant};
use super::super::host::Size;
use super::super::regions::DispatchRegion;
use super::super::strategy::Combine;
use super::emitter::{Emitter, Key};
use super::point::stores;
use super::tile::ceil_div;

/// How far a softmax row's elements may pass the reference point of the
/// two-pass normaliser before it moves (`e^16` times 2^32 terms stays far
/// below f32's range).
const SOFTMAX_SLACK: f64 = 16.0;

/// The most vec4 groups of a softmax row one invocation holds in
/// registers (512 floats: a 4,096-long row split over 8 invocations).
const SOFTMAX_RESIDENT_GROUPS: u64 = 128;

/// What a vec4 softmax loop folds per group: the group's 4 elements'
/// coordinates and the accumulator to the new accumulator.
type GroupFold<'f, E> =
    dyn FnMut(&mut E, &[Vec<KValue>], &[KValue]) -> Result<Vec<KValue>, CodegenError> + 'f;

/// What a strided loop folds per index: the index and the accumulator
/// to the new accumulator.
type IndexFold<'f, E> =
    dyn FnMut(&mut E, KValue, &[KValue]) -> Result<Vec<KValue>, CodegenError> + 'f;

/// What an element-by-element softmax loop folds per element: its
/// coordinates and the accumulator to the new accumulator.
type ElemFold<'f, E> =
    dyn FnMut(&mut E, &[KValue], &[KValue]) -> Result<Vec<KValue>, CodegenError> + 'f;

/// The operands of a softmax row kernel: the op, its input and result,
/// the normalized dimension and the row's coordinates (that dimension
/// left at 0).
#[derive(Clone, Copy)]
pub(super) struct SoftmaxRow<'a> {
    /// The `linalg.softmax` op.
    pub op: TOp,
    /// Its input.
    pub input: crate::tensor::TValue,
    /// Its result.
    pub output: crate::tensor::TValue,
    /// The normalized dimension.
    pub dim: usize,
    /// The row's coordinates.
    pub coords: &'a [KValue],
    /// The dispatch whose op reads the softmax at the same coordinates
    /// and is stored in its place (an elementwise epilogue), if any.
    pub epilogue: Option<&'a DispatchRegion>,
}

/// One kernel of a row split over several workgroups
/// ([`ReductionStrategy::SplitRows`](super::super::strategy::ReductionStrategy::SplitRows)).
#[derive(Clone, Copy)]
pub(super) struct RowPart {
    /// The row's linear index.
    pub row: KValue,
    /// This workgroup's slice of the row (`0..slices`).
    pub slice: KValue,
    /// Slices per row.
    pub slices: u32,
    /// The partial maxima and sums, `[rows][slices]` each.
    pub partials: [usize; 2],
    /// The second kernel (combine the partials, write the quotients)
    /// rather than the first (write the slice's partials).
    pub second: bool,
}

/// An invocation's share of a row: elements (or vec4 groups) at `base +
/// t * stride` for `t` in `0..steps`, those at or past `n` skipped where
/// `checked`.
#[derive(Clone, Copy)]
struct Share {
    base: KValue,
    stride: KValue,
    steps: KValue,
    n: KValue,
    checked: bool,
}

impl Emitter<'_, '_, '_> {
    /// The larger of `a` and `b` for a softmax row's maximum: `maxnumf`
    /// marked `nnan`, which lowers to the bare GLSL `FMax` (one
    /// instruction, not three with the NaN checks). NaN handling cannot
    /// change a softmax: a NaN anywhere in the row makes its sum of
    /// exponentials, and so every output of the row, NaN either way.
    fn softmax_max(&mut self, a: KValue, b: KValue) -> KValue {
        let m = self.combine(ArithOp::MaxNumF, a, b, ElemType::F32);
        self.b.fastmath(m, "nnan");
        m
    }

    /// Pushes the vector group of 4 adjacent elements of a row whose
    /// last coordinate starts at `r4` (the caller pops it) and returns
    /// the 4 elements' coordinates: `coords` with the last one replaced.
    fn push_row_group(&mut self, r4: KValue, coords: &[KValue]) -> Vec<Vec<KValue>> {
        let group = super::vector::VectorGroup::new(self, r4);
        let dim = coords.len() - 1;
        let lanes = (0..4)
            .map(|j| {
                let mut c = coords.to_vec();
                c[dim] = group.lane(j);
                c
            })
            .collect();
        self.vector_groups.push(group);
        lanes
    }

    /// `math.exp` of an f32 value.
    fn exp_f32(&mut self, d: KValue) -> KValue {
        let ex = self
            .b
            .op(KOpKind::MathExp, &[d], &[KType::f32()], Vec::new());
        self.b.module().op(ex).results[0]
    }

    /// Hands softmax element `q` (computed in f32 or the output's compute
    /// type) at `c` on: stored as `output`'s element, or, with an
    /// `epilogue` dispatch, remembered as that element (rounded to the
    /// output's type) and the epilogue's values at `c` stored.
    fn softmax_put(
        &mut self,
        output: crate::tensor::TValue,
        epilogue: Option<&DispatchRegion>,
        c: &[KValue],
        q: KValue,
    ) -> Result<(), CodegenError> {
        let Some(d) = epilogue else {
            return self.store(output, c, q);
        };
        let elem = self.c.info.m.value_kind(output).elem();
        let q = self.round(q, elem);
        self.remember(Key::Elem(output, c.to_vec()), vec![q]);
        stores(self, d, c)
    }

    /// The length of `row`'s rows where they are read as vec4: along the
    /// last dimension, a static multiple of 4 long, f32 or f16 stored
    /// natively. An f16 row is then computed in f32 — its maximum, its
    /// exponentials and their sum — and rounded to f16 once, at the
    /// store (as PyTorch accumulates an f16 softmax in f32; rounding the
    /// running sum of a long row to f16 at every step, as the reference
    /// evaluator's element-by-element form does, loses most of it).
    fn softmax_vec4(&self, row: &SoftmaxRow<'_>) -> Option<u64> {
        let m = self.c.info.m;
        let elem = m.value_kind(row.input).elem();
        let f16 = elem == ElemType::F16
            && self.c.strategy.repr(elem) == super::super::strategy::TypeRepr::F16Storage;
        match self.c.shapes.of(row.input)[row.dim] {
            Size::Static(k) if k % 4 == 0 && (elem == ElemType::F32 || f16) => {
                (row.dim + 1 == row.coords.len()).then_some(k)
            }
            _ => None,
        }
    }

    /// One softmax row, split over `wg` invocations (`lane`'s share,
    /// `lane` in `0..wg`) combined with `how` (`wg == 1`: serial, `lane`
    /// unused).
    pub(super) fn softmax_row(
        &mut self,
        row: &SoftmaxRow<'_>,
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        if let Some(len) = self.softmax_vec4(row) {
            return self.softmax_row_vec4(row, len, (wg, lane), how);
        }
        if let Some(len) = self.softmax_vec4_dynamic(row) {
            return self.softmax_row_dynamic(row, len, (wg, lane), how);
        }
        self.softmax_row_scalar(row, (wg, lane), how)
    }

    /// [`softmax_row`](Self::softmax_row) element by element.
    fn softmax_row_scalar(
        &mut self,
        row: &SoftmaxRow<'_>,
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let n = self.size(self.c.shapes.of(row.input)[row.dim]);
        let (base, stride) = if wg == 1 {
            (self.index(0), self.index(1))
        } else {
            (lane, self.index(i64::from(wg)))
        };
        let steps = ceil_div(self, n, stride);
        let share = Share {
            base,
            stride,
            steps,
            n,
            checked: true,
        };
        let (mx, sum) = self.softmax_stats(row, share, wg, how)?;
        self.softmax_write(row, share, mx, sum)
    }

    /// The length of `row`'s rows where they are along the last
    /// dimension, of dynamic length, f32 or f16 stored natively: read as
    /// vec4 where that length is a multiple of 4 at run time
    /// ([`softmax_row_dynamic`](Self::softmax_row_dynamic)).
    fn softmax_vec4_dynamic(&self, row: &SoftmaxRow<'_>) -> Option<Size> {
        let elem = self.c.info.m.value_kind(row.input).elem();
        let f16 = elem == ElemType::F16
            && self.c.strategy.repr(elem) == super::super::strategy::TypeRepr::F16Storage;
        let len = self.c.shapes.of(row.input)[row.dim];
        (matches!(len, Size::Slot(_))
            && (elem == ElemType::F32 || f16)
            && row.dim + 1 == row.coords.len())
        .then_some(len)
    }

    /// One softmax row of dynamic length `len`: as vec4 groups (two
    /// passes: the online maximum and sum, then the quotients) where the
    /// length is a multiple of 4 at run time, else element by element.
    /// Both are emitted under a uniform condition; llvmpipe runs both
    /// under a lane mask, the other's loops stopping after one masked
    /// iteration.
    fn softmax_row_dynamic(
        &mut self,
        row: &SoftmaxRow<'_>,
        len: Size,
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let n = self.size(len);
        let fours = self.multiple_of(n, 4);
        self.if_else(
            fours,
            &[],
            |e| {
                let span = 4 * i64::from(wg.max(1));
                let base = e.vec4_lane_base(wg, lane);
                let stride = e.index(span);
                let share = Share {
                    base,
                    stride,
                    steps: ceil_div(e, n, stride),
                    n,
                    checked: true,
                };
                // The row's groups are whole: its tensors, of this length,
                // move as vectors.
                e.with_fours(Some(len), |e| {
                    e.softmax_stats_vec4(row, share, wg, how)
                        .and_then(|(mx, sum)| e.softmax_write_vec4(row, share, mx, sum))
                })
                .map(|()| Vec::new())
            },
            |e| {
                e.softmax_row_scalar(row, (wg, lane), how)?;
                Ok(Vec::new())
            },
        )?;
        Ok(())
    }

    /// The first element of `lane`'s first vec4 group of a row split
    /// over `wg` invocations (0 for one invocation, else `4 * lane`).
    fn vec4_lane_base(&mut self, wg: u32, lane: KValue) -> KValue {
        if wg == 1 {
            self.index(0)
        } else {
            let four = self.index(4);
            self.mul(lane, four)
        }
    }

    /// Folds `f` over `share`'s indices (a strided loop, each index
    /// checked against `share.n` where `share.checked`): `f` gets the
    /// index.
    fn fold_indices(
        &mut self,
        share: Share,
        inits: &[KValue],
        f: &mut IndexFold<'_, Self>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let (zero, one) = (self.index(0), self.index(1));
        self.for_(zero, share.steps, one, inits, |e, t, acc| {
            let off = e.mul(t, share.stride);
            let r = e.add(share.base, off);
            if !share.checked {
                return f(e, r, acc);
            }
            let inside = e.lt(r, share.n);
            let keep = acc.to_vec();
            let tys: Vec<KType> = keep.iter().map(|&v| e.b.type_of(v)).collect();
            e.if_else(inside, &tys, |e| f(e, r, &keep), |_| Ok(keep.clone()))
        })
    }

    /// Folds `f` over `share`'s elements of the row: `f` gets an
    /// element's coordinates.
    fn fold_share(
        &mut self,
        row: &SoftmaxRow<'_>,
        share: Share,
        inits: &[KValue],
        f: &mut ElemFold<'_, Self>,
    ) -> Result<Vec<KValue>, CodegenError> {
        self.fold_indices(share, inits, &mut |e, r, acc| {
            let mut c = row.coords.to_vec();
            c[row.dim] = r;
            f(e, &c, acc)
        })
    }

    /// The row's maximum and sum of `exp(x - max)` over `share` (element
    /// by element), combined over the `wg` invocations with `how`.
    fn softmax_stats(
        &mut self,
        row: &SoftmaxRow<'_>,
        share: Share,
        wg: u32,
        how: Combine,
    ) -> Result<(KValue, KValue), CodegenError> {
        let elem = self.c.info.m.value_kind(row.input).elem();
        let lowest = match elem {
            ElemType::F16 => -65504.0,
            ElemType::BF16 => -3.389_531_389_251_535_5e38,
            ElemType::F64 => f64::MIN,
            _ => f64::from(f32::MIN),
        };
        let input = row.input;
        let max_c = Combiner::plain(ArithOp::MaxNumF, row.op, input, elem);
        let sum_c = Combiner::plain(ArithOp::AddF, row.op, input, elem);
        let low = self.konst(Scalar::Float(lowest), elem);
        let mx = self.fold_share(row, share, &[low], &mut |e, c, acc| {
            let x = e.elem(input, c)?;
            Ok(vec![e.combine(ArithOp::MaxNumF, x, acc[0], elem)])
        })?;
        let mx = self.workgroup_reduce(std::slice::from_ref(&max_c), &mx, how, wg)?[0];
        let z = self.konst(Scalar::Float(0.0), elem);
        let sum = self.fold_share(row, share, &[z], &mut |e, c, acc| {
            let x = e.softmax_exp(input, c, mx)?;
            Ok(vec![e.combine(ArithOp::AddF, x, acc[0], elem)])
        })?;
        let sum = self.workgroup_reduce(std::slice::from_ref(&sum_c), &sum, how, wg)?[0];
        Ok((mx, sum))
    }

    /// `exp(x - mx)` of `input`'s element at `c`, rounded to its type.
    fn softmax_exp(
        &mut self,
        input: crate::tensor::TValue,
        c: &[KValue],
        mx: KValue,
    ) -> Result<KValue, CodegenError> {
        let elem = self.c.info.m.value_kind(input).elem();
        let x = self.elem(input, c)?;
        let d = self.combine(ArithOp::SubF, x, mx, elem);
        let ty = self.compute_type(elem);
        let ex = self.b.op(KOpKind::MathExp, &[d], &[ty], Vec::new());
        let ex = self.b.module().op(ex).results[0];
        Ok(self.round(ex, elem))
    }

    /// Stores `exp(x - mx) / sum` over `share` (element by element).
    fn softmax_write(
        &mut self,
        row: &SoftmaxRow<'_>,
        share: Share,
        mx: KValue,
        sum: KValue,
    ) -> Result<(), CodegenError> {
        let elem = self.c.info.m.value_kind(row.input).elem();
        self.fold_share(row, share, &[], &mut |e, c, _| {
            let x = e.softmax_exp(row.input, c, mx)?;
            let q = e.combine(ArithOp::DivF, x, sum, elem);
            e.softmax_put(row.output, row.epilogue, c, q)?;
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// [`softmax_row`](Self::softmax_row) along the last dimension of an
    /// f32 tensor whose rows are `len` long, a multiple of 4: each
    /// invocation takes groups of 4 adjacent elements (a vector group:
    /// the row is read and written as vec4), strided by 4 x the
    /// workgroup size, with no bounds check where the row is a multiple
    /// of that. Where the invocation's share is at most
    /// [`SOFTMAX_RESIDENT_GROUPS`] groups with no tail, it is held in
    /// registers ([`softmax_row_resident`](Self::softmax_row_resident));
    /// else two passes ([`softmax_stats_vec4`](Self::softmax_stats_vec4),
    /// [`softmax_write_vec4`](Self::softmax_write_vec4)).
    fn softmax_row_vec4(
        &mut self,
        row: &SoftmaxRow<'_>,
        len: u64,
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let span = 4 * u64::from(wg.max(1));
        let base = self.vec4_lane_base(wg, lane);
        let per_lane = len.div_ceil(span);
        let checked = len % span != 0;
        if !checked && per_lane <= SOFTMAX_RESIDENT_GROUPS {
            let share = (base, span, per_lane);
            let io = (row.input, row.output, row.epilogue);
            return self.softmax_row_resident(row.op, io, row.coords, share, wg, how);
        }
        let share = Share {
            base,
            stride: self.index(span as i64),
            steps: self.index(per_lane as i64),
            n: self.index(len as i64),
            checked,
        };
        let (mx, sum) = self.softmax_stats_vec4(row, share, wg, how)?;
        self.softmax_write_vec4(row, share, mx, sum)
    }

    /// Folds `f` over `share`'s vec4 groups of the row: `f` gets the
    /// group's 4 elements' coordinates with the group in place.
    fn fold_groups(
        &mut self,
        coords: &[KValue],
        share: Share,
        inits: &[KValue],
        f: &mut GroupFold<'_, Self>,
    ) -> Result<Vec<KValue>, CodegenError> {
        self.fold_indices(share, inits, &mut |e, r4, acc| {
            let lanes = e.push_row_group(r4, coords);
            let out = f(e, &lanes, acc);
            e.vector_groups.pop();
            out
        })
    }

    /// The row's maximum and sum of `exp(x - max)` over `share`'s vec4
    /// groups, combined over the `wg` invocations with `how`.
    ///
    /// One pass: a running reference point `m` and the sum `s` of
    /// `exp(x - m)` (the "online" softmax normaliser). `m` moves to a
    /// group's maximum only when that passes it by more than
    /// [`SOFTMAX_SLACK`], rescaling `s` by `exp(m_old - m_new)`: a row
    /// that rises slowly is not rescaled at every group, which would add
    /// an exponential's rounding each time. The invocations' maxima
    /// combine first and each invocation's sum is rescaled to the
    /// combined maximum before the sums combine.
    fn softmax_stats_vec4(
        &mut self,
        row: &SoftmaxRow<'_>,
        share: Share,
        wg: u32,
        how: Combine,
    ) -> Result<(KValue, KValue), CodegenError> {
        let elem = ElemType::F32;
        let input = row.input;
        let combiner = |op_: ArithOp| Combiner::plain(op_, row.op, input, elem);
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let z = self.konst(Scalar::Float(0.0), elem);
        let slack = self.konst(Scalar::Float(SOFTMAX_SLACK), elem);
        let ms = self.fold_groups(row.coords, share, &[low, z, low], &mut |e, lanes, acc| {
            let (m, s, true_max) = (acc[0], acc[1], acc[2]);
            let mut xs = Vec::with_capacity(lanes.len());
            for c in lanes {
                xs.push(e.elem(input, c)?);
            }
            let mut gmax = xs[0];
            for &x in &xs[1..] {
                gmax = e.softmax_max(x, gmax);
            }
            // The reference point moves only when the group's maximum
            // passes it by more than the slack: each rescale costs an
            // exponential and its rounding, and below the slack the
            // terms stay far from overflowing.
            let top = e.combine(ArithOp::AddF, m, slack, elem);
            let raised = e.b.cmpf("ogt", gmax, top);
            let m_new = e.b.select(raised, gmax, m);
            let d = e.combine(ArithOp::SubF, m, m_new, elem);
            let scale = e.exp_f32(d);
            let rescaled = e.combine(ArithOp::MulF, s, scale, elem);
            let mut s_new = e.b.select(raised, rescaled, s);
            for &x in &xs {
                let d = e.combine(ArithOp::SubF, x, m_new, elem);
                let ex = e.exp_f32(d);
                s_new = e.combine(ArithOp::AddF, ex, s_new, elem);
            }
            let true_max = e.softmax_max(gmax, true_max);
            Ok(vec![m_new, s_new, true_max])
        })?;
        let (m_own, s_own, max_own) = (ms[0], ms[1], ms[2]);
        // The quotients are taken against the row's true maximum (the
        // largest ones are then the most accurate, as with three passes):
        // each sum is rescaled to it once.
        let mx = self.workgroup_reduce(&[combiner(ArithOp::MaxNumF)], &[max_own], how, wg)?[0];
        let d = self.combine(ArithOp::SubF, m_own, mx, elem);
        let scale = self.exp_f32(d);
        let s_own = self.combine(ArithOp::MulF, s_own, scale, elem);
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &[s_own], how, wg)?[0];
        Ok((mx, sum))
    }

    /// Stores `exp(x - mx) * (1 / sum)` over `share`'s vec4 groups (one
    /// division per row).
    fn softmax_write_vec4(
        &mut self,
        row: &SoftmaxRow<'_>,
        share: Share,
        mx: KValue,
        sum: KValue,
    ) -> Result<(), CodegenError> {
        let elem = ElemType::F32;
        let one_f = self.konst(Scalar::Float(1.0), elem);
        let inv = self.combine(ArithOp::DivF, one_f, sum, elem);
        self.fold_groups(row.coords, share, &[], &mut |e, lanes, _| {
            for c in lanes {
                let x = e.elem(row.input, c)?;
                let d = e.combine(ArithOp::SubF, x, mx, elem);
                let ex = e.exp_f32(d);
                let q = e.combine(ArithOp::MulF, ex, inv, elem);
                e.softmax_put(row.output, row.epilogue, c, q)?;
            }
            e.flush_vector_stores();
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// One kernel of a softmax row split over `part.slices` workgroups,
    /// this one taking slice `part.slice` with `wg` invocations (`lane`'s
    /// share) combined with `how`. Slices are whole rounds of the
    /// workgroup (`4 * wg` elements for vec4 rows, `wg` otherwise), the
    /// last possibly shorter, slices past the row empty. The first kernel
    /// writes the slice's maximum and sum of `exp(x - max)` to the
    /// partials; the second combines the row's partials — the row's
    /// maximum `M`, then `sum_g s_g * exp(m_g - M)`, split over the
    /// workgroup like a row — and writes the slice's quotients.
    pub(super) fn softmax_row_part(
        &mut self,
        row: &SoftmaxRow<'_>,
        (wg, lane): (u32, KValue),
        how: Combine,
        part: RowPart,
    ) -> Result<(), CodegenError> {
        let vec4 = self.softmax_vec4(row);
        if vec4.is_none() && self.c.info.m.value_kind(row.input).elem() != ElemType::F32 {
            return Err(self.internal(
                row.op,
                Invariant::PlanMismatch {
                    kernel: "split softmax rows",
                    what: "neither f32 nor read as vec4",
                },
            ));
        }
        // The partials and their combination in f32 (an f16 row read as
        // vec4 is computed in f32).
        let elem = ElemType::F32;
        let slices = u64::from(part.slices.max(1));
        let share = match vec4 {
            Some(len) => {
                let span = 4 * u64::from(wg);
                let slice_len = len.div_ceil(slices).div_ceil(span) * span;
                let start = self.index(slice_len as i64);
                let start = self.mul(part.slice, start);
                let four = self.index(4);
                let lane4 = self.mul(lane, four);
                Share {
                    base: self.add(start, lane4),
                    stride: self.index(span as i64),
                    steps: self.index((slice_len / span) as i64),
                    n: self.index(len as i64),
                    checked: slice_len * slices != len,
                }
            }
            None => {
                let n = self.size(self.c.shapes.of(row.input)[row.dim]);
                let (sl, w) = (self.index(slices as i64), self.index(i64::from(wg)));
                let per = ceil_div(self, n, sl);
                let steps = ceil_div(self, per, w);
                let slice_len = self.mul(steps, w);
                let start = self.mul(part.slice, slice_len);
                Share {
                    base: self.add(start, lane),
                    stride: w,
                    steps,
                    n,
                    checked: true,
                }
            }
        };
        let sl = self.index(slices as i64);
        let first = self.mul(part.row, sl);
        let [maxes, sums] = part.partials;
        if !part.second {
            let (mx, sum) = match vec4 {
                Some(_) => self.softmax_stats_vec4(row, share, wg, how)?,
                None => self.softmax_stats(row, share, wg, how)?,
            };
            let zero = self.index(0);
            let lead = self.b.cmpi("eq", lane, zero);
            let at = self.add(first, part.slice);
            return self.if_then(lead, |e| {
                e.store_at(maxes, at, mx, elem);
                e.store_at(sums, at, sum, elem);
                Ok(())
            });
        }
        // The row's partials, split over the workgroup like a row (most
        // slices are one per invocation): their maximum, then their sums
        // rescaled to it.
        let w = self.index(i64::from(wg));
        let steps = ceil_div(self, sl, w);
        let partials = Share {
            base: lane,
            stride: w,
            steps,
            n: sl,
            checked: true,
        };
        let combiner = |op_: ArithOp| Combiner::plain(op_, row.op, row.input, elem);
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let mx = self.fold_indices(partials, &[low], &mut |e, g, acc| {
            let at = e.add(first, g);
            let m = e.load_at(maxes, at, elem);
            Ok(vec![e.softmax_max(m, acc[0])])
        })?;
        let mx = self.workgroup_reduce(&[combiner(ArithOp::MaxNumF)], &mx, how, wg)?[0];
        let z = self.konst(Scalar::Float(0.0), elem);
        let sum = self.fold_indices(partials, &[z], &mut |e, g, acc| {
            let at = e.add(first, g);
            let m = e.load_at(maxes, at, elem);
            let s = e.load_at(sums, at, elem);
            let d = e.combine(ArithOp::SubF, m, mx, elem);
            let scale = e.exp_f32(d);
            let s = e.combine(ArithOp::MulF, s, scale, elem);
            Ok(vec![e.combine(ArithOp::AddF, s, acc[0], elem)])
        })?;
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &sum, how, wg)?[0];
        match vec4 {
            Some(_) => self.softmax_write_vec4(row, share, mx, sum),
            None => self.softmax_write(row, share, mx, sum),
        }
    }

    /// [`softmax_row_vec4`](Self::softmax_row_vec4) where this
    /// invocation's share of the row is `groups` vec4 groups at `base +
    /// t * span` (no tail): the share is loaded once and held in
    /// registers (the row is read from memory once, each exponential
    /// computed once). Three steps: the maximum, then the exponentials
    /// and their sum, then the stores of `exp(x - max) * (1 / sum)`. The
    /// maximum and the sum keep one chain per vector lane, so the folds
    /// do not wait on each other.
    fn softmax_row_resident(
        &mut self,
        op: TOp,
        (input, output, epilogue): (
            crate::tensor::TValue,
            crate::tensor::TValue,
            Option<&DispatchRegion>,
        ),
        coords: &[KValue],
        (base, span, groups): (KValue, u64, u64),
        wg: u32,
        how: Combine,
    ) -> Result<(), CodegenError> {
        let elem = ElemType::F32;
        let combiner = |op_: ArithOp| Combiner::plain(op_, op, input, elem);
        // The group at `base + t * span`, pushed; its 4 elements'
        // coordinates.
        let group_at = |e: &mut Self, t: u64| -> Vec<Vec<KValue>> {
            let off = e.index((t * span) as i64);
            let r4 = e.add(base, off);
            e.push_row_group(r4, coords)
        };
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let mut maxes = [low; 4];
        let mut xs = Vec::with_capacity(groups as usize * 4);
        for t in 0..groups {
            let lanes = group_at(self, t);
            for (j, c) in lanes.iter().enumerate() {
                let x = self.elem(input, c)?;
                maxes[j] = self.softmax_max(x, maxes[j]);
                xs.push(x);
            }
            self.vector_groups.pop();
        }
        let m01 = self.softmax_max(maxes[0], maxes[1]);
        let m23 = self.softmax_max(maxes[2], maxes[3]);
        let own = self.softmax_max(m01, m23);
        let mx = self.workgroup_reduce(&[combiner(ArithOp::MaxNumF)], &[own], how, wg)?[0];
        let z = self.konst(Scalar::Float(0.0), elem);
        let mut sums = [z; 4];
        let mut exs = Vec::with_capacity(xs.len());
        for (i, &x) in xs.iter().enumerate() {
            let d = self.combine(ArithOp::SubF, x, mx, elem);
            let ex = self.exp_f32(d);
            sums[i % 4] = self.combine(ArithOp::AddF, ex, sums[i % 4], elem);
            exs.push(ex);
        }
        let s01 = self.combine(ArithOp::AddF, sums[0], sums[1], elem);
        let s23 = self.combine(ArithOp::AddF, sums[2], sums[3], elem);
        let own = self.combine(ArithOp::AddF, s01, s23, elem);
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &[own], how, wg)?[0];
        let one = self.konst(Scalar::Float(1.0), elem);
        let inv = self.combine(ArithOp::DivF, one, sum, elem);
        for t in 0..groups {
            let lanes = group_at(self, t);
            for (j, c) in lanes.iter().enumerate() {
                let q = self.combine(ArithOp::MulF, exs[t as usize * 4 + j], inv, elem);
                self.softmax_put(output, epilogue, c, q)?;
            }
            self.flush_vector_stores();
            self.vector_groups.pop();
        }
        Ok(())
    }
}
