//! The cooperative-matrix matmul kernel ([`Distribution::CoopMatrix`],
//! chosen by `strategy/coop_matrix.rs` for a plain f16 matmul whose sizes
//! are multiples of the tile): workgroup `w` is one subgroup computing the
//! `m` x `n` output tile at row `(w / (N / n)) * m`, column
//! `(w % (N / n)) * n`. Its accumulator starts as the init's tile (loaded
//! from memory) or the fill value everywhere; one `scf.for` over K in steps
//! of `k` loads the A tile (`m` x `k`, row-major, stride K) and the B tile
//! (`k` x `n`, stride N) as `gpu.subgroup_mma_load_matrix` and folds them
//! with `gpu.subgroup_mma_compute`; the tile is stored with
//! `gpu.subgroup_mma_store_matrix` (stride N). The buffers are the flat
//! row-major `memref<?xT>` of every kernel, so an element `[r, c]` of a
//! matrix with C columns is index `r * C + c`; the lowering turns the ops
//! into `Subgroup` cooperative matrices.

use crate::kernel::{KAttr, KOpKind, KType, KValue, MmaOperand};
use crate::tensor::ops::{LinalgKind, OpKind};
use crate::tensor::types::ElemType;

use super::super::error::CodegenError;
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

/// Emits the kernel body for workgroup `wgi`.
pub(super) fn emit_coop_matmul(
    e: &mut Emitter<'_, '_, '_>,
    d: &DispatchRegion,
    shape: &DispatchShape,
    wgi: KValue,
    m: u32,
    n: u32,
    k: u32,
) -> Result<(), CodegenError> {
    let info = e.c.info;
    let tm = info.m;
    let internal = |e: &Emitter<'_, '_, '_>, what: &str| {
        e.unsupported(d.op, format!("internal: cooperative-matrix matmul: {what}"))
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

    // The tile's first row and column, and their linear offsets.
    let tiles_n = e.index(i64::try_from(cols / u64::from(n)).unwrap_or(i64::MAX));
    let tr = e.div(wgi, tiles_n);
    let tc = e.rem(wgi, tiles_n);
    let (mv, nv) = (e.index(i64::from(m)), e.index(i64::from(n)));
    let row0 = e.mul(tr, mv);
    let col0 = e.mul(tc, nv);
    let n_all = e.index(i64::try_from(cols).unwrap_or(i64::MAX));
    let k_all = e.index(i64::try_from(depth).unwrap_or(i64::MAX));
    let row_off_n = e.mul(row0, n_all);
    let c_at = e.add(row_off_n, col0);

    // The accumulator's start: the init's tile, or the fill value.
    let acc0 = match e.c.buffers.buffer(init) {
        Some(ibuf) => {
            let mem = e.buffer(ibuf);
            let op = e.b.op(
                KOpKind::GpuSubgroupMmaLoadMatrix,
                &[mem, c_at],
                std::slice::from_ref(&c_ty),
                lead(cols),
            );
            e.b.module().op(op).results[0]
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
            e.b.module().op(op).results[0]
        }
    };

    let (amem, bmem) = (e.buffer(abuf), e.buffer(bbuf));
    let zero = e.index(0);
    let step = e.index(i64::from(k));
    let row_off_k = e.mul(row0, k_all);
    let done = e.for_(zero, k_all, step, &[acc0], |e, k0, acc| {
        let a_at = e.add(row_off_k, k0);
        let a_op = e.b.op(
            KOpKind::GpuSubgroupMmaLoadMatrix,
            &[amem, a_at],
            std::slice::from_ref(&a_ty),
            lead(depth),
        );
        let av = e.b.module().op(a_op).results[0];
        let n_all = e.index(i64::try_from(cols).unwrap_or(i64::MAX));
        let k_row = e.mul(k0, n_all);
        let b_at = e.add(k_row, col0);
        let b_op = e.b.op(
            KOpKind::GpuSubgroupMmaLoadMatrix,
            &[bmem, b_at],
            std::slice::from_ref(&b_ty),
            lead(cols),
        );
        let bv = e.b.module().op(b_op).results[0];
        let c_op = e.b.op(
            KOpKind::GpuSubgroupMmaCompute,
            &[av, bv, acc[0]],
            std::slice::from_ref(&c_ty),
            Vec::new(),
        );
        Ok(vec![e.b.module().op(c_op).results[0]])
    })?;
    let rmem = e.buffer(rbuf);
    e.mark_written(rbuf);
    e.b.op(
        KOpKind::GpuSubgroupMmaStoreMatrix,
        &[done[0], rmem, c_at],
        &[],
        lead(cols),
    );
    Ok(())
}
