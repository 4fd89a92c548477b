//! The strategy choice: the heuristic's strategy per op family (each
//! family's choice in its own file, each with an always-valid fallback),
//! the candidates `kiln tune` times, and the tuned choice where the target
//! has one.

use crate::grammar::Capability;
use crate::tensor::types::ElemType;

use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::regions::OpFamily;
use super::super::target::CodegenTarget;
use super::elementwise::{choose_elementwise, vector4};
use super::reduction::choose_reduction;
use super::rows::{choose_softmax, softmax_candidates, softmax_rows};
use super::tiles::{register_tile, register_tile_candidates, shared_tiles};
use super::{row_split, split_k};
use super::{
    tuning_key, type_reprs, Choice, Combine, DispatchShape, Distribution, ReductionStrategy,
    Strategy,
};

/// A power of two no larger than `n` (at least 1).
pub(super) fn pow2_floor(n: u32) -> u32 {
    if n == 0 {
        1
    } else {
        1 << (31 - n.leading_zeros())
    }
}

/// The workgroup of a cooperative reduction of `red` iterations: 256
/// invocations, fewer (a power of two, at least a subgroup) for a short
/// static reduction.
pub(super) fn coop_workgroup(target: &CodegenTarget, red: Size, max_inv: u32) -> u32 {
    let full = 256.min(max_inv);
    match red {
        Size::Static(r) => {
            let want = u32::try_from(r.max(1))
                .unwrap_or(u32::MAX)
                .checked_next_power_of_two()
                .unwrap_or(full);
            want.clamp(target.subgroup_size().min(full), full)
        }
        Size::Slot(_) => full,
    }
}

/// How partial results combine on `target` (subgroup operations cannot
/// combine emulated i64 pairs).
pub(super) fn combine_for(target: &CodegenTarget, shape: &DispatchShape) -> Combine {
    let emulated_i64 = shape.elems.contains(&ElemType::I64) && !target.has(Capability::Int64);
    if target.has(Capability::GroupNonUniformArithmetic) && !emulated_i64 {
        Combine::Subgroup
    } else {
        Combine::WorkgroupTree
    }
}

/// Chooses the strategy of a dispatch of shape `shape` on `target`: the
/// target's tuned choice for the shape where it has one that is among the
/// [`candidates`], else the heuristic's.
pub fn choose(
    target: &CodegenTarget,
    shape: &DispatchShape,
    loc: crate::ir::Location,
) -> Result<Strategy, CodegenError> {
    let default = choose_default(target, shape, loc)?;
    let key = tuning_key(shape.family, &shape.points, shape.reduction, &shape.elems);
    let Some(choice) = target.tuning.as_ref().and_then(|t| t.get(&key)) else {
        return Ok(default);
    };
    let mine = Choice {
        workgroup: default.workgroup_size[0],
        distribution: default.distribution,
        split_k: split_k::slices_of(&default),
    };
    if choice == mine {
        let mut s = default;
        s.reason = format!(
            "tuned by kiln tune on this device: the heuristic's {} measured fastest ({})",
            mine.to_text(),
            s.reason
        );
        return Ok(s);
    }
    if !candidates_of(target, shape, &default).contains(&choice) {
        return Ok(default);
    }
    let mut s = default;
    s.workgroup_size = [choice.workgroup, 1, 1];
    let tiles = |d: Distribution| {
        matches!(
            d,
            Distribution::Tile { .. } | Distribution::SharedTile { .. }
        )
    };
    if tiles(s.distribution) || tiles(choice.distribution) {
        s.workgroup_memory = choice.distribution.shared_tile_bytes();
    }
    if matches!(choice.distribution, Distribution::CoopMatrix { .. }) {
        s.workgroup_memory = super::coop_matrix::workgroup_bytes(shape, &choice.distribution);
    }
    s.distribution = choice.distribution;
    let total = shape.reduction.and_then(|r| r.fixed());
    let rows = matches!(shape.family, OpFamily::Softmax | OpFamily::Normalization);
    match (choice.split_k, total) {
        _ if rows => {}
        (Some(n), Some(total)) => s.reduction = Some(split_k::reduction(total, n)),
        (None, Some(total)) if mine.split_k.is_some() => {
            s.reduction = Some(ReductionStrategy::Serial {
                chunk: total.max(1),
                chunked: false,
            })
        }
        _ => {}
    }
    super::matvec::retarget_reduction(target, shape, &mut s);
    if rows {
        softmax_rows(target, shape, &mut s, choice.workgroup, choice.distribution);
        if let Some(n) = choice.split_k {
            row_split::apply(&mut s, n);
        }
    }
    s.reason = format!(
        "tuned by kiln tune on this device: {} (the heuristic's: {}, {})",
        choice.to_text(),
        mine.to_text(),
        s.reason
    );
    Ok(s)
}

/// The choices a dispatch of shape `shape` may take on `target`, the
/// heuristic's first: register tiles of other sizes and the untiled loop
/// for a tileable reduction, vec4 and element-by-element distributions of
/// other widths for elementwise dispatches. Every one computes the same
/// values; `kiln tune` times them.
pub fn candidates(
    target: &CodegenTarget,
    shape: &DispatchShape,
    loc: crate::ir::Location,
) -> Result<Vec<Choice>, CodegenError> {
    let default = choose_default(target, shape, loc)?;
    Ok(candidates_of(target, shape, &default))
}

fn candidates_of(target: &CodegenTarget, shape: &DispatchShape, default: &Strategy) -> Vec<Choice> {
    let mut out = vec![Choice {
        workgroup: default.workgroup_size[0],
        distribution: default.distribution,
        split_k: split_k::slices_of(default),
    }];
    if default.workgroup_size[1..] != [1, 1] {
        return out;
    }
    let max_inv = pow2_floor(target.max_invocations());
    let mut add_split = |workgroup: u32, distribution: Distribution, split_k: Option<u32>| {
        let c = Choice {
            workgroup,
            distribution,
            split_k,
        };
        if workgroup <= max_inv && !out.contains(&c) {
            out.push(c);
        }
    };
    let serial_whole = matches!(
        default.reduction,
        Some(ReductionStrategy::Serial { chunked: false, .. })
            | Some(ReductionStrategy::SplitK { .. })
    );
    // Split-K of the heuristic's tile, the register tile and the first
    // workgroup-memory tile, where the reduction may be split.
    if let Some(total) = split_k::splittable(shape).filter(|_| serial_whole) {
        let mut tiles = Vec::new();
        if matches!(
            default.distribution,
            Distribution::Tile { .. } | Distribution::SharedTile { .. }
        ) {
            tiles.push((default.workgroup_size[0], default.distribution));
        }
        if let Some(t) = register_tile(target, shape, max_inv) {
            tiles.push((t.workgroup, t.distribution()));
        }
        tiles.extend(shared_tiles(target, shape, max_inv).into_iter().take(1));
        for (wg, dist) in tiles {
            for n in split_k::tuned_slices(total, split_k::slices_of(default)) {
                add_split(wg, dist, Some(n));
            }
        }
    }
    // A softmax's few long rows split over several workgroups each.
    for wg in [target.subgroup_size(), 64, 256] {
        for n in row_split::candidates(target, shape, wg) {
            add_split(wg, Distribution::WorkgroupPerPoint, Some(n));
        }
    }
    let mut add =
        |workgroup: u32, distribution: Distribution| add_split(workgroup, distribution, None);
    for (wg, dist) in super::coop_matrix::candidates(target, shape, default) {
        add(wg, dist);
    }
    let tileable = serial_whole && register_tile(target, shape, max_inv).is_some();
    if tileable {
        for (wg, dist) in register_tile_candidates(target, shape, max_inv) {
            add(wg, dist);
        }
        add(64, Distribution::Points { per_invocation: 1 });
    }
    if serial_whole {
        // Workgroup-memory tiles on any driver: where barriers serialize
        // a workgroup they are not the heuristic's, but still correct.
        for (wg, dist) in shared_tiles(target, shape, max_inv) {
            add(wg, dist);
        }
    }
    for c in super::matvec::row_slice_candidates(target, shape) {
        add(c.workgroup, c.distribution);
    }
    if matches!(shape.family, OpFamily::Softmax | OpFamily::Normalization) {
        for (wg, dist) in softmax_candidates(target, shape, default.loop_budget) {
            add(wg, dist);
        }
    }
    if matches!(shape.family, OpFamily::Elementwise | OpFamily::DataMovement)
        && default.reduction.is_none()
    {
        if vector4(target, shape, max_inv).is_some() {
            for wg in [64, 256, 1024] {
                for per in [1, 2, 4, 8] {
                    add(
                        wg,
                        Distribution::Vector4 {
                            per_invocation: per,
                        },
                    );
                }
            }
        }
        for wg in [64, 256] {
            for per in [1, 4, 8] {
                add(
                    wg,
                    Distribution::Points {
                        per_invocation: per,
                    },
                );
            }
        }
    }
    out
}

/// The heuristic strategy of a dispatch of shape `shape` on `target`.
fn choose_default(
    target: &CodegenTarget,
    shape: &DispatchShape,
    loc: crate::ir::Location,
) -> Result<Strategy, CodegenError> {
    let types = type_reprs(target, &shape.elems, loc)?;
    let budget = target.loop_budget();
    let max_inv = pow2_floor(target.max_invocations());
    let sg = target.subgroup_size();
    // Workgroups of a few subgroups (at least 64 invocations where allowed).
    let linear_wg = (sg.max(1) * 4).clamp(64, 256).min(max_inv);
    let mut s = Strategy {
        family: shape.family,
        workgroup_size: [linear_wg, 1, 1],
        distribution: Distribution::Points { per_invocation: 1 },
        reduction: None,
        workgroup_memory: 0,
        loop_budget: budget,
        types,
        texel_reads: target
            .facts
            .texel_reads
            .filter(|_| target.has(Capability::SampledBuffer)),
        dynamic_texels: target.facts.texel_reads.is_some_and(|texels| {
            u64::from(target.env.limits.max_storage_buffer_range) <= texels.saturating_mul(16)
        }),
        word_stores: target.facts.word_stores && target.has(Capability::Int64),
        i16_vectors: super::type_repr::i16_stored_natively(target),
        reason: String::new(),
    };
    if let Some(coop) = super::coop_matrix::strategy(target, shape, &s) {
        return Ok(coop);
    }
    match shape.family {
        OpFamily::Elementwise | OpFamily::DataMovement => {
            choose_elementwise(target, shape, &mut s, max_inv)
        }
        OpFamily::Scalar => {
            s.workgroup_size = [1, 1, 1];
            s.reason = "one value: one invocation".into();
        }
        OpFamily::Softmax | OpFamily::Normalization => {
            choose_softmax(target, shape, &mut s, budget, max_inv)
        }
        OpFamily::Reduction | OpFamily::Contraction | OpFamily::Convolution | OpFamily::Pooling => {
            choose_reduction(target, shape, &mut s, budget, max_inv)
        }
    }
    Ok(s)
}

/// A size as text: its value, or `?` where dynamic.
pub(super) fn size_text(s: Size) -> String {
    match s {
        Size::Static(n) => n.to_string(),
        Size::Slot(_) => "?".into(),
    }
}
