//! The strategy choice: one small function per op family, each with an
//! always-valid fallback.

use crate::grammar::Capability;
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::combine::combiners;
use super::super::error::CodegenError;
use super::super::host::Size;
use super::super::regions::{DispatchRegion, FuncRegions, OpFamily, ValueFate};
use super::super::shapes::Shapes;
use super::super::target::CodegenTarget;
use super::{row_split, split_k};
use super::{
    tuning_key, type_reprs, Choice, Combine, Distribution, ReductionStrategy, Strategy, TILE_DEPTH,
};

/// What a strategy is chosen from: the dispatch's iteration space and
/// reduction, and the element types it touches.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchShape {
    /// The op family.
    pub family: OpFamily,
    /// The sizes of the parallel iteration space (the points).
    pub points: Vec<Size>,
    /// Iterations of each point's reduction (the product of the root's
    /// reduction loops; a softmax row's length).
    pub reduction: Option<Size>,
    /// Whether the reduction folds each output with one associative op.
    pub combinable: bool,
    /// The element types the dispatch reads and writes.
    pub elems: Vec<ElemType>,
    /// The element types of the root's results: what its reduction
    /// accumulates in (a 16-bit float rounds at every step).
    pub acc_elems: Vec<ElemType>,
    /// Whether a tensor the root reads is the same for several points of
    /// a register tile: its indexing map leaves out one of the root's last
    /// two parallel loops (a matmul's A and B, a convolution's input and
    /// filter; not a pooling window or a row sum).
    pub tile_shares_loads: bool,
    /// Whether every tensor the root reads along a reduction loop has a
    /// reduction loop in its last (contiguous) dimension: a row sum's
    /// rows, a layer norm's, not a column sum's. Consecutive invocations
    /// of one output's workgroup then read consecutive elements.
    pub reduction_innermost: bool,
    /// Whether the root is matmul-like for workgroup-memory tiles: it
    /// has a reduction, at least two parallel loops, and tensor inputs
    /// read along the reduction that leave out the last parallel loop
    /// (a matmul's A) and the one before it (its B).
    pub stages_operands: bool,
    /// The element types of a plain matmul (a `linalg.matmul` alone, its
    /// operands in memory; see [`super::plain_matmul`]), which may use
    /// cooperative matrices.
    pub coop_matmul: Option<super::MatmulTypes>,
    /// Whether the root streams rows (matrix x vector): one reduction
    /// loop, and an input that every point reads its own row of,
    /// contiguous along the reduction, and a vector read along it (see
    /// `matvec::row_stream`).
    pub streams_rows: bool,
    /// Whether the root reduces rows the same way with no vector: its
    /// one input read along the reduction streams rows (a row sum, a
    /// row maximum). Row slices take it where the device is a CPU.
    pub sums_rows: bool,
    /// Passes over each row of a row-wise dispatch: 3 for softmax (max,
    /// sum of exponentials, normalisation), a row group's row roots plus
    /// one (a layer norm: 3); 0 for other families.
    pub row_passes: u64,
}

impl DispatchShape {
    /// The number of points, when static.
    pub fn static_points(&self) -> Option<u64> {
        self.points
            .iter()
            .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?))
    }
}

/// The sizes of `op`'s loops (structured ops).
pub fn loop_sizes(info: &FuncInfo<'_>, shapes: &Shapes, op: TOp) -> Vec<Size> {
    let Some(s) = info.structured.get(&op) else {
        return Vec::new();
    };
    let operands: Vec<TValue> = s.operands().collect();
    s.loop_sources()
        .iter()
        .map(|src| {
            src.and_then(|(k, r)| shapes.of(operands[k]).get(r).copied())
                .unwrap_or(Size::Static(0))
        })
        .collect()
}

/// The iterations of `op`'s reduction: the product of its reduction
/// loops' sizes (1 for none).
pub fn reduction_total(info: &FuncInfo<'_>, shapes: &mut Shapes, op: TOp) -> Size {
    let Some(s) = info.structured.get(&op) else {
        return Size::Static(1);
    };
    let red: Vec<Size> = s
        .iterator_types
        .iter()
        .zip(loop_sizes(info, shapes, op))
        .filter(|(t, _)| **t == crate::tensor::attr::IteratorType::Reduction)
        .map(|(_, s)| s)
        .collect();
    shapes.host.product(&red)
}

/// The shape of dispatch `d`.
pub fn dispatch_shape(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    shapes: &mut Shapes,
    d: &DispatchRegion,
) -> DispatchShape {
    let m = info.m;
    // A softmax root's dispatch runs over the softmax's rows, also where
    // an elementwise epilogue is the dispatch's op.
    let op = match d.root {
        Some(r) if matches!(&m.op(r).kind, OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. })) => {
            r
        }
        _ => d.op,
    };
    let mut points: Vec<Size> = match (&m.op(op).kind, info.structured.get(&op)) {
        (OpKind::Linalg(l), _) if matches!(l.kind, LinalgKind::Softmax { .. }) => {
            let LinalgKind::Softmax { dimension } = l.kind else {
                unreachable!()
            };
            let sh = shapes.of(m.op(op).results[0]);
            sh.iter()
                .enumerate()
                .filter(|(i, _)| *i as u64 != dimension)
                .map(|(_, &s)| s)
                .collect()
        }
        (_, Some(s)) => {
            let sizes = loop_sizes(info, shapes, op);
            s.iterator_types
                .iter()
                .zip(sizes)
                .filter(|(t, _)| **t == crate::tensor::attr::IteratorType::Parallel)
                .map(|(_, s)| s)
                .collect()
        }
        _ => m
            .op(op)
            .results
            .first()
            .map(|&r| shapes.of(r).to_vec())
            .unwrap_or_default(),
    };
    let mut reduction = None;
    let mut combinable = false;
    let mut row_passes = 0;
    if d.family == OpFamily::Normalization {
        // Rows: the points without the last loop, which each row runs,
        // as long as the longest of the row and the row roots'
        // reductions (for the loop budget; they are the row's length in a
        // layer norm).
        reduction = points.pop();
        for rr in &d.row_roots {
            let total = reduction_total(info, shapes, rr.op);
            if let (Some(Size::Static(a)), Size::Static(b)) = (reduction, total) {
                reduction = Some(Size::Static(a.max(b)));
            }
        }
        combinable = true;
        row_passes = d.row_roots.len() as u64 + 1;
    }
    let mut tile_shares_loads = false;
    let mut stages_operands = false;
    let mut reduction_innermost = false;
    let mut streams_rows = false;
    let mut sums_rows = false;
    if let Some(s) = d.root.and_then(|r| info.structured.get(&r)) {
        let sizes = d
            .root
            .map(|r| loop_sizes(info, shapes, r))
            .unwrap_or_default();
        let rows = super::matvec::row_stream(s, |k| m.value_kind(s.inputs[k]).is_tensor(), &sizes);
        streams_rows = rows == Some(true);
        sums_rows = rows == Some(false);
        let is_reduction =
            |l: u32| s.iterator_types[l as usize] == crate::tensor::attr::IteratorType::Reduction;
        let mut reading = s
            .inputs
            .iter()
            .enumerate()
            .filter(|&(k, &v)| {
                m.value_kind(v).is_tensor()
                    && (0..s.num_loops() as u32).any(|l| {
                        is_reduction(l) && s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l))
                    })
            })
            .map(|(k, _)| k)
            .peekable();
        reduction_innermost = reading.peek().is_some()
            && reading.all(|k| {
                s.indexing_maps[k].results.last().is_some_and(|e| {
                    (0..s.num_loops() as u32).any(|l| is_reduction(l) && e.uses_dim(l))
                })
            });
        let parallel: Vec<u32> = (0..s.num_loops() as u32)
            .filter(|&l| {
                s.iterator_types[l as usize] == crate::tensor::attr::IteratorType::Parallel
            })
            .collect();
        if let [.., rows, cols] = parallel[..] {
            tile_shares_loads = s.inputs.iter().enumerate().any(|(k, &v)| {
                let uses = |l| s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l));
                m.value_kind(v).is_tensor() && (!uses(rows) || !uses(cols))
            });
            let reductions: Vec<u32> = (0..s.num_loops() as u32)
                .filter(|l| !parallel.contains(l))
                .collect();
            let side = |leaves_out: u32, keeps: u32| {
                s.inputs.iter().enumerate().any(|(k, &v)| {
                    let uses = |l| s.indexing_maps[k].results.iter().any(|e| e.uses_dim(l));
                    m.value_kind(v).is_tensor()
                        && uses(keeps)
                        && !uses(leaves_out)
                        && reductions.iter().any(|&r| uses(r))
                })
            };
            stages_operands = !reductions.is_empty() && side(cols, rows) && side(rows, cols);
        }
    }
    if let Some(root) = d.root {
        match &m.op(root).kind {
            OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Softmax { .. }) => {
                let LinalgKind::Softmax { dimension } = l.kind else {
                    unreachable!()
                };
                reduction = shapes
                    .of(m.op(root).results[0])
                    .get(dimension as usize)
                    .copied();
                row_passes = 3;
            }
            _ => {
                if let Some(s) = info.structured.get(&root) {
                    reduction = Some(reduction_total(info, shapes, root));
                    combinable = combiners(m, s).is_some();
                }
            }
        }
    }
    // Element types touched: the stored values, the root's and the op's
    // operands (what the kernel reads comes from these).
    let mut elems = Vec::new();
    let mut add = |e: ElemType| {
        if !elems.contains(&e) {
            elems.push(e);
        }
    };
    for v in d
        .stored
        .iter()
        .chain(d.row_outputs.iter().map(|o| &o.value))
    {
        add(m.value_kind(*v).elem());
    }
    let row_roots = d.row_roots.iter().map(|r| Some(r.op));
    for op in [Some(d.op), d.root].into_iter().chain(row_roots).flatten() {
        for &v in &m.op(op).operands {
            if m.value_kind(v).is_tensor() {
                add(m.value_kind(v).elem());
            }
        }
    }
    for f in super::super::regions::fused_ops(info, regions, d.op) {
        for &v in m.op(f).operands.iter().chain(&m.op(f).results) {
            if m.value_kind(v).is_tensor() && !matches!(regions.fate(v), ValueFate::Dead) {
                add(m.value_kind(v).elem());
            }
        }
    }
    let acc_elems = d
        .root
        .map(|r| {
            m.op(r)
                .results
                .iter()
                .map(|&v| m.value_kind(v).elem())
                .collect()
        })
        .unwrap_or_default();
    DispatchShape {
        family: d.family,
        points,
        reduction,
        combinable,
        elems,
        acc_elems,
        tile_shares_loads,
        reduction_innermost,
        stages_operands,
        coop_matmul: super::plain_matmul(info, regions, d),
        streams_rows,
        sums_rows,
        row_passes,
    }
}

/// A power of two no larger than `n` (at least 1).
fn pow2_floor(n: u32) -> u32 {
    if n == 0 {
        1
    } else {
        1 << (31 - n.leading_zeros())
    }
}

/// The workgroup of a cooperative reduction of `red` iterations: 256
/// invocations, fewer (a power of two, at least a subgroup) for a short
/// static reduction.
fn coop_workgroup(target: &CodegenTarget, red: Size, max_inv: u32) -> u32 {
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
fn combine_for(target: &CodegenTarget, shape: &DispatchShape) -> Combine {
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
        let shallow = [
            (64, 8, 4),
            (64, 4, 4),
            (32, 8, 4),
            (64, 4, 8),
            (64, 8, 2),
            (16, 8, 4),
            (64, 2, 8),
            (128, 4, 4),
            (64, 16, 4),
            (32, 16, 4),
            (16, 16, 4),
            (64, 2, 4),
            (64, 1, 4),
            (128, 2, 4),
            // Wider tiles (groups of 4 columns): what a CPU reading
            // texels takes for 16-bit float accumulators (see
            // `cpu_texel_tile`).
            (64, 16, 8),
            (32, 16, 8),
            (64, 32, 8),
            (64, 16, 16),
            (32, 16, 16),
            (64, 12, 16),
            (64, 8, 16),
        ];
        // Deeper steps and larger tiles where the device is a CPU reading
        // texels that takes deep tiles (see `cpu_texel_tile`).
        let deep: &[(u32, u32, u32)] = match cpu_texel_tile(target, shape, max_inv) {
            Some(t) if t.depth > TILE_DEPTH => &[
                (32, 32, 32),
                (32, 16, 32),
                (64, 32, 16),
                (64, 16, 16),
                (32, 16, 16),
                (64, 32, 8),
                (8, 27, 8),
                (8, 18, 8),
            ],
            _ => &[],
        };
        let with_depth = |list: &[(u32, u32, u32)], depth: u32| {
            list.iter()
                .map(move |&(wg, rows, cols)| (wg, Distribution::Tile { rows, cols, depth }))
                .collect::<Vec<_>>()
        };
        for (wg, dist) in with_depth(&shallow, TILE_DEPTH)
            .into_iter()
            .chain(with_depth(deep, CPU_TILE_DEPTH))
        {
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
    let points = shape.static_points();
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
        i16_vectors: super::types::i16_stored_natively(target),
        reason: String::new(),
    };
    if let Some(coop) = super::coop_matrix::strategy(target, shape, &s) {
        return Ok(coop);
    }
    match shape.family {
        OpFamily::Elementwise | OpFamily::DataMovement => {
            // Large static spaces: lavapipe runs a workgroup as one
            // LLVM-compiled loop over its invocations, so fewer, larger
            // workgroups (256 invocations, 8 points each) cut the
            // per-workgroup cost (measured on the 16M add: about 1.5x
            // faster than 64 x 4); a space of fewer than 64 such
            // workgroups keeps the smaller ones, so both cores get work.
            if let Some((wg, per)) = vector4(target, shape, max_inv) {
                s.workgroup_size = [wg, 1, 1];
                s.distribution = Distribution::Vector4 {
                    per_invocation: per,
                };
                let last = match shape.points.last() {
                    Some(Size::Static(n)) if n % 4 == 0 => "the last dimension a multiple of 4",
                    Some(Size::Static(_)) => "one dimension (its last points one by one)",
                    _ => "a dynamic space (groups checked at run time)",
                };
                s.reason = format!(
                    "no reduction, {last} and 32- or 16-bit elements: {per} vec4 per invocation, {wg} invocations per workgroup"
                );
                return Ok(s);
            }
            let big_wg = 256.min(max_inv);
            let per = if points.is_some_and(|p| p >= u64::from(big_wg) * 8 * 64) {
                s.workgroup_size = [big_wg, 1, 1];
                8
            } else if points.is_some_and(|p| p < u64::from(linear_wg) * 64) {
                1
            } else {
                4
            };
            let linear_wg = s.workgroup_size[0];
            s.distribution = Distribution::Points {
                per_invocation: per,
            };
            s.reason = format!(
                "no reduction: {per} point{} per invocation, {linear_wg} invocations per workgroup",
                if per == 1 { "" } else { "s" }
            );
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

fn choose_reduction(
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
        .filter(|_| !shape.tile_shares_loads);
    let (few_points, worth_splitting) = match gpu_fill {
        // Rows read along their contiguous dimension take a workgroup each
        // up to four times the fill: one invocation per row would read
        // with a row's stride between neighbours (an H200 summed 4,096
        // rows of 4,096 so in 0.51 ms).
        Some(fill) => (
            points.is_some_and(|p| {
                let lanes = p.saturating_mul(u64::from(target.subgroup_size()));
                lanes <= fill || (shape.reduction_innermost && lanes <= 4 * fill)
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
    if shape.combinable && few_points && worth_splitting {
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

/// The vec4 distribution of an elementwise dispatch: `(invocations,
/// groups of 4 per invocation)`, where every element type is 32 bits (or
/// f16 stored natively) and held natively, and the last dimension is a
/// static multiple of 4 — or dynamic, or the only one (the kernel then
/// checks each group at run time and emits a group that is not whole, or
/// not in one row, point by point: [`emit_vector4`](super::super::kernels)).
/// At least 64 groups where the space is static. Four vec4 per
/// invocation; 1,024 invocations per workgroup on spaces large enough to
/// keep 64 such workgroups (the shape of the fastest hand-written add on
/// lavapipe, DRIVERS.md), else 256, else (small spaces) 64 and one vec4;
/// 256 where the space is dynamic (a 16M-element dynamic add on lavapipe:
/// 132 ms point by point, 22 ms so; a static add of 16M - 1: 34 -> 9.3
/// ms).
fn vector4(target: &CodegenTarget, shape: &DispatchShape, max_inv: u32) -> Option<(u32, u32)> {
    let aligned = match *shape.points.last()? {
        Size::Static(last) => last % 4 == 0 || shape.points.len() == 1,
        Size::Slot(_) => true,
    };
    if !aligned || shape.elems.is_empty() {
        return None;
    }
    let native_f16 = super::types::f16_stored_natively(target);
    let native_i16 = super::types::i16_stored_natively(target);
    if !shape.elems.iter().all(|e| match e {
        ElemType::F32 | ElemType::Int(32) => true,
        ElemType::F16 => native_f16 || native_i16,
        ElemType::BF16 => native_i16,
        _ => false,
    }) {
        return None;
    }
    let Some(points) = shape.static_points() else {
        return Some((1024.min(max_inv), 4));
    };
    let groups = points / 4;
    if groups < 64 {
        return None;
    }
    let fits = |wg: u32, per: u32| groups >= u64::from(wg) * u64::from(per) * 64;
    Some(if max_inv >= 1024 && fits(1024, 4) {
        (1024, 4)
    } else if fits(256.min(max_inv), 4) {
        (256.min(max_inv), 4)
    } else {
        (64.min(max_inv), 1)
    })
}

/// The most iterations one invocation of a cooperative reduction runs
/// before the reduction is split over more workgroups.
const COOP_CHUNK: u64 = 1024;

/// The most accumulators one invocation's register tile holds.
const TILE_ACCUMULATORS: u32 = 64;

/// The register tile of a reduction whose operands a tile's points share
/// (contractions, convolutions), one invocation running the reduction
/// whole: `(invocations, rows, cols)`, or `None` where a tile would not
/// share any load (no such operand, or one row and one column).
///
/// Columns: 4 per invocation where the last dimension has at least 4 per
/// invocation of a subgroup-sized workgroup, else 1; invocations: enough
/// to cover the columns (a power of two from the subgroup size up to
/// 64); rows: up to 16 (at most [`TILE_ACCUMULATORS`] accumulators; on
/// lavapipe 16x4 tiles ran matmul 512^3 and 1024^3 about 15% faster than
/// 8x4 in one quiet `kiln tune` run: 11.4 vs 13.1 ms, 95 vs 113 ms).
pub(super) fn register_tile(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<RegisterTile> {
    if !shape.tile_shares_loads {
        return None;
    }
    let n = shape.points.len();
    if n < 2 {
        return None;
    }
    let sg = target.subgroup_size().clamp(1, 64).min(max_inv);
    let (rows, cols) = (shape.points[n - 2].fixed(), shape.points[n - 1].fixed());
    let tile_cols: u32 = match cols {
        Some(c) if c < 4 * u64::from(sg) => 1,
        _ => 4,
    };
    let per_col = cols.map_or(u64::MAX, |c| c.div_ceil(u64::from(tile_cols)));
    let wg = u32::try_from(per_col.min(64))
        .unwrap_or(64)
        .max(1)
        .next_power_of_two()
        .clamp(sg, 64.min(max_inv).max(sg));
    if let Some(tile) = cpu_texel_tile(target, shape, max_inv) {
        return Some(tile);
    }
    let max_rows = (TILE_ACCUMULATORS / tile_cols).clamp(1, 16);
    let mut tile_rows = rows.map_or(max_rows, |r| r.clamp(1, u64::from(max_rows)) as u32);
    let mut tile_cols = tile_cols;
    // On a GPU, smaller tiles where the tiles would be too few to fill the
    // device (rows first, then columns), down to an eighth of the fill
    // (a tile's shared loads are worth more than the last factor of
    // occupancy): the transformer block's 128 x 256 projections took 8
    // workgroups of 16x4 tiles on an H200, 512 invocations for 132
    // multiprocessors.
    if let (Some(fill), Some(points)) = (target.fill_invocations(), shape.static_points()) {
        let want = fill / 8;
        let tiles = |r: u32, c: u32| points.div_ceil(u64::from(r * c));
        while tile_rows > 1 && tiles(tile_rows, tile_cols) < want {
            tile_rows /= 2;
        }
        while tile_cols > 1 && tiles(tile_rows, tile_cols) < want {
            tile_cols /= 2;
        }
    }
    (tile_rows * tile_cols > 1).then_some(RegisterTile {
        workgroup: wg,
        rows: tile_rows,
        cols: tile_cols,
        depth: TILE_DEPTH,
    })
}

/// A register tile ([`Distribution::Tile`]) and its workgroup size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RegisterTile {
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// The tile's rows.
    pub rows: u32,
    /// The tile's columns.
    pub cols: u32,
    /// Reduction steps per iteration.
    pub depth: u32,
}

impl RegisterTile {
    /// The tile as a distribution.
    pub fn distribution(self) -> Distribution {
        Distribution::Tile {
            rows: self.rows,
            cols: self.cols,
            depth: self.depth,
        }
    }
}

/// The most rows of a CPU device's register tiles.
const TALL_CPU_ROWS: u32 = 32;

/// The most accumulators of a CPU device's register tiles (16x
/// [`TILE_ACCUMULATORS`]: llvmpipe spills what does not fit its
/// registers, which costs less there than the operand fetches a larger
/// tile shares).
const CPU_TILE_ACCUMULATORS: u32 = 1024;

/// The most accumulators of a CPU device's register tiles whose
/// accumulators are 16-bit floats (see `cpu_texel_tile`).
const SHALLOW_CPU_TILE_ACCUMULATORS: u32 = 256;

/// The reduction steps per iteration of a CPU device's register tiles:
/// each accumulator, spilled, is reloaded and stored once per 8
/// multiply-adds instead of per 4.
const CPU_TILE_DEPTH: u32 = 8;

/// Register tiles where the device is a CPU that reads operands as texels
/// (llvmpipe), where every operand fetch is an 8-lane gather and a tile's
/// cost is its fetches: per 4 reduction steps a tile of `r` rows and `c`
/// columns fetches `r` A vectors and `c` B vectors for `4 r c`
/// multiply-adds, so the widest columns (32, 16, 8, then 4: groups of 4
/// adjacent columns, see `kernels/tile.rs`) are taken whose workgroup of
/// at least 8 invocations (llvmpipe's SIMD width) covers the output's
/// columns without padding, with as many rows as
/// [`CPU_TILE_ACCUMULATORS`] allows (at most [`TALL_CPU_ROWS`]), the count
/// from the upper quarter of that range that pads the rows least (ties:
/// the taller), and only where the output still has at least 8 tiles
/// (else the range half as high, while its top is at least 8 rows).
/// `kiln tune` on lavapipe, 5 runs: matmul 1024^3 46.1 ms with 32x4
/// tiles, 36.9 with 16x8, 31.4 with 16x16; 512^3 4.9 ms with 32x4, 3.8
/// with 16x8; conv 1x54x54x64 (3x3x64) 5.8 ms with 16x4, 4.4 with 27x4.
/// Since the tile folds [`CPU_TILE_DEPTH`] steps per iteration, point by
/// point (medians of 4 interleaved `kiln bench` runs, GPU ms): matmul
/// 1024^3 30.6 with the earlier 16x16 tiles 4 steps deep, 29.2 with
/// 8x32 tiles 8 deep, 25.2 with 16x32, 23.5 with 32x32; 512^3 3.88,
/// 3.66, 3.15, 3.11; conv (27x8 either way) 3.33 -> 3.21.
fn cpu_texel_tile(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<RegisterTile> {
    // lavapipe's queried env leaves the device type unknown; its facts
    // say it runs workgroups on CPU threads.
    let cpu = target.env.device.device_type == crate::target::DeviceType::Cpu
        || target.facts.barriers_serialize;
    // Only where the operands can be texels (32-bit elements, or f16
    // stored natively, read through RGBA16F views): the f16 matmul's
    // storage-buffer tiles ran slower taller (12.2 -> 15.1 ms); read as
    // RGBA16F texels (`kiln tune`, 5 runs, matmul 512^3 f16 -> f32) it
    // took 7.5 ms with 16x4 tiles, 5.8 with 16x8, 5.1 with 16x16 (f16 ->
    // f16, bound by its per-step rounding: 76 and 74 ms).
    let f16_texels = super::types::f16_stored_natively(target);
    let texels = shape.elems.iter().all(|e| match e {
        ElemType::F32 | ElemType::Int(32) => true,
        ElemType::F16 => f16_texels,
        _ => false,
    });
    if !cpu || !texels || target.facts.texel_reads.is_none() {
        return None;
    }
    // Rows of dynamic length (a batch or a sequence) take the tallest
    // tile, as a large static output would (lavapipe, ? x 1024 by 1024 x
    // 1024: 45 -> 23 ms at 1,024 rows, 4.8 -> 3.0 at 100, 0.75 -> 0.78
    // at 1, against 16x4 tiles); columns of dynamic length the widest
    // (the kernels move them as vec4 where a multiple of 4 at run time).
    let n = shape.points.len();
    let rows = shape.points[n - 2].fixed();
    let cols = shape.points[n - 1].fixed();
    let points = shape.static_points();
    if rows.is_some_and(|r| r <= 16) {
        return None;
    }
    let pad = |t: u32| rows.map_or(0, |r| r.div_ceil(u64::from(t)) * u64::from(t) - r);
    // A 16-bit float accumulator rounds at every step (about 30 integer
    // operations each): there the loop body of a deep, large tile grows
    // past what its shared fetches save (matmul 512^3 f16 -> f16 on
    // lavapipe: 52 ms with 16x16 tiles 4 deep, 94 with 32x32 tiles 8
    // deep), so such tiles stay at most 256 points, 4 steps deep.
    let rounds = shape
        .acc_elems
        .iter()
        .any(|e| matches!(e, ElemType::F16 | ElemType::BF16));
    let (most, depth, widest) = if rounds {
        (SHALLOW_CPU_TILE_ACCUMULATORS, TILE_DEPTH, 16)
    } else {
        (CPU_TILE_ACCUMULATORS, CPU_TILE_DEPTH, 32)
    };
    for tile_cols in [32u32, 16, 8, 4].into_iter().filter(|&c| c <= widest) {
        let per_col = cols.map_or(u64::MAX, |c| c / u64::from(tile_cols));
        let mut wg = pow2_floor(u32::try_from(per_col.min(64)).unwrap_or(64)).min(max_inv);
        // Rows or columns of dynamic length: workgroups of one SIMD row
        // (8), so that few rows still make several workgroups (lavapipe,
        // ? x 1024 by 1024 x 1024: 1 row 1.39 -> 0.78 ms, 1,024 rows
        // 24.8 -> 23.3 against workgroups of 32).
        if rows.is_none() || cols.is_none() {
            wg = wg.min(8);
        }
        if wg < 8 || cols.is_some_and(|c| c % (u64::from(wg) * u64::from(tile_cols)) != 0) {
            continue;
        }
        let tiles = |r: u32| {
            points.map_or(u64::MAX, |p| {
                p.div_ceil(u64::from(r) * u64::from(wg * tile_cols))
            })
        };
        let mut top = (most / tile_cols).clamp(1, TALL_CPU_ROWS);
        while top >= 8 {
            let best = (top * 3 / 4..=top)
                .filter(|&t| rows.is_none_or(|r| u64::from(t) <= r) && tiles(t) >= 8)
                .min_by_key(|&t| (pad(t), std::cmp::Reverse(t)));
            if let Some(best) = best {
                return Some(RegisterTile {
                    workgroup: wg,
                    rows: best,
                    cols: tile_cols,
                    depth,
                });
            }
            top /= 2;
        }
    }
    None
}

/// Workgroup-memory tiles `(block rows, block cols, depth, rows, cols)`
/// for large outputs (at least 2048 x 2048 points), then medium, then
/// small (fewer than 64 rows or columns); each list ends with the
/// smaller tiles that fit envs with fewer invocations or less memory.
const SHARED_BIG: &[(u32, u32, u32, u32, u32)] = &[
    (128, 128, 16, 8, 8),
    (128, 64, 16, 8, 4),
    (64, 64, 16, 4, 4),
    (64, 64, 16, 8, 4),
    (32, 32, 16, 4, 4),
    (16, 16, 16, 2, 2),
    (16, 16, 8, 4, 4),
];
const SHARED_MEDIUM: &[(u32, u32, u32, u32, u32)] = &[
    (64, 64, 16, 4, 4),
    (64, 64, 16, 8, 4),
    (128, 64, 16, 8, 4),
    (32, 32, 16, 4, 4),
    (32, 32, 16, 2, 2),
    (16, 16, 16, 2, 2),
    (16, 16, 8, 4, 4),
];
const SHARED_SMALL: &[(u32, u32, u32, u32, u32)] = &[
    (32, 32, 16, 2, 2),
    (32, 32, 16, 4, 4),
    (16, 16, 16, 2, 2),
    (16, 16, 8, 4, 4),
    (64, 64, 16, 4, 4),
];

/// Whether a `block_rows` x `block_cols` block staged `depth` steps at a
/// time takes more than half of `memory` bytes double-buffered (the
/// heuristic then prefers it single-buffered).
pub fn double_fills_half(block_rows: u32, block_cols: u32, depth: u32, memory: u32) -> bool {
    let doubled = Distribution::SharedTile {
        block_rows,
        block_cols,
        depth,
        rows: 1,
        cols: 1,
        double: true,
    };
    doubled.shared_tile_bytes() > memory / 2
}

/// The workgroup-memory tiles ([`Distribution::SharedTile`]) a dispatch
/// may take on `target`, the preferred first, with their invocations:
/// none unless the root stages operands on both sides
/// ([`DispatchShape::stages_operands`]: contractions, convolutions and
/// generics written as either), its elements compute in 32 bits, and its reduction
/// (static) fits the loop budget. Each tile fits the target's
/// invocations and workgroup memory, and its staging divides evenly over
/// its invocations. Each block comes double-buffered (preferred where its
/// two stages take at most half the workgroup memory) and
/// single-buffered.
pub(super) fn shared_tiles(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Vec<(u32, Distribution)> {
    if !shape.stages_operands || !shape.tile_shares_loads {
        return Vec::new();
    }
    let fits_32 = |e: &ElemType| {
        matches!(e, ElemType::F32 | ElemType::F16 | ElemType::BF16)
            || matches!(e, ElemType::Int(w) if *w <= 32)
    };
    if !shape.elems.iter().all(fits_32) {
        return Vec::new();
    }
    let n = shape.points.len();
    if n < 2 {
        return Vec::new();
    }
    let budget = target.loop_budget();
    let Some(red) = shape.reduction.and_then(|r| r.fixed()).filter(|&r| r > 0) else {
        return Vec::new();
    };
    let (rows, cols) = (shape.points[n - 2].fixed(), shape.points[n - 1].fixed());
    let batch = shape.points[..n - 2]
        .iter()
        .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?));
    let big = match (rows, cols, batch) {
        (Some(r), Some(c), Some(b)) => r >= 128 && c >= 128 && r * c * b >= 2048 * 2048,
        _ => true,
    };
    let small = rows.is_some_and(|r| r < 64) || cols.is_some_and(|c| c < 64);
    let table = if big {
        SHARED_BIG
    } else if small {
        SHARED_SMALL
    } else {
        SHARED_MEDIUM
    };
    let memory = target.env.limits.max_compute_shared_memory_size;
    table
        .iter()
        .flat_map(|&(block_rows, block_cols, depth, r, c)| {
            // Double buffering first, unless the two stages would take more
            // than half the workgroup memory: fewer workgroups then share
            // a compute unit (an H200's 4096^3 matmul: 128x128x16 blocks
            // 4.24 ms double-buffered, 3.79 ms single, in two runs).
            let order = if double_fills_half(block_rows, block_cols, depth, memory) {
                [false, true]
            } else {
                [true, false]
            };
            order.map(|double| Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                rows: r,
                cols: c,
                double,
            })
        })
        .filter_map(|d| {
            let Distribution::SharedTile {
                block_rows,
                block_cols,
                depth,
                ..
            } = d
            else {
                return None;
            };
            let wg = d.shared_tile_invocations()?;
            let loops = red + red.div_ceil(u64::from(depth));
            (wg <= max_inv
                && (block_rows * depth) % wg == 0
                && (block_cols * depth) % wg == 0
                && d.shared_tile_bytes() <= memory
                && loops <= budget)
                .then_some((wg, d))
        })
        .collect()
}

/// The heuristic's workgroup-memory tile: the first of
/// [`shared_tiles`], or on a GPU whose fill is known
/// ([`CodegenTarget::fill_invocations`]) and a static space, the first
/// whose blocks run half the fill's invocations, else the first that
/// runs an eighth of it (as register tiles are sized), else none (the
/// register tile's finer split fills the device better).
pub(super) fn shared_tile_pick(
    target: &CodegenTarget,
    shape: &DispatchShape,
    max_inv: u32,
) -> Option<(u32, Distribution)> {
    let all = shared_tiles(target, shape, max_inv);
    if all.is_empty() {
        return None;
    }
    let (Some(fill), Some(_)) = (target.fill_invocations(), shape.static_points()) else {
        return all.first().copied();
    };
    let n = shape.points.len();
    let fixed = |s: &Size| s.fixed().unwrap_or(1);
    let batch: u64 = shape.points[..n - 2].iter().map(fixed).product();
    let (rows, cols) = (fixed(&shape.points[n - 2]), fixed(&shape.points[n - 1]));
    let invocations = |wg: u32, d: &Distribution| match *d {
        Distribution::SharedTile {
            block_rows,
            block_cols,
            ..
        } => {
            batch
                * rows.div_ceil(u64::from(block_rows))
                * cols.div_ceil(u64::from(block_cols))
                * u64::from(wg)
        }
        _ => 0,
    };
    [fill / 2, fill / 8].into_iter().find_map(|want| {
        all.iter()
            .find(|(wg, d)| invocations(*wg, d) >= want)
            .copied()
    })
}

fn size_text(s: Size) -> String {
    match s {
        Size::Static(n) => n.to_string(),
        Size::Slot(_) => "?".into(),
    }
}

/// Softmax rows on `wg` invocations per workgroup, distributed by
/// `dist`: a row per invocation (`Points`), a workgroup per row (its
/// invocations' folds combined through subgroup operations and workgroup
/// memory, or one subgroup's operations alone when the workgroup is one
/// subgroup), or a row per subgroup (`RowSlices` of the subgroup size:
/// several rows per workgroup, each combined by subgroup operations with
/// no workgroup memory or barrier; a workgroup per row where the env
/// cannot guarantee that a slice is one subgroup).
fn softmax_rows(
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
fn softmax_candidates(
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

fn choose_softmax(
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
            || shape.elems == [ElemType::F16] && super::types::f16_stored_natively(target))
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

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::codegen::target::DriverFacts;
    use crate::target::TargetEnv;

    /// An f32 `m x k x n` matmul's dispatch shape.
    pub(in crate::codegen::strategy) fn matmul_shape(m: u64, k: u64, n: u64) -> DispatchShape {
        DispatchShape {
            family: OpFamily::Contraction,
            points: vec![Size::Static(m), Size::Static(n)],
            reduction: Some(Size::Static(k)),
            combinable: true,
            elems: vec![ElemType::F32],
            acc_elems: vec![ElemType::F32],
            tile_shares_loads: true,
            reduction_innermost: true,
            stages_operands: true,
            coop_matmul: None,
            streams_rows: false,
            sums_rows: false,
            row_passes: 0,
        }
    }

    /// `t` with f16 stored natively (`Float16` and 16-bit storage access).
    pub(in crate::codegen::strategy) fn with_native_f16(t: &CodegenTarget) -> CodegenTarget {
        let mut native = t.clone();
        native
            .env
            .vce
            .capabilities
            .extend([Capability::Float16, Capability::StorageBuffer16BitAccess]);
        native
    }

    /// A target with `invocations` per workgroup and `memory` bytes of
    /// workgroup memory, no driver quirks.
    pub(in crate::codegen::strategy) fn gpu(invocations: u32, memory: u32) -> CodegenTarget {
        let mut env = TargetEnv::default();
        env.limits.max_compute_workgroup_invocations = invocations;
        env.limits.max_compute_workgroup_size = [invocations, invocations, 64];
        env.limits.max_compute_shared_memory_size = memory;
        CodegenTarget::new(
            env,
            DriverFacts {
                loop_iteration_cap: None,
                barriers_serialize: false,
                texel_reads: None,
                word_stores: false,
            },
        )
    }

    pub(in crate::codegen::strategy) fn chosen(
        t: &CodegenTarget,
        shape: &DispatchShape,
    ) -> Strategy {
        choose(t, shape, crate::ir::Location::UNKNOWN).unwrap()
    }

    #[test]
    fn gpus_take_workgroup_memory_tiles_within_their_limits() {
        let big = gpu(1024, 49152);
        let s = chosen(&big, &matmul_shape(4096, 4096, 4096));
        assert_eq!(
            s.distribution,
            Distribution::SharedTile {
                block_rows: 128,
                block_cols: 128,
                depth: 16,
                rows: 8,
                cols: 8,
                // Two 16 KiB stages would take more than half of 48 KiB.
                double: false,
            }
        );
        assert_eq!(s.workgroup_size, [256, 1, 1]);
        assert_eq!(s.workgroup_memory, s.distribution.shared_tile_bytes());
        let medium = chosen(&big, &matmul_shape(512, 512, 512));
        assert!(matches!(
            medium.distribution,
            Distribution::SharedTile {
                block_rows: 64,
                block_cols: 64,
                ..
            }
        ));
        let small = chosen(&big, &matmul_shape(20, 300, 1000));
        assert!(matches!(
            small.distribution,
            Distribution::SharedTile {
                block_rows: 32,
                block_cols: 32,
                ..
            }
        ));
        // Fewer invocations and 16 KiB: a smaller block that fits both.
        let limited = gpu(128, 16384);
        let s = chosen(&limited, &matmul_shape(4096, 4096, 4096));
        let wg = s.distribution.shared_tile_invocations().unwrap();
        assert!(wg <= 128 && s.workgroup_size == [wg, 1, 1], "{s}");
        assert!(s.workgroup_memory <= 16384, "{s}");
    }

    #[test]
    fn a_discrete_gpu_takes_blocks_that_fill_it() {
        let mut t = gpu(1024, 49152);
        t.env.device.device_type = crate::target::DeviceType::DiscreteGpu;
        let block = |s: &Strategy| match s.distribution {
            Distribution::SharedTile {
                block_rows,
                block_cols,
                ..
            } => Some((block_rows, block_cols)),
            _ => None,
        };
        // 4096^2: 1,024 blocks of 128 x 128 fill it.
        let s = chosen(&t, &matmul_shape(4096, 4096, 4096));
        assert_eq!(block(&s), Some((128, 128)), "{s}");
        // 1024^2: 256 blocks of 64 x 64 (the medium outputs' block) run
        // the whole fill.
        let s = chosen(&t, &matmul_shape(1024, 1024, 1024));
        assert_eq!(block(&s), Some((64, 64)), "{s}");
        // 2048^2: 256 blocks of 128 x 128 run the whole fill.
        let s = chosen(&t, &matmul_shape(2048, 2048, 2048));
        assert_eq!(block(&s), Some((128, 128)), "{s}");
        // A transformer's 128 x 256 projection: small blocks, at least an
        // eighth of the fill.
        let s = chosen(&t, &matmul_shape(128, 256, 256));
        let (r, c) = block(&s).expect("a shared tile");
        let n = 128u64.div_ceil(u64::from(r)) * 256u64.div_ceil(u64::from(c));
        assert!(n * u64::from(s.workgroup_size[0]) >= 8192, "{s}");
        // 8 x 8 outputs cannot fill it: the register tile's finer split.
        let s = chosen(&t, &matmul_shape(8, 64, 8));
        assert!(block(&s).is_none(), "{s}");
    }

    #[test]
    fn serializing_barriers_keep_register_tiles_and_tune_may_try_shared_ones() {
        let mut lavapipe = gpu(1024, 32768);
        lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        let shape = matmul_shape(512, 512, 512);
        let s = chosen(&lavapipe, &shape);
        assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
        let c = candidates(&lavapipe, &shape, crate::ir::Location::UNKNOWN).unwrap();
        assert!(c
            .iter()
            .any(|c| matches!(c.distribution, Distribution::SharedTile { .. })));
        // kiln's CPU runner (cheap barriers as far as the facts say, a
        // CPU device) keeps them too.
        let mut cpu = gpu(1024, 32768);
        cpu.env.device.device_type = crate::target::DeviceType::Cpu;
        let s = chosen(&cpu, &shape);
        assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
        // Every shared candidate is consistent: its invocations, and its
        // staging divides evenly over them.
        for ch in &c {
            if let Some(wg) = ch.distribution.shared_tile_invocations() {
                assert_eq!(wg, ch.workgroup, "{}", ch.to_text());
            }
        }
    }

    #[test]
    fn shapes_without_staged_operands_keep_other_strategies() {
        let big = gpu(1024, 49152);
        let mut shape = matmul_shape(512, 512, 512);
        shape.stages_operands = false;
        let s = chosen(&big, &shape);
        assert!(matches!(s.distribution, Distribution::Tile { .. }), "{s}");
        // 64-bit elements do not take workgroup-memory tiles.
        let mut shape = matmul_shape(512, 512, 512);
        shape.elems = vec![ElemType::I64];
        let s = chosen(&big, &shape);
        assert!(
            !matches!(s.distribution, Distribution::SharedTile { .. }),
            "{s}"
        );
        // A dynamic reduction neither.
        let mut shape = matmul_shape(512, 512, 512);
        shape.reduction = Some(Size::Slot(0));
        let s = chosen(&big, &shape);
        assert!(
            !matches!(s.distribution, Distribution::SharedTile { .. }),
            "{s}"
        );
    }

    /// An f32 softmax over rows of `len`, `rows` of them.
    pub(in crate::codegen::strategy) fn softmax_shape(rows: u64, len: u64) -> DispatchShape {
        DispatchShape {
            family: OpFamily::Softmax,
            points: vec![Size::Static(rows)],
            reduction: Some(Size::Static(len)),
            combinable: false,
            tile_shares_loads: false,
            reduction_innermost: true,
            stages_operands: false,
            row_passes: 3,
            ..matmul_shape(1, 1, 1)
        }
    }

    /// Long f32 softmax rows take a row per subgroup where barriers
    /// serialize (lavapipe) and subgroup arithmetic is there, combined by
    /// the subgroup alone; only where the smallest subgroup the device
    /// may run is the slice. Without subgroup arithmetic, a row per
    /// invocation as before; on a GPU, a workgroup per row.
    #[test]
    fn long_softmax_rows_take_a_subgroup_each_on_lavapipe() {
        let mut lavapipe = gpu(1024, 32768);
        lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        lavapipe.env.limits.subgroup_size = 8;
        lavapipe.env.limits.min_subgroup_size = Some(8);
        let mut plain = lavapipe.clone();
        for cap in [
            Capability::GroupNonUniform,
            Capability::GroupNonUniformArithmetic,
        ] {
            lavapipe.env.vce.capabilities.push(cap);
        }
        let s = chosen(&lavapipe, &softmax_shape(1024, 4096));
        assert_eq!(s.distribution, Distribution::RowSlices { slice: 8 }, "{s}");
        assert_eq!(
            s.reduction,
            Some(ReductionStrategy::Rows {
                combine: Some(Combine::OneSubgroup)
            })
        );
        assert_eq!((s.workgroup_size[0], s.workgroup_memory), (256, 0));
        let s = chosen(&lavapipe, &softmax_shape(100, 4096));
        assert_eq!(s.workgroup_size[0], 64, "{s}");
        // Short rows stay one per invocation; so do rows the subgroup's
        // vec4 groups do not divide.
        for len in [256, 1000] {
            let s = chosen(&lavapipe, &softmax_shape(1024, len));
            assert_eq!(
                s.distribution,
                Distribution::Points { per_invocation: 1 },
                "{len}: {s}"
            );
        }
        // Subgroups that may be smaller than the reported size: no slice.
        let mut varying = lavapipe.clone();
        varying.env.limits.min_subgroup_size = Some(4);
        assert!(!varying.is_one_subgroup(8));
        let s = chosen(&varying, &softmax_shape(1024, 4096));
        assert_eq!(
            s.distribution,
            Distribution::Points { per_invocation: 1 },
            "{s}"
        );
        let s = chosen(&plain, &softmax_shape(1024, 4096));
        assert_eq!(
            s.distribution,
            Distribution::Points { per_invocation: 1 },
            "{s}"
        );
        plain.facts.barriers_serialize = false;
        let s = chosen(&plain, &softmax_shape(1024, 4096));
        assert_eq!(s.distribution, Distribution::WorkgroupPerPoint, "{s}");
    }

    #[test]
    fn lavapipe_takes_wide_tiles_that_pad_least() {
        let mut lavapipe = gpu(1024, 32768);
        lavapipe
            .env
            .vce
            .capabilities
            .push(Capability::SampledBuffer);
        lavapipe.env.limits.subgroup_size = 8;
        lavapipe.facts = DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", None);
        let tile_of = |t: &CodegenTarget, shape: &DispatchShape| {
            let s = chosen(t, shape);
            match s.distribution {
                Distribution::Tile { rows, cols, .. } => (s.workgroup_size[0], rows, cols),
                other => panic!("{other:?}"),
            }
        };
        let mm = |t: &CodegenTarget, m, k, n| tile_of(t, &matmul_shape(m, k, n));
        // 32 columns where 32 invocations cover the columns exactly ...
        assert_eq!(mm(&lavapipe, 1024, 1024, 1024), (32, 32, 32));
        // ... or 16 do.
        assert_eq!(mm(&lavapipe, 512, 512, 512), (16, 32, 32));
        // 1000 rows = 40 x 25: the least padding among 24..32 rows.
        assert_eq!(mm(&lavapipe, 1000, 64, 512), (16, 25, 32));
        // 64 columns (a convolution's filters): 8 columns per invocation
        // and 8 invocations; 54 x 54 output rows = 108 tiles of 27.
        assert_eq!(mm(&lavapipe, 2916, 576, 64), (8, 27, 8));
        // 128 x 256 outputs: 32 rows would leave 4 tiles; 16 leave 8.
        assert_eq!(mm(&lavapipe, 128, 256, 256), (8, 16, 32));
        // 54 rows: 6 rows of 32 columns leave 9 tiles and pad nothing.
        assert_eq!(mm(&lavapipe, 54, 576, 1024), (32, 6, 32));
        // 8 reduction steps per iteration on lavapipe, 4 elsewhere.
        let depth =
            |t: &CodegenTarget| match chosen(t, &matmul_shape(1024, 1024, 1024)).distribution {
                Distribution::Tile { depth, .. } => depth,
                other => panic!("{other:?}"),
            };
        assert_eq!(depth(&lavapipe), 8);
        // Without texel reads, and on a GPU: at most 16 rows of 4.
        let mut plain = lavapipe.clone();
        plain.facts.texel_reads = None;
        assert_eq!(mm(&plain, 1024, 1024, 1024).1, 16);
        assert_eq!(mm(&plain, 1024, 1024, 1024).2, 4);
        assert_eq!(mm(&gpu(1024, 0), 1024, 1024, 1024).1, 16);
        assert_eq!(depth(&plain), 4);
        assert_eq!(depth(&gpu(1024, 0)), 4);
        // f16 operands are not texels.
        let mut f16 = matmul_shape(1024, 1024, 1024);
        f16.elems = vec![ElemType::F16, ElemType::F32];
        assert_eq!(tile_of(&lavapipe, &f16).1, 16);
        assert_eq!(tile_of(&lavapipe, &f16).2, 4);
        // Stored natively (read through RGBA16F views), f16 operands take
        // the deep tile where they accumulate in f32, and at most 256
        // points 4 steps deep where the accumulator is f16 (rounded at
        // every step).
        let native = with_native_f16(&lavapipe);
        let tile = |acc: ElemType| {
            let mut sh = matmul_shape(512, 512, 512);
            sh.elems = vec![ElemType::F16, acc];
            sh.acc_elems = vec![acc];
            match chosen(&native, &sh).distribution {
                Distribution::Tile { rows, cols, depth } => (rows, cols, depth),
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(tile(ElemType::F32), (32, 32, 8));
        assert_eq!(tile(ElemType::F16), (16, 16, 4));
    }
}
