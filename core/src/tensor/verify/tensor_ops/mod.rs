//! `tensor` ops, one function per op (or op family) in the files below;
//! this one checks what every op needs and dispatches.

mod concat;
mod elements;
mod pad;
mod reshape;
mod slice;

use super::Verifier;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::module::OpData;
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType, TypeKind};

/// What the check of a `tensor` op starts from: the op, its operands and
/// first result, and the shape and element type of that result and of
/// the first operand (empty and `f32` where either is not a tensor).
pub(super) struct Parts<'a> {
    op: TOp,
    data: &'a OpData,
    ops: &'a [TValue],
    result: Option<TValue>,
    rshape: Vec<Dim>,
    relem: ElemType,
    sshape: Vec<Dim>,
    selem: ElemType,
}

impl Verifier<'_> {
    fn tensor_shape(&self, v: TValue) -> Option<(Vec<Dim>, ElemType)> {
        match self.m.value_kind(v) {
            TypeKind::Tensor { shape, elem } => Some((shape.clone(), *elem)),
            _ => None,
        }
    }

    fn all_index(&mut self, op: TOp, values: &[TValue]) -> bool {
        for &v in values {
            if self.m.value_kind(v) != &TypeKind::Scalar(ElemType::Index) {
                self.error(op, format!("expected index operands, got {}", self.vty(v)));
                return false;
            }
        }
        true
    }

    pub(crate) fn tensor_op(&mut self, op: TOp) {
        let data = self.m.op(op).clone();
        let OpKind::Tensor(t) = &data.kind else {
            return;
        };
        let ops = &data.operands;
        let result = data.results.first().copied();
        let res = result.and_then(|r| self.tensor_shape(r));
        let need_tensor_result = !matches!(t, TensorOp::Dim | TensorOp::Extract);
        if need_tensor_result && res.is_none() {
            self.error(op, "expected a tensor result");
            return;
        }
        let src = ops.first().and_then(|&v| self.tensor_shape(v));
        let needs_src = !matches!(
            t,
            TensorOp::Empty | TensorOp::Splat | TensorOp::FromElements | TensorOp::Insert
        );
        if needs_src && src.is_none() {
            self.error(
                op,
                format!(
                    "expected a tensor operand, got {}",
                    ops.first().map(|&v| self.vty(v)).unwrap_or_default()
                ),
            );
            return;
        }
        let (rshape, relem) = res.clone().unwrap_or((vec![], ElemType::F32));
        let (sshape, selem) = src.clone().unwrap_or((vec![], ElemType::F32));
        let p = Parts {
            op,
            data: &data,
            ops,
            result,
            rshape,
            relem,
            sshape,
            selem,
        };
        match t {
            TensorOp::Empty => self.empty(p),
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            }
            | TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => self.slice(p, t, [offsets, sizes, strides]),
            TensorOp::CollapseShape { reassociation }
            | TensorOp::ExpandShape { reassociation, .. } => self.reshape(p, t, reassociation),
            TensorOp::Pad { low, high, .. } => self.pad(p, low, high),
            TensorOp::Cast => self.cast(p),
            TensorOp::Dim => self.dim(p),
            TensorOp::Extract => self.extract(p),
            TensorOp::Insert => self.insert(p),
            TensorOp::Concat { dim } => self.concat(p, dim),
            TensorOp::Splat => self.splat(p),
            TensorOp::FromElements => self.tensor_from_elements(p),
        }
    }
}
