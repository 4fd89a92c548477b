//! The reference evaluator: runs any function of a tensor program on the
//! CPU, in plain Rust. Every GPU result is compared with it, so it follows
//! MLIR's semantics exactly (see [`scalar`] for the arithmetic rules):
//!
//! * tensors are values ([`Tensor`]: element type, concrete shape,
//!   row-major elements); dynamic dimensions take their run-time sizes,
//!   and a run-time shape that does not fit a static type (a `tensor.cast`
//!   to `tensor<4xf32>` of 5 elements) is an error;
//! * structured ops run through the
//!   [structured-op interface](mod@crate::tensor::structured): the outputs start
//!   as the `outs` operands, the body runs at every point of the iteration
//!   space in row-major loop order, so reductions accumulate in that order;
//!   f16/bf16 elements are stored as such and every op on them computes in
//!   f32 and rounds back (their IEEE semantics);
//! * `linalg.softmax` is MLIR 19's decomposition (see
//!   [`structured`](mod@crate::tensor::structured));
//! * `util.unfoldable_constant`, `util.optimization_barrier` and
//!   `flow.tensor.dynamic_constant` are their values; `check.*` ops are
//!   not computed (the [e2e runner](crate::tensor::e2e) checks), and are
//!   an error here.
//!
//! * before anything runs, a call's run-time sizes and host-known indices
//!   are checked by the same host program the device and the CPU runner
//!   evaluate ([`crate::codegen::call_check`]), so a call that one backend
//!   refuses (a matmul whose reduction sizes differ, an index past the
//!   end) is refused by all three with one message.
//!
//! * a pure op (arith, math, linalg, tensor) that fails at run time (an
//!   index out of bounds) poisons its results instead of stopping the
//!   run; the error stops it only when something the program observes (a
//!   returned value, an assert, a size) depends on an element of a
//!   poisoned value, so an out-of-bounds op no live op reads is dropped as
//!   the device and the CPU runner drop it (see `eval/poison.rs`); a
//!   `func.call` carries poison into its callee and back.
//!
//! Errors ([`EvalError`]) name the op and its location; nothing panics on
//! a verified program.

mod body;
pub mod host_constant;
mod linalg;
mod poison;
pub mod scalar;
mod tensor_ops;
mod value;

use std::rc::Rc;

pub use value::{strides, Scalar, Tensor, TensorError, Value};

use super::attr::ConstAttr;
use super::entity::{TFunc, TOp, TValue};
use super::module::TensorModule;
use super::ops::OpKind;
use crate::ir::Location;

/// A run-time failure: the op (name and location) and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}{message}", if loc.is_known() { format!("{loc}: ") } else { String::new() }, if op.is_empty() { String::new() } else { format!("'{op}' op ") })]
pub struct EvalError {
    /// Where the op was parsed from.
    pub loc: Location,
    /// The op's name (empty when not about one op).
    pub op: String,
    /// What went wrong.
    pub message: String,
}

impl EvalError {
    /// An error about op `op`.
    pub fn at(m: &TensorModule, op: TOp, message: impl std::fmt::Display) -> EvalError {
        let d = m.op(op);
        EvalError {
            loc: d.loc,
            op: d.kind.name(),
            message: message.to_string(),
        }
    }

    /// An error about no particular op.
    pub fn new(message: impl std::fmt::Display) -> EvalError {
        EvalError {
            loc: Location::UNKNOWN,
            op: String::new(),
            message: message.to_string(),
        }
    }
}

/// The scalar value of a scalar constant.
pub(crate) fn constant_scalar(c: &ConstAttr) -> Option<Scalar> {
    match c {
        ConstAttr::Int { value, .. } => Some(Scalar::Int(*value)),
        ConstAttr::Float { value, .. } => Some(Scalar::Float(*value)),
        ConstAttr::Dense(_) => None,
    }
}

/// Runs function `name` of `m` with `args` and returns its results.
pub fn run(m: &TensorModule, name: &str, args: &[Value]) -> Result<Vec<Value>, EvalError> {
    let f = m
        .func_by_name(name)
        .ok_or_else(|| EvalError::new(format!("no function '@{name}'")))?;
    // The size checks every backend shares: one verdict on the call.
    crate::codegen::call_check::check_call(m, name, args).map_err(EvalError::new)?;
    Interp { m, depth: 0 }.call(f, args)
}

/// How deeply `func.call`s may nest.
const MAX_CALL_DEPTH: usize = 64;

pub(crate) struct Interp<'m> {
    pub(crate) m: &'m TensorModule,
    depth: usize,
}

/// A value of a function body as the evaluator holds it: the value (none
/// where a poisoned value has no placeholder) and the error of the fault
/// it carries, if poisoned (see [`poison`]).
type Held = (Option<Value>, Option<EvalError>);

/// A held value as a caller that observes it sees it: its fault raised,
/// `missing` where it was never computed.
fn observed(held: Held, missing: impl FnOnce() -> EvalError) -> Result<Value, EvalError> {
    match held {
        (_, Some(e)) => Err(e),
        (Some(v), None) => Ok(v),
        (None, None) => Err(missing()),
    }
}

impl Interp<'_> {
    /// Runs `f` on `args` as a caller that observes its results: one that
    /// carries a fault raises it.
    fn call(&mut self, f: TFunc, args: &[Value]) -> Result<Vec<Value>, EvalError> {
        let args: Vec<Held> = args.iter().map(|a| (Some(a.clone()), None)).collect();
        let name = &self.m.func(f).name;
        self.call_held(f, &args)?
            .into_iter()
            .map(|held| {
                observed(held, || {
                    EvalError::new(format!("'@{name}' returns a value that was not computed"))
                })
            })
            .collect()
    }

    /// Runs `f` on `args`, poisoned ones included: a `func.call` passes
    /// its operands' poison to the callee and takes its results' back, as
    /// the compiler, which inlines the callee, computes only what a live
    /// op reads.
    fn call_held(&mut self, f: TFunc, args: &[Held]) -> Result<Vec<Held>, EvalError> {
        let m = self.m;
        let fd = m.func(f);
        let body = fd.body.ok_or_else(|| {
            EvalError::new(format!("'@{}' is a declaration without a body", fd.name))
        })?;
        let params = &m.block(body).args;
        if params.len() != args.len() {
            return Err(EvalError::new(format!(
                "'@{}' takes {} arguments, got {}",
                fd.name,
                params.len(),
                args.len()
            )));
        }
        self.depth += 1;
        if self.depth > MAX_CALL_DEPTH {
            return Err(EvalError::new(format!(
                "calls nest deeper than {MAX_CALL_DEPTH} (at '@{}')",
                fd.name
            )));
        }
        let mut env: Vec<Option<Value>> = vec![None; m.num_values()];
        // Faults of pure ops are poison until observed (see [`poison`]).
        let mut poisoned: poison::PoisonTable = vec![None; m.num_values()];
        for (&p, (a, e)) in params.iter().zip(args) {
            if let (Some(Value::Tensor(t)), None) = (a, e) {
                self.check_arg(&fd.name, &t.shape, p)?;
            }
            env[p.index()] = a.clone();
            poisoned[p.index()] = e.clone();
        }
        for &op in &m.block(body).ops {
            let used = poison::uses(m, op);
            let first = |want: &dyn Fn(TValue, bool) -> bool| {
                used.iter()
                    .filter(|&&(v, read)| want(v, read))
                    .find_map(|&(v, _)| poisoned[v.index()].clone())
            };
            if poison::observes(m, op) {
                if let Some(e) = first(&|_, _| true) {
                    return Err(e);
                }
            }
            // A size computed from a poisoned value: the host computes
            // and checks every op's sizes, live or dead.
            if let Some(e) = poison::size_operands(m, op)
                .iter()
                .find_map(|v| poisoned[v.index()].clone())
            {
                return Err(e);
            }
            let d = m.op(op);
            if let OpKind::Return = d.kind {
                self.depth -= 1;
                return Ok(d
                    .operands
                    .iter()
                    .map(|v| (env[v.index()].clone(), poisoned[v.index()].clone()))
                    .collect());
            }
            if let OpKind::Call { callee } = &d.kind {
                let args: Vec<Held> = d
                    .operands
                    .iter()
                    .map(|v| (env[v.index()].clone(), poisoned[v.index()].clone()))
                    .collect();
                for (&r, (v, e)) in d.results.iter().zip(self.exec_call(op, callee, &args)?) {
                    env[r.index()] = v;
                    poisoned[r.index()] = e;
                }
                continue;
            }
            // A poisoned value it reads, or one it only uses that has no
            // placeholder: its results carry that error.
            let mut carried = first(&|v, read| read || env[v.index()].is_none());
            let results = match self.exec(op, &env) {
                Ok(results) => Some(results),
                Err(_) if carried.is_some() => None,
                Err(e) if poison::is_pure(m, op) => {
                    carried = Some(e);
                    None
                }
                Err(e) => return Err(e),
            };
            let defs = &d.results;
            match results {
                Some(results) => {
                    for (&r, v) in defs.iter().zip(results) {
                        env[r.index()] = Some(v);
                    }
                }
                None => {
                    for &r in defs {
                        env[r.index()] = poison::placeholder(m, r);
                    }
                }
            }
            if let Some(e) = carried {
                for &r in defs {
                    poisoned[r.index()] = Some(e.clone());
                }
            }
        }
        Err(EvalError::new(format!("'@{}' has no return", fd.name)))
    }

    /// A `func.call` (op `op`) of `callee` with `args`: the callee's
    /// results, poisoned where they carry a fault. An error that stops the
    /// callee and names no op is placed at the call.
    fn exec_call(&mut self, op: TOp, callee: &str, args: &[Held]) -> Result<Vec<Held>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let f = m
            .func_by_name(callee)
            .ok_or_else(|| EvalError::at(m, op, format!("no function '@{callee}'")))?;
        let results = self.call_held(f, args).map_err(|mut e| {
            if !e.loc.is_known() {
                e.loc = data.loc;
                e.op = data.kind.name();
            }
            e
        })?;
        for (&r, held) in data.results.iter().zip(&results) {
            if let (Some(Value::Tensor(t)), None) = held {
                self.check_fits(op, &t.shape, r)?;
            }
        }
        Ok(results)
    }

    fn check_arg(
        &self,
        func: &str,
        shape: &[usize],
        p: super::entity::TValue,
    ) -> Result<(), EvalError> {
        let want = self.m.value_kind(p).tensor_shape().unwrap_or(&[]);
        let fits = want.len() == shape.len()
            && want
                .iter()
                .zip(shape)
                .all(|(d, &n)| d.fixed().is_none_or(|s| s as usize == n));
        if fits {
            Ok(())
        } else {
            Err(EvalError::new(format!(
                "'@{func}': argument of shape {shape:?} does not fit {}",
                self.m.types.text(self.m.value_type(p))
            )))
        }
    }

    /// Runs one op of a function body.
    fn exec(&mut self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let arg = |k: usize| {
            data.operands
                .get(k)
                .and_then(|v| env[v.index()].clone())
                .ok_or_else(|| EvalError::at(m, op, "uses a value that has not been computed"))
        };
        match &data.kind {
            OpKind::Constant(c) | OpKind::UnfoldableConstant(c) => Ok(vec![match c {
                ConstAttr::Dense(d) => {
                    let shape: Vec<usize> = m
                        .ty(d.ty)
                        .tensor_shape()
                        .unwrap_or(&[])
                        .iter()
                        .map(|d| d.fixed().unwrap_or(0) as usize)
                        .collect();
                    Value::Tensor(Rc::new(
                        Tensor::from_dense(m, d, &shape).map_err(|e| EvalError::at(m, op, e))?,
                    ))
                }
                other => Value::Scalar(constant_scalar(other).unwrap_or(Scalar::Int(0))),
            }]),
            OpKind::DynamicConstant(d) => {
                let shape: Vec<usize> = m
                    .ty(d.ty)
                    .tensor_shape()
                    .unwrap_or(&[])
                    .iter()
                    .map(|d| d.fixed().unwrap_or(0) as usize)
                    .collect();
                Ok(vec![Value::Tensor(Rc::new(
                    Tensor::from_dense(m, d, &shape).map_err(|e| EvalError::at(m, op, e))?,
                ))])
            }
            OpKind::OptimizationBarrier => (0..data.operands.len()).map(arg).collect(),
            OpKind::Call { callee } => {
                let args: Vec<Held> = (0..data.operands.len())
                    .map(|k| arg(k).map(|v| (Some(v), None)))
                    .collect::<Result<_, _>>()?;
                self.exec_call(op, callee, &args)?
                    .into_iter()
                    .map(|held| {
                        observed(held, || {
                            EvalError::at(m, op, "returns a value that was not computed")
                        })
                    })
                    .collect()
            }
            OpKind::Arith { .. } | OpKind::Math { .. } => self.elementwise(op, env),
            OpKind::Linalg(_) => self.structured_op(op, env),
            OpKind::Tensor(_) => self.tensor_op(op, env),
            OpKind::Assert { message } => match arg(0)? {
                Value::Scalar(c) if c.int() & 1 != 0 => Ok(vec![]),
                Value::Scalar(_) => {
                    Err(EvalError::at(m, op, format!("assertion failed: {message}")))
                }
                Value::Tensor(_) => Err(EvalError::at(m, op, "expects a scalar condition")),
            },
            OpKind::Check(c) => Err(EvalError::at(
                m,
                op,
                format!("'{}' is checked by the e2e runner, not computed", c.name()),
            )),
            OpKind::Return
            | OpKind::LinalgYield
            | OpKind::LinalgIndex { .. }
            | OpKind::TensorYield => Err(EvalError::at(m, op, "is not valid at function level")),
        }
    }

    /// `arith`/`math` on scalars, or elementwise on tensors of one shape.
    fn elementwise(&mut self, op: TOp, env: &[Option<Value>]) -> Result<Vec<Value>, EvalError> {
        let m = self.m;
        let data = m.op(op);
        let args: Vec<Value> = data
            .operands
            .iter()
            .map(|v| {
                env[v.index()]
                    .clone()
                    .ok_or_else(|| EvalError::at(m, op, "uses a value that has not been computed"))
            })
            .collect::<Result<_, _>>()?;
        let res_elem = data
            .results
            .first()
            .map(|&r| m.value_kind(r).elem())
            .ok_or_else(|| EvalError::at(m, op, "has no result"))?;
        let apply = |xs: &[Scalar]| -> Result<Scalar, EvalError> {
            match &data.kind {
                OpKind::Arith { op: a, .. } => {
                    let k = if *a == super::ops::ArithOp::Select {
                        1
                    } else {
                        0
                    };
                    let ae = m.value_kind(data.operands[k]).elem();
                    scalar::arith(*a, xs, ae, res_elem)
                }
                OpKind::Math { op: a, .. } => scalar::math(*a, xs, res_elem),
                _ => return Err(EvalError::at(m, op, "not an elementwise op")),
            }
            .map_err(|e| EvalError::at(m, op, e))
        };
        // The shape comes from the first tensor operand.
        let Some(shape) = args
            .iter()
            .find_map(|a| a.tensor().map(|t| t.shape.clone()))
        else {
            let xs: Vec<Scalar> = args.iter().filter_map(Value::scalar).collect();
            return Ok(vec![Value::Scalar(apply(&xs)?)]);
        };
        for a in &args {
            if let Value::Tensor(t) = a {
                if t.shape != shape {
                    return Err(EvalError::at(
                        m,
                        op,
                        format!(
                            "operand shapes {:?} and {:?} differ at run time",
                            t.shape, shape
                        ),
                    ));
                }
            }
        }
        let mut out = Tensor::zeros(res_elem, &shape).map_err(|e| EvalError::at(m, op, e))?;
        let mut xs = vec![Scalar::Int(0); args.len()];
        for i in 0..out.len() {
            for (k, a) in args.iter().enumerate() {
                xs[k] = match a {
                    Value::Tensor(t) => t.get(i),
                    Value::Scalar(s) => *s,
                };
            }
            out.set(i, apply(&xs)?);
        }
        Ok(vec![Value::Tensor(Rc::new(out))])
    }
}
