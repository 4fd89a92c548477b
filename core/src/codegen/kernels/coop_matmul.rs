//! The cooperative-matrix matmul kernel ([`Distribution::CoopMatrix`],
//! chosen by `strategy/coop_matrix.rs` for an f16 matmul, transposed or
//! batched, or a convolution, with or without an element-wise epilogue): workgroup `w`
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
//! **Staged steps** ([`CoopStaging::operands`]): a step of `step`
//! iterations of K (the [`CoopStage`]'s `k` where whole blocks are
//! staged, else the tile's `k`) can go through workgroup memory: the
//! workgroup's invocations copy the block's A and B slices there, each
//! laid out as its operand is (`BM` rows of `step` for a row-major A,
//! `step` rows of `BM` where A is stored K x M; `step` rows of `BN` for
//! B, `BN` rows of `step` where B is stored N x K), every row padded by 8
//! elements (16 bytes: rows stay 16-byte aligned and start in different
//! banks), then (after a barrier) the subgroups load their tiles from
//! there (column-major where the operand is stored transposed), `step /
//! k` multiply-adds per tile pair.
//!
//! - *Whole blocks with a [`CoopStage`]*: each invocation copies its
//!   share of the slices with 16-byte reads (`vector<4xi32>`: 8 f16 as 4
//!   words, split into halves; or `vector<4xf16>`, 8 bytes, where the
//!   rows are only multiples of 4; element by element otherwise), all of
//!   them issued before the workgroup-memory stores; double-buffered, the
//!   next step's reads are issued before the current step's
//!   multiply-adds and stored into the other buffer after them, one
//!   barrier per step.
//! - *Edges*: where the block does not divide the output, or `step` does
//!   not divide K, a step is *guarded*: elements outside the operands are
//!   written as zero (their addresses clamped into them); a zero A row or
//!   B column adds exactly nothing. Workgroups whose block is inside M x N
//!   (a workgroup-uniform test) run the whole steps of K (staged or with
//!   direct tile loads) and a guarded K tail; the others guard every
//!   step. Every barrier is reached by the whole workgroup.
//!
//! **Implicit GEMMs** (a convolution, `MatmulLayout::ImplicitGemm`): A
//! is the `M x K` matrix of the input's windows, gathered element by
//! element through the root's input map (`kernels/coop_gather.rs`) in
//! the staged copies, never loaded as tiles: every step is staged (whole
//! blocks' whole steps with the [`CoopStage`]'s reads, B wide, A one
//! element per read; without one, every step guarded), and the output
//! point of row `r` is the convolution's `n, oh, ow` of `r`, then `f`.
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
//! [`CoopStage`]: super::super::strategy::CoopStage
//! [`CoopStaging::results`]: super::super::strategy::CoopStaging::results

use crate::kernel::{
    FloatTy, GpuAddressSpace, KAttr, KOpKind, KType, KValue, MemRefLayout, MemorySpace, MmaOperand,
};
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::types::ElemType;
use crate::tensor::TOp;

use super::super::bufferize::BufferId;
use super::super::error::{CodegenError, Invariant};
use super::super::regions::DispatchRegion;
use super::super::strategy::{
    coop_sizes, stage_slices, CoopDims, CoopStage, DispatchShape, MatmulLayout, StageSlice,
};
use super::coop_gather::Gather;
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

/// The workgroup memory of the staged A and B slices.
struct Stage {
    /// The A and B arrays (each `buffers` slices long).
    a: KValue,
    b: KValue,
    /// Their slices' shapes.
    slices: [StageSlice; 2],
    /// Reduction iterations per staged step.
    step: u64,
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
    /// A's and B's buffers, memrefs and the element offsets of this
    /// batch in them.
    abuf: BufferId,
    bbuf: BufferId,
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
    /// The staged slices, where staged.
    stage: Option<Stage>,
    /// Invocations of the workgroup.
    invocations: u64,
    /// How A is gathered, for an implicit-GEMM convolution (every step
    /// staged, A element by element).
    gather: Option<Gather>,
}

/// Which operand a staged slice holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Operand {
    A,
    B,
}

/// An operand as the rows its slice copies: `rows` rows of `len`
/// contiguous elements from element `base` of `mem` (a batch's A or B),
/// the slice's first row `outer0` and first element `inner0` in them.
#[derive(Clone, Copy)]
struct View {
    buf: BufferId,
    mem: KValue,
    base: KValue,
    rows: u64,
    len: u64,
    outer0: KValue,
    inner0: KValue,
    /// A multiple that `inner0` is known to be.
    inner0_multiple: u64,
}

/// The elements of one wide read of a whole-block copy: the element
/// offset in the slice (`outer * stride + inner`), the values, and
/// whether this invocation's read is one of the copy's (`None`: always).
struct Read {
    at: KValue,
    values: Vec<KValue>,
    valid: Option<KValue>,
}

/// The element of a staged slice at `base` (row stride `stride`) where
/// the tile's own dimension is at `x` and the reduction at `kk`:
/// `[kk][x]` when `k_outer`, else `[x][kk]`.
fn slice_offset(
    e: &mut Emitter<'_, '_, '_>,
    base: KValue,
    x: KValue,
    kk: KValue,
    stride: u64,
    k_outer: bool,
) -> KValue {
    let stride = e.index(big(stride));
    let (outer, inner) = if k_outer { (kk, x) } else { (x, kk) };
    let at = e.mul(outer, stride);
    let at = e.add(at, inner);
    e.add(base, at)
}

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
            let transpose = self.layout.transposes_b();
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

    /// The staged slices, or the plan-mismatch error.
    fn stage(&self, e: &Emitter<'_, '_, '_>) -> Result<&Stage, CodegenError> {
        self.stage.as_ref().ok_or_else(|| {
            e.internal(
                self.op,
                Invariant::PlanMismatch {
                    kernel: "a cooperative-matrix matmul",
                    what: "a staged step without workgroup memory",
                },
            )
        })
    }

    /// Operand `which` as rows for the step at `k0` (see [`View`]).
    fn view(&self, which: Operand, k0: KValue) -> View {
        let ks = self.stage.as_ref().map_or(1, |s| s.step);
        let [bm, bn] = self.dims.block();
        let (rows, cols, depth) = (self.rows, self.cols, self.depth);
        match (which, self.layout) {
            // A stored K x M: rows along M.
            (Operand::A, MatmulLayout::TransposeA) => View {
                buf: self.abuf,
                mem: self.amem,
                base: self.a_base,
                rows: depth,
                len: rows,
                outer0: k0,
                inner0: self.block_row,
                inner0_multiple: bm,
            },
            (Operand::A, _) => View {
                buf: self.abuf,
                mem: self.amem,
                base: self.a_base,
                rows,
                len: depth,
                outer0: self.block_row,
                inner0: k0,
                inner0_multiple: ks,
            },
            // B stored N x K: rows along K.
            (Operand::B, MatmulLayout::TransposeB | MatmulLayout::BatchTransposeB) => View {
                buf: self.bbuf,
                mem: self.bmem,
                base: self.b_base,
                rows: cols,
                len: depth,
                outer0: self.block_col,
                inner0: k0,
                inner0_multiple: ks,
            },
            (Operand::B, _) => View {
                buf: self.bbuf,
                mem: self.bmem,
                base: self.b_base,
                rows: depth,
                len: cols,
                outer0: k0,
                inner0: self.block_col,
                inner0_multiple: bn,
            },
        }
    }

    /// Copies operand `which`'s slice for the step at `k0` into its stage
    /// at element `off`, element by element: elements outside the operand
    /// are zero (their addresses clamped into it).
    fn guarded_copy(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        which: Operand,
        k0: KValue,
        off: KValue,
    ) -> Result<(), CodegenError> {
        let st = self.stage(e)?;
        let (stage, slice) = match which {
            Operand::A => (st.a, st.slices[0]),
            Operand::B => (st.b, st.slices[1]),
        };
        let v = self.view(which, k0);
        let tid = e.b.thread_id("x");
        let end = e.index(big(slice.outer * slice.inner));
        let step = e.index(big(self.invocations));
        let in_ty = self.in_ty.clone();
        e.for_(tid, end, step, &[], |e, idx, _| {
            let inner_v = e.index(big(slice.inner));
            let o = e.div(idx, inner_v);
            let i = e.rem(idx, inner_v);
            let go = e.add(v.outer0, o);
            let gi = e.add(v.inner0, i);
            let rows_v = e.index(big(v.rows));
            let len_v = e.index(big(v.len));
            let o_in = e.lt(go, rows_v);
            let i_in = e.lt(gi, len_v);
            let inside = e.b.binary(KOpKind::ArithAndI, o_in, i_in);
            let last_o = e.index(big(v.rows.saturating_sub(1)));
            let last_i = e.index(big(v.len.saturating_sub(1)));
            let go = e.b.binary(KOpKind::ArithMinUI, go, last_o);
            let gi = e.b.binary(KOpKind::ArithMinUI, gi, last_i);
            let x = match (&self.gather, which) {
                (Some(g), Operand::A) => g.raw(e, go, gi)?,
                _ => {
                    let from = e.mul(go, len_v);
                    let from = e.add(from, gi);
                    let from = e.add(v.base, from);
                    e.b.load(v.mem, &[from])
                }
            };
            let zero = match &in_ty {
                KType::Float(_) => e.b.const_float(0.0, in_ty.clone()),
                other => e.b.const_int(0, other.clone()),
            };
            let x = e.b.select(inside, x, zero);
            let stride_v = e.index(big(slice.stride));
            let at = e.mul(o, stride_v);
            let at = e.add(at, i);
            let at = e.add(off, at);
            e.b.store(x, stage, &[at]);
            Ok(Vec::new())
        })?;
        Ok(())
    }

    /// Elements per read of a whole block's slice of `which`: 8 (a
    /// 16-byte `vector<4xi32>` of f16 pairs) or 4 (a `vector<4xf16>`)
    /// where the slice's rows, the operand's rows and the slice's first
    /// element are multiples of it, else 1.
    fn width(&self, which: Operand) -> u64 {
        let Some(st) = self.stage.as_ref() else {
            return 1;
        };
        let slice = match which {
            Operand::A => st.slices[0],
            Operand::B => st.slices[1],
        };
        // (The step's start does not change the sizes.)
        let v = self.view(which, self.block_row);
        let gathered = self.gather.is_some() && which == Operand::A;
        if self.in_ty != KType::Float(FloatTy::F16) || gathered {
            return 1;
        }
        [8, 4]
            .into_iter()
            .find(|w| slice.inner % w == 0 && v.len % w == 0 && v.inner0_multiple % w == 0)
            .unwrap_or(1)
    }

    /// Reads operand `which`'s slice of a whole block for the step at
    /// `k0` into registers (every element inside the operand), each
    /// invocation its share of the slice's wide reads.
    fn wide_reads(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        which: Operand,
        k0: KValue,
    ) -> Result<Vec<Read>, CodegenError> {
        let st = self.stage(e)?;
        let slice = match which {
            Operand::A => st.slices[0],
            Operand::B => st.slices[1],
        };
        let v = self.view(which, k0);
        let w = self.width(which);
        let per_row = slice.inner / w;
        let groups = slice.outer * per_row;
        let inv = self.invocations;
        let tid = e.b.thread_id("x");
        let mem = match w {
            8 => e.buffer_vec4_i32(v.buf),
            4 => e.buffer_vec4(v.buf),
            _ => v.mem,
        };
        let mut reads = Vec::new();
        for u in 0..groups.div_ceil(inv) {
            let du = e.index(big(u * inv));
            let g = e.add(tid, du);
            let last = (u + 1) * inv > groups;
            let (g, valid) = if last {
                let groups_v = e.index(big(groups));
                let valid = e.lt(g, groups_v);
                let top = e.index(big(groups - 1));
                (e.b.binary(KOpKind::ArithMinUI, g, top), Some(valid))
            } else {
                (g, None)
            };
            let per_row_v = e.index(big(per_row));
            let o = e.div(g, per_row_v);
            let i = e.rem(g, per_row_v);
            let w_v = e.index(big(w));
            let i = e.mul(i, w_v);
            let go = e.add(v.outer0, o);
            let gi = e.add(v.inner0, i);
            let len_v = e.index(big(v.len));
            let from = e.mul(go, len_v);
            let from = e.add(from, gi);
            let from = e.add(v.base, from);
            let stride_v = e.index(big(slice.stride));
            let at = e.mul(o, stride_v);
            let at = e.add(at, i);
            let values = match w {
                8 => {
                    let group = e.div(from, w_v);
                    let x = e.b.load(mem, &[group]);
                    let mut values = Vec::new();
                    for j in 0..4 {
                        let word = e.b.extract(x, j);
                        let lo = e.b.cast(KOpKind::ArithTruncI, word, KType::Int(16));
                        let sixteen = e.b.const_int(16, KType::i32());
                        let high = e.b.binary(KOpKind::ArithShRUI, word, sixteen);
                        let hi = e.b.cast(KOpKind::ArithTruncI, high, KType::Int(16));
                        for half in [lo, hi] {
                            values.push(e.b.cast(KOpKind::ArithBitcast, half, self.in_ty.clone()));
                        }
                    }
                    values
                }
                4 => {
                    let group = e.div(from, w_v);
                    let x = e.b.load(mem, &[group]);
                    (0..4).map(|j| e.b.extract(x, j)).collect()
                }
                _ => match (&self.gather, which) {
                    // Whole steps of a whole block: `go` and `gi` are
                    // inside A.
                    (Some(gather), Operand::A) => vec![gather.raw(e, go, gi)?],
                    _ => vec![e.b.load(mem, &[from])],
                },
            };
            reads.push(Read { at, values, valid });
        }
        Ok(reads)
    }

    /// Stores `reads` into operand `which`'s stage at element `off`.
    fn stage_reads(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        which: Operand,
        reads: &[Read],
        off: KValue,
    ) -> Result<(), CodegenError> {
        let st = self.stage(e)?;
        let stage = match which {
            Operand::A => st.a,
            Operand::B => st.b,
        };
        for r in reads {
            let store = |e: &mut Emitter<'_, '_, '_>| {
                let at = e.add(off, r.at);
                for (j, &x) in r.values.iter().enumerate() {
                    let dj = e.index(big(j as u64));
                    let at = e.add(at, dj);
                    e.b.store(x, stage, &[at]);
                }
                Ok(())
            };
            match r.valid {
                Some(valid) => e.if_then(valid, store)?,
                None => store(e)?,
            }
        }
        Ok(())
    }

    /// Both operands' whole-block slices for the step at `k0`, read.
    fn read_both(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        k0: KValue,
    ) -> Result<[Vec<Read>; 2], CodegenError> {
        Ok([
            self.wide_reads(e, Operand::A, k0)?,
            self.wide_reads(e, Operand::B, k0)?,
        ])
    }

    /// Both operands' reads stored at slice offsets `off`.
    fn stage_both(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        reads: &[Vec<Read>; 2],
        off: [KValue; 2],
    ) -> Result<(), CodegenError> {
        self.stage_reads(e, Operand::A, &reads[0], off[0])?;
        self.stage_reads(e, Operand::B, &reads[1], off[1])
    }

    /// The multiply-adds of a staged step from the slices at offsets
    /// `off`: `step / k` of them per tile pair.
    fn staged_fold(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        off: [KValue; 2],
        accs: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let st = self.stage(e)?;
        let (sa, sb, [a_sl, b_sl], step) = (st.a, st.b, st.slices, st.step);
        let CoopDims { m, n, k, tiles, .. } = self.dims;
        let transpose_a = self.layout == MatmulLayout::TransposeA;
        let transpose_b = self.layout.transposes_b();
        let mut accs = accs.to_vec();
        for kk in (0..step).step_by(k as usize) {
            let kk_v = e.index(big(kk));
            let mut av = Vec::new();
            for i in 0..tiles[0] {
                let di = e.index(i64::from(i * m));
                let r = e.add(self.sub_row, di);
                // `[r][kk]`, or `[kk][r]` (column-major) where A is K x M.
                let at = slice_offset(e, off[0], r, kk_v, a_sl.stride, transpose_a);
                av.push(load_matrix(e, sa, at, &self.a_ty, a_sl.stride, transpose_a));
            }
            let mut bv = Vec::new();
            for j in 0..tiles[1] {
                let dj = e.index(i64::from(j * n));
                let c = e.add(self.sub_col, dj);
                // `[kk][c]`, or `[c][kk]` (column-major) where B is N x K.
                let at = slice_offset(e, off[1], c, kk_v, b_sl.stride, !transpose_b);
                bv.push(load_matrix(e, sb, at, &self.b_ty, b_sl.stride, transpose_b));
            }
            accs = self.fold(e, &av, &bv, &accs);
        }
        Ok(accs)
    }

    /// A step at `k0` through the first stage buffers, copied element by
    /// element with zeros outside the operands (an edge block's step or
    /// a K tail); barriers before (the previous step's tile loads are
    /// done) and after the copy.
    fn guarded_step(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        k0: KValue,
        accs: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let zero = e.index(0);
        e.b.barrier();
        self.guarded_copy(e, Operand::A, k0, zero)?;
        self.guarded_copy(e, Operand::B, k0, zero)?;
        e.b.barrier();
        self.staged_fold(e, [zero, zero], accs)
    }

    /// A whole block's whole steps over `[0, whole)`, staged with wide
    /// reads: single-buffered (barrier, copy, barrier, fold), or
    /// double-buffered (the first step copied; then per step the next
    /// step's reads into registers, the fold from the current buffer, the
    /// reads stored into the other buffer, one barrier).
    fn staged_whole_steps(
        &self,
        e: &mut Emitter<'_, '_, '_>,
        whole: u64,
        double: bool,
        acc0: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let st = self.stage(e)?;
        let (step, [a_sl, b_sl]) = (st.step, st.slices);
        let zero = e.index(0);
        let step_v = e.index(big(step));
        if whole == 0 {
            return Ok(acc0.to_vec());
        }
        if !double {
            let whole_v = e.index(big(whole));
            return e.for_(zero, whole_v, step_v, acc0, |e, k0, accs| {
                e.b.barrier();
                let reads = self.read_both(e, k0)?;
                self.stage_both(e, &reads, [zero, zero])?;
                e.b.barrier();
                self.staged_fold(e, [zero, zero], accs)
            });
        }
        let sizes = [a_sl.elems(), b_sl.elems()];
        let reads = self.read_both(e, zero)?;
        self.stage_both(e, &reads, [zero, zero])?;
        e.b.barrier();
        // Buffer `p` (0 or 1) of each operand.
        let offsets = |e: &mut Emitter<'_, '_, '_>, p: KValue| {
            sizes.map(|s| {
                let s = e.index(big(s));
                e.mul(p, s)
            })
        };
        let last = whole - step;
        let last_v = e.index(big(last));
        let accs = e.for_(zero, last_v, step_v, acc0, |e, k0, accs| {
            let next = e.add(k0, step_v);
            let reads = self.read_both(e, next)?;
            let s = e.div(k0, step_v);
            let two = e.index(2);
            let p = e.rem(s, two);
            let cur = offsets(e, p);
            let one = e.index(1);
            let q = e.sub(one, p);
            let nxt = offsets(e, q);
            let accs = self.staged_fold(e, cur, accs)?;
            self.stage_both(e, &reads, nxt)?;
            e.b.barrier();
            Ok(accs)
        })?;
        let p = e.index(big((last / step) % 2));
        let cur = offsets(e, p);
        self.staged_fold(e, cur, &accs)
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
    let batched = types.layout.batched();
    let gather = if types.layout == MatmulLayout::ImplicitGemm {
        let sizes = e.loop_sizes(root);
        Some(Gather::new(e, root, &s, &sizes)?)
    } else {
        None
    };
    if gather.is_some() && !staging.operands {
        return Err(internal(e, "a gathered A without staged steps"));
    }
    let result = tm.op(root).results[0];
    let buffer = |e: &Emitter<'_, '_, '_>, v| {
        e.c.buffers
            .buffer(v)
            .ok_or_else(|| internal(e, "an operand without a buffer"))
    };
    // An operand computed in the dispatch (a gathered A's padding, a
    // transpose read as transposed tiles) is read from its source's
    // buffer.
    let source = |e: &Emitter<'_, '_, '_>, v| match info.def_op(v) {
        Some(p) if e.c.buffers.buffer(v).is_none() => tm
            .op(p)
            .operands
            .first()
            .copied()
            .ok_or_else(|| internal(e, "an operand computed from nothing")),
        _ => Ok(v),
    };
    let (a_read, b_read) = (source(e, a)?, source(e, b)?);
    let (abuf, bbuf) = (buffer(e, a_read)?, buffer(e, b_read)?);
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
    let stage = if staging.operands {
        let step = u64::from(staging.step);
        let slices = stage_slices(types.layout, [block_rows, block_cols], step);
        let buffers = staging.buffers();
        Some(Stage {
            a: shared(e, slices[0].elems() * buffers, in_ty.clone()),
            b: shared(e, slices[1].elems() * buffers, in_ty.clone()),
            slices,
            step,
        })
    } else {
        None
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
        abuf,
        bbuf,
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
        stage,
        invocations,
        gather,
    };
    // Whole blocks: whole steps of `step` (direct tile loads, or staged
    // with wide reads), then a guarded K tail; edge blocks: every step
    // guarded.
    let step64 = u64::from(staging.step);
    let whole = depth / step64 * step64;
    let zero = e.index(0);
    let step = e.index(i64::from(staging.step));
    let whole_v = e.index(big(whole));
    let inside_steps = |e: &mut Emitter<'_, '_, '_>| -> Result<Vec<KValue>, CodegenError> {
        let mut accs = match staging.whole {
            Some(CoopStage { double, .. }) => kern.staged_whole_steps(e, whole, double, &acc0)?,
            None => e.for_(zero, whole_v, step, &acc0, |e, k0, accs| {
                Ok(kern.direct_step(e, k0, accs))
            })?,
        };
        if whole < depth {
            accs = kern.guarded_step(e, whole_v, &accs)?;
        }
        Ok(accs)
    };
    let edge_steps = |e: &mut Emitter<'_, '_, '_>| -> Result<Vec<KValue>, CodegenError> {
        let end = e.index(big(depth.div_ceil(step64) * step64));
        e.for_(zero, end, step, &acc0, |e, k0, accs| {
            kern.guarded_step(e, k0, accs)
        })
    };
    let whole_blocks = rows % block_rows == 0 && cols % block_cols == 0;
    // A gathered A has no direct tile loads: without whole staged blocks
    // every step is a guarded (element by element) one.
    let gathered_steps = kern.gather.is_some() && staging.whole.is_none();
    let done = if gathered_steps {
        edge_steps(e)?
    } else if !staging.operands || whole_blocks {
        inside_steps(e)?
    } else if rows < block_rows || cols < block_cols {
        // No block is inside M x N: every step is guarded.
        edge_steps(e)?
    } else {
        // Blocks inside M x N take the whole steps; edge blocks guard
        // every step.
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
        e.if_else(inside, &tys, inside_steps, edge_steps)?
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
                let coords = match &kern.gather {
                    // The convolution's point: the row's pixel, then F.
                    Some(g) => {
                        let mut p = g.row_coords(e, r);
                        p.push(c);
                        p
                    }
                    None if batched => vec![bi, r, c],
                    None => vec![r, c],
                };
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
