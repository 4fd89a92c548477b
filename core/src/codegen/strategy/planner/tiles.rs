//! Plans of tiled dispatches: register tiles (with the run-time
//! alternatives for a run of one row and for ragged columns, and the
//! chunked fallback of a reduction of dynamic length), workgroup-memory
//! tiles, cooperative matrices, and split-K over either tile with its
//! second kernel summing the slices.

use super::super::super::bufferize::BufferPlan;
use super::super::super::error::{CodegenError, Invariant};
use super::super::super::guard::{Cond, Guard};
use super::super::super::host::{Size, SizeOp};
use super::super::super::shapes::Shapes;
use super::super::{coop_sizes, coop_staging, Distribution};
use super::budget::over_budget;
use super::dims::{CoopDims, SharedDims, Slices, TileDims};
use super::plan::{KernelPlan, Plan};
use super::points::{chunked_points, scratch_for};
use super::Facts;

/// Register tiles: the tiles the host chooses between at run time (a
/// tile of one row for a run of one row, one column at a time for ragged
/// columns), and past the loop budget a dispatch per chunk.
pub(super) fn tile_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    dims: TileDims,
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
        let row = TileDims {
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

/// The sizes of workgroup-memory tile `dist` (an internal error where
/// they are inconsistent with the workgroup).
fn shared_dims(f: &Facts<'_, '_>, dist: Distribution) -> Result<SharedDims, CodegenError> {
    let wg = f.wg;
    SharedDims::of(dist, wg).ok_or_else(|| {
        f.internal(Invariant::PlanSizes(format!(
            "workgroup-memory tile {dist:?} with {wg} invocations"
        )))
    })
}

/// Workgroup-memory tiles, a block per workgroup.
pub(super) fn shared_tile_plan(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    dist: Distribution,
) -> Result<KernelPlan, CodegenError> {
    let dims = shared_dims(f, dist)?;
    let groups = block_grid(
        shapes,
        &f.shape.points,
        u64::from(dims.bm),
        u64::from(dims.bn),
    );
    let plan = Plan::SharedTile(dims, None);
    Ok(KernelPlan::once(f.d.name.clone(), plan, groups))
}

/// Cooperative matrices, a block of subgroups' tiles per workgroup, with
/// what goes through workgroup memory for the dispatch's sizes.
pub(super) fn coop_matrix_plan(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    dist: Distribution,
) -> Result<KernelPlan, CodegenError> {
    let Distribution::CoopMatrix {
        m,
        n,
        k,
        tiles,
        subgroups,
        stage,
    } = dist
    else {
        return Err(f.internal(Invariant::PlanSizes(format!(
            "cooperative matrices of {dist:?}"
        ))));
    };
    let shape = f.shape;
    let [block_rows, block_cols] = [
        u64::from(m * tiles[0] * subgroups[0]),
        u64::from(n * tiles[1] * subgroups[1]),
    ];
    let sizes = coop_sizes(shape);
    let staging = shape
        .coop_matmul
        .zip(sizes)
        .map(|(types, sizes)| coop_staging(&types, sizes, [block_rows, block_cols], k, stage))
        .ok_or_else(|| {
            f.internal(Invariant::PlanMismatch {
                kernel: "a cooperative-matrix matmul",
                what: "not a static cooperative-matrix matmul",
            })
        })?;
    let dims = CoopDims {
        m,
        n,
        k,
        tiles,
        subgroups,
        staging,
    };
    let [block_rows, block_cols] = dims.block();
    // The blocks of every batch's rows x columns (an implicit GEMM's rows
    // are several of its points).
    let groups = match sizes {
        Some([batch, rows, cols, _]) => {
            Size::Static(batch * rows.div_ceil(block_rows) * cols.div_ceil(block_cols))
        }
        None => block_grid(shapes, &shape.points, block_rows, block_cols),
    };
    Ok(KernelPlan::once(
        f.d.name.clone(),
        Plan::CoopMatrix(dims),
        groups,
    ))
}

/// Split-K over register or workgroup-memory tiles: `slices` slices of
/// `slice` iterations each into scratch, then a kernel summing them.
pub(super) fn split_k_plans(
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
                dims: TileDims { rows, cols, depth },
                split: Some(sl.clone()),
                fours: None,
            },
            u64::from(rows),
            u64::from(wg) * u64::from(cols),
        ),
        Distribution::SharedTile { .. } => {
            let dims = shared_dims(f, dist)?;
            (
                Plan::SharedTile(dims, Some(sl.clone())),
                u64::from(dims.bm),
                u64::from(dims.bn),
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

/// The workgroups of a tiled dispatch over `points` (at least two): one
/// per block of `rows` x `cols` over the last two dimensions, for every
/// batch point (the host side of the kernels' `tile::workgroup_block`).
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
