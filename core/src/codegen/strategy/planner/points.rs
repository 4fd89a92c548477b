//! Plans of points per invocation: serial roots (whole, or a chunk per
//! dispatch), groups of 4 moved as vectors, a workgroup per point folding
//! its root cooperatively (split over several workgroups with a second
//! kernel combining their partial results), and the chunked fallback of a
//! reduction of dynamic length past the loop budget.

use super::super::super::bufferize::{BufferInfo, BufferOrigin, BufferPlan};
use super::super::super::combine::scratch_elem;
use super::super::super::guard::Guard;
use super::super::super::host::{Size, SizeOp};
use super::super::super::shapes::Shapes;
use super::super::{Combine, ReductionStrategy};
use super::budget::{check_budget, over_budget};
use super::plan::{CoopSplit, KernelPlan, Plan, Range, Repeat};
use super::rows::row_loops;
use super::Facts;

/// Scratch buffers for the root's outputs: `sizes` elements each, or
/// each output's shape; f32 where an f16/bf16 output accumulates in f32
/// ([`scratch_elem`]).
pub(super) fn scratch_for(
    f: &Facts<'_, '_>,
    buffers: &mut BufferPlan,
    shapes: &Shapes,
    sizes: Option<Size>,
) -> Vec<usize> {
    let s = f.root.expect("a root");
    s.outputs
        .iter()
        .enumerate()
        .map(|(j, &o)| {
            buffers.add(BufferInfo {
                elem: scratch_elem(f.info.m, s, j),
                shape: match sizes {
                    Some(n) => vec![n],
                    None => shapes.of(o).to_vec(),
                },
                origin: BufferOrigin::Scratch(f.d.index),
            })
        })
        .collect()
}

/// Points per invocation (`per_invocation` of them), each folding its
/// root serially: whole, or a chunk per dispatch.
pub(super) fn points_plan(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    per_invocation: u32,
    red: Option<ReductionStrategy>,
) -> KernelPlan {
    let per = per_invocation.max(1);
    let (range, repeat) = match red {
        Some(ReductionStrategy::Serial {
            chunk,
            chunked: true,
        }) if f.root.is_some() => {
            let scratch = scratch_for(f, buffers, shapes, None);
            (
                Range::Chunk(scratch),
                Repeat::Chunks {
                    total: f.red_total,
                    chunk,
                },
            )
        }
        _ => (Range::Whole, Repeat::Once),
    };
    if let Some(ReductionStrategy::Rows { .. }) = red {
        let loops = row_loops(f, shapes, 1);
        check_budget(f, shapes, loops, "the row's passes");
    }
    let per_wg = Size::Static(u64::from(f.wg) * u64::from(per));
    let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, per_wg);
    KernelPlan {
        repeat,
        ..KernelPlan::once(f.d.name.clone(), Plan::Points { per, range }, groups)
    }
}

/// `per_invocation` groups of 4 points per invocation.
pub(super) fn vector4_plan(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    per_invocation: u32,
) -> KernelPlan {
    let per_wg = Size::Static(u64::from(f.wg) * u64::from(per_invocation) * 4);
    let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, per_wg);
    let plan = Plan::Vector4 {
        per: per_invocation,
    };
    KernelPlan::once(f.d.name.clone(), plan, groups)
}

/// A cooperative reduction split over several workgroups per point: the
/// partial results of each workgroup (or each invocation) into scratch,
/// then a kernel combining them.
pub(super) fn split_coop_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    combine: Combine,
    chunk: u64,
    per_invocation: bool,
) -> Vec<KernelPlan> {
    let (d, wg, points) = (f.d, f.wg, f.points);
    let per = Size::Static(u64::from(wg) * chunk);
    let g = shapes.host.arith(SizeOp::CeilDiv, f.red_total, per);
    let g = shapes.host.arith(SizeOp::Max, g, Size::Static(1));
    let n = shapes.host.arith(SizeOp::Mul, points, g);
    // Partial results per point: one per workgroup, or one per
    // invocation.
    let per_point = if per_invocation {
        shapes
            .host
            .arith(SizeOp::Mul, g, Size::Static(u64::from(wg)))
    } else {
        g
    };
    let count = shapes.host.arith(SizeOp::Mul, points, per_point);
    let partials = scratch_for(f, buffers, shapes, Some(count));
    let second = shapes
        .host
        .arith(SizeOp::CeilDiv, per_point, Size::Static(u64::from(wg)));
    check_budget(f, shapes, second, "partial results per workgroup");
    let first = Plan::Coop {
        combine,
        split: Some(CoopSplit {
            workgroups: g,
            partials: partials.clone(),
            per_invocation,
        }),
    };
    let second = Plan::CombinePartials {
        combine,
        split: per_point,
        partials,
    };
    vec![
        KernelPlan::once(d.name.clone(), first, n),
        KernelPlan::once(format!("{}_combine", d.name), second, points),
    ]
}

/// The kernel for reductions of dynamic length past the loop budget: one
/// output per invocation, a dispatch per budget's iterations of the
/// reduction, the accumulators kept in scratch between dispatches; it
/// runs where one invocation's `loops` exceed the budget (and its scratch
/// has elements only then).
pub(super) fn chunked_points(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    loops: Size,
) -> KernelPlan {
    // 1 where the loops exceed the budget, else 0 (sizes read below 0
    // as 0).
    let over = shapes
        .host
        .arith(SizeOp::Sub, loops, Size::Static(f.budget));
    let long = shapes.host.arith(SizeOp::Min, over, Size::Static(1));
    let count = shapes.host.arith(SizeOp::Mul, f.points, long);
    let scratch = scratch_for(f, buffers, shapes, Some(count));
    let per_wg = Size::Static(u64::from(f.wg));
    let outputs = shapes.host.arith(SizeOp::CeilDiv, f.points, per_wg);
    let plan = Plan::Points {
        per: 1,
        range: Range::Chunk(scratch),
    };
    KernelPlan {
        guard: Guard(vec![over_budget(f, loops)]),
        repeat: Repeat::Chunks {
            total: f.red_total,
            chunk: f.budget,
        },
        ..KernelPlan::once(format!("{}_long_reduction", f.d.name), plan, outputs)
    }
}
