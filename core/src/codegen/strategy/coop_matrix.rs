//! The cooperative-matrix matmul strategy ([`Distribution::CoopMatrix`]):
//! where the target env lists `SPV_KHR_cooperative_matrix` configurations
//! (`cooperative_matrix_properties_khr`) for a dispatch's types at
//! `Subgroup` scope, a plain f16 x f16 -> f32 (or f16) matmul whose sizes
//! are multiples of a configuration's tile runs as one subgroup per
//! workgroup, each computing one `m_size` x `n_size` tile of the output
//! with `k_size`-deep multiply-adds (the kernel is
//! `kernels/coop_matmul.rs`). Anything else keeps the other strategies.
//!
//! "Plain" ([`plain_matmul`]): the dispatch is a `linalg.matmul` (2-D, no
//! fused epilogue) whose A and B are read from memory as they are (an
//! argument, a constant or another dispatch's result, not a view) and
//! whose output init is in memory too or a `linalg.fill`.

use crate::grammar::{Capability, Scope};
use crate::ir::FloatKind;
use crate::target::ScalarType;
use crate::tensor::ops::{ContractionKind, LinalgKind, OpKind};
use crate::tensor::types::ElemType;

use super::super::analysis::FuncInfo;
use super::super::host::Size;
use super::super::regions::{fused_ops, DispatchRegion, FuncRegions, ValueFate};
use super::super::target::CodegenTarget;
use super::{DispatchShape, Distribution, ReductionStrategy, Strategy, TypeRepr};

/// The element types of a plain matmul dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulTypes {
    /// A's and B's element type.
    pub input: ElemType,
    /// The output's (and accumulator's) element type.
    pub acc: ElemType,
}

/// The types of dispatch `d` when it is a plain matmul (see the module
/// documentation), else `None`.
pub fn plain_matmul(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    d: &DispatchRegion,
) -> Option<MatmulTypes> {
    let m = info.m;
    let root = d.root?;
    if root != d.op {
        return None;
    }
    let OpKind::Linalg(l) = &m.op(root).kind else {
        return None;
    };
    if !matches!(l.kind, LinalgKind::Contraction(ContractionKind::Matmul)) {
        return None;
    }
    let s = info.structured.get(&root)?;
    let (&[a, b], &[init]) = (s.inputs.as_slice(), s.outputs.as_slice()) else {
        return None;
    };
    let result = *m.op(root).results.first()?;
    if d.stored != [result] {
        return None;
    }
    let in_memory = |v| matches!(regions.fate(v), ValueFate::Source | ValueFate::Stored(_));
    if !in_memory(a) || !in_memory(b) {
        return None;
    }
    let fused = fused_ops(info, regions, d.op);
    if !in_memory(init) {
        // A fill (and what it is computed from) is the only fused work.
        let fill = info.def_op(init)?;
        let is_fill =
            matches!(&m.op(fill).kind, OpKind::Linalg(f) if matches!(f.kind, LinalgKind::Fill));
        if !is_fill {
            return None;
        }
        let mut allowed = fused_ops(info, regions, fill);
        allowed.push(fill);
        if fused.iter().any(|f| !allowed.contains(f)) {
            return None;
        }
    } else if !fused.is_empty() {
        return None;
    }
    let input = m.value_kind(a).elem();
    if m.value_kind(b).elem() != input {
        return None;
    }
    Some(MatmulTypes {
        input,
        acc: m.value_kind(result).elem(),
    })
}

/// The spelling of `e` among a configuration's component types.
fn scalar(e: ElemType) -> Option<ScalarType> {
    match e {
        ElemType::F16 => Some(ScalarType::Float(FloatKind::F16)),
        ElemType::F32 => Some(ScalarType::Float(FloatKind::F32)),
        _ => None,
    }
}

/// The cooperative-matrix strategy of `shape` on `target`, when it
/// applies; `base` gives the fields the other strategies share.
pub(super) fn strategy(
    target: &CodegenTarget,
    shape: &DispatchShape,
    base: &Strategy,
) -> Option<Strategy> {
    let types = shape.coop_matmul?;
    // f16 inputs with an f32 or f16 accumulator, stored natively.
    if types.input != ElemType::F16 || !matches!(types.acc, ElemType::F32 | ElemType::F16) {
        return None;
    }
    let native = |e: ElemType| matches!(base.repr(e), TypeRepr::Native | TypeRepr::F16Storage);
    if !native(types.input) || !native(types.acc) {
        return None;
    }
    for cap in [
        Capability::CooperativeMatrixKHR,
        Capability::VulkanMemoryModel,
    ] {
        if !target.has(cap) {
            return None;
        }
    }
    // One subgroup per workgroup: the subgroup size must be fixed.
    let limits = &target.env.limits;
    let sg = target.subgroup_size();
    if limits.min_subgroup_size.is_some_and(|s| s != sg)
        || limits.max_subgroup_size.is_some_and(|s| s != sg)
        || sg == 0
        || sg > target.max_invocations()
    {
        return None;
    }
    let [Size::Static(rows), Size::Static(cols)] = shape.points[..] else {
        return None;
    };
    let Some(Size::Static(depth)) = shape.reduction else {
        return None;
    };
    let (input, acc) = (scalar(types.input)?, scalar(types.acc)?);
    let fits = |p: &crate::target::CoopMatrixPropertiesKhr| {
        p.scope == Scope::Subgroup
            && p.a_type == input
            && p.b_type == input
            && p.c_type == acc
            && p.result_type == acc
            && p.m_size > 0
            && p.n_size > 0
            && p.k_size > 0
            && rows % u64::from(p.m_size) == 0
            && cols % u64::from(p.n_size) == 0
            && depth % u64::from(p.k_size) == 0
    };
    // The largest tile that fits (more work per multiply-add).
    let p = limits
        .cooperative_matrix_properties_khr
        .iter()
        .filter(|p| fits(p))
        .max_by_key(|p| u64::from(p.m_size) * u64::from(p.n_size) * u64::from(p.k_size))?;
    let steps = depth / u64::from(p.k_size);
    if steps > base.loop_budget {
        return None;
    }
    let tile = [p.m_size, p.n_size];
    let grids = grids(target, [rows, cols], tile, sg);
    let (tiles, subgroups) = heuristic_grid(target, [rows, cols], tile, sg, &grids)?;
    let mut s = base.clone();
    s.workgroup_size = [sg * subgroups[0] * subgroups[1], 1, 1];
    s.distribution = Distribution::CoopMatrix {
        m: p.m_size,
        n: p.n_size,
        k: p.k_size,
        tiles,
        subgroups,
    };
    s.reduction = Some(ReductionStrategy::Serial {
        chunk: depth,
        chunked: false,
    });
    s.workgroup_memory = 0;
    s.reason = format!(
        "{}x{}x{} sizes are multiples of the env's {}x{}x{} {} x {} -> {} cooperative matrix (Subgroup): {}x{} tiles per subgroup of {sg} ({:.1} multiply-adds per tile loaded), {}x{} subgroups per workgroup, {steps} steps over K",
        rows,
        depth,
        cols,
        p.m_size,
        p.n_size,
        p.k_size,
        input,
        input,
        acc,
        tiles[0],
        tiles[1],
        // Each A tile serves a row of tiles, each B tile a column.
        (tiles[0] * tiles[1]) as f64 / f64::from(tiles[0] + tiles[1]),
        subgroups[0],
        subgroups[1],
    );
    Some(s)
}

/// Tile grids per subgroup, the most multiply-adds per tile loaded first
/// (each needs `tiles[0] * tiles[1]` accumulators in registers).
const TILE_GRIDS: [[u32; 2]; 6] = [[4, 2], [2, 4], [2, 2], [2, 1], [1, 2], [1, 1]];

/// Subgroup grids per workgroup, the most sharing first.
const SUBGROUP_GRIDS: [[u32; 2]; 3] = [[2, 2], [2, 1], [1, 1]];

/// Every (tile grid, subgroup grid) whose block divides an `out` output of
/// `tile`-sized tiles, in preference order, within the workgroup limit.
fn grids(
    target: &CodegenTarget,
    out: [u64; 2],
    tile: [u32; 2],
    sg: u32,
) -> Vec<([u32; 2], [u32; 2])> {
    let mut v = Vec::new();
    for t in TILE_GRIDS {
        for g in SUBGROUP_GRIDS {
            let block = |d: usize| u64::from(tile[d]) * u64::from(t[d]) * u64::from(g[d]);
            if out[0] % block(0) == 0
                && out[1] % block(1) == 0
                && sg * g[0] * g[1] <= target.max_invocations()
            {
                v.push((t, g));
            }
        }
    }
    v
}

/// The heuristic's grid among `grids`: the largest tile grid that still
/// leaves enough subgroups to fill the device (an eighth of
/// [`CodegenTarget::fill_invocations`]; any, where that is unknown), then
/// the largest subgroup grid that leaves as many workgroups.
fn heuristic_grid(
    target: &CodegenTarget,
    out: [u64; 2],
    tile: [u32; 2],
    sg: u32,
    grids: &[([u32; 2], [u32; 2])],
) -> Option<([u32; 2], [u32; 2])> {
    let want = target
        .fill_invocations()
        .map_or(1, |f| (f / u64::from(sg) / 8).max(1));
    let count = |t: [u32; 2], g: [u32; 2]| {
        (out[0] / (u64::from(tile[0]) * u64::from(t[0]) * u64::from(g[0])))
            * (out[1] / (u64::from(tile[1]) * u64::from(t[1]) * u64::from(g[1])))
    };
    let tiles = grids
        .iter()
        .map(|&(t, _)| t)
        .find(|&t| count(t, [1, 1]) >= want)
        .or_else(|| grids.last().map(|&(t, _)| t))?;
    grids
        .iter()
        .filter(|&&(t, _)| t == tiles)
        .find(|&&(_, g)| g == [1, 1] || count(tiles, g) >= want)
        .copied()
}

/// The cooperative-matrix choices `kiln tune` may time for `shape` where
/// the heuristic chose `default` (a cooperative-matrix strategy): every
/// tile and subgroup grid that divides the output.
pub(super) fn candidates(
    target: &CodegenTarget,
    shape: &DispatchShape,
    default: &Strategy,
) -> Vec<(u32, Distribution)> {
    let Distribution::CoopMatrix { m, n, k, .. } = default.distribution else {
        return Vec::new();
    };
    let [Size::Static(rows), Size::Static(cols)] = shape.points[..] else {
        return Vec::new();
    };
    let sg = target.subgroup_size();
    grids(target, [rows, cols], [m, n], sg)
        .into_iter()
        .map(|(tiles, subgroups)| {
            (
                sg * subgroups[0] * subgroups[1],
                Distribution::CoopMatrix {
                    m,
                    n,
                    k,
                    tiles,
                    subgroups,
                },
            )
        })
        .collect()
}
