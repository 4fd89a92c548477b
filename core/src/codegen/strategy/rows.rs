//! The strategy of row-wise dispatches (softmax, row groups such as a
//! layer norm): a row per invocation, per subgroup, per workgroup, or
//! split over several workgroups.

use crate::grammar::Capability;
use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::target::CodegenTarget;
use super::choose::{combine_for, coop_workgroup};
use super::{row_split, Combine, DispatchShape, Distribution, ReductionStrategy, Strategy};

/// Softmax rows on `wg` invocations per workgroup, distributed by
/// `dist`: a row per invocation (`Points`), a workgroup per row (its
/// invocations' folds combined through subgroup operations and workgroup
/// memory, or one subgroup's operations alone when the workgroup is one
/// subgroup), or a row per subgroup (`RowSlices` of the subgroup size:
/// several rows per workgroup, each combined by subgroup operations with
/// no workgroup memory or barrier; a workgroup per row where the env
/// cannot guarantee that a slice is one subgroup).
pub(super) fn softmax_rows(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
    wg: u32,
    dist: Distribution,
) {
    s.workgroup_size = [wg, 1, 1];
    s.workgroup_memory = 0;
    let combine = combine_for(target, shape);
    match dist {
        Distribution::Points { .. } => {
            s.distribution = Distribution::Points { per_invocation: 1 };
            s.reduction = Some(ReductionStrategy::Rows { combine: None });
            return;
        }
        Distribution::RowSlices { slice }
            if combine == Combine::Subgroup
                && slice == target.subgroup_size()
                && target.is_one_subgroup(slice)
                && wg % slice == 0 =>
        {
            s.distribution = dist;
            s.reduction = Some(ReductionStrategy::Rows {
                combine: Some(Combine::OneSubgroup),
            });
            // Rows of dynamic length too long for a subgroup's loops take
            // a workgroup each (`dispatch::row_slice_kernels`), combined
            // through workgroup memory.
            if shape.reduction.is_some_and(|r| r.fixed().is_none()) {
                s.workgroup_memory = wg * 4 * row_combines(shape);
            }
            return;
        }
        _ => {}
    }
    let combine = match combine {
        Combine::Subgroup if target.is_one_subgroup(wg) => Combine::OneSubgroup,
        c => c,
    };
    s.distribution = Distribution::WorkgroupPerPoint;
    s.reduction = Some(ReductionStrategy::Rows {
        combine: Some(combine),
    });
    s.workgroup_memory = match combine {
        Combine::Subgroup | Combine::WorkgroupTree => wg * 4 * row_combines(shape),
        Combine::OneSubgroup => 0,
    };
}

/// The combines of a row-wise dispatch's row (a softmax's maximum and
/// sum, a row group's roots), each taking an entry of workgroup memory
/// per invocation (`workgroup_reduce`).
fn row_combines(shape: &DispatchShape) -> u32 {
    shape.row_passes.saturating_sub(1).max(1) as u32
}

/// The softmax distributions `kiln tune` may time besides the
/// heuristic's: a row per invocation where the row's loops fit the
/// budget, and a workgroup per row of one subgroup up to 256 invocations.
pub(super) fn softmax_candidates(
    target: &CodegenTarget,
    shape: &DispatchShape,
    budget: u64,
) -> Vec<(u32, Distribution)> {
    let mut out = Vec::new();
    if shape
        .reduction
        .and_then(|r| r.fixed())
        .is_some_and(|r| r * shape.row_passes <= budget)
    {
        out.push((64, Distribution::Points { per_invocation: 1 }));
    }
    let sg = target.subgroup_size().max(1);
    for wg in [sg, 64, 256] {
        out.push((wg, Distribution::WorkgroupPerPoint));
    }
    if target.has(Capability::GroupNonUniformArithmetic) && target.is_one_subgroup(sg) {
        for wg in [64, 256] {
            if wg > sg && wg <= target.max_invocations() {
                out.push((wg, Distribution::RowSlices { slice: sg }));
            }
        }
    }
    out
}

/// The heuristic strategy of a row-wise dispatch (softmax, row groups)
/// into `s`.
pub(super) fn choose_softmax(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
    budget: u64,
    max_inv: u32,
) {
    let row = shape.reduction.unwrap_or(Size::Static(0));
    let rows = shape.static_points();
    // Few long rows on a GPU: each split over several workgroups.
    let coop_wg = coop_workgroup(target, row, max_inv);
    if let Some(slices) = row_split::pick(target, shape, coop_wg) {
        softmax_rows(target, shape, s, coop_wg, Distribution::WorkgroupPerPoint);
        row_split::apply(s, slices);
        s.reason = format!(
            "few rows ({}) of {}: each split over {slices} workgroups, a second dispatch combining their partials",
            rows.unwrap_or(0),
            row.fixed().unwrap_or(0)
        );
        return;
    }
    let passes = shape.row_passes.max(1);
    let short_row = row
        .fixed()
        .is_some_and(|r| r * passes <= budget && r <= 256);
    // Where barriers serialize a workgroup (lavapipe), any row whose three
    // loops fit the budget goes to one invocation, if there are rows
    // enough to keep the device busy: each invocation then reads its row
    // sequentially, without the workgroup's barriers.
    let lone_row = target.facts.barriers_serialize
        && row.fixed().is_some_and(|r| r * passes <= budget)
        && rows.is_some_and(|r| r >= 64);
    // On a GPU, a row per invocation only where the rows fill the device
    // (an attention's 512 rows of 128 are 512 invocations).
    let rows_fill = target.fill_invocations().is_none_or(|fill| {
        rows.is_none_or(|r| r.saturating_mul(u64::from(target.subgroup_size())) > fill)
    });
    // There, rather a row per subgroup where subgroup arithmetic is
    // available and the row is long and f32 (or f16 stored natively),
    // read as vec4 with no tail (f16 1024x4096: 13-15 ms against 16-24
    // for a row per invocation):
    // the subgroup's neighbouring lanes read neighbouring vectors, its
    // share of the row stays in registers, and the subgroup's operations
    // combine it without a barrier (lavapipe, 1024 rows of 4096: 3.4 ms
    // against 4.9 for a row per invocation). Workgroups of 256 (32 rows)
    // where that leaves 8 of them or more, else 64: 256 measured a few
    // percent faster than 64 and 1024 there.
    let sg = target.subgroup_size();
    let wg = if rows.is_some_and(|r| r >= 256) {
        256
    } else {
        64
    }
    .min(max_inv);
    let subgroup_rows = lone_row
        && !short_row
        && (shape.elems == [ElemType::F32]
            || shape.elems == [ElemType::F16] && super::type_repr::f16_stored_natively(target))
        && row.fixed().is_some_and(|r| r % (4 * u64::from(sg)) == 0)
        && combine_for(target, shape) == Combine::Subgroup
        && target.is_one_subgroup(sg)
        && wg % sg == 0;
    if subgroup_rows {
        softmax_rows(target, shape, s, wg, Distribution::RowSlices { slice: sg });
        s.reason = format!(
            "long {} rows, barriers serialize workgroups here and subgroup arithmetic is available: a row per subgroup",
            shape.elems[0]
        );
        return;
    }
    // Rows of dynamic length there: a row per subgroup too, where the
    // subgroup's loops over the row fit the budget at run time; longer
    // rows take a workgroup of 256 each, combined through workgroup
    // memory (a second kernel: the host launches the one the row length
    // calls for). Workgroups of 256 either way, so that rows up to the
    // workgroup's budget still run (lavapipe, 1024 dynamic rows of 4096:
    // 3.7 ms against 15.0 for a workgroup per row).
    let full = 256.min(max_inv);
    let dynamic_rows = target.facts.barriers_serialize
        && row.fixed().is_none()
        && combine_for(target, shape) == Combine::Subgroup
        && target.is_one_subgroup(sg)
        && full > sg
        && full % sg == 0;
    if dynamic_rows {
        softmax_rows(
            target,
            shape,
            s,
            full,
            Distribution::RowSlices { slice: sg },
        );
        s.reason = format!(
            "rows of dynamic length, barriers serialize workgroups here and subgroup arithmetic is available: a row per subgroup where its {passes} passes fit {budget} iterations, else a workgroup per row"
        );
        return;
    }
    if lone_row || (short_row && rows.is_none_or(|r| r >= 64) && rows_fill) {
        softmax_rows(
            target,
            shape,
            s,
            64.min(max_inv),
            Distribution::Points { per_invocation: 1 },
        );
        s.reason = if short_row {
            "short rows: one row per invocation".into()
        } else {
            "rows within the loop budget and barriers serialize workgroups here: one row per invocation".into()
        };
        return;
    }
    // Where barriers serialize a workgroup (lavapipe), few rows take
    // workgroups of one subgroup, combined by subgroup operations alone
    // with no barrier (one row of 128,256: 0.24 ms against 0.29-0.65 in
    // workgroups of 256; 4 rows of 32,000: 0.23-0.24 against 0.34-0.64).
    let one_subgroup = target.facts.barriers_serialize
        && combine_for(target, shape) == Combine::Subgroup
        && target.is_one_subgroup(sg)
        && row
            .fixed()
            .is_some_and(|r| r.div_ceil(u64::from(sg)) * passes <= budget);
    let wg = if one_subgroup { sg } else { coop_wg };
    softmax_rows(target, shape, s, wg, Distribution::WorkgroupPerPoint);
    s.reason = format!(
        "rows of {}: a workgroup per row ({} iterations per invocation at most)",
        match row {
            Size::Static(r) => r.to_string(),
            Size::Slot(_) => "dynamic length".into(),
        },
        budget
    );
}
