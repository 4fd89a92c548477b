//! The cooperative-matrix matmul strategy ([`Distribution::CoopMatrix`]):
//! where the target env lists `SPV_KHR_cooperative_matrix` configurations
//! (`cooperative_matrix_properties_khr`) for a dispatch's types at
//! `Subgroup` scope, an f16 x f16 -> f32 (or f16) matmul runs as one
//! subgroup per `tiles` grid of `m_size` x `n_size` output tiles, each
//! with `k_size`-deep multiply-adds (the kernel is
//! `kernels/coop_matmul.rs`). Anything else keeps the other strategies.
//!
//! What qualifies ([`plain_matmul`]): a `linalg.matmul`,
//! `linalg.matmul_transpose_a`, `linalg.matmul_transpose_b` or
//! `linalg.batch_matmul` whose A and B are read from memory as they are
//! (an argument, a constant or another dispatch's result, not a view), or
//! a `linalg.conv_2d_nhwc_hwcf` as an implicit GEMM (`implicit_gemm.rs`:
//! its A gathered from the input, which may be a padding computed in the
//! dispatch),
//! whose output init is in memory or a `linalg.fill`, and whose dispatch
//! may go on with element-wise ops on its result (an epilogue: a bias
//! added through a broadcasting map, an activation, a cast), all-parallel
//! structured ops over the matmul's output space that read the matmul
//! (and each other) through identity maps, so the value at an output
//! point is the accumulator's element there.
//!
//! Sizes need not be multiples of a tile: a block that reaches past M or
//! N, or a K that is not a multiple of `k_size`, is staged through
//! workgroup memory with zero padding (exact: a zero product adds
//! nothing), and its stores are guarded; an epilogue reads the
//! accumulator tiles back from workgroup memory. Only an in-memory init
//! needs the sizes to be multiples of the block.
//!
//! Whole blocks either load their tiles straight from memory (through
//! the cache) or, with a [`CoopStage`], stage the block's A and B slices
//! in workgroup memory a step of 32 or 64 iterations of K at a time with
//! 16-byte loads, padded rows, single- or double-buffered: the
//! heuristic stages blocks of more than one tile where K holds a step
//! and the workgroup memory fits (the first of [`stages`]), and `kiln
//! tune` times the others.

use crate::grammar::{Capability, Scope};
use crate::ir::FloatKind;
use crate::target::ScalarType;
use crate::tensor::attr::IteratorType;
use crate::tensor::ops::{ContractionKind, LinalgKind, OpKind, TensorOp};
use crate::tensor::types::ElemType;
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::host::Size;
use super::super::regions::{fused_ops, DispatchRegion, FuncRegions, ValueFate};
use super::super::target::CodegenTarget;
use super::coop_transposed::read_transposed;
use super::implicit_gemm::{gathered_input, implicit_gemm};
use super::{CoopStage, DispatchShape, Distribution, ReductionStrategy, Strategy, TypeRepr};

/// How a cooperative-matrix matmul reads A and B (the contraction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatmulLayout {
    /// `linalg.matmul`: A is M x K, B is K x N, row-major.
    Plain,
    /// `linalg.matmul_transpose_a`: A is stored K x M.
    TransposeA,
    /// `linalg.matmul_transpose_b`: B is stored N x K (a linear layer's
    /// weight, attention's keys).
    TransposeB,
    /// `linalg.batch_matmul`: B x M x K times B x K x N.
    Batch,
    /// `linalg.batch_matmul` whose B is a transpose of a B x N x K value
    /// in memory (attention's keys: `coop_transposed.rs`).
    BatchTransposeB,
    /// A convolution as an implicit GEMM (`implicit_gemm.rs`): A is
    /// gathered from the input through the root's input map (M x K, never
    /// loaded as tiles), B is the filter as the row-major K x N matrix it
    /// is, the output the row-major M x N matrix.
    ImplicitGemm,
}

impl MatmulLayout {
    /// Whether B is stored N x K (its tiles column-major).
    pub fn transposes_b(self) -> bool {
        matches!(
            self,
            MatmulLayout::TransposeB | MatmulLayout::BatchTransposeB
        )
    }

    /// Whether the operands and the result have a batch dimension.
    pub fn batched(self) -> bool {
        matches!(self, MatmulLayout::Batch | MatmulLayout::BatchTransposeB)
    }
}

/// The element types and form of a matmul dispatch that may use
/// cooperative matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulTypes {
    /// A's and B's element type.
    pub input: ElemType,
    /// The accumulator's element type: the result's, except that an f16
    /// result accumulates in f32 and rounds once on the way out (as every
    /// other kernel and the reference evaluator sum f16: `kernels/reduce.rs`
    /// `accumulates_in_f32`), through the staged results.
    pub acc: ElemType,
    /// The matmul's result element type.
    pub result: ElemType,
    /// How A and B are laid out.
    pub layout: MatmulLayout,
    /// Element-wise ops fused after the matmul, applied to the
    /// accumulator before the store.
    pub epilogue: usize,
    /// Whether the init is read from memory (else a `linalg.fill`).
    pub init_in_memory: bool,
}

/// The value `v` is a view of through `tensor.cast`s computed in the
/// dispatch.
fn through_casts(info: &FuncInfo<'_>, regions: &FuncRegions, mut v: TValue) -> TValue {
    while let Some(p) = info.def_op(v) {
        if !matches!(info.m.op(p).kind, OpKind::Tensor(TensorOp::Cast))
            || regions.fate(v) != ValueFate::Inlined
        {
            break;
        }
        v = info.m.op(p).operands[0];
    }
    v
}

/// Whether the fused ops `ops` (not the root or its fill) form an
/// epilogue of `root`: all-parallel structured ops (or casts) over the
/// root's `rank`-D output space with identity output maps, reading the
/// root's result and each other's through identity maps.
fn is_epilogue(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    root: TOp,
    ops: &[TOp],
    rank: usize,
) -> bool {
    let m = info.m;
    ops.iter().all(|&op| {
        if matches!(m.op(op).kind, OpKind::Tensor(TensorOp::Cast)) {
            return true;
        }
        if !matches!(m.op(op).kind, OpKind::Linalg(_)) {
            return false;
        }
        let Some(s) = info.structured.get(&op) else {
            return false;
        };
        if s.num_loops() != rank
            || s.iterator_types
                .iter()
                .any(|t| *t != IteratorType::Parallel)
            || s.indexing_maps[s.inputs.len()..]
                .iter()
                .any(|map| !map.is_identity())
        {
            return false;
        }
        s.inputs.iter().zip(&s.indexing_maps).all(|(&v, map)| {
            let src = through_casts(info, regions, v);
            let chained = info
                .def_op(src)
                .is_some_and(|p| p == root || ops.contains(&p));
            !chained || map.is_identity()
        })
    })
}

/// The types and form of dispatch `d` when it is a matmul that
/// cooperative matrices may compute (see the module documentation), else
/// `None`.
pub fn plain_matmul(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    d: &DispatchRegion,
) -> Option<MatmulTypes> {
    let m = info.m;
    let root = d.root?;
    let OpKind::Linalg(l) = &m.op(root).kind else {
        return None;
    };
    let s = info.structured.get(&root)?;
    let mut layout = match l.kind {
        LinalgKind::Conv(..) if implicit_gemm(s) => MatmulLayout::ImplicitGemm,
        LinalgKind::Contraction(ContractionKind::Matmul) => MatmulLayout::Plain,
        LinalgKind::Contraction(ContractionKind::MatmulTransposeA) => MatmulLayout::TransposeA,
        LinalgKind::Contraction(ContractionKind::MatmulTransposeB) => MatmulLayout::TransposeB,
        LinalgKind::Contraction(ContractionKind::BatchMatmul) => MatmulLayout::Batch,
        _ => return None,
    };
    let (&[a, b], &[init]) = (s.inputs.as_slice(), s.outputs.as_slice()) else {
        return None;
    };
    let result = *m.op(root).results.first()?;
    let rank = m.value_kind(result).tensor_shape()?.len();
    let in_memory = |v| matches!(regions.fate(v), ValueFate::Source | ValueFate::Stored(_));
    // A gathered A may be a padding computed in the dispatch; an A or B
    // of a plain or batch matmul a transpose of a value in memory.
    let a_ops = if layout == MatmulLayout::ImplicitGemm {
        if !in_memory(b) {
            return None;
        }
        gathered_input(info, regions, a)?
    } else if in_memory(a) && in_memory(b) {
        Vec::new()
    } else {
        let (transposed, t) = read_transposed(info, regions, layout, [a, b], in_memory)?;
        layout = transposed;
        vec![t]
    };
    // What the dispatch computes besides the root: A's padding or an
    // operand's transpose, the init's fill (and what it is computed from), then the epilogue.
    let mut prologue = vec![root];
    prologue.extend(a_ops);
    if !in_memory(init) {
        let fill = info.def_op(init)?;
        let is_fill =
            matches!(&m.op(fill).kind, OpKind::Linalg(f) if matches!(f.kind, LinalgKind::Fill));
        if !is_fill {
            return None;
        }
        prologue.extend(fused_ops(info, regions, fill));
        prologue.push(fill);
    }
    let mut epilogue: Vec<TOp> = fused_ops(info, regions, d.op)
        .into_iter()
        .filter(|f| !prologue.contains(f))
        .collect();
    if d.op == root {
        if !epilogue.is_empty() || d.stored != [result] {
            return None;
        }
    } else {
        epilogue.push(d.op);
        let ours = &m.op(d.op).results;
        if d.stored.is_empty()
            || d.stored.iter().any(|v| !ours.contains(v))
            || !is_epilogue(info, regions, root, &epilogue, rank)
        {
            return None;
        }
    }
    let input = m.value_kind(a).elem();
    if m.value_kind(b).elem() != input {
        return None;
    }
    let result_elem = m.value_kind(result).elem();
    Some(MatmulTypes {
        input,
        acc: match result_elem {
            ElemType::F16 => ElemType::F32,
            e => e,
        },
        result: result_elem,
        layout,
        epilogue: epilogue.len(),
        init_in_memory: in_memory(init),
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

/// Bytes of `e` in a buffer.
fn bytes(e: ElemType) -> u32 {
    e.bits().div_ceil(8)
}

/// The static sizes of a cooperative-matrix dispatch: its batch (1 for a
/// 2-D matmul), rows, columns and depth. An implicit GEMM's rows are all
/// its points but the last (`N·OH·OW` of a convolution), its columns the
/// last.
pub(crate) fn coop_sizes(shape: &DispatchShape) -> Option<[u64; 4]> {
    let Some(Size::Static(depth)) = shape.reduction else {
        return None;
    };
    if shape
        .coop_matmul
        .is_some_and(|t| t.layout == MatmulLayout::ImplicitGemm)
    {
        let (&last, rest) = shape.points.split_last()?;
        let rows = rest
            .iter()
            .try_fold(1u64, |acc, s| acc.checked_mul(s.fixed()?))?;
        return Some([1, rows, last.fixed()?, depth]);
    }
    match shape.points[..] {
        [Size::Static(rows), Size::Static(cols)] => Some([1, rows, cols, depth]),
        [Size::Static(batch), Size::Static(rows), Size::Static(cols)] => {
            Some([batch, rows, cols, depth])
        }
        _ => None,
    }
}

/// What a cooperative-matrix dispatch stages through workgroup memory
/// (see `kernels/coop_matmul.rs`): its A and B blocks where the block
/// does not divide the output, the step does not divide K or the
/// distribution stages whole blocks too ([`CoopStage`]), its accumulator
/// tiles where an epilogue, guarded stores (the block does not divide
/// the output) or the rounding of an f32 accumulator to an f16 result
/// read them back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoopStaging {
    /// Some steps' A and B blocks go through workgroup memory
    /// (zero-padded outside the operands).
    pub operands: bool,
    /// The accumulator tiles go through workgroup memory before the
    /// epilogue and the (guarded) stores.
    pub results: bool,
    /// Reduction iterations per staged step: the [`CoopStage`]'s `k`
    /// where whole blocks are staged, else the tile's `k`.
    pub step: u32,
    /// Whole blocks stage their whole steps too (wide copies), with
    /// two buffers where `double`.
    pub whole: Option<CoopStage>,
}

impl CoopStaging {
    /// The staged buffers of each operand (2 where double-buffered).
    pub fn buffers(&self) -> u64 {
        match self.whole {
            Some(CoopStage { double: true, .. }) => 2,
            _ => 1,
        }
    }
}

/// Elements of padding after each row of a staged slice: 16 bytes of
/// f16, so rows stay 16-byte aligned and consecutive rows start in
/// different memory banks.
pub(crate) const STAGE_PAD: u64 = 8;

/// A staged operand slice in workgroup memory: `outer` rows of `inner`
/// elements that are contiguous in the operand, rows `stride` elements
/// apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StageSlice {
    /// Rows of the slice.
    pub outer: u64,
    /// Elements per row (contiguous in the operand).
    pub inner: u64,
    /// Elements from one row's start to the next's (`inner` padded).
    pub stride: u64,
}

impl StageSlice {
    /// Elements of workgroup memory the slice takes.
    pub(crate) fn elems(&self) -> u64 {
        self.outer * self.stride
    }
}

/// The staged A and B slices of a `block` (rows, columns) and a step of
/// `step` reduction iterations, each laid out as its operand is (rows
/// along the operand's contiguous dimension): A is `BM` rows of `step`
/// (`step` rows of `BM` where A is stored K x M), B `step` rows of `BN`
/// (`BN` rows of `step` where B is stored N x K).
pub(crate) fn stage_slices(layout: MatmulLayout, block: [u64; 2], step: u64) -> [StageSlice; 2] {
    let row = |outer, inner| StageSlice {
        outer,
        inner,
        stride: inner + STAGE_PAD,
    };
    let a = if layout == MatmulLayout::TransposeA {
        row(step, block[0])
    } else {
        row(block[0], step)
    };
    let b = if layout.transposes_b() {
        row(block[1], step)
    } else {
        row(step, block[1])
    };
    [a, b]
}

/// The staging of a `tile` x `k` cooperative-matrix `types` dispatch of
/// `sizes` whose workgroup computes a `block`, whole blocks staged as
/// `stage` says.
pub(crate) fn coop_staging(
    types: &MatmulTypes,
    sizes: [u64; 4],
    block: [u64; 2],
    k: u32,
    stage: Option<CoopStage>,
) -> CoopStaging {
    let [_, rows, cols, depth] = sizes;
    let edges = rows % block[0] != 0 || cols % block[1] != 0;
    let step = stage.map_or(k, |s| s.k);
    // A gathered A is never loaded as tiles: every step is staged.
    let gathered = types.layout == MatmulLayout::ImplicitGemm;
    CoopStaging {
        operands: edges || depth % u64::from(step) != 0 || stage.is_some() || gathered,
        results: edges || types.epilogue > 0 || types.acc != types.result,
        step,
        whole: stage,
    }
}

/// The workgroup memory of a cooperative-matrix `dist` for `shape`, in
/// bytes (0 when nothing is staged).
pub(super) fn workgroup_bytes(shape: &DispatchShape, dist: &Distribution) -> u32 {
    let (Some(types), Some(sizes)) = (shape.coop_matmul, coop_sizes(shape)) else {
        return 0;
    };
    let Distribution::CoopMatrix {
        m,
        n,
        k,
        tiles,
        subgroups,
        stage,
    } = *dist
    else {
        return 0;
    };
    let block = [
        u64::from(m * tiles[0] * subgroups[0]),
        u64::from(n * tiles[1] * subgroups[1]),
    ];
    let st = coop_staging(&types, sizes, block, k, stage);
    let mut total = 0u64;
    if st.operands {
        let [a, b] = stage_slices(types.layout, block, u64::from(st.step));
        total += (a.elems() + b.elems()) * st.buffers() * u64::from(bytes(types.input));
    }
    if st.results {
        total += u64::from(subgroups[0] * subgroups[1] * m * n * bytes(types.acc));
    }
    u32::try_from(total).unwrap_or(u32::MAX)
}

/// The ways whole blocks of a cooperative-matrix `dist` (its `stage`
/// ignored) may be staged for `shape` on `target`, the heuristic's
/// preference first: a step of 32 (or the tile's `k`, where larger)
/// double-buffered, 64 double-buffered, 32 and 64 single-buffered, each
/// where K holds at least one such step, the step is a multiple of the
/// tile's `k` and the workgroup memory fits; then loads straight from
/// memory (`None`), which always fits where the grid does.
fn stages(
    target: &CodegenTarget,
    shape: &DispatchShape,
    dist: Distribution,
) -> Vec<Option<CoopStage>> {
    let Distribution::CoopMatrix { k, .. } = dist else {
        return vec![None];
    };
    let depth = coop_sizes(shape).map_or(0, |s| s[3]);
    let memory = target.env.limits.max_compute_shared_memory_size;
    let mut v = Vec::new();
    for (step, double) in [(32, true), (64, true), (32, false), (64, false)] {
        let step = step.max(k);
        let stage = CoopStage { k: step, double };
        let with = match dist {
            Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
                ..
            } => Distribution::CoopMatrix {
                m,
                n,
                k,
                tiles,
                subgroups,
                stage: Some(stage),
            },
            other => other,
        };
        if step % k == 0
            && u64::from(step) <= depth
            && !v.contains(&Some(stage))
            && workgroup_bytes(shape, &with) <= memory
        {
            v.push(Some(stage));
        }
    }
    v.push(None);
    v
}

/// The cooperative-matrix strategy of `shape` on `target`, when it
/// applies; `base` gives the fields the other strategies share.
pub(super) fn strategy(
    target: &CodegenTarget,
    shape: &DispatchShape,
    base: &Strategy,
) -> Option<Strategy> {
    let types = shape.coop_matmul?;
    // f16 inputs with an f32 accumulator (an f16 result rounded from it),
    // stored natively.
    if types.input != ElemType::F16 || types.acc != ElemType::F32 {
        return None;
    }
    let native = |e: ElemType| matches!(base.repr(e), TypeRepr::Native | TypeRepr::F16Storage);
    if !native(types.input) || !native(types.result) {
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
    // The points must be the root's output space in order (the kernel
    // maps its tiles' elements to them).
    if !shape.point_dims.is_empty() {
        return None;
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
    let sizes @ [_, rows, cols, depth] = coop_sizes(shape)?;
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
    };
    let divides = |p: &&crate::target::CoopMatrixPropertiesKhr| {
        rows % u64::from(p.m_size) == 0
            && cols % u64::from(p.n_size) == 0
            && depth % u64::from(p.k_size) == 0
    };
    let volume = |p: &&crate::target::CoopMatrixPropertiesKhr| {
        u64::from(p.m_size) * u64::from(p.n_size) * u64::from(p.k_size)
    };
    // The largest tile that divides the sizes (more work per
    // multiply-add), else the largest tile, its edges padded.
    let configs = || {
        limits
            .cooperative_matrix_properties_khr
            .iter()
            .filter(|p| fits(p))
    };
    let p = configs()
        .filter(divides)
        .max_by_key(volume)
        .or_else(|| configs().max_by_key(volume))?;
    let steps = depth.div_ceil(u64::from(p.k_size));
    if steps > base.loop_budget {
        return None;
    }
    let tile = [p.m_size, p.n_size];
    let grids = grids(target, shape, [rows, cols], tile, p.k_size, sg);
    let (tiles, subgroups) = heuristic_grid(target, [rows, cols], tile, sg, &grids)?;
    let direct = Distribution::CoopMatrix {
        m: p.m_size,
        n: p.n_size,
        k: p.k_size,
        tiles,
        subgroups,
        stage: None,
    };
    // A block of one tile shares no slice between tile loads: staging
    // it only adds copies.
    let stage = if tiles == [1, 1] && subgroups == [1, 1] {
        None
    } else {
        stages(target, shape, direct).first().copied().flatten()
    };
    let dist = Distribution::CoopMatrix {
        m: p.m_size,
        n: p.n_size,
        k: p.k_size,
        tiles,
        subgroups,
        stage,
    };
    let block = [
        u64::from(p.m_size * tiles[0] * subgroups[0]),
        u64::from(p.n_size * tiles[1] * subgroups[1]),
    ];
    let st = coop_staging(&types, sizes, block, p.k_size, stage);
    let mut s = base.clone();
    s.workgroup_size = [sg * subgroups[0] * subgroups[1], 1, 1];
    s.distribution = dist;
    s.reduction = Some(ReductionStrategy::Serial {
        chunk: depth,
        chunked: false,
    });
    s.workgroup_memory = workgroup_bytes(shape, &dist);
    let form = match types.layout {
        MatmulLayout::Plain => String::new(),
        MatmulLayout::TransposeA => " (A transposed: column-major A tiles)".to_owned(),
        MatmulLayout::TransposeB => " (B transposed: column-major B tiles)".to_owned(),
        MatmulLayout::Batch => format!(" ({} batches)", sizes[0]),
        MatmulLayout::BatchTransposeB => format!(
            " ({} batches, B read through a transpose: column-major B tiles)",
            sizes[0]
        ),
        MatmulLayout::ImplicitGemm => " (an implicit-GEMM convolution: A gathered from the input through its window map into workgroup memory, B the filter)".to_owned(),
    };
    let edges = rows % block[0] != 0 || cols % block[1] != 0;
    let tail = depth % u64::from(st.step) != 0;
    let sized = if edges || tail {
        format!(
            "{rows}x{depth}x{cols}{form} padded to the env's {}x{}x{} {input} x {input} -> {acc} cooperative matrix (Subgroup): {} staged through workgroup memory with zeros{}",
            p.m_size,
            p.n_size,
            p.k_size,
            match (edges, tail) {
                (true, true) => "the blocks past M or N and the K tail",
                (true, false) => "the blocks past M or N",
                _ => "the K tail",
            },
            if edges { ", their stores guarded" } else { "" },
        )
    } else {
        format!(
            "{rows}x{depth}x{cols}{form} sizes are multiples of the env's {}x{}x{} {input} x {input} -> {acc} cooperative matrix (Subgroup)",
            p.m_size, p.n_size, p.k_size,
        )
    };
    let epilogue = if types.epilogue > 0 {
        format!(
            "; an epilogue of {} fused op(s) applied to the accumulator tiles (read back through workgroup memory) before the store",
            types.epilogue
        )
    } else {
        String::new()
    };
    let staged = match stage {
        Some(CoopStage { k: ks, double }) => format!(
            "; whole blocks stage A and B in workgroup memory {ks} steps of K at a time with wide loads{}",
            if double { ", double-buffered" } else { "" }
        ),
        None if types.layout == MatmulLayout::ImplicitGemm => format!(
            "; every step of {} gathers the block's A and copies its B into workgroup memory element by element",
            st.step
        ),
        None => "; whole blocks load their tiles straight from memory".to_owned(),
    };
    s.reason = format!(
        "{sized}: {}x{} tiles per subgroup of {sg} ({:.1} multiply-adds per tile loaded), {}x{} subgroups per workgroup, {steps} steps over K{staged}{epilogue}",
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
/// (each needs `tiles[0] * tiles[1]` accumulators in registers: 16 of
/// 16x16 f32 tiles are 128 registers per invocation of 32).
const TILE_GRIDS: [[u32; 2]; 7] = [[4, 4], [4, 2], [2, 4], [2, 2], [2, 1], [1, 2], [1, 1]];

/// Subgroup grids per workgroup: 2x2 first (the heuristic's choice where
/// enough workgroups remain), then 8 subgroups (for `kiln tune`: a
/// larger block shares each staged slice among more tiles), then fewer.
const SUBGROUP_GRIDS: [[u32; 2]; 5] = [[2, 2], [2, 4], [4, 2], [2, 1], [1, 1]];

/// Every (tile grid, subgroup grid) whose block divides an `out` output
/// of `tile`-sized tiles (padded to whole tiles), in preference order,
/// within the workgroup's invocation and memory limits.
fn grids(
    target: &CodegenTarget,
    shape: &DispatchShape,
    out: [u64; 2],
    tile: [u32; 2],
    k: u32,
    sg: u32,
) -> Vec<([u32; 2], [u32; 2])> {
    let padded = [
        out[0].next_multiple_of(u64::from(tile[0])),
        out[1].next_multiple_of(u64::from(tile[1])),
    ];
    let memory = target.env.limits.max_compute_shared_memory_size;
    let in_memory = shape.coop_matmul.is_some_and(|t| t.init_in_memory);
    let mut v = Vec::new();
    for t in TILE_GRIDS {
        for g in SUBGROUP_GRIDS {
            let block = |d: usize| u64::from(tile[d]) * u64::from(t[d]) * u64::from(g[d]);
            let dist = Distribution::CoopMatrix {
                m: tile[0],
                n: tile[1],
                k,
                tiles: t,
                subgroups: g,
                stage: None,
            };
            // An init read from memory is read as whole tiles.
            let exact = out[0] % block(0) == 0 && out[1] % block(1) == 0;
            if padded[0] % block(0) == 0
                && padded[1] % block(1) == 0
                && (exact || !in_memory)
                && sg * g[0] * g[1] <= target.max_invocations()
                && workgroup_bytes(shape, &dist) <= memory
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
/// the first subgroup grid (in [`SUBGROUP_GRIDS`]' order) that leaves as
/// many workgroups.
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
        out[0].div_ceil(u64::from(tile[0]) * u64::from(t[0]) * u64::from(g[0]))
            * out[1].div_ceil(u64::from(tile[1]) * u64::from(t[1]) * u64::from(g[1]))
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
/// tile and subgroup grid that divides the output (padded to whole
/// tiles), each with every way of staging whole blocks that fits
/// ([`stages`]: staged steps of 32 or 64, single- or double-buffered,
/// and direct loads).
pub(super) fn candidates(
    target: &CodegenTarget,
    shape: &DispatchShape,
    default: &Strategy,
) -> Vec<(u32, Distribution)> {
    let Distribution::CoopMatrix { m, n, k, .. } = default.distribution else {
        return Vec::new();
    };
    let Some([_, rows, cols, _]) = coop_sizes(shape) else {
        return Vec::new();
    };
    let sg = target.subgroup_size();
    let mut v = Vec::new();
    for (tiles, subgroups) in grids(target, shape, [rows, cols], [m, n], k, sg) {
        let dist = |stage| Distribution::CoopMatrix {
            m,
            n,
            k,
            tiles,
            subgroups,
            stage,
        };
        for stage in stages(target, shape, dist(None)) {
            v.push((sg * subgroups[0] * subgroups[1], dist(stage)));
        }
    }
    v
}
