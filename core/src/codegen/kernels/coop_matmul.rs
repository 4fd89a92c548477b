//! The cooperative-matrix matmul kernel ([`Distribution::CoopMatrix`],
//! chosen by `strategy/coop_matrix.rs` for a plain f16 matmul whose sizes
//! are multiples of the block): workgroup `w` computes the output block at
//! block row `w / (N / BN)`, block column `w % (N / BN)` (a block is
//! `BM = m * tiles[0] * subgroups[0]` rows by `BN = n * tiles[1] *
//! subgroups[1]` columns). Subgroup `s` of the workgroup (`gpu.subgroup_id`,
//! the same in every lane of a subgroup, as cooperative matrices need)
//! takes the `tiles[0]` x `tiles[1]` grid of `m` x `n` tiles at row
//! `s / subgroups[1]`, column `s % subgroups[1]` of the block. Its
//! accumulators start as the init's tiles (loaded from memory) or the fill
//! value; one `scf.for` over K in steps of `k` loads `tiles[0]` A tiles
//! (`m` x `k`, row-major, stride K) and `tiles[1]` B tiles (`k` x `n`,
//! stride N) as `gpu.subgroup_mma_load_matrix` and folds every pair with
//! `gpu.subgroup_mma_compute`, so each tile loaded serves several
//! multiply-adds; the tiles are stored with
//! `gpu.subgroup_mma_store_matrix` (stride N). The buffers are the flat
//! row-major `memref<?xT>` of every kernel, so an element `[r, c]` of a
//! matrix with C columns is index `r * C + c`; the lowering turns the ops
//! into `Subgroup` cooperative matrices.
//!
//! [`Distribution::CoopMatrix`]: super::super::strategy::Distribution::CoopMatrix

use crate::kernel::{KAttr, KOpKind, KType, KValue, MmaOperand};
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::types::ElemType;

use super::super::error::{CodegenError, Invariant};
use super::super::host::Size;
use super::super::regions::DispatchRegion;
use super::super::strategy::DispatchShape;
use super::emitter::Emitter;

/// The `!gpu.mma_matrix` type of an operand.
fn mma(rows: u32, cols: u32, elem: KType, operand: MmaOperand) -> KType {
    KType::MmaMatrix {
        rows,
        cols,
        elem: Box::new(elem),
        operand,
    }
}

fn lead(n: u64) -> Vec<(String, KAttr)> {
    vec![(
        "leadDimension".to_owned(),
        KAttr::Int {
            value: i128::from(n),
            ty: KType::Index,
        },
    )]
}

/// `gpu.subgroup_mma_load_matrix` of a `ty` tile at element `at` of `mem`,
/// rows `stride` elements apart.
fn load_matrix(
    e: &mut Emitter<'_, '_, '_>,
    mem: KValue,
    at: KValue,
    ty: &KType,
    stride: u64,
) -> KValue {
    let op = e.b.op(
        KOpKind::GpuSubgroupMmaLoadMatrix,
        &[mem, at],
        std::slice::from_ref(ty),
        lead(stride),
    );
    e.b.module().op(op).results[0]
}

/// The sizes of a cooperative-matrix kernel (the fields of
/// [`Distribution::CoopMatrix`](super::super::strategy::Distribution::CoopMatrix)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoopDims {
    /// Rows of a tile (the env's `m_size`).
    pub m: u32,
    /// Columns of a tile (`n_size`).
    pub n: u32,
    /// Reduction iterations per multiply-add (`k_size`).
    pub k: u32,
    /// Tiles per subgroup: rows x columns.
    pub tiles: [u32; 2],
    /// Subgroups per workgroup: rows x columns.
    pub subgroups: [u32; 2],
}

impl CoopDims {
    /// Rows and columns of the output block a workgroup computes.
    pub fn block(&self) -> [u64; 2] {
        [
            u64::from(self.m) * u64::from(self.tiles[0]) * u64::from(self.subgroups[0]),
            u64::from(self.n) * u64::from(self.tiles[1]) * u64::from(self.subgroups[1]),
        ]
    }
}

/// Emits the kernel body for workgroup `wgi`.
pub(super) fn emit_coop_matmul(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    dims: CoopDims,
) -> Result<(), CodegenError> {
    let CoopDims {
        m,
        n,
        k,
        tiles: [tr, tc],
        subgroups: [_, sc],
    } = dims;
    let info = e.c.info;
    let tm = info.m;
    let internal = |e: &Emitter<'_, '_, '_>, what: &'static str| {
        e.internal(
            d.op,
            Invariant::PlanMismatch {
                kernel: "a cooperative-matrix matmul",
                what,
            },
        )
    };
    let root = d.root.ok_or_else(|| internal(e, "no root"))?;
    let s = info
        .structured
        .get(&root)
        .ok_or_else(|| internal(e, "the root is not structured"))?
        .clone();
    let (&[a, b], &[init]) = (s.inputs.as_slice(), s.outputs.as_slice()) else {
        return Err(internal(e, "not a two-input matmul"));
    };
    let result = tm.op(root).results[0];
    let (Some(Size::Static(_rows)), Some(Size::Static(cols)), Some(Size::Static(depth))) = (
        shape.points.first().copied(),
        shape.points.get(1).copied(),
        shape.reduction,
    ) else {
        return Err(internal(e, "dynamic sizes"));
    };
    let buffer = |e: &Emitter<'_, '_, '_>, v| {
        e.c.buffers
            .buffer(v)
            .ok_or_else(|| internal(e, "an operand without a buffer"))
    };
    let (abuf, bbuf, rbuf) = (buffer(e, a)?, buffer(e, b)?, buffer(e, result)?);
    let in_elem = tm.value_kind(a).elem();
    let acc_elem = tm.value_kind(result).elem();
    let (in_ty, acc_ty) = (e.memory_type(in_elem), e.memory_type(acc_elem));
    let a_ty = mma(m, k, in_ty.clone(), MmaOperand::A);
    let b_ty = mma(k, n, in_ty, MmaOperand::B);
    let c_ty = mma(m, n, acc_ty, MmaOperand::C);
    let big = |x: u64| i64::try_from(x).unwrap_or(i64::MAX);

    // The subgroup's first row and column.
    let [block_rows, block_cols] = dims.block();
    let blocks_n = e.index(big(cols / block_cols));
    let br = e.div(wgi, blocks_n);
    let bc = e.rem(wgi, blocks_n);
    let brows = e.index(big(block_rows));
    let bcols = e.index(big(block_cols));
    let mut row0 = e.mul(br, brows);
    let mut col0 = e.mul(bc, bcols);
    if dims.subgroups != [1, 1] {
        let op =
            e.b.op(KOpKind::GpuSubgroupId, &[], &[KType::Index], Vec::new());
        let sg = e.b.module().op(op).results[0];
        let scv = e.index(i64::from(sc));
        let (sr_i, sc_i) = (e.div(sg, scv), e.rem(sg, scv));
        let sub_rows = e.index(i64::from(m * tr));
        let sub_cols = e.index(i64::from(n * tc));
        let dr = e.mul(sr_i, sub_rows);
        let dc = e.mul(sc_i, sub_cols);
        row0 = e.add(row0, dr);
        col0 = e.add(col0, dc);
    }
    let n_all = e.index(big(cols));
    let k_all = e.index(big(depth));
    // Tile (i, j)'s first row and column, and its linear offset in C.
    let mut tile_rows = Vec::new();
    for i in 0..tr {
        let di = e.index(i64::from(i * m));
        tile_rows.push(e.add(row0, di));
    }
    let mut tile_cols = Vec::new();
    for j in 0..tc {
        let dj = e.index(i64::from(j * n));
        tile_cols.push(e.add(col0, dj));
    }
    let mut c_at = Vec::new();
    for &r in &tile_rows {
        let off = e.mul(r, n_all);
        for &c in &tile_cols {
            c_at.push(e.add(off, c));
        }
    }

    // The accumulators' start: the init's tiles, or the fill value.
    let acc0: Vec<KValue> = match e.c.buffers.buffer(init) {
        Some(ibuf) => {
            let mem = e.buffer(ibuf);
            let mut accs = Vec::new();
            for &at in &c_at {
                accs.push(load_matrix(e, mem, at, &c_ty, cols));
            }
            accs
        }
        None => {
            let fill = info
                .def_op(init)
                .filter(|&f| matches!(&tm.op(f).kind, OpKind::Linalg(l) if matches!(l.kind, LinalgKind::Fill)))
                .ok_or_else(|| internal(e, "the init is neither in memory nor a fill"))?;
            let value = *tm
                .op(fill)
                .operands
                .first()
                .ok_or_else(|| internal(e, "a fill without a value"))?;
            let x = e.scalar(value)?;
            let fill_elem: ElemType = tm.value_kind(value).elem();
            // The value in the accumulator's element type.
            let x = if fill_elem == acc_elem {
                e.store_conv(x, acc_elem)
            } else {
                return Err(internal(e, "a fill of another element type"));
            };
            let op = e.b.op(
                KOpKind::GpuSubgroupMmaConstantMatrix,
                &[x],
                std::slice::from_ref(&c_ty),
                Vec::new(),
            );
            vec![e.b.module().op(op).results[0]; c_at.len()]
        }
    };

    let (amem, bmem) = (e.buffer(abuf), e.buffer(bbuf));
    let zero = e.index(0);
    let step = e.index(i64::from(k));
    let a_rows: Vec<KValue> = tile_rows.iter().map(|&r| e.mul(r, k_all)).collect();
    let done = e.for_(zero, k_all, step, &acc0, |e, k0, accs| {
        let mut av = Vec::new();
        for &row_off in &a_rows {
            let at = e.add(row_off, k0);
            av.push(load_matrix(e, amem, at, &a_ty, depth));
        }
        let n_all = e.index(big(cols));
        let k_row = e.mul(k0, n_all);
        let mut bv = Vec::new();
        for &c in &tile_cols {
            let at = e.add(k_row, c);
            bv.push(load_matrix(e, bmem, at, &b_ty, cols));
        }
        let mut next = Vec::new();
        for (i, &x) in av.iter().enumerate() {
            for (j, &y) in bv.iter().enumerate() {
                let op = e.b.op(
                    KOpKind::GpuSubgroupMmaCompute,
                    &[x, y, accs[i * bv.len() + j]],
                    std::slice::from_ref(&c_ty),
                    Vec::new(),
                );
                next.push(e.b.module().op(op).results[0]);
            }
        }
        Ok(next)
    })?;
    let rmem = e.buffer(rbuf);
    e.mark_written(rbuf);
    for (&acc, &at) in done.iter().zip(&c_at) {
        e.b.op(
            KOpKind::GpuSubgroupMmaStoreMatrix,
            &[acc, rmem, at],
            &[],
            lead(cols),
        );
    }
    Ok(())
}
