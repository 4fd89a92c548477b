//! Row groups ([`OpFamily::Normalization`](super::super::regions::OpFamily::Normalization)):
//! one row of a dispatch that holds per-row reductions — a layer norm's
//! sum and sum of squares — and the row-wise op reading them.
//!
//! A row's invocations (one, a subgroup, or the workgroup) compute each
//! row root in program order: each folds its share of the root's
//! iterations (neighbouring lanes reading neighbouring vec4 groups where
//! the reduction is a static multiple of 4, or the row's dynamic length
//! and a multiple of 4 at run time), the shares combine within
//! the row's invocations, and every invocation keeps the totals (later
//! roots and the row's points read them, as a layer norm's variance reads
//! its mean); per-row values the program also returns are written by the
//! row's first invocation. Then each invocation computes and stores its share of the
//! row's points, 4 adjacent columns at a time where the row is a
//! multiple of 4 (moved as vec4; for a row of dynamic length both ways
//! are emitted under a uniform condition on its length).
//!
//! Where an invocation's share of the row is static, has no tail and is
//! at most [`RESIDENT_GROUPS`] groups of 4, the passes are unrolled over
//! the same groups: the row's elements are loaded once and stay in
//! registers for every pass (the emitter's memo finds them), and each
//! root folds into 4 independent chains; longer shares are read again by
//! each pass. No intermediate per-row value goes to memory.

use crate::codegen::host::Size;
use crate::kernel::KValue;

use super::super::combine::{combiners, Combiner};
use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::row_group::{RowOutput, RowRoot};
use super::super::strategy::Combine;
use super::emitter::Emitter;
use super::point::stores;
use super::vector::VectorGroup;

/// The most groups of 4 elements of a row one invocation holds in
/// registers across the row's passes (64 floats: a GPU's workgroup of
/// 256 over a row of 4,096 holds 4 groups each). More spill: on lavapipe
/// a subgroup holding its 128 groups of a 4,096-long row `x * sum(x)`
/// took 2.5 ms against 1.75 reading the row again for each pass.
const RESIDENT_GROUPS: u64 = 16;

/// Emits dispatch `d`'s row at `row` (the coordinates of its op's loops
/// but the last), split over `slice` invocations (`lane` this one's place
/// among them; `slice == 1`: one invocation, `lane` unused) whose partial
/// results combine with `how`.
pub(super) fn emit_row(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    row: &[KValue],
    (slice, lane): (u32, KValue),
    how: Combine,
) -> Result<(), CodegenError> {
    let lane = if slice == 1 { e.index(0) } else { lane };
    let sizes = e.loop_sizes(d.op);
    let last = sizes.last().copied().ok_or_else(|| {
        e.internal(
            d.op,
            Invariant::PlanMismatch {
                kernel: "a row group",
                what: "no loops",
            },
        )
    })?;
    if last.fixed().is_some() {
        return row_passes(e, d, row, (slice, lane), how, last);
    }
    // A row of dynamic length: as vec4 groups where it is a multiple of 4
    // at run time, element by element otherwise, under one uniform
    // condition (llvmpipe runs both under a lane mask, the other's loops
    // stopping after one masked round).
    let n = e.size(last);
    let fours = e.multiple_of(n, 4);
    e.if_else(
        fours,
        &[],
        |e| {
            // The row's groups are whole: its tensors, of this length,
            // move as vectors.
            e.with_fours(Some(last), |e| {
                row_passes(e, d, row, (slice, lane), how, last)
            })
            .map(|()| Vec::new())
        },
        |e| {
            row_passes(e, d, row, (slice, lane), how, last)?;
            Ok(Vec::new())
        },
    )?;
    Ok(())
}

/// The row's passes over rows of length `last`: each row root, the
/// per-row values it returns, then the row's points (as vec4 groups where
/// the length is a static multiple of 4, or dynamic and known here to be
/// a multiple of 4, [`Emitter::known_fours`]).
fn row_passes(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    row: &[KValue],
    (slice, lane): (u32, KValue),
    how: Combine,
    last: Size,
) -> Result<(), CodegenError> {
    for rr in &d.row_roots {
        row_root(e, rr, row, (slice, lane), how)?;
    }
    for o in &d.row_outputs {
        row_output(e, d, o, row, lane)?;
    }
    let n = e.size(last);
    let groups = dynamic_fours(e, last) || e.const_of(n).is_some_and(|k| k > 0 && k % 4 == 0);
    share(e, n, (slice, lane), groups, &mut |e, c| {
        let mut p = row.to_vec();
        p.push(c);
        stores(e, d, &p)
    })
}

/// The loop point of an op of the group whose loops come from `loops`
/// (see [`RowRoot::loops`]) at `row` (loops of no row loop at 0).
fn row_point(e: &mut Emitter<'_, '_, '_>, loops: &[Option<usize>], row: &[KValue]) -> Vec<KValue> {
    let zero = e.index(0);
    loops
        .iter()
        .map(|src| src.and_then(|i| row.get(i).copied()).unwrap_or(zero))
        .collect()
}

/// Writes per-row value `o` of dispatch `d` at `row` from the row's
/// first invocation.
fn row_output(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    o: &RowOutput,
    row: &[KValue],
    lane: KValue,
) -> Result<(), CodegenError> {
    let info = e.c.info;
    let op = info.def_op(o.value).ok_or_else(|| {
        e.internal(
            d.op,
            Invariant::PlanMismatch {
                kernel: "a row output",
                what: "no op defines it",
            },
        )
    })?;
    let s = info.structured[&op].clone();
    let zero = e.index(0);
    let point = row_point(e, &o.loops, row);
    let map = s.indexing_maps[s.inputs.len()].clone();
    let coords = map
        .results
        .iter()
        .map(|x| e.affine(op, x, &point))
        .collect::<Result<Vec<_>, _>>()?;
    let x = e.elem(o.value, &coords)?;
    let first = e.b.cmpi("eq", lane, zero);
    e.if_then(first, |e| e.store(o.value, &coords, x))
}

/// Computes row root `rr` at `row` and leaves its values in the
/// emitter's prepared roots.
fn row_root(
    e: &mut Emitter<'_, '_, '_>,
    rr: &RowRoot,
    row: &[KValue],
    (slice, lane): (u32, KValue),
    how: Combine,
) -> Result<(), CodegenError> {
    let info = e.c.info;
    let op = rr.op;
    let s = info.structured[&op].clone();
    let cs = combiners(info.m, &s)
        .ok_or_else(|| e.internal(op, Invariant::NotCombinable("a row root")))?;
    let rp = row_point(e, &rr.loops, row);
    let (loops, red) = e.reduction_loops(op, &s);
    let total = e.product(&red);
    let x_at = |e: &mut Emitter<'_, '_, '_>, r: KValue| {
        e.combinable_xs_at(op, &s, &cs, &rp, (&loops, &red), r)
    };
    let groups = red.len() == 1
        && (e.const_of(total).is_some_and(|t| t > 0 && t % 4 == 0)
            || loops.len() == 1 && {
                let size = e.loop_sizes(op)[loops[0]];
                dynamic_fours(e, size)
            });
    let accs = match resident_groups(e, total, slice).filter(|_| red.len() == 1) {
        Some(count) => resident_fold(e, &cs, count, (slice, lane), x_at)?,
        None => {
            let stride = e.index(i64::from(slice));
            e.coop_loop(&cs, total, lane, stride, u32::from(groups), x_at)?
        }
    };
    let wg = e.c.strategy.invocations();
    let totals = if slice == 1 {
        accs
    } else if slice == wg || how == Combine::OneSubgroup {
        e.workgroup_reduce(&cs, &accs, how, slice)?
    } else {
        return Err(e.internal(
            op,
            Invariant::PlanSizes(format!("rows of {slice} invocations combined by {how:?}")),
        ));
    };
    let inits = e.inits(op, &s, &rp)?;
    let finals = e.finish_combine(&cs, &inits, &totals);
    e.prepared_roots.insert(op, finals);
    Ok(())
}

/// Whether `size` is dynamic and known here to be a multiple of 4.
fn dynamic_fours(e: &Emitter<'_, '_, '_>, size: Size) -> bool {
    size.fixed().is_none() && e.known_fours(size)
}

/// The groups of 4 an invocation holds when `total` iterations split over
/// `slice` invocations are a static multiple of `4 * slice` and at most
/// [`RESIDENT_GROUPS`] each.
fn resident_groups(e: &Emitter<'_, '_, '_>, total: KValue, slice: u32) -> Option<u64> {
    let unit = 4 * u64::from(slice);
    let t = e.const_of(total)?;
    let t = u64::try_from(t).ok()?;
    (t > 0 && t % unit == 0 && t / unit <= RESIDENT_GROUPS).then_some(t / unit)
}

/// The first column of group `t` of an invocation's share: `4 * (lane +
/// t * slice)` (the same value in every pass, so the memo finds what an
/// earlier pass loaded there).
fn group_base(e: &mut Emitter<'_, '_, '_>, lane: KValue, slice: u32, t: u64) -> KValue {
    let four = e.index(4);
    let lane4 = e.mul(lane, four);
    let off = e.index((t * 4 * u64::from(slice)) as i64);
    e.add(lane4, off)
}

/// Folds the invocation's `count` groups of 4 iterations unrolled, into 4
/// chains (one per place in the group) combined at the end; returns the
/// widened accumulators.
fn resident_fold(
    e: &mut Emitter<'_, '_, '_>,
    cs: &[Combiner],
    count: u64,
    (slice, lane): (u32, KValue),
    mut x_at: impl FnMut(&mut Emitter<'_, '_, '_>, KValue) -> Result<Vec<KValue>, CodegenError>,
) -> Result<Vec<KValue>, CodegenError> {
    let mut chains: Vec<Vec<KValue>> = (0..4).map(|_| e.identities(cs)).collect();
    for t in 0..count {
        let base = group_base(e, lane, slice, t);
        let group = VectorGroup::new(e, base);
        let lanes: Vec<KValue> = (0..4).map(|j| group.lane(j)).collect();
        e.vector_groups.push(group);
        let mut result = Ok(());
        for (j, &r) in lanes.iter().enumerate() {
            match x_at(e, r) {
                Ok(xs) => chains[j] = e.fold_xs(cs, &chains[j], &xs),
                Err(err) => {
                    result = Err(err);
                    break;
                }
            }
        }
        e.vector_groups.pop();
        result?;
    }
    let mut accs = chains[0].clone();
    for chain in &chains[1..] {
        accs = e.fold_all(cs, &accs, chain, true);
    }
    Ok(accs)
}

/// Runs `at(c)` for the invocation's share of columns `0..n`: column `c =
/// lane + t * slice`, or with `groups` (`n` a static multiple of 4) the 4
/// columns from `4 * (lane + t * slice)` as a vector group (their tensors
/// move as vec4). Unrolled where the share is resident-sized; otherwise
/// a loop whose last round alone checks the bound (none where the share
/// has no tail).
fn share(
    e: &mut Emitter<'_, '_, '_>,
    n: KValue,
    (slice, lane): (u32, KValue),
    groups: bool,
    at: &mut dyn FnMut(&mut Emitter<'_, '_, '_>, KValue) -> Result<(), CodegenError>,
) -> Result<(), CodegenError> {
    if groups {
        if let Some(count) = resident_groups(e, n, slice) {
            for t in 0..count {
                let base = group_base(e, lane, slice, t);
                group_at(e, base, at)?;
            }
            return Ok(());
        }
    }
    let unit = if groups { 4 } else { 1 };
    let units = if groups {
        let four = e.index(4);
        e.div(n, four)
    } else {
        n
    };
    let stride = e.index(i64::from(slice));
    let one = e.index(1);
    let zero = e.index(0);
    let sm1 = e.sub(stride, one);
    let rounds = e.add(units, sm1);
    let rounds = e.div(rounds, stride);
    let exact = e.const_of(units).is_some_and(|u| u % i64::from(slice) == 0);
    e.for_(zero, rounds, one, &[], |e, t, _| {
        let off = e.mul(t, stride);
        let q = e.add(lane, off);
        let u = e.index(unit);
        let c = e.mul(q, u);
        let mut run = |e: &mut Emitter<'_, '_, '_>| {
            if groups {
                group_at(e, c, at)
            } else {
                at(e, c)
            }
        };
        if exact {
            run(e)?;
        } else {
            let inside = e.lt(q, units);
            e.if_then(inside, |e| run(e))?;
        }
        Ok(Vec::new())
    })?;
    Ok(())
}

/// Runs `at` for the 4 columns from `base` as a vector group, then writes
/// their held stores as vectors.
fn group_at(
    e: &mut Emitter<'_, '_, '_>,
    base: KValue,
    at: &mut dyn FnMut(&mut Emitter<'_, '_, '_>, KValue) -> Result<(), CodegenError>,
) -> Result<(), CodegenError> {
    let group = VectorGroup::new(e, base);
    let lanes: Vec<KValue> = (0..4).map(|j| group.lane(j)).collect();
    e.vector_groups.push(group);
    let emitted = lanes.iter().try_for_each(|&c| at(e, c));
    if emitted.is_ok() {
        e.flush_vector_stores();
    }
    e.vector_groups.pop();
    emitted
}
