//! Per-op rules of the kernel verifier for the `memref` ops and the
//! element accesses of `memref` and `vector` (the checkers
//! `Verifier::check_special` dispatches to).

use super::ops::{rank, ts};
use super::Verifier;
use crate::kernel::entity::KOp;
use crate::kernel::module::{KAttr, KOpData};
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;

impl Verifier<'_> {
    /// `memref.load`/`store`, `vector.load`/`store`: one index per dimension,
    /// the element type (a vector of it for `vector`).
    pub(super) fn check_access(&mut self, op: KOp, d: &KOpData) {
        use KOpKind::*;
        let store = matches!(d.kind, MemRefStore | VectorStore);
        let want_results = usize::from(!store);
        if !self.counts(op, None, want_results, 0) {
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
        let elem = mt.memref_elem().cloned().unwrap_or(KType::i32());
        let value = if store {
            self.ty(d.operands[0]).clone()
        } else {
            self.ty(d.results[0]).clone()
        };
        match d.kind {
            MemRefLoad | MemRefStore => {
                if value != elem {
                    self.error(
                        op,
                        format!(
                            "value type {} is not the element type {}",
                            ts(&value),
                            ts(&elem)
                        ),
                    );
                }
            }
            _ => {
                if !matches!(value, KType::Vector { .. }) || value.scalar() != elem.scalar() {
                    self.error(op, format!("expects a vector of {}", ts(&elem)));
                }
            }
        }
    }

    /// `memref.alloc` / `alloca`: one index size per dynamic dimension.
    pub(super) fn check_alloc(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, None, 1, 0) {
            match &res_tys[0] {
                KType::MemRef { shape, .. } => {
                    let dynamic = shape.iter().filter(|s| s.is_none()).count();
                    let seg = match self.attr(op, "operandSegmentSizes") {
                        Some(KAttr::DenseI64(v)) if v.len() == 2 => v[0] as usize,
                        _ => ops.len(),
                    };
                    if seg != dynamic {
                        self.error(
                            op,
                            format!("the type has {dynamic} dynamic sizes but {seg} are given"),
                        );
                    }
                    self.all_index(op, ops, "sizes");
                }
                _ => self.error(op, "result must be a ranked memref"),
            }
        }
    }

    /// `memref.dealloc`: a memref.
    pub(super) fn check_dealloc(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        if self.counts(op, Some(1), 0, 0) && self.ty(ops[0]).memref_elem().is_none() {
            self.error(op, "expects a memref");
        }
    }

    /// `memref.dim`: a memref, an index and an index result.
    pub(super) fn check_memref_dim(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        if self.counts(op, Some(2), 1, 0) {
            if self.ty(ops[0]).memref_elem().is_none() {
                self.error(op, "expects a memref");
            }
            self.all_index(op, &[ops[1], d.results[0]], "index and result");
        }
    }

    /// `memref.subview`: one static entry per source dimension, one
    /// element type.
    pub(super) fn check_subview(&mut self, op: KOp, d: &KOpData) {
        let ops = &d.operands;
        let res_tys = self.tys(&d.results);
        if self.counts(op, None, 1, 0) && !ops.is_empty() {
            let src = self.ty(ops[0]).clone();
            let r = rank(&src);
            for name in ["static_offsets", "static_sizes", "static_strides"] {
                match self.attr(op, name) {
                    Some(KAttr::DenseI64(v)) if Some(v.len()) == r => {}
                    _ => self.error(
                        op,
                        format!("'{name}' must have one entry per source dimension"),
                    ),
                }
            }
            match (&src, &res_tys[0]) {
                (KType::MemRef { elem: a, .. }, KType::MemRef { elem: b, .. }) if a == b => {}
                _ => self.error(op, "source and result must be memrefs of one element type"),
            }
            self.all_index(op, &ops[1..], "dynamic offsets, sizes and strides");
        }
    }
}
