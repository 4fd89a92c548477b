//! The strategy of reductions, contractions, convolutions and pooling:
//! a workgroup per output for few long combinable reductions, split-K or
//! workgroup-memory tiles on GPUs, register tiles where operands are
//! shared, else one output per invocation (chunked past the loop budget).

use super::super::host::Size;
use super::super::target::CodegenTarget;
use super::choose::{combine_for, coop_workgroup, size_text};
use super::tiles::{register_tile, shared_tile_pick, RegisterTile};
use super::{
    split_k, Combine, DispatchShape, Distribution, Fold, ReductionReads, ReductionStrategy,
    Strategy,
};

/// The most iterations one invocation of a cooperative reduction runs
/// before the reduction is split over more workgroups.
const COOP_CHUNK: u64 = 1024;

/// The heuristic strategy of a reduction-family dispatch (reductions,
/// contractions, convolutions, pooling) into `s`.
pub(super) fn choose_reduction(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
    budget: u64,
    max_inv: u32,
) {
    if super::matvec::choose_row_slices(target, shape, s) {
        return;
    }
    let red = shape.reduction.unwrap_or(Size::Static(0));
    let points = shape.static_points();
    let long = match red {
        Size::Static(r) => r > budget,
        Size::Slot(_) => true,
    };
    // On a GPU, a workgroup per output wherever one invocation per output
    // would leave most of the device idle and each output's reduction
    // gives a subgroup work (a layer norm's 128 rows of 256: 128
    // invocations against 128 workgroups of 256); elsewhere only for few
    // outputs with a long reduction.
    let gpu_fill = target
        .fill_invocations()
        .filter(|_| !shape.operands.tile_shares_loads());
    let (few_points, worth_splitting) = match gpu_fill {
        // Rows read along their contiguous dimension take a workgroup each
        // up to four times the fill: one invocation per row would read
        // with a row's stride between neighbours (an H200 summed 4,096
        // rows of 4,096 so in 0.51 ms).
        Some(fill) => (
            points.is_some_and(|p| {
                let lanes = p.saturating_mul(u64::from(target.subgroup_size()));
                lanes <= fill
                    || (shape.reduction_reads == ReductionReads::Innermost && lanes <= 4 * fill)
            }),
            match red {
                Size::Static(r) => r >= 4 * u64::from(target.subgroup_size()) || long,
                Size::Slot(_) => true,
            },
        ),
        None => (
            points.is_some_and(|p| p < 64),
            match red {
                Size::Static(r) => r >= 1024 || long,
                Size::Slot(_) => true,
            },
        ),
    };
    if shape.fold == Fold::Combinable && few_points && worth_splitting {
        let wg = coop_workgroup(target, red, max_inv);
        let combine = combine_for(target, shape);
        // At most COOP_CHUNK iterations per invocation: a longer
        // reduction is split over more workgroups (16M elements: 64 of
        // 256 invocations) rather than looping longer in fewer, which
        // left most of a device idle (two workgroups for 16M within the
        // loop budget alone).
        let mut chunk = budget.min(COOP_CHUNK);
        // On a GPU, shorter chunks where a point's reduction would run on
        // too few invocations: four times the fill over all points (a 16M
        // sum: 64 iterations per invocation, 1,024 workgroups, instead of
        // 64 workgroups of 1,024 iterations).
        if let (Some(fill), Some(p), Some(r)) = (target.fill_invocations(), points, red.fixed()) {
            let wanted = (fill * 4 / p.max(1)).max(u64::from(wg));
            chunk = chunk.min(r.div_ceil(wanted).max(16));
        }
        // Where barriers serialize a workgroup (lavapipe), every
        // invocation writes its partial result and the second dispatch
        // combines them: the long first pass runs without a barrier.
        let per_invocation = target.facts.barriers_serialize;
        let split = per_invocation
            || match red {
                Size::Static(r) => r > u64::from(wg) * chunk,
                Size::Slot(_) => true,
            };
        s.workgroup_size = [wg, 1, 1];
        s.distribution = Distribution::WorkgroupPerPoint;
        s.reduction = Some(ReductionStrategy::Cooperative {
            combine,
            chunk,
            split,
            per_invocation,
        });
        let scalar_bytes = 8;
        s.workgroup_memory = match combine {
            Combine::Subgroup => (wg / target.subgroup_size().max(1)).max(1) * scalar_bytes,
            Combine::WorkgroupTree => wg * scalar_bytes,
            Combine::OneSubgroup => 0,
        } * shape.elems.len().max(1) as u32;
        s.reason = format!(
            "few outputs ({}) and a long combinable reduction ({}): a workgroup per output",
            points.map_or("?".into(), |p| p.to_string()),
            match red {
                Size::Static(r) => r.to_string(),
                Size::Slot(_) => "dynamic".into(),
            }
        );
        return;
    }
    // Workgroup-memory tiles where barriers are cheap and the device is
    // not a CPU (lavapipe and kiln's CPU runner run barriers as
    // coroutines; the CPU runner crashed on some of these kernels).
    let gpu = !target.facts.barriers_serialize
        && target.env.device.device_type != crate::target::DeviceType::Cpu;
    if !long && gpu {
        if let (Some((wg, dist, slices)), Some(total)) =
            (split_k::pick(target, shape, max_inv), red.fixed())
        {
            s.workgroup_size = [wg, 1, 1];
            s.distribution = dist;
            s.workgroup_memory = dist.shared_tile_bytes();
            s.reduction = Some(split_k::reduction(total, slices));
            s.reason = split_k::reason(shape, wg, slices, target.fill_invocations());
            return;
        }
        if let Some((wg, dist)) = shared_tile_pick(target, shape, max_inv) {
            s.workgroup_size = [wg, 1, 1];
            s.distribution = dist;
            s.workgroup_memory = dist.shared_tile_bytes();
            s.reduction = Some(ReductionStrategy::Serial {
                chunk: red.fixed().unwrap_or(budget).max(1),
                chunked: false,
            });
            s.reason = format!(
                "operands shared along the rows and columns of {} x {} outputs and barriers cheap: workgroup-memory tiles, {wg} invocations",
                size_text(shape.points[shape.points.len() - 2]),
                size_text(shape.points[shape.points.len() - 1]),
            );
            return;
        }
    }
    // A reduction of dynamic length takes a register tile too: the
    // kernels check its length at run time (the tile where its loop fits
    // the budget, else a dispatch per chunk of it, one output per
    // invocation).
    if !long || red.fixed().is_none() {
        if let Some(tile) = register_tile(target, shape, max_inv) {
            let RegisterTile {
                workgroup: wg,
                rows,
                cols,
                ..
            } = tile;
            s.workgroup_size = [wg, 1, 1];
            s.distribution = tile.distribution();
            s.reduction = Some(ReductionStrategy::Serial {
                chunk: red.fixed().unwrap_or(budget).max(1),
                chunked: false,
            });
            s.reason = format!(
                "operands shared across {} x {} outputs: a {rows}x{cols} register tile per invocation, {wg} invocations sharing the tile's rows{}",
                size_text(shape.points[shape.points.len() - 2]),
                size_text(shape.points[shape.points.len() - 1]),
                if long {
                    "; its reduction of dynamic length, where longer than the loop budget at run time, one output per invocation and a dispatch per chunk instead"
                } else {
                    ""
                }
            );
            return;
        }
    }
    let wg = 64.min(max_inv);
    s.workgroup_size = [wg, 1, 1];
    s.distribution = Distribution::Points { per_invocation: 1 };
    s.reduction = Some(ReductionStrategy::Serial {
        chunk: match red {
            Size::Static(r) if !long => r.max(1),
            _ => budget,
        },
        chunked: long,
    });
    s.reason = if long {
        "a reduction longer than the loop budget (or dynamic) over many outputs: one output per invocation, one dispatch per chunk".into()
    } else {
        "one output per invocation, its reduction in one loop".into()
    };
}
