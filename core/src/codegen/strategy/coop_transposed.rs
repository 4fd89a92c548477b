//! Matmul operands read through a `linalg.transpose` computed in the
//! dispatch, for cooperative matrices: a transpose that swaps the last
//! two dimensions of a value in memory (`[1, 0]`, or `[0, 2, 1]` for a
//! batch) is the value itself read column-major, which the
//! cooperative-matrix kernel loads as `transpose` tiles
//! ([`MatmulLayout::TransposeA`], [`MatmulLayout::TransposeB`],
//! [`MatmulLayout::BatchTransposeB`]: attention's keys, `Q·Kᵀ`, as
//! torch-mlir writes it). The kernel reads the transpose's source
//! (`kernels/coop_matmul.rs`).

use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::{TOp, TValue};

use super::super::analysis::FuncInfo;
use super::super::regions::{fused_ops, FuncRegions, ValueFate};
use super::MatmulLayout;

/// The transpose computed in the dispatch that `v` is, when it swaps the
/// last two of its `rank` dimensions of a value in memory and computes
/// nothing else.
fn swap_of_memory(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    v: TValue,
    rank: usize,
) -> Option<TOp> {
    if regions.fate(v) != ValueFate::Inlined {
        return None;
    }
    let t = info.def_op(v)?;
    let OpKind::Linalg(l) = &info.m.op(t).kind else {
        return None;
    };
    let LinalgKind::Transpose { permutation } = &l.kind else {
        return None;
    };
    let mut want: Vec<u64> = (0..rank as u64).collect();
    want.swap(rank - 2, rank - 1);
    let src = *info.m.op(t).operands.first()?;
    let in_memory = matches!(regions.fate(src), ValueFate::Source | ValueFate::Stored(_));
    (rank >= 2 && *permutation == want && in_memory && fused_ops(info, regions, t).is_empty())
        .then_some(t)
}

/// The layout of a `layout` matmul (`Plain` or `Batch`) whose operands
/// `a` and `b` are not both in memory, where one is a transpose of a
/// value in memory that the kernel reads as transposed tiles (see the
/// module documentation), with the transpose to count as computed in
/// the dispatch; else `None`.
pub(super) fn read_transposed(
    info: &FuncInfo<'_>,
    regions: &FuncRegions,
    layout: MatmulLayout,
    [a, b]: [TValue; 2],
    in_memory: impl Fn(TValue) -> bool,
) -> Option<(MatmulLayout, TOp)> {
    match layout {
        MatmulLayout::Plain if in_memory(b) => Some((
            MatmulLayout::TransposeA,
            swap_of_memory(info, regions, a, 2)?,
        )),
        MatmulLayout::Plain if in_memory(a) => Some((
            MatmulLayout::TransposeB,
            swap_of_memory(info, regions, b, 2)?,
        )),
        MatmulLayout::Batch if in_memory(a) => Some((
            MatmulLayout::BatchTransposeB,
            swap_of_memory(info, regions, b, 3)?,
        )),
        _ => None,
    }
}
