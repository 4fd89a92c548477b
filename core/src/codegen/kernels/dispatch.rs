//! A dispatch's kernels: how its points map to invocations and
//! workgroups (the [`Distribution`]), which kernels its strategy takes
//! and the host-side facts the executor needs, as [`KernelPlan`]s
//! (workgroup counts as sizes, the run-time [`Guard`] selecting each
//! alternative, chunk repeats, scratch buffers). What each kernel computes
//! is `emit_plan.rs`'s; the per-point helpers every family shares are
//! `point.rs`'s.

use crate::ir::Location;
use crate::kernel::KernelModule;
use crate::tensor::structured::Structured;

use super::super::analysis::FuncInfo;
use super::super::bufferize::{BufferInfo, BufferOrigin, BufferPlan};
use super::super::error::{CodegenError, Invariant};
use super::super::guard::{Cond, Guard};
use super::super::host::{CheckKind, RuntimeCheck, Size, SizeOp};
use super::super::regions::{DispatchRegion, FuncRegions, OpFamily};
use super::super::shapes::Shapes;
use super::super::strategy::{
    reduction_total, Combine, DispatchShape, Distribution, ReductionStrategy, Strategy,
};
use super::emit_plan::emit_kernel;
use super::emitter::{Ctx, Emitter};
use super::plan::{KernelPlan, Plan, Range};
use super::split_k::Slices;
use super::{Kernel, Repeat};

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

/// The kernels of dispatch `d` (one, or two for a split reduction); adds
/// the scratch buffers and host sizes they need to `buffers` and `shapes`.
/// Stages: the dispatch's checks, its kernels' plans (`plan_kernels`),
/// each plan's kernel (`emit_planned`).
#[allow(
    clippy::too_many_arguments,
    reason = "the stages' results, each needed"
)]
pub fn emit_dispatch(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    d: &DispatchRegion,
    strategy: &Strategy,
    shape: &DispatchShape,
) -> Result<Vec<Kernel>, CodegenError> {
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
    let plans = plan_kernels(&facts, strategy, shapes, buffers)?;
    let (shapes, buffers) = (&*shapes, &*buffers);
    plans
        .into_iter()
        .map(|p| {
            let ctx = Ctx {
                info,
                regions,
                shapes,
                buffers,
                strategy,
            };
            emit_planned(ctx, &facts, p)
        })
        .collect()
}

/// The kernel of plan `p`.
fn emit_planned(
    ctx: Ctx<'_, '_>,
    f: &Facts<'_, '_>,
    p: KernelPlan,
) -> Result<Kernel, CodegenError> {
    let workgroup_size = ctx.strategy.workgroup_size;
    let described = p.plan.describe(&ctx.shapes.host);
    let mut km = KernelModule::new();
    let mut e = Emitter::new(&mut km, ctx, &p.name, workgroup_size);
    e.loc = f.loc;
    e.computed_here = f.d.row_outputs.iter().map(|o| o.value).collect();
    e.point_dims = f.shape.point_dims.clone();
    emit_kernel(&mut e, f.d, f.shape, &p.plan)?;
    let (bindings, writes, push) = e.finish();
    Ok(Kernel {
        name: p.name,
        plan: described,
        guard: p.guard,
        module: km,
        bindings,
        writes,
        push,
        workgroup_size,
        workgroups: p.workgroups,
        repeat: p.repeat,
    })
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
        (Distribution::Points { per_invocation }, red) => {
            Ok(vec![points_plan(f, shapes, buffers, per_invocation, red)])
        }
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
                split_coop_plans(f, shapes, buffers, combine, chunk, per_invocation)
            } else {
                let plan = Plan::Coop {
                    combine,
                    split: None,
                    per_invocation: false,
                };
                vec![KernelPlan::once(d.name.clone(), plan, f.points)]
            })
        }
        (Distribution::Vector4 { per_invocation }, None) => {
            let per_wg = Size::Static(u64::from(wg) * u64::from(per_invocation) * 4);
            let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, per_wg);
            let plan = Plan::Vector4 {
                per: per_invocation,
            };
            Ok(vec![KernelPlan::once(d.name.clone(), plan, groups)])
        }
        (
            Distribution::Tile { rows, cols, depth },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if tiled => {
            let dims = super::tile::TileDims { rows, cols, depth };
            Ok(tile_plans(f, shapes, buffers, dims))
        }
        (
            dist @ (Distribution::Tile { .. } | Distribution::SharedTile { .. }),
            Some(ReductionStrategy::SplitK { slices, slice }),
        ) if tiled => split_k_plans(f, shapes, buffers, dist, (slices, slice)),
        (
            dist @ Distribution::SharedTile {
                block_rows,
                block_cols,
                ..
            },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if tiled => {
            let dims = super::shared_tile::SharedDims::of(dist, wg).ok_or_else(|| {
                f.internal(Invariant::PlanSizes(format!(
                    "workgroup-memory tile {dist:?} with {wg} invocations"
                )))
            })?;
            let groups = block_grid(
                shapes,
                &shape.points,
                u64::from(block_rows),
                u64::from(block_cols),
            );
            let plan = Plan::SharedTile(dims, None);
            Ok(vec![KernelPlan::once(d.name.clone(), plan, groups)])
        }
        (
            Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
            },
            Some(ReductionStrategy::Serial { .. }),
        ) if matches!(shape.points.len(), 2 | 3) => {
            let [block_rows, block_cols] = [
                u64::from(m * tiles[0] * subgroups[0]),
                u64::from(n * tiles[1] * subgroups[1]),
            ];
            let staging = shape
                .coop_matmul
                .zip(crate::codegen::strategy::coop_sizes(shape))
                .map(|(types, sizes)| {
                    crate::codegen::strategy::coop_staging(
                        &types,
                        sizes,
                        [block_rows, block_cols],
                        k,
                    )
                })
                .ok_or_else(|| {
                    f.internal(Invariant::PlanMismatch {
                        kernel: "a cooperative-matrix matmul",
                        what: "not a static cooperative-matrix matmul",
                    })
                })?;
            let dims = super::coop_matmul::CoopDims {
                m,
                n,
                k,
                tiles,
                subgroups,
                staging,
            };
            let [block_rows, block_cols] = dims.block();
            let groups = block_grid(shapes, &shape.points, block_rows, block_cols);
            let plan = Plan::CoopMatrix(dims);
            Ok(vec![KernelPlan::once(d.name.clone(), plan, groups)])
        }
        (
            Distribution::RowSlices { slice },
            Some(ReductionStrategy::Cooperative {
                combine,
                split: false,
                ..
            }),
        ) if has_root && slice > 0 && wg % slice == 0 => {
            Ok(row_slices_plans(f, shapes, buffers, slice, combine))
        }
        (
            dist @ (Distribution::WorkgroupPerPoint | Distribution::RowSlices { .. }),
            Some(ReductionStrategy::Rows { combine: Some(c) }),
        ) if softmax_slice(dist, c, wg).is_some() => {
            // A row per workgroup, or per subgroup-sized slice of one.
            let slice = softmax_slice(dist, c, wg).unwrap_or(wg);
            let dynamic = shape.reduction.is_some_and(|r| r.fixed().is_none());
            if slice < wg && dynamic {
                return Ok(row_slice_kernels(f, shapes, slice).into());
            }
            let loops = row_loops(f.info, shapes, d, shape, slice);
            check_budget(shapes, d, f.loc, loops, f.budget, "the row share's passes");
            let rows = Size::Static(u64::from(wg / slice));
            let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, rows);
            let plan = Plan::Rows { combine: c, slice };
            Ok(vec![KernelPlan::once(d.name.clone(), plan, groups)])
        }
        (
            Distribution::WorkgroupPerPoint,
            Some(ReductionStrategy::SplitRows { combine, slices }),
        ) if d.family == OpFamily::Softmax && slices >= 2 => {
            Ok(split_rows_plans(f, shapes, buffers, combine, slices))
        }
        (dist, red) => Err(f.internal(Invariant::NoKernel {
            distribution: format!("{dist:?}"),
            reduction: format!("{red:?}"),
        })),
    }
}

/// Scratch buffers for the root's outputs: `sizes` elements each, or
/// each output's shape; f32 where an f16/bf16 output accumulates in f32
/// ([`scratch_elem`](super::reduce::scratch_elem)).
fn scratch_for(
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
                elem: super::reduce::scratch_elem(f.info.m, s, j),
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
fn points_plan(
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
        let loops = row_loops(f.info, shapes, f.d, f.shape, 1);
        check_budget(shapes, f.d, f.loc, loops, f.budget, "the row's passes");
    }
    let per_wg = Size::Static(u64::from(f.wg) * u64::from(per));
    let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, per_wg);
    KernelPlan {
        repeat,
        ..KernelPlan::once(f.d.name.clone(), Plan::Points { per, range }, groups)
    }
}

/// A cooperative reduction split over several workgroups per point: the
/// partial results of each workgroup (or each invocation) into scratch,
/// then a kernel combining them.
fn split_coop_plans(
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
    check_budget(
        shapes,
        d,
        f.loc,
        second,
        f.budget,
        "partial results per workgroup",
    );
    let first = Plan::Coop {
        combine,
        split: Some((g, partials.clone())),
        per_invocation,
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

/// Register tiles: the tiles the host chooses between at run time (a
/// tile of one row for a run of one row, one column at a time for ragged
/// columns), and past the loop budget a dispatch per chunk.
fn tile_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    dims: super::tile::TileDims,
) -> Vec<KernelPlan> {
    let (d, shape, wg) = (f.d, f.shape, f.wg);
    let n = shape.points.len();
    // The tiles the host chooses between at run time, each with the
    // guard under which it runs. Rows of dynamic length in a tall tile:
    // a run of one row (a decoding step) takes a tile of one row, which
    // the tall one would compute `rows` times over.
    let mut shapes_of_rows = vec![(String::new(), dims, Guard::always())];
    if let (m @ Size::Slot(_), true) = (shape.points[n - 2], dims.rows > 1 && dims.cols % 4 == 0) {
        let many = Cond::Above { size: m, limit: 1 };
        let row = super::tile::TileDims {
            rows: 1,
            cols: 4,
            depth: dims.depth,
        };
        shapes_of_rows = vec![
            (String::new(), dims, Guard(vec![many])),
            ("_one_row".into(), row, Guard(vec![!many])),
        ];
    }
    let mut tiles = Vec::new();
    for (suffix, dims, when) in shapes_of_rows {
        let name = format!("{}{suffix}", d.name);
        let groups = block_grid(
            shapes,
            &shape.points,
            u64::from(dims.rows),
            u64::from(wg) * u64::from(dims.cols),
        );
        let plain = Plan::Tile {
            dims,
            split: None,
            fours: None,
        };
        // Columns of dynamic length in groups of 4: a kernel moving them
        // as vec4 where they are a multiple of 4, one column at a time
        // otherwise.
        match shape.points[n - 1] {
            cols @ Size::Slot(_) if dims.cols % 4 == 0 => {
                let whole = Cond::MultipleOf { size: cols, k: 4 };
                let fours = Plan::Tile {
                    dims,
                    split: None,
                    fours: Some(cols),
                };
                tiles.push(KernelPlan::once(name.clone(), fours, groups).when(when.and(whole)));
                tiles.push(
                    KernelPlan::once(format!("{name}_ragged_columns"), plain, groups)
                        .when(when.and(!whole)),
                );
            }
            _ => tiles.push(KernelPlan::once(name, plain, groups).when(when)),
        }
    }
    if f.red_total.fixed().is_some() {
        return tiles;
    }
    // A reduction of dynamic length: the tiles where one invocation's
    // loop over it (step by step at most) fits the budget at run time;
    // past it, one output per invocation and a dispatch per chunk of the
    // reduction (another kernel).
    let long = over_budget(f, f.red_total);
    let mut plans: Vec<KernelPlan> = tiles
        .into_iter()
        .map(|p| {
            let guard = p.guard.and(!long);
            p.when(guard)
        })
        .collect();
    plans.push(chunked_points(f, shapes, buffers, f.red_total));
    plans
}

/// Split-K over register or workgroup-memory tiles: `slices` slices of
/// `slice` iterations each into scratch, then a kernel summing them.
fn split_k_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    dist: Distribution,
    (slices, slice): (u32, u64),
) -> Result<Vec<KernelPlan>, CodegenError> {
    let (d, shape, wg, budget) = (f.d, f.shape, f.wg, f.budget);
    if slices == 0 || slice == 0 || slice % 16 != 0 {
        return Err(f.internal(Invariant::PlanSizes(format!(
            "split-K of {slices} slices of {slice} iterations"
        ))));
    }
    if slice > budget {
        return Err(CodegenError::unsupported(
            f.info.m,
            d.op,
            format!("split-K slices of {slice} iterations exceed the loop budget ({budget})"),
        ));
    }
    let count = shapes
        .host
        .arith(SizeOp::Mul, f.points, Size::Static(u64::from(slices)));
    let sl = Slices {
        count: slices,
        len: slice,
        partials: scratch_for(f, buffers, shapes, Some(count)),
    };
    let (plan, rows, cols) = match dist {
        Distribution::Tile { rows, cols, depth } => (
            Plan::Tile {
                dims: super::tile::TileDims { rows, cols, depth },
                split: Some(sl.clone()),
                fours: None,
            },
            u64::from(rows),
            u64::from(wg) * u64::from(cols),
        ),
        Distribution::SharedTile {
            block_rows,
            block_cols,
            ..
        } => {
            let dims = super::shared_tile::SharedDims::of(dist, wg).ok_or_else(|| {
                f.internal(Invariant::PlanSizes(format!(
                    "workgroup-memory tile {dist:?} with {wg} invocations"
                )))
            })?;
            (
                Plan::SharedTile(dims, Some(sl.clone())),
                u64::from(block_rows),
                u64::from(block_cols),
            )
        }
        _ => return Err(f.internal(Invariant::PlanSizes(format!("split-K over {dist:?}")))),
    };
    let blocks = block_grid(shapes, &shape.points, rows, cols);
    let groups = shapes
        .host
        .arith(SizeOp::Mul, blocks, Size::Static(u64::from(slices)));
    let sum_groups = shapes
        .host
        .arith(SizeOp::CeilDiv, f.points, Size::Static(u64::from(wg)));
    Ok(vec![
        KernelPlan::once(d.name.clone(), plan, groups),
        KernelPlan::once(
            format!("{}_sum_slices", d.name),
            Plan::SumSlices(sl),
            sum_groups,
        ),
    ])
}

/// A point per slice of `slice` invocations; rows of dynamic length past
/// the loop budget take a dispatch per chunk instead.
fn row_slices_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    slice: u32,
    combine: Combine,
) -> Vec<KernelPlan> {
    let (per, blocks) = match f.root {
        Some(s) => (
            super::matvec::rows_per_invocation(
                f.info,
                s,
                (slice, f.wg),
                f.points.fixed(),
                f.red_total.fixed(),
            ),
            super::matvec::blocks_per_step(f.info, s, slice, f.red_total.fixed()),
        ),
        None => (1, 0),
    };
    let rows = Size::Static(u64::from(f.wg / slice * per));
    let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, rows);
    let plan = Plan::RowSlices {
        slice,
        combine,
        rows: per,
        blocks,
    };
    if f.red_total.fixed().is_some() {
        return vec![KernelPlan::once(f.d.name.clone(), plan, groups)];
    }
    // Rows of dynamic length: the slices where a lane's loop
    // over its row (element by element at most) fits the
    // budget at run time, else a dispatch per chunk.
    let lanes = Size::Static(u64::from(slice));
    let loops = shapes.host.arith(SizeOp::CeilDiv, f.red_total, lanes);
    let long = over_budget(f, loops);
    vec![
        KernelPlan::once(f.d.name.clone(), plan, groups).when(Guard(vec![!long])),
        chunked_points(f, shapes, buffers, loops),
    ]
}

/// Softmax rows split over `slices` workgroups each: the slices'
/// partial maxima and sums, then a kernel combining them.
fn split_rows_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    combine: Combine,
    slices: u32,
) -> Vec<KernelPlan> {
    let d = f.d;
    let per_row = Size::Static(u64::from(slices));
    let groups = shapes.host.arith(SizeOp::Mul, f.points, per_row);
    let partials = [0, 1].map(|_| {
        buffers.add(BufferInfo {
            elem: crate::tensor::types::ElemType::F32,
            shape: vec![groups],
            origin: BufferOrigin::Scratch(d.index),
        })
    });
    // An invocation's passes over its slice, and the second
    // kernel's two over the row's partials.
    let slice_len = shapes.host.arith(SizeOp::CeilDiv, f.red_total, per_row);
    let loops = shapes
        .host
        .arith(SizeOp::CeilDiv, slice_len, Size::Static(u64::from(f.wg)));
    let loops = shapes.host.arith(SizeOp::Mul, loops, Size::Static(2));
    let loops = shapes
        .host
        .arith(SizeOp::Add, loops, Size::Static(2 * u64::from(slices)));
    check_budget(shapes, d, f.loc, loops, f.budget, "a split row's passes");
    [false, true]
        .map(|second| {
            let name = if second {
                format!("{}_combine", d.name)
            } else {
                d.name.clone()
            };
            let plan = Plan::SplitRows {
                combine,
                slices,
                partials,
                second,
            };
            KernelPlan::once(name, plan, groups)
        })
        .into()
}

/// The kernels of rows of dynamic length on slices of `slice` invocations
/// (one subgroup) of a workgroup: a row per slice where the slice's loops
/// over the row fit the budget, else a row per workgroup (its subgroups
/// combined through workgroup memory). Both kernels are compiled; their
/// guards on the run's row length launch exactly one.
fn row_slice_kernels(f: &Facts<'_, '_>, shapes: &mut Shapes, slice: u32) -> [KernelPlan; 2] {
    let (d, shape, wg) = (f.d, f.shape, f.wg);
    let points = shapes.host.product(&shape.points);
    let narrow = row_loops(f.info, shapes, d, shape, slice);
    let wide = row_loops(f.info, shapes, d, shape, wg);
    check_budget(shapes, d, f.loc, wide, f.budget, "the row share's passes");
    let long = over_budget(f, narrow);
    let per_wg = Size::Static(u64::from(wg / slice));
    let sliced = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
    [
        KernelPlan::once(
            d.name.clone(),
            Plan::Rows {
                combine: Combine::OneSubgroup,
                slice,
            },
            sliced,
        )
        .when(Guard(vec![!long])),
        KernelPlan::once(
            format!("{}_long_rows", d.name),
            Plan::Rows {
                combine: Combine::Subgroup,
                slice: wg,
            },
            points,
        )
        .when(Guard(vec![long])),
    ]
}

/// The kernel for reductions of dynamic length past the loop budget: one
/// output per invocation, a dispatch per budget's iterations of the
/// reduction, the accumulators kept in scratch between dispatches; it
/// runs where one invocation's `loops` exceed the budget (and its scratch
/// has elements only then).
fn chunked_points(
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

/// The run-time condition that `loops` exceed the loop budget.
fn over_budget(f: &Facts<'_, '_>, loops: Size) -> Cond {
    Cond::Above {
        size: loops,
        limit: f.budget,
    }
}

/// The loop iterations of one of a row's `slice` invocations: a
/// softmax's three passes over its row; a row group's pass over each row
/// root's reduction (which need not be the row's length) and over the
/// row.
fn row_loops(
    info: &FuncInfo<'_>,
    shapes: &mut Shapes,
    d: &DispatchRegion,
    shape: &DispatchShape,
    slice: u32,
) -> Size {
    let slice = Size::Static(u64::from(slice));
    let n = shape.reduction.unwrap_or(Size::Static(0));
    let per = shapes.host.arith(SizeOp::CeilDiv, n, slice);
    if d.row_roots.is_empty() {
        let passes = Size::Static(shape.row_passes);
        return shapes.host.arith(SizeOp::Mul, per, passes);
    }
    let mut loops = per;
    for rr in &d.row_roots {
        let total = reduction_total(info, shapes, rr.op);
        let share = shapes.host.arith(SizeOp::CeilDiv, total, slice);
        loops = shapes.host.arith(SizeOp::Add, loops, share);
    }
    loops
}

/// The workgroups of a tiled dispatch over `points` (at least two): one
/// per block of `rows` x `cols` over the last two dimensions, for every
/// batch point (the host side of `tile::workgroup_block`).
fn block_grid(shapes: &mut Shapes, points: &[Size], rows: u64, cols: u64) -> Size {
    let n = points.len();
    let row_blocks = shapes
        .host
        .arith(SizeOp::CeilDiv, points[n - 2], Size::Static(rows));
    let col_blocks = shapes
        .host
        .arith(SizeOp::CeilDiv, points[n - 1], Size::Static(cols));
    let mut blocks = points[..n - 2].to_vec();
    blocks.extend([row_blocks, col_blocks]);
    shapes.host.product(&blocks)
}

/// A run-time check that one invocation's `loops` (of `what`) fit
/// `budget`.
fn check_budget(
    shapes: &mut Shapes,
    d: &DispatchRegion,
    loc: Location,
    loops: Size,
    budget: u64,
    what: &str,
) {
    shapes.host.check(RuntimeCheck {
        kind: CheckKind::Less,
        a: loops,
        b: Size::Static(budget + 1),
        op: d.name.clone(),
        loc,
        what: format!("the loop iterations of one invocation ({what})"),
    });
}

/// The invocations per softmax row of distribution `dist` on workgroups
/// of `wg`: the workgroup, or a slice of it that is one subgroup
/// (combined by [`Combine::OneSubgroup`]); `None` for anything else.
fn softmax_slice(dist: Distribution, combine: Combine, wg: u32) -> Option<u32> {
    match dist {
        Distribution::WorkgroupPerPoint => Some(wg),
        Distribution::RowSlices { slice }
            if combine == Combine::OneSubgroup && slice > 0 && wg % slice == 0 =>
        {
            Some(slice)
        }
        _ => None,
    }
}
