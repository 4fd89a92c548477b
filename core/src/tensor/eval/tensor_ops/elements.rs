//! The `tensor` ops that make a tensor from sizes and scalars, read or
//! write one element, or read one size: `tensor.empty`, `tensor.splat`,
//! `tensor.from_elements`, `tensor.extract`, `tensor.insert`, `tensor.dim`,
//! and `tensor.cast` (which passes its operand through).

use super::super::value::{Scalar, Tensor, Value};
use super::super::{EvalError, Interp};
use super::one_tensor;
use crate::tensor::entity::TOp;

impl Interp<'_> {
    /// `tensor.empty`: zeros of the result's shape.
    pub(super) fn empty(&self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let elem = result.map(|r| m.value_kind(r).elem());
        let sizes: Vec<i64> = ops
            .iter()
            .map(|&v| self.index_arg(op, env, v))
            .collect::<Result<_, _>>()?;
        let shape = self.result_shape(op, &sizes)?;
        let t = Tensor::zeros(elem.unwrap_or(crate::tensor::types::ElemType::F32), &shape)
            .map_err(|e| EvalError::at(m, op, e))?;
        one_tensor(t)
    }

    /// `tensor.splat`.
    pub(super) fn splat(&self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let elem = result.map(|r| m.value_kind(r).elem());
        let x = env[ops[0].index()]
            .as_ref()
            .and_then(Value::scalar)
            .ok_or_else(|| EvalError::at(m, op, "expects a scalar"))?;
        let sizes: Vec<i64> = ops[1..]
            .iter()
            .map(|&v| self.index_arg(op, env, v))
            .collect::<Result<_, _>>()?;
        let shape = self.result_shape(op, &sizes)?;
        let mut out = Tensor::zeros(
            elem.unwrap_or(crate::tensor::types::ElemType::F32),
            &shape[..],
        )
        .map_err(|e| EvalError::at(m, op, e))?;
        for i in 0..out.len() {
            out.set(i, x);
        }
        one_tensor(out)
    }

    /// `tensor.from_elements`.
    pub(super) fn tensor_from_elements(
        &self,
        op: TOp,
        env: &[Option<Value>],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let elem = result.map(|r| m.value_kind(r).elem());
        let shape = self.result_shape(op, &[])?;
        let mut out = Tensor::zeros(elem.unwrap_or(crate::tensor::types::ElemType::F32), &shape)
            .map_err(|e| EvalError::at(m, op, e))?;
        for (i, &v) in ops.iter().enumerate() {
            let x = env[v.index()]
                .as_ref()
                .and_then(Value::scalar)
                .ok_or_else(|| EvalError::at(m, op, "expects scalars"))?;
            out.set(i, x);
        }
        one_tensor(out)
    }

    /// `tensor.extract` and (`insert`) `tensor.insert`.
    pub(super) fn extract_or_insert(
        &self,
        op: TOp,
        env: &[Option<Value>],
        insert: bool,
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let src = self.tensor_arg(op, env, ops[usize::from(insert)])?;
        let idx_ops = &ops[1 + usize::from(insert)..];
        let st = src.strides();
        let mut off = 0usize;
        for (d, &v) in idx_ops.iter().enumerate() {
            let i = self.index_arg(op, env, v)?;
            if i < 0 || i as usize >= src.shape[d] {
                return Err(EvalError::at(
                    m,
                    op,
                    format!(
                        "index out of bounds: index {d} is {i}, outside a dimension of size {}",
                        src.shape[d]
                    ),
                ));
            }
            off += i as usize * st[d];
        }
        if insert {
            let x = env[ops[0].index()]
                .as_ref()
                .and_then(Value::scalar)
                .ok_or_else(|| EvalError::at(m, op, "expects a scalar"))?;
            let mut out = (*src).clone();
            out.set(off, x);
            one_tensor(out)
        } else {
            Ok(vec![Value::Scalar(src.get(off))])
        }
    }

    /// `tensor.dim`.
    pub(super) fn dim(&self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let src = self.tensor_arg(op, env, ops[0])?;
        let i = self.index_arg(op, env, ops[1])?;
        let n = usize::try_from(i)
            .ok()
            .and_then(|i| src.shape.get(i))
            .ok_or_else(|| {
                EvalError::at(
                    m,
                    op,
                    format!("dimension {i} is out of range for rank {}", src.shape.len()),
                )
            })?;
        Ok(vec![Value::Scalar(Scalar::Int(*n as i64))])
    }

    /// `tensor.cast`: its operand, checked against the result type.
    pub(super) fn cast(&self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let src = self.tensor_arg(op, env, ops[0])?;
        if let Some(r) = result {
            self.check_fits(op, &src.shape, r)?;
        }
        Ok(vec![Value::Tensor(src)])
    }
}
