//! The `tensor` ops that make a tensor from sizes and scalars, read or
//! write one element, or read one size: `tensor.empty`, `tensor.splat`,
//! `tensor.from_elements`, `tensor.extract`, `tensor.insert`, `tensor.dim`,
//! and `tensor.cast`.

use super::super::{compatible, Verifier};
use super::Parts;
use crate::tensor::types::{Dim, TypeKind};

impl Verifier<'_> {
    /// `tensor.empty`: one index operand per dynamic size.
    pub(super) fn empty(
        &mut self,
        Parts {
            op, ops, rshape, ..
        }: Parts<'_>,
    ) {
        let dynamic = rshape.iter().filter(|d| **d == Dim::Dynamic).count();
        if ops.len() != dynamic {
            self.error(
                op,
                format!(
                    "incorrect number of dynamic sizes, has {}, expected {dynamic}",
                    ops.len()
                ),
            );
            return;
        }
        self.all_index(op, ops);
    }

    /// `tensor.splat`.
    pub(super) fn splat(
        &mut self,
        Parts {
            op,
            ops,
            rshape,
            relem,
            ..
        }: Parts<'_>,
    ) {
        let dynamic = rshape.iter().filter(|d| **d == Dim::Dynamic).count();
        if ops.is_empty() || self.m.value_kind(ops[0]) != &TypeKind::Scalar(relem) {
            self.error(op, format!("expected a {relem} operand"));
            return;
        }
        if ops.len() != 1 + dynamic || !self.all_index(op, &ops[1..]) {
            self.error(op, format!("expected {dynamic} dynamic sizes"));
        }
    }

    /// `tensor.from_elements`.
    pub(super) fn tensor_from_elements(
        &mut self,
        Parts {
            op,
            ops,
            rshape,
            relem,
            ..
        }: Parts<'_>,
    ) {
        let n = rshape
            .iter()
            .try_fold(1u64, |a, d| d.fixed().map(|x| a * x));
        if n != Some(ops.len() as u64) {
            self.error(
                op,
                format!(
                    "expected {} elements for a static result, got {}",
                    n.map_or("?".into(), |n| n.to_string()),
                    ops.len()
                ),
            );
            return;
        }
        if ops
            .iter()
            .any(|&v| self.m.value_kind(v) != &TypeKind::Scalar(relem))
        {
            self.error(op, format!("expected {relem} elements"));
        }
    }

    /// `tensor.extract`.
    pub(super) fn extract(
        &mut self,
        Parts {
            op,
            ops,
            result,
            sshape,
            selem,
            ..
        }: Parts<'_>,
    ) {
        if ops.len() != 1 + sshape.len() {
            self.error(
                op,
                format!(
                    "incorrect number of indices for extract_element (expected {})",
                    sshape.len()
                ),
            );
            return;
        }
        if !self.all_index(op, &ops[1..]) {
            return;
        }
        if let Some(r) = result {
            if self.m.value_kind(r) != &TypeKind::Scalar(selem) {
                self.error(op, "expected the result to be the element type");
            }
        }
    }

    /// `tensor.insert`.
    pub(super) fn insert(&mut self, Parts { op, ops, .. }: Parts<'_>) {
        let Some((dshape, delem)) = ops.get(1).and_then(|&v| self.tensor_shape(v)) else {
            self.error(op, "expected a tensor destination");
            return;
        };
        if ops.len() != 2 + dshape.len() {
            self.error(
                op,
                format!("incorrect number of indices (expected {})", dshape.len()),
            );
            return;
        }
        if !self.all_index(op, &ops[2..]) {
            return;
        }
        if self.m.value_kind(ops[0]) != &TypeKind::Scalar(delem) {
            self.error(op, format!("expected the inserted value to be {delem}"));
        }
    }

    /// `tensor.dim`.
    pub(super) fn dim(&mut self, Parts { op, ops, .. }: Parts<'_>) {
        if ops.len() != 2 {
            self.error(op, "expected a tensor and an index");
            return;
        }
        self.all_index(op, &ops[1..]);
    }

    /// `tensor.cast`.
    pub(super) fn cast(
        &mut self,
        Parts {
            op,
            ops,
            result,
            rshape,
            relem,
            sshape,
            selem,
            ..
        }: Parts<'_>,
    ) {
        if selem != relem || !compatible(&sshape, &rshape) {
            self.error(
                op,
                format!(
                    "operand type {} and result type {} are cast incompatible",
                    self.vty(ops[0]),
                    result.map(|r| self.vty(r)).unwrap_or_default()
                ),
            );
        }
    }
}
