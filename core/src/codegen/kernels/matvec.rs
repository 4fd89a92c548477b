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
use super::super::strategy::{Combine, DispatchShape};
use super::emitter::Emitter;
use super::point::{root_point, stores};

/// Emits the slices of the invocation's workgroup `wgi`.
pub(super) fn emit_row_slices(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    slice: u32,
    combine: Combine,
) -> Result<(), CodegenError> {
    let root = d
        .root
        .ok_or_else(|| e.internal(d.op, Invariant::NoRoot("row slices")))?;
    let info = e.c.info;
    let s = info.structured[&root].clone();
    let cs = combiners(info.m, &s)
        .ok_or_else(|| e.internal(root, Invariant::NotCombinable("row slices")))?;
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
    // This slice's point, clamped to the last (tails compute it again and
    // do not store).
    let slices_v = e.index(i64::from(slices));
    let first_point = e.mul(wgi, slices_v);
    let p = e.add(first_point, which);
    let domain = e.sizes(&shape.points);
    let total = e.product(&domain);
    let one = e.index(1);
    let last = e.sub(total, one);
    let inside = e.lt(p, total);
    let pc = e.b.binary(KOpKind::ArithMinUI, p, last);
    let coords = e.delinearize(pc, &domain);
    let rp = root_point(e, d, &coords, root)?;
    // A fused decoding of 8- or 32-bit codes: its codes and scales read
    // as 16-byte groups (`wide.rs`), within the row loop only.
    e.wide_reads = s.inputs.iter().any(|&v| decodes(info, v, 32));
    let (loops, red) = e.reduction_loops(root, &s);
    let length = e.product(&red);
    let dynamic =
        (red.len() == 1 && e.const_of(length).is_none()).then(|| e.loop_sizes(root)[loops[0]]);
    let accs = match dynamic {
        // A row of dynamic length: groups of 4 read as vec4 where it is a
        // multiple of 4 at run time, element by element otherwise, under
        // one uniform condition.
        Some(len) => {
            let fours = e.multiple_of(length, 4);
            let tys: Vec<KType> = e.identities(&cs).iter().map(|&v| e.b.type_of(v)).collect();
            e.if_else(
                fours,
                &tys,
                |e| {
                    e.with_fours(Some(len), |e| {
                        e.coop_loop(&cs, length, lane, slice_v, true, |e, r| {
                            e.combinable_xs_at(root, &s, &cs, &rp, (&loops, &red), r)
                        })
                    })
                },
                |e| {
                    e.coop_loop(&cs, length, lane, slice_v, false, |e, r| {
                        e.combinable_xs_at(root, &s, &cs, &rp, (&loops, &red), r)
                    })
                },
            )?
        }
        // A static row a multiple of 4 long: groups of 4 read as vec4.
        None => {
            let groups = red.len() == 1 && e.const_of(length).is_some_and(|k| k > 0 && k % 4 == 0);
            e.coop_loop(&cs, length, lane, slice_v, groups, |e, r| {
                e.combinable_xs_at(root, &s, &cs, &rp, (&loops, &red), r)
            })?
        }
    };
    e.wide_reads = false;
    let totals = match combine {
        // A row per invocation: nothing to combine.
        _ if slice == 1 => accs,
        Combine::Subgroup | Combine::OneSubgroup => e.subgroup_all(&cs, &accs),
        Combine::WorkgroupTree => {
            let bufs = e.slice_tree(&cs, &accs, tid, lane, wg, slice)?;
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
    })
}
