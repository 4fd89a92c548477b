//! Convolutions as implicit GEMMs on cooperative matrices
//! ([`MatmulLayout::ImplicitGemm`]): a `linalg.conv_2d_nhwc_hwcf` is the
//! matmul of an `M x K` matrix gathered from its input (its im2col
//! matrix: `M = N·OH·OW` rows, one per output pixel, `K = KH·KW·C`
//! columns, one per window element) by its filter read as the row-major
//! `K x F` matrix it is in memory, into its output read as the row-major
//! `M x F` matrix it is in memory. The cooperative-matrix kernel
//! (`kernels/coop_matmul.rs`) stages every step of A in workgroup memory,
//! each element gathered through the root's input map
//! (`kernels/coop_gather.rs`), so no A tile is ever loaded from the input
//! directly.
//!
//! What qualifies ([`implicit_gemm`]) is checked on the root's indexing
//! maps, so that the kernel may derive the gather from them: the
//! parallel loops come first and the output map is them in order; the
//! filter map is the reduction loops in order, then the last parallel
//! loop (`F`); the input map does not read the last parallel loop. The
//! input may be a `tensor.pad` computed in the dispatch (the padding a
//! front end puts before a convolution): padded elements are computed in
//! the gather, as every kernel computes them.

use crate::tensor::attr::{IteratorType, Mixed};
use crate::tensor::ops::{ConvKind, LinalgKind, OpKind, TensorOp};
use crate::tensor::structured::Structured;
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::regions::{fused_ops, FuncRegions, ValueFate};

/// Whether root `s` is a convolution the cooperative-matrix kernel runs
/// as an implicit GEMM (see the module documentation).
pub(super) fn implicit_gemm(s: &Structured) -> bool {
    if !matches!(s.kind, LinalgKind::Conv(ConvKind::Conv2dNhwcHwcf, _)) {
        return false;
    }
    let [a_map, b_map, out_map] = s.indexing_maps.as_slice() else {
        return false;
    };
    let parallel = s
        .iterator_types
        .iter()
        .take_while(|t| **t == IteratorType::Parallel)
        .count();
    let reductions: Vec<u32> = (parallel..s.num_loops()).map(|l| l as u32).collect();
    if parallel < 2
        || reductions.is_empty()
        || s.iterator_types[parallel..]
            .iter()
            .any(|t| *t != IteratorType::Reduction)
    {
        return false;
    }
    let dims = |m: &crate::tensor::AffineMap| -> Option<Vec<u32>> {
        m.results.iter().map(|e| e.as_dim()).collect()
    };
    let last = parallel as u32 - 1;
    let mut b_want = reductions.clone();
    b_want.push(last);
    dims(out_map) == Some((0..parallel as u32).collect())
        && dims(b_map) == Some(b_want)
        && !a_map.results.iter().any(|e| e.uses_dim(last))
}

/// The ops a gathered input `a` needs computed in the dispatch, when the
/// gather may read it: none where `a` is in memory; a `tensor.pad` of a
/// value in memory and what the pad computes its value from (a
/// constant), where the pad is inlined; else `None`.
pub(super) fn gathered_input(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    a: TValue,
) -> Option<Vec<TOp>> {
    let in_memory = |v| matches!(regions.fate(v), ValueFate::Source | ValueFate::Stored(_));
    if in_memory(a) {
        return Some(Vec::new());
    }
    if regions.fate(a) != ValueFate::Inlined {
        return None;
    }
    let pad = info.def_op(a)?;
    let op = info.m.op(pad);
    let OpKind::Tensor(TensorOp::Pad { low, high, .. }) = &op.kind else {
        return None;
    };
    // Static padding of a source in memory, the padding value a scalar
    // computed in the dispatch (no tensor read in the region).
    let fixed = |v: &[Mixed]| Mixed::count_dynamic(v) == 0;
    if op.operands.len() != 1 || !fixed(low) || !fixed(high) || !in_memory(op.operands[0]) {
        return None;
    }
    let mut ops = fused_ops(info, regions, pad);
    if ops.iter().any(|&o| {
        info.m
            .op(o)
            .results
            .iter()
            .any(|&v| info.m.value_kind(v).is_tensor())
    }) {
        return None;
    }
    ops.push(pad);
    Some(ops)
}
