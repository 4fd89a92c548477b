//! Row slices ([`Distribution::RowSlices`](super::super::strategy::Distribution::RowSlices)):
//! matrix x vector, one point (an output row's value) per slice of
//! `slice` invocations.
//!
//! Workgroup `w` owns the points `w * S + j` (`S = W / slice` slices;
//! `j` the slice: the subgroup id where the slice combines by subgroup
//! arithmetic, else `t / slice`). A slice's invocations stride over the
//! point's reduction (lane `l` takes iterations `l, l + slice, ...`, or
//! groups of 4 read as vec4 where the reduction is a multiple of 4:
//! statically, or at run time for a reduction of dynamic length, both
//! ways emitted under a uniform condition), only the last round
//! bounds-checked; the partial results then
//! combine within the slice — `gpu.subgroup_reduce` (every lane gets the
//! total, no barrier), or a workgroup-memory tree over the slice's
//! entries, run by the whole workgroup in step so its barriers are
//! uniform. The slice's first invocation folds in the output's initial
//! value, applies the fused epilogue and stores. Slices past the last
//! point (a count of points that is not a multiple of `S`) compute the
//! last point again and store nothing, so every invocation reaches every
//! barrier.

use crate::kernel::{KOpKind, KType, KValue};

use super::super::combine::combiners;
use super::super::dequant::decodes;
use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::strategy::{Combine, DispatchShape, DECODE_BLOCK};
use super::emitter::Emitter;
use super::point::{root_point, stores};

/// Emits the slices of the invocation's workgroup `wgi`, `rows` points
/// per slice (more than 1 only as the planner's `rows_per_invocation`
/// allows), a fused decoding's row `blocks` quantized blocks per step
/// (the planner's `blocks_per_step`; with more than one, each step's
/// loads issued before its arithmetic, `schedule.rs`).
pub(super) fn emit_row_slices(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    (slice, rows, blocks): (u32, u32, u32),
    combine: Combine,
) -> Result<(), CodegenError> {
    let root = d
        .root
        .ok_or_else(|| e.internal(d.op, Invariant::NoRoot("row slices")))?;
    let info = e.c.info;
    let s = info.structured[&root].clone();
    let cs = combiners(info.m, &s)
        .ok_or_else(|| e.internal(root, Invariant::NotCombinable("row slices")))?;
    let rows = rows.max(1);
    let wg = e.c.strategy.invocations();
    let slices = wg / slice.max(1);
    let tid = e.b.thread_id("x");
    let slice_v = e.index(i64::from(slice));
    let (which, lane) = match combine {
        Combine::Subgroup | Combine::OneSubgroup => {
            let op =
                e.b.op(KOpKind::GpuSubgroupId, &[], &[KType::Index], Vec::new());
            let sgid = e.b.module().op(op).results[0];
            (sgid, e.b.lane_id())
        }
        Combine::WorkgroupTree => (e.div(tid, slice_v), e.rem(tid, slice_v)),
    };
    // This slice's points `first + i * slices + which` (`i < rows`: a
    // workgroup's slices take neighbouring rows), each clamped to the
    // last (tails compute it again and do not store).
    let slices_v = e.index(i64::from(slices));
    let span = e.index(i64::from(slices * rows));
    let first_point = e.mul(wgi, span);
    let domain = e.sizes(&shape.points);
    let total = e.product(&domain);
    let one = e.index(1);
    let last = e.sub(total, one);
    let mut points = Vec::new();
    for i in 0..rows {
        let iv = e.index(i64::from(i));
        let at = e.mul(iv, slices_v);
        let p = e.add(first_point, at);
        let p = e.add(p, which);
        let inside = e.lt(p, total);
        let pc = e.b.binary(KOpKind::ArithMinUI, p, last);
        let coords = e.delinearize(pc, &domain);
        let rp = root_point(e, d, &coords, root)?;
        points.push((inside, coords, rp));
    }
    // Each row's combiners, one after the other (none of them has an
    // index part where `rows > 1`).
    let n = cs.len();
    let all_cs: Vec<_> = (0..rows).flat_map(|_| cs.iter().cloned()).collect();
    let rps: Vec<Vec<KValue>> = points.iter().map(|(_, _, rp)| rp.clone()).collect();
    // A fused decoding of 8- or 32-bit codes: its codes and scales read
    // as 16-byte groups (`wide.rs`), within the row loop only.
    e.wide_reads = s.inputs.iter().any(|&v| decodes(info, v, 32));
    let (loops, red) = e.reduction_loops(root, &s);
    let length = e.product(&red);
    let dynamic =
        (red.len() == 1 && e.const_of(length).is_none()).then(|| e.loop_sizes(root)[loops[0]]);
    let x_at = |e: &mut Emitter<'_, '_, '_>, r: KValue| {
        let mut xs = Vec::with_capacity(n * rps.len());
        for rp in &rps {
            xs.extend(e.combinable_xs_at(root, &s, &cs, rp, (&loops, &red), r)?);
        }
        Ok(xs)
    };
    let accs = match dynamic {
        // A row of dynamic length: groups of 4 read as vec4 where it is a
        // multiple of 4 at run time, element by element otherwise, under
        // one uniform condition.
        Some(len) => {
            let fours = e.multiple_of(length, 4);
            let tys: Vec<KType> = e
                .identities(&all_cs)
                .iter()
                .map(|&v| e.b.type_of(v))
                .collect();
            e.if_else(
                fours,
                &tys,
                |e| {
                    e.with_fours(Some(len), |e| {
                        e.coop_loop(&all_cs, length, lane, slice_v, 1, &x_at)
                    })
                },
                |e| e.coop_loop(&all_cs, length, lane, slice_v, 0, &x_at),
            )?
        }
        // A static row a multiple of 4 long: groups of 4 read as vec4; a
        // fused decoding's row: `blocks` blocks of 32 (8 groups each) per
        // step, whose 16-byte code groups and scales are read once (a
        // GGUF block: 32 weights, one scale).
        None => {
            let k = e.const_of(length).filter(|&k| red.len() == 1 && k > 0);
            let step = DECODE_BLOCK * i64::from(blocks);
            let groups = match k {
                Some(k) if e.wide_reads && blocks > 0 && k % step == 0 => (step / 4) as u32,
                Some(k) if k % 4 == 0 => 1,
                _ => 0,
            };
            e.loads_first = e.wide_reads && blocks > 1 && groups > 1;
            let accs = e.coop_loop(&all_cs, length, lane, slice_v, groups, &x_at);
            e.loads_first = false;
            accs?
        }
    };
    e.wide_reads = false;
    for (i, (inside, coords, rp)) in points.into_iter().enumerate() {
        let accs = &accs[i * n..(i + 1) * n];
        let totals = match combine {
            // A row per invocation: nothing to combine.
            _ if slice == 1 => accs.to_vec(),
            Combine::Subgroup | Combine::OneSubgroup => e.subgroup_all(&cs, accs),
            Combine::WorkgroupTree => {
                let bufs = e.slice_tree(&cs, accs, tid, lane, wg, slice)?;
                bufs.iter().map(|&buf| e.b.load(buf, &[tid])).collect()
            }
        };
        let zero = e.index(0);
        let lead = e.b.cmpi("eq", lane, zero);
        let store = e.b.binary(KOpKind::ArithAndI, lead, inside);
        e.if_then(store, |e| {
            let inits = e.inits(root, &s, &rp)?;
            let finals = e.finish_combine(&cs, &inits, &totals);
            e.prepared_roots.insert(root, finals);
            stores(e, d, &coords)
        })?;
    }
    Ok(())
}
