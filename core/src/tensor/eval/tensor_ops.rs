//! `tensor` dialect ops.

use std::rc::Rc;

use super::body::Body;
use super::value::{Scalar, Tensor, Value};
use super::{EvalError, Interp};
use crate::tensor::attr::Mixed;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::types::Dim;

/// Calls `f` with every multi-index of `shape` in row-major order.
fn for_each_index(
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

fn offset(idx: &[usize], strides: &[usize]) -> usize {
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
        let ops = &data.operands;
        let result = data.results.first().copied();
        let elem = result.map(|r| m.value_kind(r).elem());
        let new = |t: Tensor| Ok(vec![Value::Tensor(Rc::new(t))]);
        match t {
            TensorOp::Empty => {
                let sizes: Vec<i64> = ops
                    .iter()
                    .map(|&v| self.index_arg(op, env, v))
                    .collect::<Result<_, _>>()?;
                let shape = self.result_shape(op, &sizes)?;
                let t = Tensor::zeros(elem.unwrap_or(crate::tensor::types::ElemType::F32), &shape)
                    .map_err(|e| EvalError::at(m, op, e))?;
                new(t)
            }
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides: steps,
            }
            | TensorOp::InsertSlice {
                offsets,
                sizes,
                strides: steps,
            } => {
                let insert = matches!(t, TensorOp::InsertSlice { .. });
                let full = self.tensor_arg(op, env, ops[usize::from(insert)])?;
                let mut dynamic = ops[1 + usize::from(insert)..].iter();
                let o = self.mixed(op, env, offsets, &mut dynamic)?;
                let sz = self.mixed(op, env, sizes, &mut dynamic)?;
                let stp = self.mixed(op, env, steps, &mut dynamic)?;
                let rank = full.shape.len();
                let mut slice_shape = Vec::with_capacity(rank);
                for d in 0..rank {
                    let (off, size, step) = (o[d], sz[d], stp[d]);
                    if off < 0 || size < 0 {
                        return Err(EvalError::at(
                            m,
                            op,
                            format!("negative offset or size along dimension {d}"),
                        ));
                    }
                    if size > 0
                        && off as i128 + (size as i128 - 1) * step as i128 >= full.shape[d] as i128
                    {
                        return Err(EvalError::at(m, op, format!(
                            "slice along dimension {d} runs out of bounds: offset {off} + (size {size} - 1) * stride {step} >= dimension size {}",
                            full.shape[d]
                        )));
                    }
                    if size > 0 && off as i128 + (size as i128 - 1) * (step as i128) < 0 {
                        return Err(EvalError::at(
                            m,
                            op,
                            format!("slice along dimension {d} reaches a negative index"),
                        ));
                    }
                    slice_shape.push(size as usize);
                }
                let fst = full.strides();
                // Element positions of the slice in row-major order (the
                // order does not depend on dropped unit dims).
                let mut positions = Vec::new();
                for_each_index(&slice_shape, |idx| {
                    let p: usize = (0..rank)
                        .map(|d| (o[d] + idx[d] as i64 * stp[d]) as usize * fst[d])
                        .sum();
                    positions.push(p);
                    Ok(())
                })?;
                if insert {
                    let src = self.tensor_arg(op, env, ops[0])?;
                    if src.len() != positions.len() {
                        return Err(EvalError::at(
                            m,
                            op,
                            format!(
                                "source has {} elements, the slice {}",
                                src.len(),
                                positions.len()
                            ),
                        ));
                    }
                    let mut out = (*full).clone();
                    for (k, &p) in positions.iter().enumerate() {
                        out.data.copy_from(p, &src.data, k);
                    }
                    new(out)
                } else {
                    let r = result.ok_or_else(|| EvalError::at(m, op, "expects a result"))?;
                    let want = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
                    let shape = reduced_shape(&slice_shape, sizes, &want);
                    new(Tensor {
                        elem: full.elem,
                        shape,
                        data: full.data.gather(&positions),
                    })
                }
            }
            TensorOp::CollapseShape { reassociation } => {
                let src = self.tensor_arg(op, env, ops[0])?;
                let shape = reassociation
                    .iter()
                    .map(|g| g.iter().map(|&d| src.shape[d as usize]).product())
                    .collect();
                new(Tensor {
                    elem: src.elem,
                    shape,
                    data: src.data.clone(),
                })
            }
            TensorOp::ExpandShape {
                reassociation,
                output_shape,
            } => {
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
                        return Err(EvalError::at(m, op, format!(
                            "output_shape {shape:?} does not expand source dimension {i} of size {}",
                            src.shape[i]
                        )));
                    }
                }
                new(Tensor {
                    elem: src.elem,
                    shape,
                    data: src.data.clone(),
                })
            }
            TensorOp::Pad { low, high, .. } => {
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
                let mut out =
                    Tensor::zeros(src.elem, &shape).map_err(|e| EvalError::at(m, op, e))?;
                let (sst, ost) = (src.strides(), out.strides());
                for_each_index(&shape, |idx| {
                    let inside = (0..idx.len()).all(|d| {
                        idx[d] >= lo[d] as usize && idx[d] < lo[d] as usize + src.shape[d]
                    });
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
                new(out)
            }
            TensorOp::Cast => {
                let src = self.tensor_arg(op, env, ops[0])?;
                if let Some(r) = result {
                    self.check_fits(op, &src.shape, r)?;
                }
                Ok(vec![Value::Tensor(src)])
            }
            TensorOp::Dim => {
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
            TensorOp::Extract | TensorOp::Insert => {
                let insert = matches!(t, TensorOp::Insert);
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
                    new(out)
                } else {
                    Ok(vec![Value::Scalar(src.get(off))])
                }
            }
            TensorOp::Concat { dim } => {
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
                let mut out =
                    Tensor::zeros(first.elem, &shape).map_err(|e| EvalError::at(m, op, e))?;
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
                new(out)
            }
            TensorOp::Splat => {
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
                new(out)
            }
            TensorOp::FromElements => {
                let shape = self.result_shape(op, &[])?;
                let mut out =
                    Tensor::zeros(elem.unwrap_or(crate::tensor::types::ElemType::F32), &shape)
                        .map_err(|e| EvalError::at(m, op, e))?;
                for (i, &v) in ops.iter().enumerate() {
                    let x = env[v.index()]
                        .as_ref()
                        .and_then(Value::scalar)
                        .ok_or_else(|| EvalError::at(m, op, "expects scalars"))?;
                    out.set(i, x);
                }
                new(out)
            }
        }
    }
}

/// The result shape of a (possibly rank-reducing) slice: `sizes` with the
/// unit dims the result type drops removed (the first assignment, left to
/// right, that fits the result type).
fn reduced_shape(sizes: &[usize], written: &[Mixed], want: &[Dim]) -> Vec<usize> {
    fn fit(sizes: &[usize], written: &[Mixed], want: &[Dim], out: &mut Vec<usize>) -> bool {
        let Some((&n, rest)) = sizes.split_first() else {
            return want.is_empty();
        };
        let w_rest = written.get(1..).unwrap_or(&[]);
        if let Some((&d, want_rest)) = want.split_first() {
            if d.fixed().is_none_or(|s| s as usize == n) {
                out.push(n);
                if fit(rest, w_rest, want_rest, out) {
                    return true;
                }
                out.pop();
            }
        }
        written.first() == Some(&Mixed::Static(1)) && fit(rest, w_rest, want, out)
    }
    let mut out = Vec::with_capacity(want.len());
    if fit(sizes, written, want, &mut out) {
        out
    } else {
        sizes.to_vec()
    }
}
