//! `tensor.pad`.

use super::super::body::Body;
use super::super::value::{Scalar, Tensor, Value};
use super::super::{EvalError, Interp};
use super::{for_each_index, offset, one_tensor};
use crate::tensor::attr::Mixed;
use crate::tensor::entity::TOp;

impl Interp<'_> {
    /// `tensor.pad`: the source, and the region's values around it.
    pub(super) fn pad(
        &self,
        op: TOp,
        env: &[Option<Value>],
        low: &[Mixed],
        high: &[Mixed],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let ops = &data.operands;
        let result = data.results.first().copied();
        let src = self.tensor_arg(op, env, ops[0])?;
        let mut dynamic = ops[1..].iter();
        let lo = self.mixed(op, env, low, &mut dynamic)?;
        let hi = self.mixed(op, env, high, &mut dynamic)?;
        if lo.iter().chain(&hi).any(|&p| p < 0) {
            return Err(EvalError::at(m, op, "negative padding"));
        }
        let shape: Vec<usize> = (0..src.shape.len())
            .map(|d| src.shape[d] + lo[d] as usize + hi[d] as usize)
            .collect();
        if let Some(r) = result {
            self.check_fits(op, &shape, r)?;
        }
        let region = *data
            .regions
            .first()
            .ok_or_else(|| EvalError::at(m, op, "expects a region"))?;
        let body = Body::compile(m, region, &|v| env[v.index()].clone())?;
        let mut regs = body.regs();
        let mut out = Tensor::zeros(src.elem, &shape).map_err(|e| EvalError::at(m, op, e))?;
        let (sst, ost) = (src.strides(), out.strides());
        for_each_index(&shape, |idx| {
            let inside = (0..idx.len())
                .all(|d| idx[d] >= lo[d] as usize && idx[d] < lo[d] as usize + src.shape[d]);
            let p = offset(idx, &ost);
            if inside {
                let q: usize = (0..idx.len())
                    .map(|d| (idx[d] - lo[d] as usize) * sst[d])
                    .sum();
                out.data.copy_from(p, &src.data, q);
            } else {
                for (d, &i) in idx.iter().enumerate() {
                    regs.0[d] = Scalar::Int(i as i64);
                }
                body.run(m, &mut regs, idx)?;
                let y = *body
                    .yields
                    .first()
                    .ok_or_else(|| EvalError::at(m, op, "the region yields nothing"))?;
                out.set(p, regs.0[y]);
            }
            Ok(())
        })?;
        one_tensor(out)
    }
}
