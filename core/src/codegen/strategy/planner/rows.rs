//! Plans of row dispatches: softmax and row-group rows (a row per
//! workgroup or per subgroup-sized slice of one, with a workgroup-wide
//! alternative for rows of dynamic length too long for a slice), softmax
//! rows split over several workgroups, and row slices (a matvec's point
//! per slice of invocations, with the chunked fallback past the loop
//! budget).

use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;

use super::super::super::analysis::FuncInfo;
use super::super::super::bufferize::{BufferInfo, BufferOrigin, BufferPlan};
use super::super::super::combine::combiners;
use super::super::super::dequant::decodes;
use super::super::super::guard::Guard;
use super::super::super::host::{Size, SizeOp};
use super::super::super::shapes::Shapes;
use super::super::{reduction_total, Combine, Distribution};
use super::budget::{check_budget, over_budget};
use super::plan::{KernelPlan, Plan, RowShare};
use super::points::chunked_points;
use super::Facts;

/// The iterations a row-slice matvec over a fused decoding of quantized
/// weights takes per step (where its row is a multiple of it): GGUF's
/// block of 32 weights (16 bytes of 4-bit codes or 32 of 8-bit codes,
/// one scale).
pub(crate) const DECODE_BLOCK: i64 = 32;

/// The most quantized blocks ([`DECODE_BLOCK`] weights each) a step of a
/// row-slice matvec's row loop takes ([`blocks_per_step`]): 4 blocks of
/// 4-bit codes are one 16-byte group of their 4 f16 scales, read once
/// at a constant lane (a step of one block picked its scale out of the
/// group by a select over the 4 lanes, and fetched the group 4 times).
/// On lavapipe (callgrind, the JIT code's instructions per call of a
/// 4096 x 4096 Q4_0 matvec, `bench/quant/README.md`): 76.1 M with one
/// block per step, 67.5 M with 4, 58.0 M with 4 and the step's loads
/// issued first (`kernels/schedule.rs`).
const DECODE_STEP_BLOCKS: u32 = 4;

/// How many quantized blocks of [`DECODE_BLOCK`] weights each step of a
/// row-slice matvec's row loop folds: [`DECODE_STEP_BLOCKS`] where the
/// slice is one invocation (a row per invocation: lavapipe's plan) and
/// the static row is a multiple of that many blocks, 1 where the row is
/// a multiple of a block, 0 where the matrix is no fused decoding of 8-
/// or 32-bit codes (`dequant::decodes`) or the row is dynamic or no
/// multiple of a block.
pub(super) fn blocks_per_step(
    info: &FuncInfo<'_>,
    s: &Structured,
    slice: u32,
    row_length: Option<u64>,
) -> u32 {
    let block = DECODE_BLOCK as u64;
    let Some(k) = row_length.filter(|&k| k > 0 && k % block == 0) else {
        return 0;
    };
    if !s.inputs.iter().any(|&v| decodes(info, v, 32)) {
        return 0;
    }
    if slice == 1 && k % (block * u64::from(DECODE_STEP_BLOCKS)) == 0 {
        DECODE_STEP_BLOCKS
    } else {
        1
    }
}

/// The most rows per invocation of a row-slice matvec over quantized
/// weights ([`rows_per_invocation`]): 8 accumulators, and the 8 rows'
/// code groups and scales beside the vector's 8 vec4 per block. On
/// lavapipe (callgrind, the JIT code's instructions per call of a
/// 512 x 4096 Q4_0 matvec) 1 row took 15.6 M, 2 took 11.9 M, 4 took
/// 10.3 M, 8 took 9.5 M and 16 took 18 M (half its rows computed twice).
const DECODE_ROWS: u32 = 8;

/// The fewest workgroups [`rows_per_invocation`] leaves a matvec over
/// quantized weights.
const DECODE_MIN_GROUPS: u64 = 4;

/// The share of a workgroup of `wg` invocations that takes a row of
/// `slice` invocations.
fn share(slice: u32, wg: u32) -> RowShare {
    if slice == wg {
        RowShare::Workgroup { invocations: wg }
    } else {
        RowShare::Subgroup { slice }
    }
}

/// Softmax or row-group rows, a row per `slice` invocations (the
/// workgroup or one subgroup of it) combined by `combine`; rows of
/// dynamic length on subgroup slices get the workgroup-wide alternative
/// ([`row_slice_kernels`]).
pub(super) fn rows_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    slice: u32,
    combine: Combine,
) -> Vec<KernelPlan> {
    let wg = f.wg;
    let dynamic = f.shape.reduction.is_some_and(|r| r.fixed().is_none());
    if slice < wg && dynamic {
        return row_slice_kernels(f, shapes, slice).into();
    }
    let loops = row_loops(f, shapes, slice);
    check_budget(f, shapes, loops, "the row share's passes");
    let rows = Size::Static(u64::from(wg / slice));
    let groups = shapes.host.arith(SizeOp::CeilDiv, f.points, rows);
    let plan = Plan::Rows {
        combine,
        share: share(slice, wg),
    };
    vec![KernelPlan::once(f.d.name.clone(), plan, groups)]
}

/// How many points (rows) each invocation of a row-slice matvec takes,
/// in workgroups of `wg` invocations over `points` rows (`None`:
/// dynamic): more than 1 where the slice is one invocation and the
/// matrix is a fused decoding of quantized codes (`dequant::decodes`)
/// read a block at a time (a static row, a multiple of
/// [`DECODE_BLOCK`]), folded by combiners without an index (a sum). The
/// rows' blocks are then folded beside one read of the vector's 32
/// elements, which all of them share: on lavapipe a texel fetch is a
/// call that costs as much whether its lanes read one address or eight,
/// so a row per invocation fetched the vector 8 times per block beside
/// one fetch of codes and one of the scale. The most rows (up to
/// [`DECODE_ROWS`], a power of two) that leave at least
/// [`DECODE_MIN_GROUPS`] workgroups (lavapipe runs one per worker
/// thread), [`DECODE_ROWS`] where the row count is dynamic; 1 otherwise.
pub(super) fn rows_per_invocation(
    info: &FuncInfo<'_>,
    s: &Structured,
    (slice, wg): (u32, u32),
    points: Option<u64>,
    row_length: Option<u64>,
) -> u32 {
    let blocks = row_length.is_some_and(|k| k > 0 && k % DECODE_BLOCK as u64 == 0);
    let plain = combiners(info.m, s).is_some_and(|cs| cs.iter().all(|c| c.arg.is_none()));
    if slice != 1 || !blocks || !plain || !s.inputs.iter().any(|&v| decodes(info, v, 32)) {
        return 1;
    }
    let Some(points) = points else {
        return DECODE_ROWS;
    };
    let mut rows = DECODE_ROWS;
    while rows > 1 && points < DECODE_MIN_GROUPS * u64::from(wg) * u64::from(rows) {
        rows /= 2;
    }
    rows
}

/// A point per slice of `slice` invocations; rows of dynamic length past
/// the loop budget take a dispatch per chunk instead.
pub(super) fn row_slices_plans(
    f: &Facts<'_, '_>,
    shapes: &mut Shapes,
    buffers: &mut BufferPlan,
    slice: u32,
    combine: Combine,
) -> Vec<KernelPlan> {
    let (per, blocks) = match f.root {
        Some(s) => (
            rows_per_invocation(
                f.info,
                s,
                (slice, f.wg),
                f.points.fixed(),
                f.red_total.fixed(),
            ),
            blocks_per_step(f.info, s, slice, f.red_total.fixed()),
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
pub(super) fn split_rows_plans(
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
            elem: ElemType::F32,
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
    check_budget(f, shapes, loops, "a split row's passes");
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
    let narrow = row_loops(f, shapes, slice);
    let wide = row_loops(f, shapes, wg);
    check_budget(f, shapes, wide, "the row share's passes");
    let long = over_budget(f, narrow);
    let per_wg = Size::Static(u64::from(wg / slice));
    let sliced = shapes.host.arith(SizeOp::CeilDiv, points, per_wg);
    [
        KernelPlan::once(
            d.name.clone(),
            Plan::Rows {
                combine: Combine::OneSubgroup,
                share: RowShare::Subgroup { slice },
            },
            sliced,
        )
        .when(Guard(vec![!long])),
        KernelPlan::once(
            format!("{}_long_rows", d.name),
            Plan::Rows {
                combine: Combine::Subgroup,
                share: RowShare::Workgroup { invocations: wg },
            },
            points,
        )
        .when(Guard(vec![long])),
    ]
}

/// The loop iterations of one of a row's `slice` invocations: a
/// softmax's three passes over its row; a row group's pass over each row
/// root's reduction (which need not be the row's length) and over the
/// row.
pub(super) fn row_loops(f: &Facts<'_, '_>, shapes: &mut Shapes, slice: u32) -> Size {
    let (d, shape) = (f.d, f.shape);
    let slice = Size::Static(u64::from(slice));
    let n = shape.reduction.unwrap_or(Size::Static(0));
    let per = shapes.host.arith(SizeOp::CeilDiv, n, slice);
    if d.row_roots.is_empty() {
        let passes = Size::Static(shape.row_passes);
        return shapes.host.arith(SizeOp::Mul, per, passes);
    }
    let mut loops = per;
    for rr in &d.row_roots {
        let total = reduction_total(f.info, shapes, rr.op);
        let share = shapes.host.arith(SizeOp::CeilDiv, total, slice);
        loops = shapes.host.arith(SizeOp::Add, loops, share);
    }
    loops
}

/// The invocations per softmax row of distribution `dist` on workgroups
/// of `wg`: the workgroup, or a slice of it that is one subgroup
/// (combined by [`Combine::OneSubgroup`]); `None` for anything else.
pub(super) fn softmax_slice(dist: Distribution, combine: Combine, wg: u32) -> Option<u32> {
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
