//! Structured ops (through the [structured-op interface](crate::tensor::structured))
//! and `linalg.softmax`.

use std::rc::Rc;

use super::body::Body;
use super::scalar;
use super::value::{strides, Scalar, Tensor, Value};
use super::{EvalError, Interp};
use crate::tensor::attr::IteratorType;
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::ops::{ArithOp, LinalgKind, MathOp, OpKind};
use crate::tensor::structured::{structured, Structured};
use crate::tensor::types::ElemType;
use crate::tensor::TensorModule;

/// How an operand is addressed at a point.
enum Access {
    /// A scalar operand (`linalg.fill`'s value).
    Scalar(Scalar),
    /// Element offset = `base + Σ coef[d] * point[d]`.
    Linear { coef: Vec<i64>, base: i64 },
    /// Any other map: evaluated at each point.
    General,
}

impl Interp<'_> {
    pub(crate) fn structured_op(
        &mut self,
        op: TOp,
        env: &[Option<Value>],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        if let OpKind::Linalg(l) = &m.op(op).kind {
            if let LinalgKind::Softmax { dimension } = l.kind {
                return self.softmax(op, dimension as usize, env);
            }
        }
        let s = structured(m, op)
            .ok_or_else(|| EvalError::at(m, op, "operand ranks do not fit the op"))?;
        let get = |v: TValue| {
            env[v.index()]
                .clone()
                .ok_or_else(|| EvalError::at(m, op, "uses a value that has not been computed"))
        };
        let operands: Vec<Value> = s.operands().map(get).collect::<Result<_, _>>()?;
        let n_in = s.inputs.len();
        // The loop ranges.
        let mut ranges = Vec::with_capacity(s.num_loops());
        for (d, src) in s.loop_sources().into_iter().enumerate() {
            let (k, r) =
                src.ok_or_else(|| EvalError::at(m, op, format!("loop d{d} has no size")))?;
            let t = operands[k]
                .tensor()
                .ok_or_else(|| EvalError::at(m, op, "a scalar operand sizes a loop"))?;
            ranges.push(t.shape[r]);
        }
        let empty_space = ranges.contains(&0);
        // Operand addressing and bounds.
        let mut access = Vec::new();
        for (k, (map, v)) in s.indexing_maps.iter().zip(&operands).enumerate() {
            let t = match v {
                Value::Scalar(x) => {
                    access.push(Access::Scalar(*x));
                    continue;
                }
                Value::Tensor(t) => t,
            };
            if map.num_results() != t.shape.len() {
                return Err(EvalError::at(
                    m,
                    op,
                    format!(
                        "operand #{k} has rank {}, its map {} results",
                        t.shape.len(),
                        map.num_results()
                    ),
                ));
            }
            let st = strides(&t.shape);
            let lin: Option<Vec<(Vec<i64>, i64)>> =
                map.results.iter().map(|e| e.linear(ranges.len())).collect();
            match lin {
                Some(lin) => {
                    let mut coef = vec![0i64; ranges.len()];
                    let mut base = 0i64;
                    for (r, (c, k0)) in lin.iter().enumerate() {
                        if !empty_space {
                            let (mut lo, mut hi) = (*k0 as i128, *k0 as i128);
                            for (d, &a) in c.iter().enumerate() {
                                let ext = a as i128 * (ranges[d] as i128 - 1);
                                if ext < 0 {
                                    lo += ext
                                } else {
                                    hi += ext
                                }
                            }
                            if lo < 0 || hi >= t.shape[r] as i128 {
                                return Err(EvalError::at(m, op, format!(
                                    "operand #{k} is indexed out of bounds along dimension {r}: indices [{lo}, {hi}] for size {}",
                                    t.shape[r]
                                )));
                            }
                        }
                        for d in 0..ranges.len() {
                            coef[d] += c[d] * st[r] as i64;
                        }
                        base += k0 * st[r] as i64;
                    }
                    access.push(Access::Linear { coef, base });
                }
                None => access.push(Access::General),
            }
        }
        // Outputs start as the inits.
        let mut outs: Vec<Tensor> = operands[n_in..]
            .iter()
            .map(|v| {
                v.tensor()
                    .map(|t| (**t).clone())
                    .ok_or_else(|| EvalError::at(m, op, "an output is not a tensor"))
            })
            .collect::<Result<_, _>>()?;
        let body = Body::compile(m, s.body, &|v| env[v.index()].clone())?;
        if body.num_args != operands.len() || body.yields.len() != outs.len() {
            return Err(EvalError::at(m, op, "the body does not match the operands"));
        }
        // f16/bf16 outputs folded by one float op accumulate in f32 and
        // round once at the end (as IREE does, and kiln's kernels): the
        // register of the value folded in, and the f32 accumulators.
        let wide = wide_accumulators(m, &s, &body, &outs);
        let mut acc32: Vec<Vec<f64>> = wide
            .iter()
            .enumerate()
            .map(|(j, w)| match w {
                Some(_) => (0..outs[j].len()).map(|i| outs[j].get(i).float()).collect(),
                None => Vec::new(),
            })
            .collect();
        if !empty_space {
            let mut regs = body.regs();
            let mut point = vec![0usize; ranges.len()];
            let mut offs: Vec<i64> = access
                .iter()
                .map(|a| match a {
                    Access::Linear { base, .. } => *base,
                    _ => 0,
                })
                .collect();
            let tensor_of = |k: usize| -> &Tensor {
                match &operands[k] {
                    Value::Tensor(t) => t,
                    Value::Scalar(_) => unreachable!("scalar operands use Access::Scalar"),
                }
            };
            loop {
                // General maps: compute the offset at this point.
                for (k, a) in access.iter().enumerate() {
                    if let Access::General = a {
                        let t = tensor_of(k);
                        let p: Vec<i64> = point.iter().map(|&x| x as i64).collect();
                        let coords = s.indexing_maps[k].eval(&p).ok_or_else(|| {
                            EvalError::at(m, op, format!("indexing_map #{k} is undefined at {p:?}"))
                        })?;
                        let st = strides(&t.shape);
                        let mut off = 0i64;
                        for (r, &c) in coords.iter().enumerate() {
                            if c < 0 || c as usize >= t.shape[r] {
                                return Err(EvalError::at(m, op, format!("operand #{k} is indexed out of bounds along dimension {r}: index {c} at {p:?}")));
                            }
                            off += c * st[r] as i64;
                        }
                        offs[k] = off;
                    }
                }
                for (k, a) in access.iter().enumerate() {
                    regs.0[k] = match a {
                        Access::Scalar(x) => *x,
                        _ if k < n_in => tensor_of(k).get(offs[k] as usize),
                        _ => outs[k - n_in].get(offs[k] as usize),
                    };
                }
                body.run(m, &mut regs, &point)?;
                for (j, &y) in body.yields.iter().enumerate() {
                    let at = offs[n_in + j] as usize;
                    if let Some((op32, x)) = wide[j] {
                        let args = [Scalar::Float(acc32[j][at]), regs.0[x]];
                        let v = scalar::arith(op32, &args, ElemType::F32, ElemType::F32)
                            .map_err(|e| EvalError::at(m, op, e))?;
                        acc32[j][at] = v.float();
                        continue;
                    }
                    let v = regs.0[y];
                    outs[j].set(at, v);
                }
                // Next point, row-major (the last loop fastest).
                let mut d = ranges.len();
                let done = loop {
                    if d == 0 {
                        break true;
                    }
                    d -= 1;
                    point[d] += 1;
                    for (k, a) in access.iter().enumerate() {
                        if let Access::Linear { coef, .. } = a {
                            offs[k] += coef[d];
                        }
                    }
                    if point[d] < ranges[d] {
                        break false;
                    }
                    for (k, a) in access.iter().enumerate() {
                        if let Access::Linear { coef, .. } = a {
                            offs[k] -= coef[d] * ranges[d] as i64;
                        }
                    }
                    point[d] = 0;
                };
                if done {
                    break;
                }
            }
        }
        for (j, acc) in acc32.iter().enumerate() {
            if wide[j].is_some() {
                let elem = outs[j].elem;
                for (i, &v) in acc.iter().enumerate() {
                    outs[j].set(i, Scalar::Float(scalar::round(elem, v)));
                }
            }
        }
        Ok(outs
            .into_iter()
            .map(|t| Value::Tensor(Rc::new(t)))
            .collect())
    }

    /// MLIR 19's decomposition of `linalg.softmax` along `dim`: max
    /// (`maxnumf`, from the lowest finite value), `exp(x - max)`, sum
    /// (`addf` from 0), division — each reduction in order along `dim`.
    fn softmax(
        &mut self,
        op: TOp,
        dim: usize,
        env: &[Option<Value>],
    ) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let input = env[data.operands[0].index()]
            .as_ref()
            .and_then(Value::tensor)
            .ok_or_else(|| EvalError::at(m, op, "expects a tensor input"))?;
        let out_init = env[data.operands[1].index()]
            .as_ref()
            .and_then(Value::tensor)
            .ok_or_else(|| EvalError::at(m, op, "expects a tensor output"))?;
        if input.shape != out_init.shape {
            return Err(EvalError::at(
                m,
                op,
                format!(
                    "input shape {:?} differs from output shape {:?}",
                    input.shape, out_init.shape
                ),
            ));
        }
        let e = input.elem;
        let lowest = match e {
            ElemType::F16 => -65504.0,
            ElemType::BF16 => -3.3895313892515355e38,
            ElemType::F64 => f64::MIN,
            _ => f64::from(f32::MIN),
        };
        let mut out = (**out_init).clone();
        let n = input.shape[dim];
        let outer: usize = input.shape[..dim].iter().product();
        let inner: usize = input.shape[dim + 1..].iter().product();
        let at =
            |r: Result<Scalar, scalar::ScalarError>| r.map_err(|msg| EvalError::at(m, op, msg));
        for o in 0..outer {
            for i in 0..inner {
                let base = o * n * inner + i;
                let idx = |j: usize| base + j * inner;
                let mut max = Scalar::Float(lowest);
                for j in 0..n {
                    max = at(scalar::arith(
                        ArithOp::MaxNumF,
                        &[input.get(idx(j)), max],
                        e,
                        e,
                    ))?;
                }
                let mut sum = Scalar::Float(0.0);
                let mut num = Vec::with_capacity(n);
                for j in 0..n {
                    let d = at(scalar::arith(
                        ArithOp::SubF,
                        &[input.get(idx(j)), max],
                        e,
                        e,
                    ))?;
                    num.push(at(scalar::math(MathOp::Exp, &[d], e))?);
                }
                for &x in &num {
                    sum = at(scalar::arith(ArithOp::AddF, &[x, sum], e, e))?;
                }
                for (j, &x) in num.iter().enumerate() {
                    out.set(idx(j), at(scalar::arith(ArithOp::DivF, &[x, sum], e, e))?);
                }
            }
        }
        Ok(vec![Value::Tensor(Rc::new(out))])
    }
}

/// For each output of `s`: when it is an f16/bf16 reduction folded by one
/// float op (`addf`, `mulf`, the max/min forms), that op and the register
/// of the value folded in; `None` otherwise.
fn wide_accumulators(
    m: &TensorModule,
    s: &Structured,
    body: &Body,
    outs: &[Tensor],
) -> Vec<Option<(ArithOp, usize)>> {
    let none = vec![None; outs.len()];
    if !s.iterator_types.contains(&IteratorType::Reduction) {
        return none;
    }
    let Some(cs) = crate::codegen::combine::combiners(m, s) else {
        return none;
    };
    if cs.len() != outs.len() {
        return none;
    }
    cs.iter()
        .map(|c| {
            if !crate::codegen::combine::accumulates_in_f32(c) {
                return None;
            }
            body.reg_of(c.x).map(|r| (c.op, r))
        })
        .collect()
}
