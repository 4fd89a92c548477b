//! A dispatch's kernels: how its points map to invocations and
//! workgroups (the [`Distribution`]), what each point computes (the root
//! first, as its [`ReductionStrategy`] says, then the stored values), and
//! the host-side facts the executor needs (workgroup counts as sizes,
//! chunk repeats, scratch buffers).

use crate::kernel::KValue;
use crate::kernel::{KType, KernelModule};
use crate::tensor::attr::IteratorType;
use crate::tensor::ops::{LinalgKind, OpKind, TensorOp};
use crate::tensor::{TOp, TValue};

use super::super::analysis::{FuncInfo, OpClass};
use super::super::bufferize::{BufferInfo, BufferOrigin, BufferPlan};
use super::super::combine::combiners;
use super::super::error::CodegenError;
use super::super::host::{CheckKind, RuntimeCheck, Size, SizeOp};
use super::super::regions::{DispatchRegion, FuncRegions, OpFamily, ValueFate};
use super::super::shapes::Shapes;
use super::super::strategy::{
    reduction_total, Combine, DispatchShape, Distribution, ReductionStrategy, Strategy,
};
use super::emitter::{Ctx, Emitter};
use super::reduce::SerialRange;
use super::softmax::{RowPart, SoftmaxRow};
use super::split_k::Slices;
use super::{Kernel, PushValue, Repeat};

/// How a kernel of a dispatch computes its points.
#[derive(Clone, Debug)]
enum Plan {
    /// `per` points per invocation; roots serially.
    Points { per: u32, range: Range },
    /// A workgroup per point, the root folded cooperatively; with `split`
    /// (the split count and the partial buffers) the first of two kernels,
    /// which with `per_invocation` writes every invocation's partial
    /// result instead of the workgroup's.
    Coop {
        combine: Combine,
        split: Option<(Size, Vec<usize>)>,
        per_invocation: bool,
    },
    /// The second kernel of a split: combine the partials.
    CombinePartials {
        combine: Combine,
        split: Size,
        partials: Vec<usize>,
    },
    /// Softmax: a row per slice of `slice` invocations (a workgroup, or
    /// one subgroup of it with [`Combine::OneSubgroup`]).
    Rows { combine: Combine, slice: u32 },
    /// Softmax rows split over `slices` workgroups each: the first kernel
    /// (the slices' partial maxima and sums into `partials`) or, with
    /// `second`, the second (combine them, write the quotients).
    SplitRows {
        combine: Combine,
        slices: u32,
        partials: [usize; 2],
        second: bool,
    },
    /// A register tile per invocation; with `split`, the first kernel of
    /// a split-K (one slice per workgroup).
    Tile {
        dims: super::tile::TileDims,
        split: Option<Slices>,
        /// The output's columns, of dynamic length, where this kernel
        /// runs only when they are a multiple of 4 (vector columns).
        fours: Option<Size>,
    },
    /// `per` groups of 4 points per invocation, moved as vectors.
    Vector4 { per: u32 },
    /// Workgroup-memory tiles; with split-K slices, the first kernel.
    SharedTile(super::shared_tile::SharedDims, Option<Slices>),
    /// The second kernel of a split-K: sum the slices, then the epilogue.
    SumSlices(Slices),
    /// Cooperative matrices: `tiles` of `m` x `n` per subgroup, a grid of
    /// `subgroups` per workgroup (see [`Distribution::CoopMatrix`]).
    CoopMatrix(super::coop_matmul::CoopDims),
    /// One point per slice of `slice` invocations, combined with
    /// `combine` within the slice.
    RowSlices { slice: u32, combine: Combine },
}

#[derive(Clone, Debug)]
enum Range {
    Whole,
    Chunk(Vec<usize>),
}

/// The kernels of dispatch `d` (one, or two for a split reduction); adds
/// the scratch buffers and host sizes they need to `buffers` and `shapes`.
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
    let m = info.m;
    if !d.row_outputs.is_empty() && d.family != OpFamily::Normalization {
        // Only the row-group kernel writes per-row values; any other
        // would leave their buffers unwritten.
        return Err(CodegenError::unsupported(
            m,
            d.op,
            format!(
                "internal: per-row outputs in a {} dispatch",
                d.family.name()
            ),
        ));
    }
    let loc = m.op(d.op).loc;
    let wg = strategy.invocations();
    let points = shapes.host.product(&shape.points);
    let root_struct = d.root.and_then(|r| info.structured.get(&r).cloned());
    let red_total = match (d.root, &root_struct) {
        (Some(r), Some(_)) => reduction_total(info, shapes, r),
        _ => shape.reduction.unwrap_or(Size::Static(0)),
    };
    let budget = strategy.loop_budget;
    let scratch_for = |buffers: &mut BufferPlan, shapes: &Shapes, sizes: Option<Size>| {
        let s = root_struct.as_ref().expect("a root");
        s.outputs
            .iter()
            .map(|&o| {
                buffers.add(BufferInfo {
                    elem: m.value_kind(o).elem(),
                    shape: match sizes {
                        Some(n) => vec![n],
                        None => shapes.of(o).to_vec(),
                    },
                    origin: BufferOrigin::Scratch(d.index),
                })
            })
            .collect::<Vec<_>>()
    };
    // The kernel for a run whose reduction of dynamic length exceeds the
    // loop budget, with workgroups where `long` (0 or 1) is 1.
    let chunked = |buffers: &mut BufferPlan, shapes: &mut Shapes, long: Size| {
        let count = shapes.host.arith(SizeOp::Mul, points, long);
        let scratch = scratch_for(buffers, shapes, Some(count));
        chunked_points(d, shapes, (points, wg), red_total, budget, long, scratch)
    };
    let mut plans: Vec<(String, Plan, Size, Repeat)> = Vec::new();
    match (strategy.distribution, strategy.reduction) {
        (Distribution::Points { per_invocation }, red) => {
            let per = per_invocation.max(1);
            let (range, repeat) = match red {
                Some(ReductionStrategy::Serial {
                    chunk,
                    chunked: true,
                }) if root_struct.is_some() => {
                    let scratch = scratch_for(buffers, shapes, None);
                    (
                        Range::Chunk(scratch),
                        Repeat::Chunks {
                            total: red_total,
                            chunk,
                        },
                    )
                }
                _ => (Range::Whole, Repeat::Once),
            };
            if let Some(ReductionStrategy::Rows { .. }) = red {
                let loops = row_loops(info, shapes, d, shape, 1);
                check_budget(shapes, d, loc, loops, budget, "the row's passes");
            }
            let per_wg = Size::Static(u64::from(wg) * u64::from(per));
            let groups = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
            plans.push((d.name.clone(), Plan::Points { per, range }, groups, repeat));
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
            if root_struct.is_none() {
                return Err(CodegenError::unsupported(
                    m,
                    d.op,
                    "internal: cooperative strategy without a root",
                ));
            }
            if split {
                let per = Size::Static(u64::from(wg) * chunk);
                let g = shapes.host.arith(SizeOp::CeilDiv, red_total, per);
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
                let partials = scratch_for(buffers, shapes, Some(count));
                let second =
                    shapes
                        .host
                        .arith(SizeOp::CeilDiv, per_point, Size::Static(u64::from(wg)));
                check_budget(
                    shapes,
                    d,
                    loc,
                    second,
                    budget,
                    "partial results per workgroup",
                );
                plans.push((
                    d.name.clone(),
                    Plan::Coop {
                        combine,
                        split: Some((g, partials.clone())),
                        per_invocation,
                    },
                    n,
                    Repeat::Once,
                ));
                plans.push((
                    format!("{}_combine", d.name),
                    Plan::CombinePartials {
                        combine,
                        split: per_point,
                        partials,
                    },
                    points,
                    Repeat::Once,
                ));
            } else {
                plans.push((
                    d.name.clone(),
                    Plan::Coop {
                        combine,
                        split: None,
                        per_invocation: false,
                    },
                    points,
                    Repeat::Once,
                ));
            }
        }
        (Distribution::Vector4 { per_invocation }, None) => {
            let per_wg = Size::Static(u64::from(wg) * u64::from(per_invocation) * 4);
            let groups = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
            plans.push((
                d.name.clone(),
                Plan::Vector4 {
                    per: per_invocation,
                },
                groups,
                Repeat::Once,
            ));
        }
        (
            Distribution::Tile { rows, cols, depth },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if root_struct.is_some() && shape.points.len() >= 2 => {
            let dims = super::tile::TileDims { rows, cols, depth };
            let n = shape.points.len();
            // The tiles the host chooses between at run time, each with
            // the condition (a size of 0 or 1) under which it runs. Rows
            // of dynamic length in a tall tile: a run of one row (a
            // decoding step) takes a tile of one row, which the tall one
            // would compute `rows` times over.
            let mut shapes_of_rows = vec![(String::new(), dims, Size::Static(1))];
            if let (m @ Size::Slot(_), true) = (shape.points[n - 2], rows > 1 && cols % 4 == 0) {
                let many = exceeds(shapes, m, 1);
                let one = not(shapes, many);
                let row = super::tile::TileDims {
                    rows: 1,
                    cols: 4,
                    depth,
                };
                shapes_of_rows = vec![(String::new(), dims, many), ("_one_row".into(), row, one)];
            }
            let mut tiles = Vec::new();
            for (suffix, dims, when) in shapes_of_rows {
                let name = format!("{}{suffix}", d.name);
                let blocks = block_grid(
                    shapes,
                    &shape.points,
                    u64::from(dims.rows),
                    u64::from(wg) * u64::from(dims.cols),
                );
                let groups = shapes.host.arith(SizeOp::Mul, blocks, when);
                let plain = Plan::Tile {
                    dims,
                    split: None,
                    fours: None,
                };
                // Columns of dynamic length in groups of 4: a kernel
                // moving them as vec4 where they are a multiple of 4, one
                // column at a time otherwise.
                match shape.points[n - 1] {
                    cols @ Size::Slot(_) if dims.cols % 4 == 0 => {
                        let ragged = not_multiple(shapes, cols, 4);
                        let whole = not(shapes, ragged);
                        let fours = Plan::Tile {
                            dims,
                            split: None,
                            fours: Some(cols),
                        };
                        let vec4 = shapes.host.arith(SizeOp::Mul, groups, whole);
                        let one_by_one = shapes.host.arith(SizeOp::Mul, groups, ragged);
                        tiles.push((name.clone(), fours, vec4));
                        tiles.push((format!("{name}_ragged_columns"), plain, one_by_one));
                    }
                    _ => tiles.push((name, plain, groups)),
                }
            }
            if red_total.fixed().is_some() {
                for (name, plan, groups) in tiles {
                    plans.push((name, plan, groups, Repeat::Once));
                }
            } else {
                // A reduction of dynamic length: the tiles where one
                // invocation's loop over it (step by step at most) fits
                // the budget at run time; past it, one output per
                // invocation and a dispatch per chunk of the reduction
                // (another kernel; the host gives workgroups to one).
                let long = exceeds(shapes, red_total, budget);
                let short = not(shapes, long);
                for (name, plan, groups) in tiles {
                    let groups = shapes.host.arith(SizeOp::Mul, groups, short);
                    plans.push((name, plan, groups, Repeat::Once));
                }
                plans.push(chunked(buffers, shapes, long));
            }
        }
        (
            dist @ (Distribution::Tile { .. } | Distribution::SharedTile { .. }),
            Some(ReductionStrategy::SplitK { slices, slice }),
        ) if root_struct.is_some() && shape.points.len() >= 2 => {
            if slices == 0 || slice == 0 || slice % 16 != 0 {
                return Err(CodegenError::unsupported(
                    m,
                    d.op,
                    format!("internal: split-K of {slices} slices of {slice} iterations"),
                ));
            }
            if slice > budget {
                return Err(CodegenError::unsupported(
                    m,
                    d.op,
                    format!(
                        "split-K slices of {slice} iterations exceed the loop budget ({budget})"
                    ),
                ));
            }
            let count = shapes
                .host
                .arith(SizeOp::Mul, points, Size::Static(u64::from(slices)));
            let sl = Slices {
                count: slices,
                len: slice,
                partials: scratch_for(buffers, shapes, Some(count)),
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
                        CodegenError::unsupported(
                            m,
                            d.op,
                            format!(
                                "internal: workgroup-memory tile {dist:?} with {wg} invocations"
                            ),
                        )
                    })?;
                    (
                        Plan::SharedTile(dims, Some(sl.clone())),
                        u64::from(block_rows),
                        u64::from(block_cols),
                    )
                }
                _ => {
                    return Err(CodegenError::unsupported(
                        m,
                        d.op,
                        format!("internal: split-K over {dist:?}"),
                    ))
                }
            };
            let blocks = block_grid(shapes, &shape.points, rows, cols);
            let groups = shapes
                .host
                .arith(SizeOp::Mul, blocks, Size::Static(u64::from(slices)));
            plans.push((d.name.clone(), plan, groups, Repeat::Once));
            let sum_groups =
                shapes
                    .host
                    .arith(SizeOp::CeilDiv, points, Size::Static(u64::from(wg)));
            plans.push((
                format!("{}_sum_slices", d.name),
                Plan::SumSlices(sl),
                sum_groups,
                Repeat::Once,
            ));
        }
        (
            dist @ Distribution::SharedTile {
                block_rows,
                block_cols,
                ..
            },
            Some(ReductionStrategy::Serial { chunked: false, .. }),
        ) if root_struct.is_some() && shape.points.len() >= 2 => {
            let dims = super::shared_tile::SharedDims::of(dist, wg).ok_or_else(|| {
                CodegenError::unsupported(
                    m,
                    d.op,
                    format!("internal: workgroup-memory tile {dist:?} with {wg} invocations"),
                )
            })?;
            let groups = block_grid(
                shapes,
                &shape.points,
                u64::from(block_rows),
                u64::from(block_cols),
            );
            plans.push((
                d.name.clone(),
                Plan::SharedTile(dims, None),
                groups,
                Repeat::Once,
            ));
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
        ) if shape.points.len() == 2 => {
            let dims = super::coop_matmul::CoopDims {
                m,
                n,
                k,
                tiles,
                subgroups,
            };
            let [block_rows, block_cols] = dims.block();
            let groups = block_grid(shapes, &shape.points, block_rows, block_cols);
            plans.push((d.name.clone(), Plan::CoopMatrix(dims), groups, Repeat::Once));
        }
        (
            Distribution::RowSlices { slice },
            Some(ReductionStrategy::Cooperative {
                combine,
                split: false,
                ..
            }),
        ) if root_struct.is_some() && slice > 0 && wg % slice == 0 => {
            let rows = Size::Static(u64::from(wg / slice));
            let groups = shapes.host.arith(SizeOp::CeilDiv, points, rows);
            let plan = Plan::RowSlices { slice, combine };
            if red_total.fixed().is_some() {
                plans.push((d.name.clone(), plan, groups, Repeat::Once));
            } else {
                // Rows of dynamic length: the slices where a lane's loop
                // over its row (element by element at most) fits the
                // budget at run time, else a dispatch per chunk.
                let lanes = Size::Static(u64::from(slice));
                let loops = shapes.host.arith(SizeOp::CeilDiv, red_total, lanes);
                let long = exceeds(shapes, loops, budget);
                let short = not(shapes, long);
                let groups = shapes.host.arith(SizeOp::Mul, groups, short);
                plans.push((d.name.clone(), plan, groups, Repeat::Once));
                plans.push(chunked(buffers, shapes, long));
            }
        }
        (
            dist @ (Distribution::WorkgroupPerPoint | Distribution::RowSlices { .. }),
            Some(ReductionStrategy::Rows { combine: Some(c) }),
        ) if softmax_slice(dist, c, wg).is_some() => {
            // A row per workgroup, or per subgroup-sized slice of one.
            let slice = softmax_slice(dist, c, wg).unwrap_or(wg);
            let dynamic = shape.reduction.is_some_and(|r| r.fixed().is_none());
            if slice < wg && dynamic {
                plans.extend(row_slice_kernels(
                    info,
                    shapes,
                    d,
                    shape,
                    (slice, wg),
                    budget,
                ));
            } else {
                let loops = row_loops(info, shapes, d, shape, slice);
                check_budget(shapes, d, loc, loops, budget, "the row share's passes");
                let rows = Size::Static(u64::from(wg / slice));
                let groups = shapes.host.arith(SizeOp::CeilDiv, points, rows);
                plans.push((
                    d.name.clone(),
                    Plan::Rows { combine: c, slice },
                    groups,
                    Repeat::Once,
                ));
            }
        }
        (
            Distribution::WorkgroupPerPoint,
            Some(ReductionStrategy::SplitRows { combine, slices }),
        ) if d.family == OpFamily::Softmax && slices >= 2 => {
            let per_row = Size::Static(u64::from(slices));
            let groups = shapes.host.arith(SizeOp::Mul, points, per_row);
            let partials = [0, 1].map(|_| {
                buffers.add(BufferInfo {
                    elem: crate::tensor::types::ElemType::F32,
                    shape: vec![groups],
                    origin: BufferOrigin::Scratch(d.index),
                })
            });
            // An invocation's passes over its slice, and the second
            // kernel's two over the row's partials.
            let slice_len = shapes.host.arith(SizeOp::CeilDiv, red_total, per_row);
            let loops = shapes
                .host
                .arith(SizeOp::CeilDiv, slice_len, Size::Static(u64::from(wg)));
            let loops = shapes.host.arith(SizeOp::Mul, loops, Size::Static(2));
            let loops = shapes
                .host
                .arith(SizeOp::Add, loops, Size::Static(2 * u64::from(slices)));
            check_budget(shapes, d, loc, loops, budget, "a split row's passes");
            for second in [false, true] {
                plans.push((
                    if second {
                        format!("{}_combine", d.name)
                    } else {
                        d.name.clone()
                    },
                    Plan::SplitRows {
                        combine,
                        slices,
                        partials,
                        second,
                    },
                    groups,
                    Repeat::Once,
                ));
            }
        }
        (dist, red) => {
            return Err(CodegenError::unsupported(
                m,
                d.op,
                format!("internal: no kernel for distribution {dist:?} with reduction {red:?}"),
            ))
        }
    }
    let mut kernels = Vec::new();
    for (name, plan, groups, repeat) in plans {
        let mut km = KernelModule::new();
        let c = Ctx {
            info,
            regions,
            shapes,
            buffers,
            strategy,
        };
        let mut e = Emitter::new(&mut km, c, &name, strategy.workgroup_size);
        e.loc = loc;
        e.computed_here = d.row_outputs.iter().map(|o| o.value).collect();
        emit_kernel(&mut e, d, shape, &plan)?;
        let (bindings, writes, push) = e.finish();
        kernels.push(Kernel {
            name,
            module: km,
            bindings,
            writes,
            push,
            workgroup_size: strategy.workgroup_size,
            workgroups: groups,
            repeat,
        });
    }
    Ok(kernels)
}

/// The kernels of rows of dynamic length on slices of `slice` invocations
/// (one subgroup) of a workgroup of `wg`: a row per slice where the
/// slice's loops over the row fit `budget`, else a row per workgroup
/// (its subgroups combined through workgroup memory). Both kernels are
/// compiled; the host gives the one the run's row length calls for its
/// workgroups and the other none, so only one is launched.
fn row_slice_kernels(
    info: &FuncInfo<'_>,
    shapes: &mut Shapes,
    d: &DispatchRegion,
    shape: &DispatchShape,
    (slice, wg): (u32, u32),
    budget: u64,
) -> [(String, Plan, Size, Repeat); 2] {
    let loc = info.m.op(d.op).loc;
    let points = shapes.host.product(&shape.points);
    let narrow = row_loops(info, shapes, d, shape, slice);
    let wide = row_loops(info, shapes, d, shape, wg);
    check_budget(shapes, d, loc, wide, budget, "the row share's passes");
    let long = exceeds(shapes, narrow, budget);
    let short = not(shapes, long);
    let per_wg = Size::Static(u64::from(wg / slice));
    let sliced = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
    let sliced = shapes.host.arith(SizeOp::Mul, sliced, short);
    let whole = shapes.host.arith(SizeOp::Mul, points, long);
    [
        (
            d.name.clone(),
            Plan::Rows {
                combine: Combine::OneSubgroup,
                slice,
            },
            sliced,
            Repeat::Once,
        ),
        (
            format!("{}_long_rows", d.name),
            Plan::Rows {
                combine: Combine::Subgroup,
                slice: wg,
            },
            whole,
            Repeat::Once,
        ),
    ]
}

/// The kernel for reductions of dynamic length past the loop budget: one
/// output per invocation (`points` of them on workgroups of `wg`), a
/// dispatch per `budget` iterations of the `total`, the accumulators kept
/// in `scratch` between dispatches; workgroups only where `long` (0 or
/// 1) is 1.
fn chunked_points(
    d: &DispatchRegion,
    shapes: &mut Shapes,
    (points, wg): (Size, u32),
    total: Size,
    budget: u64,
    long: Size,
    scratch: Vec<usize>,
) -> (String, Plan, Size, Repeat) {
    let per_wg = Size::Static(u64::from(wg));
    let outputs = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
    let outputs = shapes.host.arith(SizeOp::Mul, outputs, long);
    (
        format!("{}_long_reduction", d.name),
        Plan::Points {
            per: 1,
            range: Range::Chunk(scratch),
        },
        outputs,
        Repeat::Chunks {
            total,
            chunk: budget,
        },
    )
}

/// 1 where `a` exceeds `limit` at run time, else 0 (a host size of 0 or
/// 1 that gates a kernel's workgroups; sizes read below 0 as 0).
fn exceeds(shapes: &mut Shapes, a: Size, limit: u64) -> Size {
    let over = shapes.host.arith(SizeOp::Sub, a, Size::Static(limit));
    shapes.host.arith(SizeOp::Min, over, Size::Static(1))
}

/// 1 where `a` is not a multiple of `k` at run time, else 0.
fn not_multiple(shapes: &mut Shapes, a: Size, k: u64) -> Size {
    let up = shapes.host.arith(SizeOp::CeilDiv, a, Size::Static(k));
    let up = shapes.host.arith(SizeOp::Mul, up, Size::Static(k));
    let pad = shapes.host.arith(SizeOp::Sub, up, a);
    shapes.host.arith(SizeOp::Min, pad, Size::Static(1))
}

/// 1 - `flag` (a flag of 0 or 1).
fn not(shapes: &mut Shapes, flag: Size) -> Size {
    shapes.host.arith(SizeOp::Sub, Size::Static(1), flag)
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

fn check_budget(
    shapes: &mut Shapes,
    d: &DispatchRegion,
    loc: crate::ir::Location,
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

/// The linear index of this invocation's workgroup.
fn workgroup_index(e: &mut Emitter<'_, '_, '_>) -> KValue {
    let bx = e.b.block_id("x");
    let by = e.b.block_id("y");
    let gx = e.b.grid_dim("x");
    let row = e.mul(by, gx);
    e.add(row, bx)
}

fn emit_kernel(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    plan: &Plan,
) -> Result<(), CodegenError> {
    let shapes = e.c.shapes;
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
            let _ = shapes;
        }
        Plan::Coop {
            combine,
            split,
            per_invocation,
        } => {
            let root = d.root.expect("a root");
            let info = e.c.info;
            let s = info.structured[&root].clone();
            let cs = combiners(info.m, &s)
                .ok_or_else(|| e.unsupported(root, "internal: not combinable"))?;
            let tid = e.b.thread_id("x");
            let wgi = workgroup_index(e);
            let (pidx, g, gk) = match split {
                Some((gs, _)) => {
                    let gk = e.size(*gs);
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
            let x_at = |e: &mut Emitter<'_, '_, '_>, r| {
                e.combinable_xs_at(root, &s, &cs, &rp, (&loops, &red), r)
            };
            // One reduction loop of a static length that is a multiple of
            // 4: groups of 4 iterations, read as vec4 where the input is
            // indexed last by it.
            let groups = red.len() == 1 && e.const_of(total).is_some_and(|t| t > 0 && t % 4 == 0);
            let accs = if *per_invocation {
                // Each invocation folds its own contiguous span (the
                // invocation `base` of `stride`): sequential reads per
                // invocation, what a CPU-backed driver prefetches.
                e.span_loop(&cs, total, base, stride, groups, x_at)?
            } else {
                e.coop_loop(&cs, total, base, stride, groups, x_at)?
            };
            if let (true, Some((_, partials))) = (*per_invocation, split) {
                // Every invocation's partial at (point, workgroup, invocation).
                let at = e.mul(pidx, gk);
                let at = e.add(at, g);
                let at = e.mul(at, wgv);
                let at = e.add(at, tid);
                for (k, c) in cs.iter().enumerate() {
                    let t = e.narrow(accs[k], c);
                    e.store_at(partials[k], at, t, c.elem);
                }
                return Ok(());
            }
            let totals = e.workgroup_reduce(&cs, &accs, *combine, wg)?;
            let zero = e.index(0);
            let first = e.b.cmpi("eq", tid, zero);
            match split {
                Some((_, partials)) => {
                    let partials = partials.clone();
                    e.if_then(first, |e| {
                        let at = e.mul(pidx, gk);
                        let at = e.add(at, g);
                        for (k, c) in cs.iter().enumerate() {
                            let t = e.narrow(totals[k], c);
                            e.store_at(partials[k], at, t, c.elem);
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
        }
        Plan::CombinePartials {
            combine,
            split,
            partials,
        } => {
            let root = d.root.expect("a root");
            let info = e.c.info;
            let s = info.structured[&root].clone();
            let cs = combiners(info.m, &s)
                .ok_or_else(|| e.unsupported(root, "internal: not combinable"))?;
            let tid = e.b.thread_id("x");
            let pidx = workgroup_index(e);
            let domain = e.sizes(&shape.points);
            let coords = e.delinearize(pidx, &domain);
            let rp = root_point(e, d, &coords, root)?;
            let gk = e.size(*split);
            let wgv = e.index(i64::from(wg));
            let accs = e.coop_loop(&cs, gk, tid, wgv, false, |e, r| {
                let at = e.mul(pidx, gk);
                let at = e.add(at, r);
                Ok(cs
                    .iter()
                    .enumerate()
                    .map(|(k, c)| e.load_at(partials[k], at, c.elem))
                    .collect())
            })?;
            let totals = e.workgroup_reduce(&cs, &accs, *combine, wg)?;
            let zero = e.index(0);
            let first = e.b.cmpi("eq", tid, zero);
            e.if_then(first, |e| {
                let inits = e.inits(root, &s, &rp)?;
                let finals = e.finish_combine(&cs, &inits, &totals);
                e.prepared_roots.insert(root, finals);
                stores(e, d, &coords)
            })?;
        }
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
        Plan::RowSlices { slice, combine } => {
            let wgi = workgroup_index(e);
            super::matvec::emit_row_slices(e, d, shape, wgi, *slice, *combine)?;
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
        Plan::Rows { combine, slice } if *slice == wg => {
            let wgi = workgroup_index(e);
            let domain = e.sizes(&shape.points);
            let coords = e.delinearize(wgi, &domain);
            let tid = e.b.thread_id("x");
            rows(e, d, &coords, (wg, tid), *combine)?;
        }
        Plan::Rows { combine, slice } => {
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
        return Err(e.unsupported(op, "internal: not softmax"));
    };
    let LinalgKind::Softmax { dimension } = l.kind else {
        return Err(e.unsupported(op, "internal: not softmax"));
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
            e.if_else(
                last,
                &[],
                |e| {
                    e.prepared_roots.insert(root, accs);
                    stores(e, d, &coords)?;
                    Ok(Vec::new())
                },
                |e| {
                    for (j, &a) in accs2.iter().enumerate() {
                        let idx = e.output_index(root, &s, j, &rp)?;
                        let elem = e.c.info.m.value_kind(s.outputs[j]).elem();
                        e.store_at(scratch[j], idx, a, elem);
                    }
                    Ok(Vec::new())
                },
            )?;
            Ok(())
        }
    }
}

/// The full loop point of structured op `op` from its parallel
/// coordinates (reduction loops at 0).
fn full_point(e: &mut Emitter<'_, '_, '_>, op: TOp, coords: &[KValue]) -> Vec<KValue> {
    let s = &e.c.info.structured[&op];
    let types = s.iterator_types.clone();
    let zero = e.index(0);
    let mut it = coords.iter();
    types
        .iter()
        .map(|t| match t {
            IteratorType::Parallel => *it.next().unwrap_or(&zero),
            IteratorType::Reduction => zero,
        })
        .collect()
}

/// The value an inlined input `v` is a reshaped view of: through
/// `tensor.cast`, `collapse_shape` and `expand_shape` ops whose results are
/// computed in the kernel (torch-mlir puts them between the matmuls and
/// the elementwise ops of attention), down to the first other value.
fn through_reshapes(info: &FuncInfo<'_>, regions: &FuncRegions, mut v: TValue) -> TValue {
    while let Some(p) = info.def_op(v) {
        let reshape = matches!(
            info.m.op(p).kind,
            OpKind::Tensor(
                TensorOp::Cast | TensorOp::CollapseShape { .. } | TensorOp::ExpandShape { .. }
            )
        );
        if !reshape || regions.fate(v) != ValueFate::Inlined {
            break;
        }
        v = info.m.op(p).operands[0];
    }
    v
}

/// The coordinates in `src` (what [`through_reshapes`] returns for `v`)
/// of the element of `v` at `coords`.
fn reshaped_coords(
    e: &mut Emitter<'_, '_, '_>,
    mut v: TValue,
    src: TValue,
    mut coords: Vec<KValue>,
) -> Vec<KValue> {
    let info = e.c.info;
    while v != src {
        let Some(p) = info.def_op(v) else { break };
        let u = info.m.op(p).operands[0];
        coords = match &info.m.op(p).kind {
            OpKind::Tensor(TensorOp::Cast) => coords,
            OpKind::Tensor(TensorOp::CollapseShape { reassociation }) => {
                regroup(e, &coords, u, reassociation, false)
            }
            OpKind::Tensor(TensorOp::ExpandShape { reassociation, .. }) => {
                regroup(e, &coords, v, reassociation, true)
            }
            _ => {
                let vs = e.sizes(e.c.shapes.of(v));
                let us = e.sizes(e.c.shapes.of(u));
                let lin = e.linearize(&coords, &vs);
                e.delinearize(lin, &us)
            }
        };
        v = u;
    }
    coords
}

/// Coordinates through a reshape's reassociation, group by group, so that
/// a dim in a group of its own keeps its coordinate (the same value: a
/// workgroup-memory tile recognizes its rows and columns in the root's
/// point by it). `expanded` is the expanded tensor; with `expand`,
/// `coords` are in it and each source dim linearizes its group's
/// coordinates, else `coords` are in the collapsed tensor and each group
/// delinearizes its coordinate over the expanded dims (dims of no group,
/// unit dims, at 0).
fn regroup(
    e: &mut Emitter<'_, '_, '_>,
    coords: &[KValue],
    expanded: TValue,
    reassociation: &[Vec<u64>],
    expand: bool,
) -> Vec<KValue> {
    let sizes = e.sizes(e.c.shapes.of(expanded));
    if expand {
        return reassociation
            .iter()
            .map(|g| match g[..] {
                [one] => coords[one as usize],
                _ => {
                    let cs: Vec<KValue> = g.iter().map(|&d| coords[d as usize]).collect();
                    let ss: Vec<KValue> = g.iter().map(|&d| sizes[d as usize]).collect();
                    e.linearize(&cs, &ss)
                }
            })
            .collect();
    }
    let zero = e.index(0);
    let mut out = vec![zero; sizes.len()];
    for (i, g) in reassociation.iter().enumerate() {
        match g[..] {
            [one] => out[one as usize] = coords[i],
            _ => {
                let ss: Vec<KValue> = g.iter().map(|&d| sizes[d as usize]).collect();
                for (&d, c) in g.iter().zip(e.delinearize(coords[i], &ss)) {
                    out[d as usize] = c;
                }
            }
        }
    }
    out
}

/// The inlined structured ops from `from` down to `to`: `(consumer,
/// input index)` pairs (an input may be a reshaped view of the next op's
/// result).
fn path_to(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    from: TOp,
    to: TOp,
) -> Option<Vec<(TOp, usize)>> {
    let s = info.structured.get(&from)?;
    for (k, &v) in s.inputs.iter().enumerate() {
        let v = through_reshapes(info, regions, v);
        let Some(p) = info.def_op(v) else { continue };
        if regions.fate(v) != ValueFate::Inlined || !info.structured.contains_key(&p) {
            continue;
        }
        if p == to {
            return Some(vec![(from, k)]);
        }
        if info.class.get(&p) == Some(&OpClass::Root) {
            continue;
        }
        if let Some(mut rest) = path_to(info, regions, p, to) {
            rest.insert(0, (from, k));
            return Some(rest);
        }
    }
    None
}

/// The loop point of root `root` that the dispatch's point `coords`
/// reads.
pub(super) fn root_point(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    coords: &[KValue],
    root: TOp,
) -> Result<Vec<KValue>, CodegenError> {
    let mut point = full_point(e, d.op, coords);
    if root == d.op {
        return Ok(point);
    }
    let info = e.c.info;
    let path = path_to(info, e.c.regions, d.op, root).ok_or_else(|| {
        e.unsupported(
            root,
            "internal: the root is not reachable from its dispatch",
        )
    })?;
    for (c, k) in path {
        let s = info.structured[&c].clone();
        let map = s.indexing_maps[k].clone();
        let oc = map
            .results
            .iter()
            .map(|x| e.affine(c, x, &point))
            .collect::<Result<Vec<_>, _>>()?;
        let v = through_reshapes(info, e.c.regions, s.inputs[k]);
        let oc = reshaped_coords(e, s.inputs[k], v, oc);
        let p = info.def_op(v).expect("an op result");
        let sp = info.structured[&p].clone();
        point = e.point_from_output(p, &sp, info.result_index(v), &oc)?;
    }
    Ok(point)
}

/// Stores the dispatch's values at its point `coords` (roots already
/// prepared).
pub(super) fn stores(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    coords: &[KValue],
) -> Result<(), CodegenError> {
    let info = e.c.info;
    let m = info.m;
    let op = d.op;
    if let Some(s) = info.structured.get(&op).cloned() {
        let point = full_point(e, op, coords);
        let yields = if info.class[&op] == OpClass::Root {
            e.prepared_roots
                .get(&op)
                .cloned()
                .ok_or_else(|| e.unsupported(op, "internal: root not prepared"))?
        } else {
            e.body(op, &s, &point, None)?
        };
        for &r in &d.stored {
            let j = info.result_index(r);
            let map = s.indexing_maps[s.inputs.len() + j].clone();
            let oc = map
                .results
                .iter()
                .map(|x| e.affine(op, x, &point))
                .collect::<Result<Vec<_>, _>>()?;
            e.store(r, &oc, yields[j])?;
        }
        return Ok(());
    }
    for &r in &d.stored {
        if m.value_kind(r).is_tensor() {
            let v = e.compute_elem(r, coords)?;
            e.store(r, coords, v)?;
        } else {
            let v = e.compute_scalar(r)?;
            let buf =
                e.c.buffers
                    .buffer(r)
                    .ok_or_else(|| e.unsupported(op, "internal: no buffer"))?;
            let zero = e.index(0);
            e.store_at(buf, zero, v, m.value_kind(r).elem());
        }
    }
    Ok(())
}
