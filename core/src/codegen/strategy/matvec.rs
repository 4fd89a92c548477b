//! Matrix x vector: [`Distribution::RowSlices`], one output row per slice
//! of a workgroup, for contractions that stream rows
//! ([`RowStream::WithVector`](super::RowStream): `[M,K] x [K]`, `[M,K] x [K,1]`, batch
//! matvecs, a matmul with one output dimension of extent 1 whose reduced
//! operand is contiguous along the reduction).
//!
//! Nothing of the matrix is shared between outputs, so register tiles
//! save no load; what matters is that neighbouring invocations read
//! neighbouring elements of a row (vec4 where the row allows). The
//! slice's partial results combine by subgroup arithmetic where the env
//! has `GroupNonUniformArithmetic` and a fixed subgroup size (the slice is
//! then one subgroup), else by a workgroup-memory tree within the slice.
//!
//! Row reductions with no vector (a row sum or maximum,
//! [`RowStream::Alone`](super::RowStream)) take a row per invocation read as vec4
//! where the device is a CPU (lavapipe: the first stage of the two-stage
//! 16M sum, 4096 rows of 4096, went from 9.9-11.8 to 7.5-9.8 ms of GPU
//! time, near the read-sum limit); on GPUs they keep a workgroup per row.
//!
//! A vector x matrix (`[1,K] x [K,N]`, the matrix's rows along `N`) does
//! not stream rows: the register tile with vec4 columns
//! ([`Distribution::Tile`]) already reads `B` a vec4 per invocation along
//! `N`, the right layout for it.

use crate::grammar::Capability;
use crate::tensor::attr::IteratorType;
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;

use super::super::host::Size;
use super::super::regions::OpFamily;
use super::super::target::CodegenTarget;
use super::{
    Choice, Combine, DispatchShape, Distribution, Fold, ReductionStrategy, RowStream, Strategy,
};

/// Whether structured op `s` (loop extents `sizes`) streams rows: it has
/// one reduction loop, a tensor input (the matrix; `tensor_input(k)` says
/// which inputs are tensors) indexed by plain loop dimensions, by every
/// parallel loop whose extent is not 1, and by the reduction loop last
/// once trailing dimensions of extent 1 are left out (its rows are
/// contiguous along the reduction). `Some(true)` where another tensor
/// input is read along the reduction (the vector of a matrix x vector),
/// `Some(false)` where none is (a row sum or row maximum), `None` where
/// no input streams rows.
pub(super) fn row_stream(
    s: &Structured,
    tensor_input: impl Fn(usize) -> bool,
    sizes: &[Size],
) -> Option<bool> {
    let loops = s.num_loops() as u32;
    let reductions: Vec<u32> = (0..loops)
        .filter(|&l| s.iterator_types[l as usize] == IteratorType::Reduction)
        .collect();
    let [r] = reductions[..] else {
        return None;
    };
    let unit = |l: u32| sizes.get(l as usize) == Some(&Size::Static(1));
    let parallel: Vec<u32> = (0..loops).filter(|&l| l != r && !unit(l)).collect();
    let reads =
        |k: usize| tensor_input(k) && s.indexing_maps[k].results.iter().any(|e| e.uses_dim(r));
    let matrix = |k: usize| {
        let Some(dims) = s.indexing_maps[k]
            .results
            .iter()
            .map(|e| e.as_dim())
            .collect::<Option<Vec<u32>>>()
        else {
            return false;
        };
        let innermost = dims.iter().rev().find(|&&d| d == r || !unit(d)) == Some(&r);
        innermost && parallel.iter().all(|p| dims.contains(p))
    };
    let n = s.inputs.len();
    let k = (0..n).find(|&k| reads(k) && matrix(k))?;
    Some((0..n).any(|j| j != k && reads(j)))
}

/// A power of two no larger than `n` (at least 1).
fn pow2_floor(n: u32) -> u32 {
    if n == 0 {
        1
    } else {
        1 << (31 - n.leading_zeros())
    }
}

/// Whether slices of `slice` invocations combine by subgroup arithmetic on
/// `target`: the env has `GroupNonUniformArithmetic`, its subgroup size is
/// fixed (`min_subgroup_size == max_subgroup_size == subgroup_size`) and
/// is `slice`, and no operand is an emulated i64 pair.
fn combine_of(target: &CodegenTarget, shape: &DispatchShape, slice: u32) -> Combine {
    let limits = &target.env.limits;
    let fixed = limits.min_subgroup_size == Some(limits.subgroup_size)
        && limits.max_subgroup_size == Some(limits.subgroup_size);
    let emulated_i64 = shape.elems.contains(&ElemType::I64) && !target.has(Capability::Int64);
    if target.has(Capability::GroupNonUniformArithmetic)
        && fixed
        && slice == limits.subgroup_size
        && !emulated_i64
    {
        Combine::Subgroup
    } else {
        Combine::WorkgroupTree
    }
}

/// The reduction length of a dispatch that may take row slices, or
/// `None`: a combinable contraction (named, or a generic reduction) that
/// streams rows, its reduction static and not empty, or dynamic (the
/// kernels check it against the loop budget at run time).
fn row_length(shape: &DispatchShape) -> Option<Size> {
    let family = matches!(shape.family, OpFamily::Contraction | OpFamily::Reduction);
    let rows = shape.row_stream.is_some();
    (family && shape.fold == Fold::Combinable && rows).then_some(())?;
    shape.reduction.filter(|&k| k != Size::Static(0))
}

/// The loop iterations of one invocation of a slice of `slice` over a row
/// of `k` (vec4 groups where `k` is a multiple of 4); for a row of
/// dynamic length, the budget (rows past it take a chunked kernel at run
/// time).
fn iterations(k: Size, slice: u32, budget: u64) -> u64 {
    let Size::Static(k) = k else {
        return budget;
    };
    let unit = if k % 4 == 0 { 4 } else { 1 };
    k.div_ceil(unit * u64::from(slice.max(1)))
}

/// Sets `s` to row slices of `slice` invocations in workgroups of `wg`
/// (reduction, workgroup memory), or returns false where they do not
/// apply: the dispatch does not stream rows, the slice does not divide
/// the workgroup, or a row's loop exceeds the budget.
pub(super) fn set_row_slices(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
    wg: u32,
    slice: u32,
) -> bool {
    let Some(k) = row_length(shape) else {
        return false;
    };
    let chunk = iterations(k, slice, target.loop_budget());
    if !slice.is_power_of_two()
        || wg % slice != 0
        || wg > pow2_floor(target.max_invocations())
        || chunk > target.loop_budget()
    {
        return false;
    }
    let combine = combine_of(target, shape, slice);
    s.workgroup_size = [wg, 1, 1];
    s.distribution = Distribution::RowSlices { slice };
    s.reduction = Some(ReductionStrategy::Cooperative {
        combine,
        chunk,
        split: false,
        per_invocation: false,
    });
    s.workgroup_memory = match combine {
        _ if slice == 1 => 0,
        Combine::Subgroup | Combine::OneSubgroup => 0,
        // One widened (at most 64-bit) partial per invocation and output.
        Combine::WorkgroupTree => wg * 8 * shape.elems.len().max(1) as u32,
    };
    true
}

/// The heuristic's row slices, applied to `s` (true) where the dispatch
/// streams rows and has rows enough: on a GPU of known fill, slices
/// running at least an eighth of it (fewer rows keep the cooperative
/// strategy, which splits each row over whole workgroups); elsewhere at
/// least 64 rows (or a dynamic number).
///
/// On a GPU a slice is a subgroup (the env's subgroup size, a power of
/// two, at most 64; rows shorter than it keep one row per invocation),
/// in workgroups of 4 slices, at least 64 invocations, at most 256. Where
/// barriers serialize a workgroup or the device is a CPU (lavapipe: a
/// subgroup is the lanes of one SIMD register, and per-lane loads from
/// different addresses are gathers), a slice is one invocation: each
/// invocation reads its own row as vec4 while the vector's loads are the
/// same for all lanes (uniform). On lavapipe a 4096 x 4096 f32 matvec ran
/// in 7.7 ms of GPU time so, 12.7 ms with subgroup slices of 8, 11 ms
/// with trees of 4, and 16.7 ms with a scalar loop per row (the same for
/// 1024 x 16384: 7.5, 12.7, 11.2 and 16.5 ms). A row too long for one
/// invocation's loop budget takes subgroup slices there too.
pub(super) fn choose_row_slices(
    target: &CodegenTarget,
    shape: &DispatchShape,
    s: &mut Strategy,
) -> bool {
    let Some(k) = row_length(shape) else {
        return false;
    };
    let max_inv = pow2_floor(target.max_invocations());
    let subgroup = pow2_floor(target.subgroup_size()).clamp(1, 64).min(max_inv);
    let rows = shape.static_points();
    let enough = match (target.fill_invocations(), rows) {
        (_, None) => true,
        (Some(fill), Some(m)) => m.saturating_mul(u64::from(subgroup)) >= fill / 8,
        (None, Some(m)) => m >= 64,
    };
    if !enough {
        return false;
    }
    let cpu_like = target.facts.barriers_serialize
        || target.env.device.device_type == crate::target::DeviceType::Cpu;
    // Row sums on GPUs keep a workgroup per row (measured on an H200).
    if shape.row_stream == Some(RowStream::Alone) && !cpu_like {
        return false;
    }
    let wg_of = |slice: u32| (4 * slice).clamp(64, 256).min(max_inv).max(slice);
    let slice = if cpu_like && set_row_slices(target, shape, s, wg_of(1), 1) {
        1
    } else if k.fixed().is_none_or(|k| k >= u64::from(subgroup))
        && set_row_slices(target, shape, s, wg_of(subgroup), subgroup)
    {
        subgroup
    } else {
        return false;
    };
    let combine = match s.reduction {
        Some(ReductionStrategy::Cooperative { combine, .. }) => combine,
        _ => Combine::WorkgroupTree,
    };
    let rows_text = rows.map_or("?".into(), |m| m.to_string());
    let (k_text, vec4) = match k {
        Size::Static(k) => (k.to_string(), if k % 4 == 0 { ", read as vec4" } else { "" }),
        Size::Slot(_) => (
            "dynamic length".to_string(),
            ", read as vec4 where a multiple of 4 at run time (past the loop budget, a dispatch per chunk)",
        ),
    };
    let what = if shape.row_stream == Some(RowStream::Alone) {
        "row reduction"
    } else {
        "matrix x vector"
    };
    s.reason = if slice == 1 {
        format!(
            "{what} ({rows_text} rows of {k_text}) where barriers serialize or the device is a CPU: a row per invocation{vec4}{}",
            if shape.row_stream == Some(RowStream::Alone) { "" } else { ", the vector's loads uniform" }
        )
    } else {
        format!(
            "{what} ({rows_text} rows of {k_text}, nothing shared between rows): one row per slice of {slice} invocations, {} rows per workgroup, combined by {}",
            s.invocations() / slice,
            match combine {
                Combine::Subgroup | Combine::OneSubgroup => "subgroup arithmetic",
                Combine::WorkgroupTree => "a workgroup-memory tree",
            }
        )
    };
    true
}

/// The row-slice choices `kiln tune` may try for a dispatch that streams
/// rows: a row per invocation, slices of 4 to 64 invocations (the
/// subgroup's combining by subgroup arithmetic where the env allows, the
/// others by a tree) in
/// workgroups of 64 to 256, plus one row per invocation (the serial loop)
/// where a row fits the loop budget.
pub(super) fn row_slice_candidates(target: &CodegenTarget, shape: &DispatchShape) -> Vec<Choice> {
    let Some(k) = row_length(shape) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut probe = Strategy {
        family: shape.family,
        workgroup_size: [1, 1, 1],
        distribution: Distribution::Points { per_invocation: 1 },
        reduction: None,
        workgroup_memory: 0,
        loop_budget: target.loop_budget(),
        types: Vec::new(),
        texel_reads: None,
        dynamic_texels: false,
        word_stores: false,
        i16_vectors: false,
        reason: String::new(),
    };
    for slice in [1, 4, 8, 16, 32, 64] {
        for wg in [64, 128, 256] {
            if set_row_slices(target, shape, &mut probe, wg, slice) {
                out.push(Choice {
                    workgroup: wg,
                    distribution: Distribution::RowSlices { slice },
                    split_k: None,
                });
            }
        }
    }
    if k.fixed().is_some_and(|k| k <= target.loop_budget()) {
        out.push(Choice {
            workgroup: 64.min(pow2_floor(target.max_invocations())),
            distribution: Distribution::Points { per_invocation: 1 },
            split_k: None,
        });
    }
    out
}

/// Makes `s`'s reduction match a tuned distribution: row slices take
/// their cooperative reduction; a cooperative strategy tuned to one row
/// per invocation runs each row serially.
pub(super) fn retarget_reduction(target: &CodegenTarget, shape: &DispatchShape, s: &mut Strategy) {
    match s.distribution {
        Distribution::RowSlices { slice } => {
            let wg = s.workgroup_size[0];
            set_row_slices(target, shape, s, wg, slice);
        }
        Distribution::WorkgroupPerPoint => {}
        _ => {
            if let (Some(ReductionStrategy::Cooperative { .. }), Some(Size::Static(k))) =
                (s.reduction, row_length(shape))
            {
                s.reduction = Some(ReductionStrategy::Serial {
                    chunk: k,
                    chunked: false,
                });
                s.workgroup_memory = 0;
            }
        }
    }
}
