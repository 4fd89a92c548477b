//! Per-op rules of the kernel verifier for the `vector` ops (the checkers
//! `Verifier::check_special` dispatches to).

use super::ops::{bit_width, int_like, ts};
use super::Verifier;
use crate::kernel::entity::KOp;
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::parse::ops::VECTOR_KINDS;
use crate::kernel::types::KType;

impl Verifier<'_> {
    /// `vector.extract` / `vector.insert`: positions in bounds, the part's
    /// type.
    pub(super) fn check_extract_insert(&mut self, op: KOp, d: &KOpData) {
        let insert = d.kind == KOpKind::VectorInsert;
        if !self.counts(op, None, 1, 0) {
            return;
        }
        let vpos = usize::from(insert);
        let Some(&vec) = d.operands.get(vpos) else {
            self.error(op, "missing the vector operand");
            return;
        };
        let vt = self.ty(vec).clone();
        let KType::Vector { shape, elem } = &vt else {
            self.error(op, "expects a vector");
            return;
        };
        let Some(KAttr::DenseI64(pos)) = self.attr(op, "static_position") else {
            self.error(op, "needs 'static_position'");
            return;
        };
        let dynamic = pos.iter().filter(|&&p| p == i64::MIN).count();
        if d.operands.len() != vpos + 1 + dynamic {
            self.error(op, "dynamic positions and operands disagree");
        }
        if pos.len() > shape.len() {
            self.error(op, "more positions than vector dimensions");
            return;
        }
        for (p, &n) in pos.iter().zip(shape) {
            if *p != i64::MIN && (*p < 0 || *p as u64 >= n) {
                self.error(op, format!("position {p} is out of bounds for {}", ts(&vt)));
            }
        }
        let part = if pos.len() == shape.len() {
            (**elem).clone()
        } else {
            KType::Vector {
                shape: shape[pos.len()..].to_vec(),
                elem: elem.clone(),
            }
        };
        let result = self.ty(d.results[0]).clone();
        if insert {
            if *self.ty(d.operands[0]) != part || result != vt {
                self.error(
                    op,
                    format!("expects to insert a {} into {}", ts(&part), ts(&vt)),
                );
            }
        } else if result != part {
            self.error(op, format!("result must be {}", ts(&part)));
        }
    }
    /// `vector.extractelement` / `insertelement`: the element type, an
    /// integer position.
    pub(super) fn check_vector_element(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        let insert = d.kind == VectorInsertElement;
        if self.counts(op, None, 1, 0) {
            let vpos = usize::from(insert);
            let Some(&vec) = ops.get(vpos) else {
                self.error(op, "missing the vector operand");
                return;
            };
            let vt = self.ty(vec).clone();
            let elem = vt.scalar().clone();
            let want = if insert { vt.clone() } else { elem.clone() };
            if res_tys[0] != want {
                self.error(op, format!("result must be {}", ts(&want)));
            }
            if insert && *self.ty(ops[0]) != elem {
                self.error(op, "the inserted value must be the element type");
            }
            if let Some(&p) = ops.get(vpos + 1) {
                if !int_like(self.ty(p)) {
                    self.error(op, "the position must be an integer or index");
                }
            }
        }
    }

    /// `vector.splat`: a vector of the operand's type.
    pub(super) fn check_splat(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(1), 1, 0) && res_tys[0].scalar() != self.ty(ops[0]) {
            self.error(op, "result must be a vector of the operand's type");
        }
    }

    /// `vector.shuffle`: mask indices in range, one result element per
    /// entry.
    pub(super) fn check_shuffle_mask(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(2), 1, 0) {
            let a = self.ty(ops[0]).clone();
            let b = self.ty(ops[1]).clone();
            let total = bit_width(&a).unwrap_or(0) / bit_width(a.scalar()).unwrap_or(1)
                + bit_width(&b).unwrap_or(0) / bit_width(b.scalar()).unwrap_or(1);
            match self.attr(op, "mask") {
                Some(KAttr::DenseI64(mask)) => {
                    if mask.iter().any(|&i| i < 0 || i as u64 >= total) {
                        self.error(op, format!("mask indices must be below {total}"));
                    }
                    if res_tys[0] != KType::vector(mask.len() as u64, a.scalar().clone()) {
                        self.error(op, "result must have one element per mask entry");
                    }
                }
                _ => self.error(op, "needs a 'mask'"),
            }
            if a.scalar() != b.scalar() {
                self.error(op, "operands must have one element type");
            }
        }
    }

    /// `vector.interleave`: two vectors of one type, a result twice as
    /// long.
    pub(super) fn check_interleave(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(2), 1, 0) {
            let a = self.ty(ops[0]).clone();
            if *self.ty(ops[1]) != a || bit_width(&res_tys[0]) != bit_width(&a).map(|w| 2 * w) {
                self.error(
                    op,
                    "expects two vectors of one type and a result twice as long",
                );
            }
        }
    }

    /// `vector.deinterleave`: two results half as long as the operand.
    pub(super) fn check_deinterleave(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, Some(1), 2, 0) {
            let a = self.ty(ops[0]).clone();
            if res_tys[0] != res_tys[1] || bit_width(&res_tys[0]).map(|w| 2 * w) != bit_width(&a) {
                self.error(op, "expects two results half as long as the operand");
            }
        }
    }

    /// `vector.reduction`: the element type, an accumulator of it, a valid
    /// kind.
    pub(super) fn check_reduction(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, None, 1, 0) && !ops.is_empty() {
            let v = self.ty(ops[0]).clone();
            if res_tys[0] != *v.scalar() || !matches!(v, KType::Vector { .. }) {
                self.error(op, "result must be the vector's element type");
            }
            if let Some(&acc) = ops.get(1) {
                if *self.ty(acc) != res_tys[0] {
                    self.error(op, "the accumulator must have the result type");
                }
            }
            self.enum_in(op, "kind", &VECTOR_KINDS);
        }
    }
}
