//! `tensor.collapse_shape` and `tensor.expand_shape`.

use super::super::value::{Tensor, Value};
use super::super::{EvalError, Interp};
use super::one_tensor;
use crate::tensor::attr::Mixed;
use crate::tensor::entity::TOp;

impl Interp<'_> {
    /// `tensor.collapse_shape`.
    pub(super) fn collapse_shape(
        &self,
        op: TOp,
        env: &[Option<Value>],
        reassociation: &[Vec<u64>],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let src = self.tensor_arg(op, env, ops[0])?;
        let shape = reassociation
            .iter()
            .map(|g| g.iter().map(|&d| src.shape[d as usize]).product())
            .collect();
        one_tensor(Tensor {
            elem: src.elem,
            shape,
            data: src.data.clone(),
        })
    }

    /// `tensor.expand_shape`.
    pub(super) fn expand_shape(
        &self,
        op: TOp,
        env: &[Option<Value>],
        reassociation: &[Vec<u64>],
        output_shape: &[Mixed],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let src = self.tensor_arg(op, env, ops[0])?;
        let mut dynamic = ops[1..].iter();
        let shape: Vec<i64> = self.mixed(op, env, output_shape, &mut dynamic)?;
        if shape.iter().any(|&n| n < 0) {
            return Err(EvalError::at(m, op, "negative output size"));
        }
        let shape: Vec<usize> = shape.iter().map(|&n| n as usize).collect();
        for (i, g) in reassociation.iter().enumerate() {
            let p: usize = g.iter().map(|&d| shape[d as usize]).product();
            if p != src.shape[i] {
                return Err(EvalError::at(
                    m,
                    op,
                    format!(
                        "output_shape {shape:?} does not expand source dimension {i} of size {}",
                        src.shape[i]
                    ),
                ));
            }
        }
        one_tensor(Tensor {
            elem: src.elem,
            shape,
            data: src.data.clone(),
        })
    }
}
