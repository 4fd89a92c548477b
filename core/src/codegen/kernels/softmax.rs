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
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::strategy::Combine;
use super::emitter::Emitter;

/// What a vec4 softmax loop folds per group: the group's 4 elements'
/// coordinates and the accumulator to the new accumulator.
/// How far a softmax row's elements may pass the reference point of the
/// two-pass normaliser before it moves (`e^16` times 2^32 terms stays far
/// below f32's range).
const SOFTMAX_SLACK: f64 = 16.0;

/// The most vec4 groups of a softmax row one invocation holds in
/// registers (512 floats: a 4,096-long row split over 8 invocations).
const SOFTMAX_RESIDENT_GROUPS: u64 = 128;

type GroupFold<'f, E> =
    dyn FnMut(&mut E, &[Vec<KValue>], &[KValue]) -> Result<Vec<KValue>, CodegenError> + 'f;

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

    /// One softmax row: `input` and `output` are the op's operand and
    /// result; `coords` the row's coordinates with `dim` left at 0; the
    /// row is split over `wg` invocations (`lane`'s share, `lane` in
    /// `0..wg`) combined with `how` (`wg == 1`: serial, `lane` unused).
    #[allow(clippy::too_many_arguments, reason = "one call site per strategy")]
    pub fn softmax_row(
        &mut self,
        op: TOp,
        input: crate::tensor::TValue,
        output: crate::tensor::TValue,
        dim: usize,
        coords: &[KValue],
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let m = self.c.info.m;
        let elem = m.value_kind(input).elem();
        let shapes = self.c.shapes;
        let row = shapes.of(input)[dim];
        if dim + 1 == coords.len()
            && elem == ElemType::F32
            && matches!(row, Size::Static(k) if k % 4 == 0)
        {
            return self.softmax_row_vec4(op, input, output, coords, (wg, lane), how);
        }
        let n = self.size(row);
        let (base, stride) = if wg == 1 {
            (self.index(0), self.index(1))
        } else {
            (lane, self.index(i64::from(wg)))
        };
        let lowest = match elem {
            ElemType::F16 => -65504.0,
            ElemType::BF16 => -3.389_531_389_251_535_5e38,
            ElemType::F64 => f64::MIN,
            _ => f64::from(f32::MIN),
        };
        let x_at = |e: &mut Self, r: KValue| -> Result<KValue, CodegenError> {
            let mut c = coords.to_vec();
            c[dim] = r;
            e.elem(input, &c)
        };
        let max_c = Combiner::plain(ArithOp::MaxNumF, op, input, elem);
        let sum_c = Combiner::plain(ArithOp::AddF, op, input, elem);
        // Strided loop helper: fold f(r) over this invocation's share.
        let one = self.index(1);
        let sm1 = self.sub(stride, one);
        let t_end = self.add(n, sm1);
        let t_end = self.div(t_end, stride);
        let zero = self.index(0);
        // max
        let low = self.konst(Scalar::Float(lowest), elem);
        let mx = self.for_(zero, t_end, one, &[low], |e, t, acc| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            let keep = acc[0];
            let ty = e.b.type_of(keep);
            e.if_else(
                inside,
                &[ty],
                |e| {
                    let x = x_at(e, r)?;
                    Ok(vec![e.combine(ArithOp::MaxNumF, x, keep, elem)])
                },
                |_| Ok(vec![keep]),
            )
        })?;
        let mx = self.workgroup_reduce(std::slice::from_ref(&max_c), &mx, how, wg)?[0];
        let exp_at = |e: &mut Self, r: KValue| -> Result<KValue, CodegenError> {
            let x = x_at(e, r)?;
            let d = e.combine(ArithOp::SubF, x, mx, elem);
            let ty = e.compute_type(elem);
            let ex = e.b.op(KOpKind::MathExp, &[d], &[ty], Vec::new());
            let ex = e.b.module().op(ex).results[0];
            Ok(e.round(ex, elem))
        };
        let z = self.konst(Scalar::Float(0.0), elem);
        let sum = self.for_(zero, t_end, one, &[z], |e, t, acc| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            let keep = acc[0];
            let ty = e.b.type_of(keep);
            e.if_else(
                inside,
                &[ty],
                |e| {
                    let x = exp_at(e, r)?;
                    Ok(vec![e.combine(ArithOp::AddF, x, keep, elem)])
                },
                |_| Ok(vec![keep]),
            )
        })?;
        let sum = self.workgroup_reduce(std::slice::from_ref(&sum_c), &sum, how, wg)?[0];
        self.for_(zero, t_end, one, &[], |e, t, _| {
            let off = e.mul(t, stride);
            let r = e.add(base, off);
            let inside = e.lt(r, n);
            e.if_then(inside, |e| {
                let x = exp_at(e, r)?;
                let q = e.combine(ArithOp::DivF, x, sum, elem);
                let mut c = coords.to_vec();
                c[dim] = r;
                e.store(output, &c, q)
            })?;
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// [`softmax_row`](Self::softmax_row) along the last dimension of an
    /// f32 tensor whose rows are a multiple of 4 long: each invocation
    /// takes groups of 4 adjacent elements (a vector group: the row is
    /// read and written as vec4), strided by 4 x the workgroup size, with
    /// no bounds check where the row is a multiple of that.
    ///
    /// Two passes over the row instead of three: the first keeps a
    /// running reference point `m` and the sum `s` of `exp(x - m)`
    /// (the "online" softmax normaliser); the second writes
    /// `exp(x - max) / s`, `s` rescaled once to the row's maximum.
    /// `m` moves to a group's maximum only when that passes it by more
    /// than [`SOFTMAX_SLACK`], rescaling `s` by `exp(m_old - m_new)`: a
    /// row that rises slowly is not rescaled at every group, which would
    /// add an exponential's rounding each time. Split over a workgroup,
    /// the invocations' maxima combine first and each invocation's sum is
    /// rescaled to the row's maximum before the sums combine. The
    /// quotients multiply by the sum's reciprocal (one division per row).
    /// Where the invocation's share is at most
    /// [`SOFTMAX_RESIDENT_GROUPS`] groups with no tail, it is held in
    /// registers instead ([`softmax_row_resident`](Self::softmax_row_resident)).
    #[allow(clippy::too_many_arguments, reason = "the row's description")]
    fn softmax_row_vec4(
        &mut self,
        op: TOp,
        input: crate::tensor::TValue,
        output: crate::tensor::TValue,
        coords: &[KValue],
        (wg, lane): (u32, KValue),
        how: Combine,
    ) -> Result<(), CodegenError> {
        let elem = ElemType::F32;
        let dim = coords.len() - 1;
        let shapes = self.c.shapes;
        let Size::Static(len) = shapes.of(input)[dim] else {
            return Err(self.unsupported(op, "internal: a dynamic row in the vec4 softmax"));
        };
        let n = self.index(len as i64);
        let span = 4 * u64::from(wg.max(1));
        let checked = len % span != 0;
        let base = if wg == 1 {
            self.index(0)
        } else {
            let four = self.index(4);
            self.mul(lane, four)
        };
        let stride = self.index(span as i64);
        let t_end = self.index(len.div_ceil(span) as i64);
        let zero = self.index(0);
        let one = self.index(1);
        let combiner = |op_: ArithOp| Combiner::plain(op_, op, input, elem);
        // Folds `f` over this invocation's groups: `f` gets the group's 4
        // elements' coordinates with the group in place.
        let fold = |e: &mut Self,
                    inits: &[KValue],
                    f: &mut GroupFold<'_, Self>|
         -> Result<Vec<KValue>, CodegenError> {
            e.for_(zero, t_end, one, inits, |e, t, acc| {
                let off = e.mul(t, stride);
                let r4 = e.add(base, off);
                let keep = acc.to_vec();
                let tys: Vec<KType> = keep.iter().map(|&v| e.b.type_of(v)).collect();
                let mut body = |e: &mut Self| -> Result<Vec<KValue>, CodegenError> {
                    let lanes = e.push_row_group(r4, coords);
                    let out = f(e, &lanes, &keep);
                    e.vector_groups.pop();
                    out
                };
                if checked {
                    let inside = e.lt(r4, n);
                    let kept = keep.clone();
                    e.if_else(inside, &tys, &mut body, |_| Ok(kept))
                } else {
                    body(e)
                }
            })
        };
        let per_lane = len / span;
        if !checked && per_lane <= SOFTMAX_RESIDENT_GROUPS {
            let share = (base, span, per_lane);
            return self.softmax_row_resident(op, (input, output), coords, share, wg, how);
        }
        let exp = |e: &mut Self, d: KValue| e.exp_f32(d);
        let low = self.konst(Scalar::Float(f64::from(f32::MIN)), elem);
        let z = self.konst(Scalar::Float(0.0), elem);
        let slack = self.konst(Scalar::Float(SOFTMAX_SLACK), elem);
        // Pass 1: a running reference point (within `slack` below the
        // maximum so far) and the sum of exponentials relative to it.
        let ms = fold(self, &[low, z, low], &mut |e, lanes, acc| {
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
            let scale = exp(e, d);
            let rescaled = e.combine(ArithOp::MulF, s, scale, elem);
            let mut s_new = e.b.select(raised, rescaled, s);
            for &x in &xs {
                let d = e.combine(ArithOp::SubF, x, m_new, elem);
                let ex = exp(e, d);
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
        let scale = exp(self, d);
        let s_own = self.combine(ArithOp::MulF, s_own, scale, elem);
        let sum = self.workgroup_reduce(&[combiner(ArithOp::AddF)], &[s_own], how, wg)?[0];
        // Pass 2: the normalised exponentials.
        let one_f = self.konst(Scalar::Float(1.0), elem);
        let inv = self.combine(ArithOp::DivF, one_f, sum, elem);
        fold(self, &[], &mut |e, lanes, _| {
            for c in lanes {
                let x = e.elem(input, c)?;
                let d = e.combine(ArithOp::SubF, x, mx, elem);
                let ex = exp(e, d);
                let q = e.combine(ArithOp::MulF, ex, inv, elem);
                e.store(output, c, q)?;
            }
            e.flush_vector_stores();
            Ok(Vec::new())
        })?;
        Ok(())
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
        (input, output): (crate::tensor::TValue, crate::tensor::TValue),
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
                self.store(output, c, q)?;
            }
            self.flush_vector_stores();
            self.vector_groups.pop();
        }
        Ok(())
    }
}
