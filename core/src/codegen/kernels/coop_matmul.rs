//! The cooperative-matrix matmul kernel ([`Distribution::CoopMatrix`],
//! chosen by `strategy/coop_matrix.rs` for an f16 matmul, transposed or
//! batched, with or without an element-wise epilogue): workgroup `w`
//! computes the output block at batch `w / (Mb * Nb)`, block row
//! `(w % (Mb * Nb)) / Nb`, block column `w % Nb` (`Mb`, `Nb`: blocks per
//! column and row, rounded up; a block is `BM = m * tiles[0] *
//! subgroups[0]` rows by `BN = n * tiles[1] * subgroups[1]` columns).
//! Subgroup `s` of the workgroup (`gpu.subgroup_id`, the same in every
//! lane of a subgroup, as cooperative matrices need) takes the
//! `tiles[0]` x `tiles[1]` grid of `m` x `n` tiles at row
//! `s / subgroups[1]`, column `s % subgroups[1]` of the block. Its
//! accumulators start as the init's tiles (loaded from memory) or the fill
//! value; one `scf.for` over K in steps of `k` loads `tiles[0]` A tiles
//! (`m` x `k`) and `tiles[1]` B tiles (`k` x `n`) as
//! `gpu.subgroup_mma_load_matrix` (row-major, or with `transpose` —
//! column-major — where the op reads A or B transposed) and folds every
//! pair with `gpu.subgroup_mma_compute`, so each tile loaded serves
//! several multiply-adds. The buffers are the flat row-major `memref<?xT>`
//! of every kernel, so an element `[b, r, c]` of a B x R x C tensor is
//! index `(b * R + r) * C + c`; the lowering turns the ops into
//! `Subgroup` cooperative matrices.
//!
//! **Edges** ([`CoopStaging::operands`]): where the block does not divide
//! the output or `k` does not divide K, a step is *staged*: the
//! workgroup's invocations copy the block's `BM` x `k` A slice and `k` x
//! `BN` B slice into workgroup memory, reading only elements inside the
//! operands (addresses clamped into them) and writing zero for the rest,
//! then (after a barrier) the subgroups load their tiles from there; a
//! zero A row or B column adds exactly nothing. Workgroups whose block is
//! inside M x N (a workgroup-uniform test) run the whole steps of K with
//! direct loads and only the K tail staged; the others stage every step.
//! Every barrier is reached by the whole workgroup.
//!
//! **Stores** ([`CoopStaging::results`]): with neither an epilogue nor
//! edges the tiles are stored with `gpu.subgroup_mma_store_matrix`.
//! Otherwise each tile goes to the subgroup's `m` x `n` slot of workgroup
//! memory, and each lane takes elements `lane, lane + S, ...` of it: where
//! the element is inside the output, its value is the root's value at
//! that point and the dispatch's ops after the root (bias, activation,
//! cast) are computed from it and stored, as every kernel stores a point.
//!
//! **f16 results** accumulate in f32 matrices (the env's f16 x f16 -> f32
//! configurations), as every kernel sums f16: the tiles always go through
//! workgroup memory, and each point's sum is rounded to f16 once there
//! (after adding the init, where the init is in memory: its tiles cannot
//! be loaded into f32 matrices, so those start at -0).
//!
//! [`Distribution::CoopMatrix`]: super::super::strategy::Distribution::CoopMatrix
//! [`CoopStaging::operands`]: super::super::strategy::CoopStaging::operands
//! [`CoopStaging::results`]: super::super::strategy::CoopStaging::results

use crate::kernel::{
    GpuAddressSpace, KAttr, KOpKind, KType, KValue, MemRefLayout, MemorySpace, MmaOperand,
};
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::strategy::{coop_sizes, CoopDims, DispatchShape, MatmulLayout};
use super::emitter::Emitter;
use super::point::{root_point, stores};
use super::reduce::wide_combiners;

/// The `!gpu.mma_matrix` type of an operand.
fn mma(rows: u32, cols: u32, elem: KType, operand: MmaOperand) -> KType {
    KType::MmaMatrix {
        rows,
        cols,
        elem: Box::new(elem),
        operand,
    }
}

/// The attributes of an MMA load or store: its stride, and `transpose`
/// for a column-major tile.
fn attrs(n: u64, transpose: bool) -> Vec<(String, KAttr)> {
    let mut a = vec![(
        "leadDimension".to_owned(),
        KAttr::Int {
            value: i128::from(n),
            ty: KType::Index,
        },
    )];
    if transpose {
        a.push(("transpose".to_owned(), KAttr::Unit));
    }
    a
}

/// `gpu.subgroup_mma_load_matrix` of a `ty` tile at element `at` of `mem`,
/// rows (columns, with `transpose`) `stride` elements apart.
fn load_matrix(
    e: &mut Emitter<'_, '_, '_>,
    mem: KValue,
    at: KValue,
    ty: &KType,
    stride: u64,
    transpose: bool,
) -> KValue {
    let op = e.b.op(
        KOpKind::GpuSubgroupMmaLoadMatrix,
        &[mem, at],
        std::slice::from_ref(ty),
        attrs(stride, transpose),
    );
    e.b.module().op(op).results[0]
}

/// `gpu.subgroup_mma_store_matrix` of `acc` at element `at` of `mem`.
fn store_matrix(e: &mut Emitter<'_, '_, '_>, acc: KValue, mem: KValue, at: KValue, stride: u64) {
    e.b.op(
        KOpKind::GpuSubgroupMmaStoreMatrix,
        &[acc, mem, at],
        &[],
        attrs(stride, false),
    );
}

/// A 1-D workgroup-memory array of `n` `elem`s.
fn shared(e: &mut Emitter<'_, '_, '_>, n: u64, elem: KType) -> KValue {
    e.b.alloc(KType::MemRef {
        shape: vec![Some(n)],
        elem: Box::new(elem),
        layout: MemRefLayout::Identity,
        space: MemorySpace::Gpu(GpuAddressSpace::Workgroup),
    })
}

/// What the steps of one kernel share.
struct Kernel {
    /// The dispatch's op (for errors).
    op: TOp,
    dims: CoopDims,
    layout: MatmulLayout,
    /// Rows, columns and depth of the (one batch's) matmul.
    rows: u64,
    cols: u64,
    depth: u64,
    /// A's and B's memrefs and the element offsets of this batch in them.
    amem: KValue,
    bmem: KValue,
    a_base: KValue,
    b_base: KValue,
    /// The block's first row and column, and the subgroup's offsets in it.
    block_row: KValue,
    block_col: KValue,
    sub_row: KValue,
    sub_col: KValue,
    /// The first row of each of the subgroup's tile rows, the first
    /// column of each tile column (in the output).
    tile_rows: Vec<KValue>,
    tile_cols: Vec<KValue>,
    a_ty: KType,
    b_ty: KType,
    c_ty: KType,
    /// A and B's memory type.
    in_ty: KType,
    /// The staged A (`BM x k`) and B (`k x BN`) slices, where staged.
    a_stage: Option<KValue>,
    b_stage: Option<KValue>,
    /// Invocations of the workgroup.
    invocations: u64,
}

/// Where a staged element comes from: given its (outer, inner)
/// coordinates in the copy, its index in the stage, whether it is inside
/// the operand, and its (clamped) index in the operand.
type Source<'s> = dyn Fn(&mut Emitter<'_, '_, '_>, KValue, KValue) -> (KValue, KValue, KValue) + 's;

fn big(x: u64) -> i64 {
    i64::try_from(x).unwrap_or(i64::MAX)
}

impl Kernel {
    /// The multiply-adds of every A tile by every B tile into `accs`.
    fn fold(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        av: &[KValue],
        bv: &[KValue],
        accs: &[KValue],
    ) -> Vec<KValue> {
        let mut next = Vec::new();
        for (i, &x) in av.iter().enumerate() {
            for (j, &y) in bv.iter().enumerate() {
                let op = e.b.op(
                    KOpKind::GpuSubgroupMmaCompute,
                    &[x, y, accs[i * bv.len() + j]],
                    std::slice::from_ref(&self.c_ty),
                    Vec::new(),
                );
                next.push(e.b.module().op(op).results[0]);
            }
        }
        next
    }

    /// A step at `k0` with tiles loaded from A and B directly (all inside).
    fn direct_step(&self, e: &mut Emitter<'_, '_, '_>, k0: KValue, accs: &[KValue]) -> Vec<KValue> {
        let (rows, cols, depth) = (self.rows, self.cols, self.depth);
        let mut av = Vec::new();
        for &r in &self.tile_rows {
            let at = if self.layout == MatmulLayout::TransposeA {
                // A is K x M: the tile is column-major, columns M apart.
                let rows_v = e.index(big(rows));
                let off = e.mul(k0, rows_v);
                let off = e.add(off, r);
                e.add(self.a_base, off)
            } else {
                let depth_v = e.index(big(depth));
                let off = e.mul(r, depth_v);
                let off = e.add(off, k0);
                e.add(self.a_base, off)
            };
            let transpose = self.layout == MatmulLayout::TransposeA;
            let stride = if transpose { rows } else { depth };
            av.push(load_matrix(e, self.amem, at, &self.a_ty, stride, transpose));
        }
        let mut bv = Vec::new();
        for &c in &self.tile_cols {
            let transpose = self.layout == MatmulLayout::TransposeB;
            let at = if transpose {
                // B is N x K: the tile is column-major, columns K apart.
                let depth_v = e.index(big(depth));
                let off = e.mul(c, depth_v);
                let off = e.add(off, k0);
                e.add(self.b_base, off)
            } else {
                let cols_v = e.index(big(cols));
                let off = e.mul(k0, cols_v);
                let off = e.add(off, c);
                e.add(self.b_base, off)
            };
            let stride = if transpose { depth } else { cols };
            bv.push(load_matrix(e, self.bmem, at, &self.b_ty, stride, transpose));
        }
        self.fold(e, &av, &bv, accs)
    }

    /// Copies `count` elements into `stage` cooperatively: element `idx`
    /// is at `(outer, inner) = (idx / inner_n, idx % inner_n)`, and
    /// `source` gives its stage index, whether it is inside the operand
    /// and its (clamped, always valid) index in `mem`.
    fn copy(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        stage: KValue,
        mem: KValue,
        count: u64,
        inner_n: u64,
        source: &Source<'_>,
    ) -> Result<(), CodegenError> {
        let tid = e.b.thread_id("x");
        let end = e.index(big(count));
        let step = e.index(big(self.invocations));
        let in_ty = self.in_ty.clone();
        e.for_(tid, end, step, &[], |e, idx, _| {
            let inner_v = e.index(big(inner_n));
            let outer = e.div(idx, inner_v);
            let inner = e.rem(idx, inner_v);
            let (at, inside, from) = source(e, outer, inner);
            let x = e.b.load(mem, &[from]);
            let zero = match &in_ty {
                KType::Float(_) => e.b.const_float(0.0, in_ty.clone()),
                other => e.b.const_int(0, other.clone()),
            };
            let x = e.b.select(inside, x, zero);
            e.b.store(x, stage, &[at]);
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// A step at `k0` through workgroup memory: the block's A and B
    /// slices copied in (zero outside the operands), then the tiles
    /// loaded from there.
    fn staged_step(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        k0: KValue,
        accs: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let (Some(sa), Some(sb)) = (self.a_stage, self.b_stage) else {
            return Err(e.internal(
                self.op,
                Invariant::PlanMismatch {
                    kernel: "a cooperative-matrix matmul",
                    what: "a staged step without workgroup memory",
                },
            ));
        };
        let CoopDims { m, n, k, tiles, .. } = self.dims;
        let [bm, bn] = self.dims.block();
        let (rows, cols, depth) = (self.rows, self.cols, self.depth);
        let k64 = u64::from(k);
        let (amem, bmem, a_base, b_base) = (self.amem, self.bmem, self.a_base, self.b_base);
        let (block_row, block_col) = (self.block_row, self.block_col);
        // A's element `(r, kc)` clamped into A, and whether it is inside.
        let a_at = move |e: &mut Emitter<'_, '_, '_>, i: KValue, kk: KValue| {
            let r = e.add(block_row, i);
            let kc = e.add(k0, kk);
            let rows_v = e.index(big(rows));
            let depth_v = e.index(big(depth));
            let r_in = e.lt(r, rows_v);
            let k_in = e.lt(kc, depth_v);
            let inside = e.b.binary(KOpKind::ArithAndI, r_in, k_in);
            let last_r = e.index(big(rows.saturating_sub(1)));
            let last_k = e.index(big(depth.saturating_sub(1)));
            let r = e.b.binary(KOpKind::ArithMinUI, r, last_r);
            let kc = e.b.binary(KOpKind::ArithMinUI, kc, last_k);
            (r, kc, inside)
        };
        let b_at = move |e: &mut Emitter<'_, '_, '_>, kk: KValue, j: KValue| {
            let c = e.add(block_col, j);
            let kc = e.add(k0, kk);
            let cols_v = e.index(big(cols));
            let depth_v = e.index(big(depth));
            let c_in = e.lt(c, cols_v);
            let k_in = e.lt(kc, depth_v);
            let inside = e.b.binary(KOpKind::ArithAndI, c_in, k_in);
            let last_c = e.index(big(cols.saturating_sub(1)));
            let last_k = e.index(big(depth.saturating_sub(1)));
            let c = e.b.binary(KOpKind::ArithMinUI, c, last_c);
            let kc = e.b.binary(KOpKind::ArithMinUI, kc, last_k);
            (c, kc, inside)
        };
        let transpose_a = self.layout == MatmulLayout::TransposeA;
        let transpose_b = self.layout == MatmulLayout::TransposeB;
        // The previous step's tile loads are done before the slices change.
        e.b.barrier();
        // A's slice, `[i][kk]` in the stage; read along A's rows (along M
        // where A is stored K x M).
        let a_source = move |e: &mut Emitter<'_, '_, '_>, outer: KValue, inner: KValue| {
            let (i, kk) = if transpose_a {
                (inner, outer)
            } else {
                (outer, inner)
            };
            let (r, kc, inside) = a_at(e, i, kk);
            let k_v = e.index(big(k64));
            let at = e.mul(i, k_v);
            let at = e.add(at, kk);
            let from = if transpose_a {
                let rows_v = e.index(big(rows));
                let off = e.mul(kc, rows_v);
                e.add(off, r)
            } else {
                let depth_v = e.index(big(depth));
                let off = e.mul(r, depth_v);
                e.add(off, kc)
            };
            let from = e.add(a_base, from);
            (at, inside, from)
        };
        let a_inner = if transpose_a { bm } else { k64 };
        self.copy(e, sa, amem, bm * k64, a_inner, &a_source)?;
        // B's slice, `[kk][j]` in the stage; read along B's rows (along K
        // where B is stored N x K).
        let b_source = move |e: &mut Emitter<'_, '_, '_>, outer: KValue, inner: KValue| {
            let (kk, j) = if transpose_b {
                (inner, outer)
            } else {
                (outer, inner)
            };
            let (c, kc, inside) = b_at(e, kk, j);
            let bn_v = e.index(big(bn));
            let at = e.mul(kk, bn_v);
            let at = e.add(at, j);
            let from = if transpose_b {
                let depth_v = e.index(big(depth));
                let off = e.mul(c, depth_v);
                e.add(off, kc)
            } else {
                let cols_v = e.index(big(cols));
                let off = e.mul(kc, cols_v);
                e.add(off, c)
            };
            let from = e.add(b_base, from);
            (at, inside, from)
        };
        let b_inner = if transpose_b { k64 } else { bn };
        self.copy(e, sb, bmem, k64 * bn, b_inner, &b_source)?;
        e.b.barrier();
        let mut av = Vec::new();
        for i in 0..tiles[0] {
            let di = e.index(i64::from(i * m));
            let r = e.add(self.sub_row, di);
            let k_v = e.index(big(k64));
            let at = e.mul(r, k_v);
            av.push(load_matrix(e, sa, at, &self.a_ty, k64, false));
        }
        let mut bv = Vec::new();
        for j in 0..tiles[1] {
            let dj = e.index(i64::from(j * n));
            let at = e.add(self.sub_col, dj);
            bv.push(load_matrix(e, sb, at, &self.b_ty, bn, false));
        }
        Ok(self.fold(e, &av, &bv, accs))
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
        subgroups: [sr, sc],
        staging,
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
    let types = shape
        .coop_matmul
        .ok_or_else(|| internal(e, "not a cooperative-matrix matmul"))?;
    let [_, rows, cols, depth] = coop_sizes(shape).ok_or_else(|| internal(e, "dynamic sizes"))?;
    let batched = shape.points.len() == 3;
    let result = tm.op(root).results[0];
    let buffer = |e: &Emitter<'_, '_, '_>, v| {
        e.c.buffers
            .buffer(v)
            .ok_or_else(|| internal(e, "an operand without a buffer"))
    };
    let (abuf, bbuf) = (buffer(e, a)?, buffer(e, b)?);
    let in_elem = tm.value_kind(a).elem();
    // An f16 result accumulates in f32 (`types.acc`) and is rounded once,
    // point by point, through the staged results.
    let result_elem = tm.value_kind(result).elem();
    let acc_elem = types.acc;
    let rounds = acc_elem != result_elem;
    if rounds && !staging.results {
        return Err(internal(e, "a rounded accumulator without staged results"));
    }
    let (in_ty, acc_ty) = (e.memory_type(in_elem), e.memory_type(acc_elem));
    let a_ty = mma(m, k, in_ty.clone(), MmaOperand::A);
    let b_ty = mma(k, n, in_ty.clone(), MmaOperand::B);
    let c_ty = mma(m, n, acc_ty.clone(), MmaOperand::C);
    let [block_rows, block_cols] = dims.block();
    let sg = e.c.strategy.workgroup_size[0] / (sr * sc).max(1);
    let invocations = u64::from(e.c.strategy.workgroup_size[0]);

    // Workgroup memory first, at the kernel's top level.
    let (a_stage, b_stage) = if staging.operands {
        let k64 = u64::from(k);
        (
            Some(shared(e, block_rows * k64, in_ty.clone())),
            Some(shared(e, k64 * block_cols, in_ty.clone())),
        )
    } else {
        (None, None)
    };
    let tile_elems = u64::from(m) * u64::from(n);
    let c_stage = if staging.results {
        Some(shared(e, u64::from(sr * sc) * tile_elems, acc_ty.clone()))
    } else {
        None
    };

    // The block of this workgroup, and the subgroup's place in it.
    let blocks_n = e.index(big(cols.div_ceil(block_cols)));
    let per_batch = e.index(big(rows.div_ceil(block_rows) * cols.div_ceil(block_cols)));
    let (bi, wgi) = if batched {
        (e.div(wgi, per_batch), e.rem(wgi, per_batch))
    } else {
        (e.index(0), wgi)
    };
    let br = e.div(wgi, blocks_n);
    let bc = e.rem(wgi, blocks_n);
    let brows = e.index(big(block_rows));
    let bcols = e.index(big(block_cols));
    let block_row = e.mul(br, brows);
    let block_col = e.mul(bc, bcols);
    let (sub_row, sub_col, sgid) = if dims.subgroups != [1, 1] {
        let op =
            e.b.op(KOpKind::GpuSubgroupId, &[], &[KType::Index], Vec::new());
        let sgid = e.b.module().op(op).results[0];
        let scv = e.index(i64::from(sc));
        let (sr_i, sc_i) = (e.div(sgid, scv), e.rem(sgid, scv));
        let sub_rows = e.index(i64::from(m * tr));
        let sub_cols = e.index(i64::from(n * tc));
        (e.mul(sr_i, sub_rows), e.mul(sc_i, sub_cols), sgid)
    } else {
        let zero = e.index(0);
        (zero, zero, zero)
    };
    let row0 = e.add(block_row, sub_row);
    let col0 = e.add(block_col, sub_col);
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
    // This batch's offsets in A, B and C.
    let (a_base, b_base, c_base) = if batched {
        let a_size = e.index(big(rows * depth));
        let b_size = e.index(big(depth * cols));
        let c_size = e.index(big(rows * cols));
        (e.mul(bi, a_size), e.mul(bi, b_size), e.mul(bi, c_size))
    } else {
        let zero = e.index(0);
        (zero, zero, zero)
    };
    let n_all = e.index(big(cols));
    let mut c_at = Vec::new();
    for &r in &tile_rows {
        let off = e.mul(r, n_all);
        let off = e.add(c_base, off);
        for &c in &tile_cols {
            c_at.push(e.add(off, c));
        }
    }

    // The accumulators' start: the init's tiles, or the fill value; zero
    // where the init (in memory, of the narrower result type) is added to
    // the f32 sums at the store instead (-0, the identity of a sum).
    let zero_matrix = |e: &mut Emitter<'_, '_, '_>| {
        let x = e.konst(crate::tensor::eval::Scalar::Float(-0.0), acc_elem);
        let op = e.b.op(
            KOpKind::GpuSubgroupMmaConstantMatrix,
            &[x],
            std::slice::from_ref(&c_ty),
            Vec::new(),
        );
        e.b.module().op(op).results[0]
    };
    let init_at_store = rounds && e.c.buffers.buffer(init).is_some();
    let acc0: Vec<KValue> = match e.c.buffers.buffer(init) {
        Some(_) if init_at_store => vec![zero_matrix(e); c_at.len()],
        Some(ibuf) => {
            if rows % block_rows != 0 || cols % block_cols != 0 {
                return Err(internal(e, "an init in memory with edge blocks"));
            }
            let mem = e.buffer(ibuf);
            let mut accs = Vec::new();
            for &at in &c_at {
                accs.push(load_matrix(e, mem, at, &c_ty, cols, false));
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
            // The value in the accumulator's element type (an f16 fill is
            // exact in f32, which computes it).
            let x = if fill_elem == result_elem {
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

    let kern = Kernel {
        op: d.op,
        dims,
        layout: types.layout,
        rows,
        cols,
        depth,
        amem: e.buffer(abuf),
        bmem: e.buffer(bbuf),
        a_base,
        b_base,
        block_row,
        block_col,
        sub_row,
        sub_col,
        tile_rows,
        tile_cols,
        a_ty,
        b_ty,
        c_ty: c_ty.clone(),
        in_ty,
        a_stage,
        b_stage,
        invocations,
    };
    let k64 = u64::from(k);
    let whole = depth / k64 * k64;
    let zero = e.index(0);
    let step = e.index(i64::from(k));
    let whole_v = e.index(big(whole));
    // The whole steps with direct loads, then a staged K tail.
    let inside_steps = |e: &mut Emitter<'_, '_, '_>| -> Result<Vec<KValue>, CodegenError> {
        let mut accs = e.for_(zero, whole_v, step, &acc0, |e, k0, accs| {
            Ok(kern.direct_step(e, k0, accs))
        })?;
        if whole < depth {
            accs = kern.staged_step(e, whole_v, &accs)?;
        }
        Ok(accs)
    };
    let whole_blocks = rows % block_rows == 0 && cols % block_cols == 0;
    let done = if !staging.operands || whole_blocks {
        inside_steps(e)?
    } else if rows < block_rows || cols < block_cols {
        // No block is inside M x N: every step is staged.
        let end = e.index(big(depth.div_ceil(k64) * k64));
        e.for_(zero, end, step, &acc0, |e, k0, accs| {
            kern.staged_step(e, k0, accs)
        })?
    } else {
        // Blocks inside M x N load directly; edge blocks stage every step.
        let rows_v = e.index(big(rows));
        let cols_v = e.index(big(cols));
        let row_end = e.add(block_row, brows);
        let col_end = e.add(block_col, bcols);
        let one = e.index(1);
        let rows_p1 = e.add(rows_v, one);
        let cols_p1 = e.add(cols_v, one);
        let r_in = e.lt(row_end, rows_p1);
        let c_in = e.lt(col_end, cols_p1);
        let inside = e.b.binary(KOpKind::ArithAndI, r_in, c_in);
        let tys = vec![c_ty.clone(); acc0.len()];
        let end = e.index(big(depth.div_ceil(k64) * k64));
        e.if_else(inside, &tys, inside_steps, |e| {
            e.for_(zero, end, step, &acc0, |e, k0, accs| {
                kern.staged_step(e, k0, accs)
            })
        })?
    };

    let Some(c_stage) = c_stage else {
        // No epilogue, no edges: the tiles are the result.
        let rbuf = buffer(e, result)?;
        let rmem = e.buffer(rbuf);
        e.mark_written(rbuf);
        for (&acc, &at) in done.iter().zip(&c_at) {
            store_matrix(e, acc, rmem, at, cols);
        }
        return Ok(());
    };
    // Each tile through the subgroup's slot: the points inside the output
    // get the root's value, the epilogue and the stores.
    let slot_elems = e.index(big(tile_elems));
    let slot = e.mul(sgid, slot_elems);
    let lane = e.b.lane_id();
    let sg_v = e.index(i64::from(sg));
    let n_v = e.index(i64::from(n));
    let rows_v = e.index(big(rows));
    let cols_v = e.index(big(cols));
    for (t, &acc) in done.iter().enumerate() {
        let (r0, c0) = (
            kern.tile_rows[t / tc as usize],
            kern.tile_cols[t % tc as usize],
        );
        e.b.barrier();
        store_matrix(e, acc, c_stage, slot, u64::from(n));
        e.b.barrier();
        let end = e.index(big(tile_elems));
        e.for_(lane, end, sg_v, &[], |e, idx, _| {
            let rr = e.div(idx, n_v);
            let cc = e.rem(idx, n_v);
            let r = e.add(r0, rr);
            let c = e.add(c0, cc);
            let r_in = e.lt(r, rows_v);
            let c_in = e.lt(c, cols_v);
            let inside = e.b.binary(KOpKind::ArithAndI, r_in, c_in);
            e.if_then(inside, |e| {
                let at = e.add(slot, idx);
                let raw = e.b.load(c_stage, &[at]);
                let x = e.load_conv(raw, acc_elem);
                let coords = if batched { vec![bi, r, c] } else { vec![r, c] };
                let x = if init_at_store {
                    // init + sum in f32, rounded once.
                    let rp = root_point(e, d, &coords, root)?;
                    let inits = e.inits(root, &s, &rp)?;
                    let cs = wide_combiners(e.c.info.m, &s)
                        .ok_or_else(|| internal(e, "a rounded accumulator that is not a sum"))?;
                    e.finish_combine(&cs, &inits, &[x])[0]
                } else if rounds {
                    e.round(x, result_elem)
                } else {
                    x
                };
                e.prepared_roots.insert(root, vec![x]);
                stores(e, d, &coords)
            })?;
            Ok(Vec::new())
        })?;
    }
    Ok(())
}
