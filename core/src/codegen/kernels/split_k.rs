//! Split-K kernels ([`ReductionStrategy::SplitK`](super::super::strategy::ReductionStrategy::SplitK)):
//! the pieces the register and workgroup-memory tile kernels share when
//! their reduction is cut into slices, and the second kernel that sums
//! the slices.
//!
//! First kernel: workgroup `w` runs slice `w % S` of the block `w / S`
//! (the slices of one block are neighbours, so they read the same
//! operand rows and columns at about the same time); its tile folds the
//! slice's iterations from the combining op's identity and stores each
//! point's partial result at `slice * P + p` of a scratch buffer per root
//! output (`P` the dispatch's points, `p` the point's row-major index),
//! in the output's element type (unrounded f32 for an f16/bf16 output
//! that accumulates in f32, [`scratch_elem`]). No epilogue runs there.
//!
//! Second kernel: an invocation per point folds its `S` partials in
//! slice order, folds the total into the output's initial value (a fill,
//! a bias, whatever the root's `outs` is) and stores the dispatch's
//! values through the ordinary path, so the fused elementwise tail
//! (activation, casts) sees only the complete sum.

use crate::kernel::KValue;
use crate::tensor::structured::Structured;
use crate::tensor::TOp;

use super::super::combine::{combiners, scratch_elem, Combiner};
use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::strategy::{DispatchShape, Slices};
use super::emitter::Emitter;
use super::point::{root_point, stores};
use super::reduce::wide_combiners;

/// The slice a tile kernel's workgroup runs.
pub(super) struct SliceAt {
    /// The slice's index.
    pub index: KValue,
    /// Its first reduction iteration.
    pub begin: KValue,
    /// One past its last.
    pub end: KValue,
}

impl Slices {
    /// Splits workgroup index `wgi` into the index of its tile's block and
    /// its slice of the `total` reduction iterations.
    pub(super) fn of_workgroup(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        wgi: KValue,
        total: KValue,
    ) -> (KValue, SliceAt) {
        let count = e.index(i64::from(self.count));
        let block = e.div(wgi, count);
        let index = e.rem(wgi, count);
        let len = e.index(i64::try_from(self.len).unwrap_or(i64::MAX));
        let begin = e.mul(index, len);
        let end = e.add(begin, len);
        let end = e.b.binary(crate::kernel::KOpKind::ArithMinUI, end, total);
        (block, SliceAt { index, begin, end })
    }

    /// [`Slices::of_workgroup`] where the kernel is split (`split`), else
    /// `wgi` itself and no slice.
    pub(super) fn block_of(
        split: Option<&Slices>,
        e: &mut Emitter<'_, '_, '_>,
        wgi: KValue,
        total: KValue,
    ) -> (KValue, Option<SliceAt>) {
        match split {
            Some(sl) => {
                let (block, at) = sl.of_workgroup(e, wgi, total);
                (block, Some(at))
            }
            None => (wgi, None),
        }
    }

    /// The initial accumulators of `points` tile points of root `root`:
    /// the combining ops' identities.
    pub(super) fn identity_inits(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        root: TOp,
        s: &Structured,
        points: usize,
    ) -> Result<Vec<KValue>, CodegenError> {
        let cs = root_combiners(e, root, s)?;
        let one: Vec<KValue> = cs.iter().map(|c| e.konst(c.identity(), c.elem)).collect();
        Ok((0..points).flat_map(|_| one.iter().copied()).collect())
    }

    /// Stores the partial results `accs` (the root's outputs at the
    /// dispatch point `coords`) of slice `slice`.
    pub(super) fn store_partials(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        shape: &DispatchShape,
        root: TOp,
        slice: KValue,
        coords: &[KValue],
        accs: &[KValue],
    ) {
        let domain = e.sizes(&shape.points);
        let points = e.product(&domain);
        let p = e.linearize(coords, &domain);
        let base = e.mul(slice, points);
        let at = e.add(base, p);
        let s = &e.c.info.structured[&root];
        let elems: Vec<_> = (0..s.outputs.len())
            .map(|j| scratch_elem(e.c.info.m, s, j))
            .collect();
        for (j, (&acc, elem)) in accs.iter().zip(elems).enumerate() {
            e.store_at(self.partials[j], at, acc, elem);
        }
    }
}

fn root_combiners(
    e: &Emitter<'_, '_, '_>,
    root: TOp,
    s: &Structured,
) -> Result<Vec<Combiner>, CodegenError> {
    combiners(e.c.info.m, s).ok_or_else(|| e.internal(root, Invariant::NotCombinable("split-K")))
}

/// The second kernel: invocation `t` of workgroup `wgi` sums the slices
/// of point `wgi * W + t`, folds the sum into the root's initial value
/// and stores the dispatch's values there.
pub(super) fn emit_sum_slices(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    slices: &Slices,
) -> Result<(), CodegenError> {
    let root = d
        .root
        .ok_or_else(|| e.internal(d.op, Invariant::NoRoot("split-K")))?;
    let s = e.c.info.structured[&root].clone();
    let cs = root_combiners(e, root, &s)?;
    // Partials of an f16/bf16 sum are unrounded f32 (see `Slices`).
    let wide = wide_combiners(e.c.info.m, &s).is_some();
    let wg = e.index(i64::from(e.c.strategy.invocations()));
    let tid = e.b.thread_id("x");
    let start = e.mul(wgi, wg);
    let p = e.add(start, tid);
    let domain = e.sizes(&shape.points);
    let points = e.product(&domain);
    let inside = e.lt(p, points);
    e.if_then(inside, |e| {
        let coords = e.delinearize(p, &domain);
        let rp = root_point(e, d, &coords, root)?;
        let acc0: Vec<KValue> = cs.iter().map(|c| e.konst(c.identity(), c.elem)).collect();
        let zero = e.index(0);
        let one = e.index(1);
        let count = e.index(i64::from(slices.count));
        let totals = e.for_(zero, count, one, &acc0, |e, k, accs| {
            let base = e.mul(k, points);
            let at = e.add(base, p);
            let xs: Vec<KValue> = cs
                .iter()
                .enumerate()
                .map(|(j, c)| e.load_partial(slices.partials[j], at, c))
                .collect();
            Ok(e.fold_all(&cs, accs, &xs, wide))
        })?;
        let inits = e.inits(root, &s, &rp)?;
        let finals = if wide {
            // The f32 total folded into the init, rounded once.
            e.finish_combine(&cs, &inits, &totals)
        } else {
            e.fold_all(&cs, &inits, &totals, false)
        };
        e.prepared_roots.insert(root, finals);
        stores(e, d, &coords)
    })
}
