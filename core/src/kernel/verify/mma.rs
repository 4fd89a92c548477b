//! Per-op rules of the kernel verifier for the subgroup MMA ops
//! (`gpu.subgroup_mma_*`, MLIR 19's `GPUOps.td`), which lower to
//! cooperative matrices.

use super::ops::{rank, ts};
use super::Verifier;
use crate::kernel::entity::{KOp, KValue};
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::{KType, MmaOperand};

/// The parts of an `!gpu.mma_matrix` type.
fn mma(t: &KType) -> Option<(u32, u32, &KType, MmaOperand)> {
    match t {
        KType::MmaMatrix {
            rows,
            cols,
            elem,
            operand,
        } => Some((*rows, *cols, elem, *operand)),
        _ => None,
    }
}

impl Verifier<'_> {
    /// `gpu.subgroup_mma_load_matrix` / `store_matrix`: a ranked memref
    /// (of the matrix's element type) indexed once per dimension, an MMA
    /// matrix value, a positive `leadDimension` index attribute.
    pub(super) fn check_mma_access(&mut self, op: KOp, d: &KOpData) {
        let store = d.kind == KOpKind::GpuSubgroupMmaStoreMatrix;
        if !self.counts(op, None, usize::from(!store), 0) {
            return;
        }
        let mpos = usize::from(store);
        let Some(&mem) = d.operands.get(mpos) else {
            self.error(op, "missing the memref operand");
            return;
        };
        let mt = self.ty(mem).clone();
        let Some(r) = rank(&mt) else {
            self.error(op, format!("expects a ranked memref, got {}", ts(&mt)));
            return;
        };
        let idx = &d.operands[mpos + 1..];
        if idx.len() != r {
            self.error(
                op,
                format!("expects {r} indices for {}, got {}", ts(&mt), idx.len()),
            );
        }
        self.all_index(op, idx, "indices");
        let value: KValue = if store { d.operands[0] } else { d.results[0] };
        let vt = self.ty(value).clone();
        let Some((_, _, elem, operand)) = mma(&vt) else {
            self.error(op, format!("expects an MMA matrix, got {}", ts(&vt)));
            return;
        };
        if Some(elem) != mt.memref_elem() {
            self.error(
                op,
                format!(
                    "matrix {} and memref {} differ in element type",
                    ts(&vt),
                    ts(&mt)
                ),
            );
        }
        if store && operand != MmaOperand::C {
            self.error(op, format!("stores only \"COp\" matrices, got {}", ts(&vt)));
        }
        match self.attr(op, "leadDimension") {
            Some(KAttr::Int {
                value,
                ty: KType::Index,
            }) if *value > 0 => {}
            _ => self.error(op, "needs a positive 'leadDimension' index attribute"),
        }
    }

    /// `gpu.subgroup_mma_compute`: A ("AOp", M x K), B ("BOp", K x N), C
    /// ("COp", M x N); the result has C's type; A and B both integer or
    /// both float.
    pub(super) fn check_mma_compute(&mut self, op: KOp, d: &KOpData) {
        if !self.counts(op, Some(3), 1, 0) {
            return;
        }
        let [a, b, c] = [0, 1, 2].map(|i| self.ty(d.operands[i]).clone());
        let r = self.ty(d.results[0]).clone();
        let (Some(ma), Some(mb), Some(mc)) = (mma(&a), mma(&b), mma(&c)) else {
            self.error(op, "expects three MMA matrix operands");
            return;
        };
        if (ma.3, mb.3, mc.3) != (MmaOperand::A, MmaOperand::B, MmaOperand::C) {
            self.error(op, "operands must be \"AOp\", \"BOp\" and \"COp\" matrices");
        }
        if ma.0 != mc.0 || mb.1 != mc.1 || ma.1 != mb.0 {
            self.error(
                op,
                format!(
                    "shapes {}x{} * {}x{} + {}x{} do not multiply",
                    ma.0, ma.1, mb.0, mb.1, mc.0, mc.1
                ),
            );
        }
        if matches!(ma.2, KType::Float(_)) != matches!(mb.2, KType::Float(_)) {
            self.error(op, "A and B must both be integer or both be float matrices");
        }
        if r != c {
            self.error(op, format!("result {} is not C's type {}", ts(&r), ts(&c)));
        }
    }

    /// `gpu.subgroup_mma_constant_matrix`: a scalar of the result matrix's
    /// element type.
    pub(super) fn check_mma_constant(&mut self, op: KOp, d: &KOpData) {
        if !self.counts(op, Some(1), 1, 0) {
            return;
        }
        let v = self.ty(d.operands[0]).clone();
        let r = self.ty(d.results[0]).clone();
        match mma(&r) {
            Some((_, _, elem, _)) if *elem == v => {}
            Some(_) => self.error(
                op,
                format!("value {} is not the element type of {}", ts(&v), ts(&r)),
            ),
            None => self.error(op, format!("expects an MMA matrix result, got {}", ts(&r))),
        }
    }
}
