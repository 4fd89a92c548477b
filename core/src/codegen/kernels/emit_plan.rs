//! A kernel plan turned into kernel IR: the plans of a dispatch
//! ([`Plan`], made by the strategy stage's planner) and the code each
//! runs per workgroup, per point and per row.

use crate::kernel::{KType, KValue};
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::structured::Structured;
use crate::tensor::TOp;

use super::super::combine::{combiners, scratch_elem, Combiner};
use super::super::error::{CodegenError, Invariant};
use super::super::host::Size;
use super::super::regions::{DispatchRegion, OpFamily};
use super::super::strategy::{Combine, CoopSplit, DispatchShape, Plan, Range, RowShare};
use super::emitter::Emitter;
use super::point::{root_point, stores};
use super::reduce::{wide_combiners, SerialRange};
use super::softmax::{RowPart, SoftmaxRow};
use super::PushValue;

/// The dispatch's root, its structured form and the combiners that fold
/// its reduction across invocations (an error, not a panic, where the plan
/// and the dispatch disagree).
fn combinable_root(
    e: &Emitter<'_, '_, '_>,
    d: &DispatchRegion,
) -> Result<(TOp, Structured, Vec<Combiner>), CodegenError> {
    let Some(root) = d.root else {
        return Err(e.internal(d.op, Invariant::NoRoot("a combining plan")));
    };
    let info = e.c.info;
    let s = info
        .structured
        .get(&root)
        .ok_or_else(|| e.internal(root, Invariant::NotCombinable("a combining plan")))?
        .clone();
    let cs = combiners(info.m, &s)
        .ok_or_else(|| e.internal(root, Invariant::NotCombinable("a combining plan")))?;
    Ok((root, s, cs))
}

/// The linear index of this invocation's workgroup.
fn workgroup_index(e: &mut Emitter<'_, '_, '_>) -> KValue {
    let bx = e.b.block_id("x");
    let by = e.b.block_id("y");
    let gx = e.b.grid_dim("x");
    let row = e.mul(by, gx);
    e.add(row, bx)
}

/// Emits the kernel of `plan` for dispatch `d` into `e`.
pub(super) fn emit_kernel(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    plan: &Plan,
) -> Result<(), CodegenError> {
    let wg = e.c.strategy.invocations();
    match plan {
        Plan::Points { per, range } => {
            let tid = e.b.thread_id("x");
            let wgi = workgroup_index(e);
            let domain = e.sizes(&shape.points);
            let total = e.product(&domain);
            let block = e.index(i64::from(wg) * i64::from(*per));
            let start = e.mul(wgi, block);
            let base = e.add(start, tid);
            for k in 0..*per {
                let off = e.index(i64::from(k) * i64::from(wg));
                let p = e.add(base, off);
                let inside = e.lt(p, total);
                let domain = domain.clone();
                e.if_then(inside, |e| {
                    let coords = e.delinearize(p, &domain);
                    point(e, d, &coords, range)
                })?;
            }
        }
        Plan::Coop { combine, split } => coop(e, d, shape, *combine, split.as_ref())?,
        Plan::CombinePartials {
            combine,
            split,
            partials,
        } => combine_partials(e, d, shape, *combine, *split, partials)?,
        Plan::Vector4 { per } => {
            let wgi = workgroup_index(e);
            super::vector::emit_vector4(e, d, shape, wgi, *per)?;
        }
        Plan::Tile { dims, split, fours } => {
            let wgi = workgroup_index(e);
            e.with_fours(*fours, |e| {
                super::tile::emit_tile(e, d, shape, wgi, *dims, split.as_ref())
            })?;
        }
        Plan::SharedTile(dims, split) => {
            let wgi = workgroup_index(e);
            super::shared_tile::emit_shared_tile(e, d, shape, wgi, *dims, split.as_ref())?;
        }
        Plan::SumSlices(slices) => {
            let wgi = workgroup_index(e);
            super::split_k::emit_sum_slices(e, d, shape, wgi, slices)?;
        }
        Plan::CoopMatrix(dims) => {
            let wgi = workgroup_index(e);
            super::coop_matmul::emit_coop_matmul(e, d, shape, wgi, *dims)?;
        }
        Plan::RowSlices {
            slice,
            combine,
            rows,
            blocks,
        } => {
            let wgi = workgroup_index(e);
            let how = (*slice, *rows, *blocks);
            super::matvec::emit_row_slices(e, d, shape, wgi, how, *combine)?;
        }
        Plan::SplitRows {
            combine,
            slices,
            partials,
            second,
        } => {
            let wgi = workgroup_index(e);
            let per_row = e.index(i64::from(*slices));
            let row = e.div(wgi, per_row);
            let slice = e.rem(wgi, per_row);
            let domain = e.sizes(&shape.points);
            let coords = e.delinearize(row, &domain);
            let tid = e.b.thread_id("x");
            let part = RowPart {
                row,
                slice,
                slices: *slices,
                partials: *partials,
                second: *second,
            };
            softmax(e, d, &coords, (wg, tid), *combine, Some(part))?;
        }
        Plan::Rows {
            combine,
            share: RowShare::Workgroup { .. },
        } => {
            let wgi = workgroup_index(e);
            let domain = e.sizes(&shape.points);
            let coords = e.delinearize(wgi, &domain);
            let tid = e.b.thread_id("x");
            rows(e, d, &coords, (wg, tid), *combine)?;
        }
        Plan::Rows {
            combine,
            share: RowShare::Subgroup { slice },
        } => {
            // A row per subgroup: the subgroup's row, skipped by a tail
            // subgroup past the last (uniform within the subgroup, so
            // its subgroup operations stay uniform).
            let wgi = workgroup_index(e);
            let sgid = e.gpu_index(crate::kernel::KOpKind::GpuSubgroupId);
            let lane = e.b.lane_id();
            let per = e.index(i64::from(wg / slice));
            let first = e.mul(wgi, per);
            let row = e.add(first, sgid);
            let domain = e.sizes(&shape.points);
            let total = e.product(&domain);
            let inside = e.lt(row, total);
            let (slice, combine) = (*slice, *combine);
            e.if_then(inside, |e| {
                let coords = e.delinearize(row, &domain);
                rows(e, d, &coords, (slice, lane), combine)
            })?;
        }
    }
    Ok(())
}

/// A [`Plan::Coop`] kernel: a workgroup per point (or, with `split`, per
/// share of a point's reduction) folding the root cooperatively.
fn coop(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    combine: Combine,
    split: Option<&CoopSplit>,
) -> Result<(), CodegenError> {
    let wg = e.c.strategy.invocations();
    let per_invocation = split.is_some_and(|s| s.per_invocation);
    let (root, s, cs) = combinable_root(e, d)?;
    let tid = e.b.thread_id("x");
    let wgi = workgroup_index(e);
    let (pidx, g, gk) = match split {
        Some(CoopSplit { workgroups, .. }) => {
            let gk = e.size(*workgroups);
            let p = e.div(wgi, gk);
            let g = e.rem(wgi, gk);
            (p, g, gk)
        }
        None => {
            let z = e.index(0);
            let one = e.index(1);
            (wgi, z, one)
        }
    };
    let domain = e.sizes(&shape.points);
    let coords = e.delinearize(pidx, &domain);
    let rp = root_point(e, d, &coords, root)?;
    let (loops, red) = e.reduction_loops(root, &s);
    let total = e.product(&red);
    let wgv = e.index(i64::from(wg));
    let gw = e.mul(g, wgv);
    let base = e.add(gw, tid);
    let stride = e.mul(gk, wgv);
    let x_at =
        |e: &mut Emitter<'_, '_, '_>, r| e.combinable_xs_at(root, &s, &cs, &rp, (&loops, &red), r);
    // One reduction loop of a static length that is a multiple of
    // 4: groups of 4 iterations, read as vec4 where the input is
    // indexed last by it.
    let groups = red.len() == 1 && e.const_of(total).is_some_and(|t| t > 0 && t % 4 == 0);
    let accs = if per_invocation {
        // Each invocation folds its own contiguous span (the
        // invocation `base` of `stride`): sequential reads per
        // invocation, what a CPU-backed driver prefetches.
        e.span_loop(&cs, total, base, stride, groups, x_at)?
    } else {
        e.coop_loop(&cs, total, base, stride, u32::from(groups), x_at)?
    };
    if let Some(CoopSplit {
        partials,
        per_invocation: true,
        ..
    }) = split
    {
        // Every invocation's partial at (point, workgroup, invocation).
        let at = e.mul(pidx, gk);
        let at = e.add(at, g);
        let at = e.mul(at, wgv);
        let at = e.add(at, tid);
        for (k, c) in cs.iter().enumerate() {
            let (t, elem) = e.partial_of(accs[k], c);
            e.store_at(partials[k], at, t, elem);
        }
        return Ok(());
    }
    let totals = e.workgroup_reduce(&cs, &accs, combine, wg)?;
    let zero = e.index(0);
    let first = e.b.cmpi("eq", tid, zero);
    match split {
        Some(CoopSplit { partials, .. }) => {
            let partials = partials.clone();
            e.if_then(first, |e| {
                let at = e.mul(pidx, gk);
                let at = e.add(at, g);
                for (k, c) in cs.iter().enumerate() {
                    let (t, elem) = e.partial_of(totals[k], c);
                    e.store_at(partials[k], at, t, elem);
                }
                Ok(())
            })?;
        }
        None => {
            e.if_then(first, |e| {
                let inits = e.inits(root, &s, &rp)?;
                let finals = e.finish_combine(&cs, &inits, &totals);
                e.prepared_roots.insert(root, finals);
                stores(e, d, &coords)
            })?;
        }
    }
    Ok(())
}

/// A [`Plan::CombinePartials`] kernel: a workgroup per point combining
/// its `split` partial results from `partials`, then the stores.
fn combine_partials(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    combine: Combine,
    split: Size,
    partials: &[usize],
) -> Result<(), CodegenError> {
    let wg = e.c.strategy.invocations();
    let (root, s, cs) = combinable_root(e, d)?;
    let tid = e.b.thread_id("x");
    let pidx = workgroup_index(e);
    let domain = e.sizes(&shape.points);
    let coords = e.delinearize(pidx, &domain);
    let rp = root_point(e, d, &coords, root)?;
    let gk = e.size(split);
    let wgv = e.index(i64::from(wg));
    let accs = e.coop_loop(&cs, gk, tid, wgv, 0, |e, r| {
        let at = e.mul(pidx, gk);
        let at = e.add(at, r);
        Ok(cs
            .iter()
            .enumerate()
            .map(|(k, c)| e.load_partial(partials[k], at, c))
            .collect())
    })?;
    let totals = e.workgroup_reduce(&cs, &accs, combine, wg)?;
    let zero = e.index(0);
    let first = e.b.cmpi("eq", tid, zero);
    e.if_then(first, |e| {
        let inits = e.inits(root, &s, &rp)?;
        let finals = e.finish_combine(&cs, &inits, &totals);
        e.prepared_roots.insert(root, finals);
        stores(e, d, &coords)
    })?;
    Ok(())
}

/// The row at `row` of a softmax or row-group dispatch.
fn rows(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    row: &[KValue],
    share: (u32, KValue),
    how: Combine,
) -> Result<(), CodegenError> {
    if d.family == OpFamily::Normalization {
        super::row_group::emit_row(e, d, row, share, how)
    } else {
        softmax(e, d, row, share, how, None)
    }
}

/// The softmax dispatch's row at `row` (coordinates without the
/// normalized dimension); with `part`, one kernel of a split row.
fn softmax(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    row: &[KValue],
    share: (u32, KValue),
    how: Combine,
    part: Option<RowPart>,
) -> Result<(), CodegenError> {
    let m = e.c.info.m;
    // The softmax is the dispatch's op, or its root with an elementwise
    // epilogue (regions.rs: the epilogue's loops are the softmax's
    // coordinates), which then gets each element of the row.
    let op = d.root.unwrap_or(d.op);
    let OpKind::Linalg(l) = &m.op(op).kind else {
        return Err(e.internal(op, Invariant::NotSoftmax));
    };
    let LinalgKind::Softmax { dimension } = l.kind else {
        return Err(e.internal(op, Invariant::NotSoftmax));
    };
    let dim = dimension as usize;
    let mut full = row.to_vec();
    let zero = e.index(0);
    full.insert(dim, zero);
    let row = SoftmaxRow {
        op,
        input: m.op(op).operands[0],
        output: m.op(op).results[0],
        dim,
        coords: &full,
        epilogue: (op != d.op).then_some(d),
    };
    match part {
        Some(part) => e.softmax_row_part(&row, share, how, part),
        None => e.softmax_row(&row, share, how),
    }
}

/// Computes and stores the dispatch's values at one point (Points plans).
fn point(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    coords: &[KValue],
    range: &Range,
) -> Result<(), CodegenError> {
    let info = e.c.info;
    if d.family == OpFamily::Normalization {
        let zero = e.index(0);
        return rows(e, d, coords, (1, zero), Combine::WorkgroupTree);
    }
    let Some(root) = d.root else {
        return stores(e, d, coords);
    };
    if matches!(&info.m.op(root).kind, OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. }))
    {
        let zero = e.index(0);
        return softmax(e, d, coords, (1, zero), Combine::WorkgroupTree, None);
    }
    let s = info.structured[&root].clone();
    let rp = root_point(e, d, coords, root)?;
    match range {
        Range::Whole => {
            let accs = e.serial_root(root, &s, &rp, &SerialRange::Whole)?;
            e.prepared_roots.insert(root, accs);
            stores(e, d, coords)
        }
        Range::Chunk(scratch) => {
            let accs = e.serial_root(
                root,
                &s,
                &rp,
                &SerialRange::Chunk {
                    scratch: scratch.clone(),
                },
            )?;
            let last = e.push(PushValue::ChunkLast);
            let zero = e.b.const_int(0, KType::i32());
            let last = e.b.cmpi("ne", last, zero);
            let coords = coords.to_vec();
            let accs2 = accs.clone();
            // f32 accumulators of an f16/bf16 reduction round once, after
            // the last chunk; the scratch keeps them unrounded.
            let wide = wide_combiners(info.m, &s);
            e.if_else(
                last,
                &[],
                |e| {
                    let finals = match &wide {
                        Some(cs) => e.narrow_all(cs, &accs),
                        None => accs,
                    };
                    e.prepared_roots.insert(root, finals);
                    stores(e, d, &coords)?;
                    Ok(Vec::new())
                },
                |e| {
                    for (j, &a) in accs2.iter().enumerate() {
                        let idx = e.output_index(root, &s, j, &rp)?;
                        let elem = scratch_elem(e.c.info.m, &s, j);
                        e.store_at(scratch[j], idx, a, elem);
                    }
                    Ok(Vec::new())
                },
            )?;
            Ok(())
        }
    }
}
