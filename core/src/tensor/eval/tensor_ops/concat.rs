//! `tensor.concat`.

use std::rc::Rc;

use super::super::value::{Tensor, Value};
use super::super::{EvalError, Interp};
use super::{for_each_index, offset, one_tensor};
use crate::tensor::entity::TOp;

impl Interp<'_> {
    /// `tensor.concat` along `dim`.
    pub(super) fn concat(
        &self,
        op: TOp,
        env: &[Option<Value>],
        dim: &u64,
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let dim = *dim as usize;
        let parts: Vec<Rc<Tensor>> = ops
            .iter()
            .map(|&v| self.tensor_arg(op, env, v))
            .collect::<Result<_, _>>()?;
        let first = parts
            .first()
            .ok_or_else(|| EvalError::at(m, op, "expects operands"))?;
        let mut shape = first.shape.clone();
        shape[dim] = 0;
        for p in &parts {
            if p.shape.len() != shape.len()
                || (0..shape.len()).any(|d| d != dim && p.shape[d] != first.shape[d])
            {
                return Err(EvalError::at(
                    m,
                    op,
                    format!(
                        "operand shape {:?} does not concatenate with {:?}",
                        p.shape, first.shape
                    ),
                ));
            }
            shape[dim] += p.shape[dim];
        }
        let mut out = Tensor::zeros(first.elem, &shape).map_err(|e| EvalError::at(m, op, e))?;
        let ost = out.strides();
        let mut at = 0usize;
        for p in &parts {
            let pst = p.strides();
            for_each_index(&p.shape, |idx| {
                let mut o = idx.to_vec();
                o[dim] += at;
                out.data
                    .copy_from(offset(&o, &ost), &p.data, offset(idx, &pst));
                Ok(())
            })?;
            at += p.shape[dim];
        }
        if let Some(r) = result {
            self.check_fits(op, &out.shape, r)?;
        }
        one_tensor(out)
    }
}
