//! `tensor` dialect ops, one function per op (or op family) in the files
//! below; this one dispatches and holds what they share.

mod concat;
mod elements;
mod pad;
mod reshape;
mod slice;

use std::rc::Rc;

use super::value::{Scalar, Tensor, Value};
use super::{EvalError, Interp};
use crate::tensor::attr::Mixed;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::Dim;

/// Calls `f` with every multi-index of `shape` in row-major order.
pub(super) fn for_each_index(
    shape: &[usize],
    mut f: impl FnMut(&[usize]) -> Result<(), EvalError>,
) -> Result<(), EvalError> {
    if shape.contains(&0) {
        return Ok(());
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        f(&idx)?;
        let mut d = shape.len();
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

pub(super) fn offset(idx: &[usize], strides: &[usize]) -> usize {
    idx.iter().zip(strides).map(|(i, s)| i * s).sum()
}

impl Interp<'_> {
    fn index_arg(&self, op: TOp, env: &[Option<Value>], v: TValue) -> Result<i64, EvalError> {
        env[v.index()]
            .as_ref()
            .and_then(Value::scalar)
            .map(Scalar::int)
            .ok_or_else(|| EvalError::at(self.m, op, "expects an index operand"))
    }

    fn tensor_arg(
        &self,
        op: TOp,
        env: &[Option<Value>],
        v: TValue,
    ) -> Result<Rc<Tensor>, EvalError> {
        env[v.index()]
            .as_ref()
            .and_then(Value::tensor)
            .cloned()
            .ok_or_else(|| EvalError::at(self.m, op, "expects a tensor operand"))
    }

    /// Resolves a mixed list, taking dynamic entries from `dynamic`.
    fn mixed(
        &self,
        op: TOp,
        env: &[Option<Value>],
        list: &[Mixed],
        dynamic: &mut std::slice::Iter<'_, TValue>,
    ) -> Result<Vec<i64>, EvalError> {
        list.iter()
            .map(|m| match m {
                Mixed::Static(v) => Ok(*v),
                Mixed::Dynamic => {
                    let v = dynamic
                        .next()
                        .ok_or_else(|| EvalError::at(self.m, op, "missing a dynamic operand"))?;
                    self.index_arg(op, env, *v)
                }
            })
            .collect()
    }

    /// The concrete shape of the result type, dynamic dims from `sizes`.
    fn result_shape(&self, op: TOp, dynamic: &[i64]) -> Result<Vec<usize>, EvalError> {
        let m = self.m;
        let r = m.op(op).results[0];
        let shape = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
        let mut it = dynamic.iter();
        shape
            .iter()
            .map(|d| match d {
                Dim::Static(n) => Ok(*n as usize),
                Dim::Dynamic => {
                    let v = *it
                        .next()
                        .ok_or_else(|| EvalError::at(m, op, "missing a dynamic size"))?;
                    usize::try_from(v)
                        .map_err(|_| EvalError::at(m, op, format!("negative size {v}")))
                }
            })
            .collect()
    }

    /// Checks a run-time shape against the static dims of `ty`.
    pub(crate) fn check_fits(&self, op: TOp, shape: &[usize], v: TValue) -> Result<(), EvalError> {
        let m = self.m;
        let want = m.value_kind(v).tensor_shape().unwrap_or(&[]);
        let fits = want.len() == shape.len()
            && want
                .iter()
                .zip(shape)
                .all(|(d, &n)| d.fixed().is_none_or(|s| s as usize == n));
        if !fits {
            return Err(EvalError::at(
                m,
                op,
                format!(
                    "run-time shape {shape:?} does not fit {}",
                    m.types.text(m.value_type(v))
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn tensor_op(
        &mut self,
        op: TOp,
        env: &[Option<Value>],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let OpKind::Tensor(t) = &data.kind else {
            return Err(EvalError::at(m, op, "not a tensor op"));
        };
        match t {
            TensorOp::Empty => self.empty(op, env),
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            } => self.slice(op, env, false, [offsets, sizes, strides]),
            TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => self.slice(op, env, true, [offsets, sizes, strides]),
            TensorOp::CollapseShape { reassociation } => {
                self.collapse_shape(op, env, reassociation)
            }
            TensorOp::ExpandShape {
                reassociation,
                output_shape,
            } => self.expand_shape(op, env, reassociation, output_shape),
            TensorOp::Pad { low, high, .. } => self.pad(op, env, low, high),
            TensorOp::Cast => self.cast(op, env),
            TensorOp::Dim => self.dim(op, env),
            TensorOp::Extract => self.extract_or_insert(op, env, false),
            TensorOp::Insert => self.extract_or_insert(op, env, true),
            TensorOp::Concat { dim } => self.concat(op, env, dim),
            TensorOp::Splat => self.splat(op, env),
            TensorOp::FromElements => self.tensor_from_elements(op, env),
        }
    }
}

/// The value of an op whose result is the tensor `t`.
pub(super) fn one_tensor(t: Tensor) -> Result<Vec<Value>, EvalError> {
    Ok(vec![Value::Tensor(Rc::new(t))])
}
