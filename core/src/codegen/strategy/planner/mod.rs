//! Stage 4, second half: a dispatch's kernel plans ([`KernelPlan`]), made
//! from its [`Strategy`] — which kernels exist (a split's second kernel,
//! the run-time alternatives `_one_row`, `_ragged_columns`, `_long_rows`
//! and the chunked `_long_reduction` fallback), what each invocation of
//! each computes ([`Plan`]), its workgroups as a host size of the
//! dispatch's sizes, the run-time [`Guard`](super::super::guard::Guard)
//! that selects it, how often it runs ([`Repeat`]) and the scratch
//! buffers it needs. The kernel stage (`codegen/kernels/`) turns each plan
//! into kernel IR and decides nothing.
//!
//! By family: `points.rs` (points per invocation, cooperative reductions
//! and the chunked fallback), `tiles.rs` (register, workgroup-memory and
//! cooperative-matrix tiles, split-K), `rows.rs` (softmax and row-group
//! rows, row slices, split rows); `budget.rs` holds the loop-budget
//! checks and guards they share.

mod budget;
mod chunks;
mod describe;
mod dims;
mod plan;
mod points;
mod rows;
mod tiles;

pub(crate) use chunks::{run_time_variants, Bound, CHUNKED_SUFFIX};
pub(crate) use dims::{CoopDims, SharedDims, Slices, TileDims};
pub use plan::Repeat;
pub(crate) use plan::{CoopSplit, KernelPlan, Plan, Range, RowShare};
pub(crate) use rows::DECODE_BLOCK;

use crate::ir::Location;
use crate::tensor::structured::Structured;

use super::super::analysis::FuncInfo;
use super::super::bufferize::BufferPlan;
use super::super::error::{CodegenError, Invariant};
use super::super::host::Size;
use super::super::regions::{DispatchRegion, OpFamily};
use super::super::shapes::Shapes;
use super::{reduction_total, DispatchShape, Distribution, ReductionStrategy, Strategy};

/// What every planning stage reads: the dispatch, its shape, and the
/// sizes derived from them and its strategy.
#[derive(Clone, Copy)]
struct Facts<'a, 'm> {
    info: &'a FuncInfo<'m>,
    d: &'a DispatchRegion,
    shape: &'a DispatchShape,
    loc: Location,
    /// Invocations per workgroup.
    wg: u32,
    /// The number of points (a host size).
    points: Size,
    /// The root's structured form, where it has one.
    root: Option<&'a Structured>,
    /// The iterations of each point's reduction (a host size).
    red_total: Size,
    /// The most loop iterations of one invocation.
    budget: u64,
}

impl<'a, 'm> Facts<'a, 'm> {
    fn of(
        info: &'a FuncInfo<'m>,
        shapes: &mut Shapes,
        d: &'a DispatchRegion,
        strategy: &Strategy,
        shape: &'a DispatchShape,
    ) -> Facts<'a, 'm> {
        let loc = info.m.op(d.op).loc;
        let wg = strategy.invocations();
        let points = shapes.host.product(&shape.points);
        let root = d.root.and_then(|r| info.structured.get(&r));
        let red_total = match (d.root, root) {
            (Some(r), Some(_)) => reduction_total(info, shapes, r),
            _ => shape.reduction.unwrap_or(Size::Static(0)),
        };
        Facts {
            info,
            d,
            shape,
            loc,
            wg,
            points,
            root,
            red_total,
            budget: strategy.loop_budget,
        }
    }

    /// A broken invariant at the dispatch's op.
    fn internal(&self, invariant: Invariant) -> CodegenError {
        CodegenError::internal(self.info.m, self.d.op, invariant)
    }
}

/// The kernel plans of dispatch `d` under `strategy` (one, two for a
/// split reduction, or run-time alternatives each with its guard); adds
/// the scratch buffers and host sizes (workgroup counts, loop-budget
/// checks) they need to `buffers` and `shapes`. Each plan carries the
/// buffers bound in chunks under `limits` (`chunks.rs`).
pub(crate) fn plan_dispatch(
    info: &FuncInfo<'_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    d: &DispatchRegion,
    strategy: &Strategy,
    shape: &DispatchShape,
    limits: &crate::target::ResourceLimits,
) -> Result<Vec<KernelPlan>, CodegenError> {
    if !d.row_outputs.is_empty() && d.family != OpFamily::Normalization {
        // Only the row-group kernel writes per-row values; any other
        // would leave their buffers unwritten.
        return Err(CodegenError::internal(
            info.m,
            d.op,
            Invariant::RowOutputsOutsideRowGroup(d.family.name()),
        ));
    }
    let facts = Facts::of(info, shapes, d, strategy, shape);
    let mut plans = plan_kernels(&facts, strategy, shapes, buffers)?;
    // After the plans: their scratch buffers are in `buffers` now.
    let chunked = chunks::chunked_buffers(buffers, limits);
    for p in &mut plans {
        p.chunked = chunked.clone();
    }
    Ok(plans)
}

/// The kernels of the dispatch as its strategy's distribution and
/// reduction say, each with its workgroups.
fn plan_kernels(
    f: &Facts<'_, '_>,
    strategy: &Strategy,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
) -> Result<Vec<KernelPlan>, CodegenError> {
    let (d, shape, wg) = (f.d, f.shape, f.wg);
    let has_root = f.root.is_some();
    let tiled = has_root && shape.points.len() >= 2;
    match (strategy.distribution, strategy.reduction) {
        (Distribution::Points { per_invocation }, red) => Ok(vec![points::points_plan(
            f,
            shapes,
            buffers,
            per_invocation,
            red,
        )]),
        (
            Distribution::WorkgroupPerPoint,
            Some(ReductionStrategy::Cooperative {
                combine,
                chunk,
                split,
                per_invocation,
            }),
        ) => {
            if !has_root {
                return Err(f.internal(Invariant::NoRoot("a cooperative strategy")));
            }
            Ok(if split {
                points::split_coop_plans(f, shapes, buffers, combine, chunk, per_invocation)
            } else {
                let plan = Plan::Coop {
                    combine,
                    split: None,
                };
                vec![KernelPlan::once(d.name.clone(), plan, f.points)]
            })
        }
        (Distribution::Vector4 { per_invocation }, None) => {
            Ok(vec![points::vector4_plan(f, shapes, per_invocation)])
        }
        (
            Distribution::Tile { rows, cols, depth },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if tiled => {
            let dims = TileDims { rows, cols, depth };
            Ok(tiles::tile_plans(f, shapes, buffers, dims))
        }
        (
            dist @ (Distribution::Tile { .. } | Distribution::SharedTile { .. }),
            Some(ReductionStrategy::SplitK { slices, slice }),
        ) if tiled => tiles::split_k_plans(f, shapes, buffers, dist, (slices, slice)),
        (
            dist @ Distribution::SharedTile { .. },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if tiled => Ok(vec![tiles::shared_tile_plan(f, shapes, dist)?]),
        (dist @ Distribution::CoopMatrix { .. }, Some(ReductionStrategy::Serial { .. }))
            if super::coop_sizes(shape).is_some() =>
        {
            Ok(vec![tiles::coop_matrix_plan(f, shapes, dist)?])
        }
        (
            Distribution::RowSlices { slice },
            Some(ReductionStrategy::Cooperative {
                combine,
                split: false,
                ..
            }),
        ) if has_root && slice > 0 && wg % slice == 0 => {
            Ok(rows::row_slices_plans(f, shapes, buffers, slice, combine))
        }
        (
            dist @ (Distribution::WorkgroupPerPoint | Distribution::RowSlices { .. }),
            Some(ReductionStrategy::Rows { combine: Some(c) }),
        ) if rows::softmax_slice(dist, c, wg).is_some() => {
            let slice = rows::softmax_slice(dist, c, wg).unwrap_or(wg);
            Ok(rows::rows_plans(f, shapes, slice, c))
        }
        (
            Distribution::WorkgroupPerPoint,
            Some(ReductionStrategy::SplitRows { combine, slices }),
        ) if d.family == OpFamily::Softmax && slices >= 2 => {
            Ok(rows::split_rows_plans(f, shapes, buffers, combine, slices))
        }
        (dist, red) => Err(f.internal(Invariant::NoKernel {
            distribution: format!("{dist:?}"),
            reduction: format!("{red:?}"),
        })),
    }
}
