//! Faults no live op observes: the reference evaluator's *poison*.
//!
//! `tensor.extract`, the slice ops, `tensor.pad` and the linalg ops are
//! pure (MLIR's `Pure`: speculatable, erased when unused), and the
//! compiler computes them only where something reads their elements (a
//! value no op reads is dead, an input a generic's region never reads is
//! never loaded). So a fault of such an op (an index out of bounds, a
//! negative pad, a run-time shape that does not fit) is kiln's verdict
//! only when a live op needs what it computes. The evaluator gets the
//! same verdict without the compiler's liveness:
//!
//! * a pure op whose check the compiler makes inside kernels (see
//!   [`is_pure`]) that fails does not stop the run: its results are
//!   *poisoned* with the error, and hold a placeholder of zeros where
//!   their type gives the shape (scalars; statically shaped tensors);
//!   a size, offset or stride out of range stops it (the host checks
//!   those for every op, live or dead);
//! * an op that reads a poisoned value's elements (any operand of most
//!   ops, a value its region captures, a structured op's input or output
//!   whose block argument its region uses) is poisoned with the first
//!   such error, still run on the placeholders to give its results a
//!   shape when it can;
//! * an op that uses a poisoned value without reading its elements (a
//!   generic input or output whose block argument the region ignores,
//!   `linalg.fill`'s `outs`, `tensor.dim`'s tensor) runs on the
//!   placeholder, or is poisoned where there is none;
//! * what the program observes raises the carried error: a value the
//!   called function returns (the e2e runner's checks are returns), a
//!   `cf.assert` condition, a size, offset, stride or pad amount (the host
//!   computes those for every op); a `func.call` passes its arguments'
//!   poison into the callee, whose results carry what they read, as the
//!   compiler inlines the callee.

use crate::tensor::entity::{TOp, TValue};
use crate::tensor::module::{BlockParent, TensorModule, ValueDef};
use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::structured::structured;

use super::value::{Scalar, Tensor, Value};
use super::EvalError;

/// Whether a failure of `op` poisons its results instead of stopping the
/// run: the ops whose checks the compiler makes inside the kernels that
/// compute them (element indices of `tensor.extract` / `tensor.insert`,
/// and everything in a structured op's region, a gather's extracts), so
/// a dead one is never checked. Sizes, offsets and strides (slices, pads,
/// concatenations, casts) are checked by the host for every op, dead or
/// not (it reads the tensor data they come from), so their failures stop
/// the run here too.
pub(super) fn is_pure(m: &TensorModule, op: TOp) -> bool {
    matches!(
        m.op(op).kind,
        OpKind::Arith { .. }
            | OpKind::Math { .. }
            | OpKind::Linalg(_)
            | OpKind::Tensor(TensorOp::Extract | TensorOp::Insert)
    )
}

/// Whether `op` observes its operands (a poisoned one raises its error).
/// A function's results are observed by its caller: the top-level call
/// raises a poisoned one; a `func.call` passes poison to its callee and
/// takes it back with the callee's results.
pub(super) fn observes(m: &TensorModule, op: TOp) -> bool {
    matches!(m.op(op).kind, OpKind::Assert { .. } | OpKind::Check(_))
}

/// The operands of `op` that are sizes, offsets, strides or pad amounts
/// ([`TensorOp::first_size_operand`]): the compiler computes them on the
/// host and checks them for every op, live or dead, so a poisoned one
/// stops the run.
pub(super) fn size_operands(m: &TensorModule, op: TOp) -> &[TValue] {
    let d = m.op(op);
    match &d.kind {
        OpKind::Tensor(t) => t
            .first_size_operand()
            .map_or(&[], |k| &d.operands[k.min(d.operands.len())..]),
        _ => &[],
    }
}

/// The values of the enclosing body that `op` uses (operands, then the
/// values its regions capture), each with whether `op` reads its
/// elements.
pub(super) fn uses(m: &TensorModule, op: TOp) -> Vec<(TValue, bool)> {
    let d = m.op(op);
    let mut out: Vec<(TValue, bool)> = Vec::new();
    let mut add = |v: TValue, read: bool| match out.iter_mut().find(|(u, _)| *u == v) {
        Some((_, r)) => *r |= read,
        None => out.push((v, read)),
    };
    if let Some(s) = structured(m, op) {
        let args = &m.block(s.body).args;
        for (k, v) in s.operands().enumerate() {
            let read = args.get(k).is_none_or(|&arg| {
                let mut read = false;
                m.walk(s.body, &mut |o| read |= m.op(o).operands.contains(&arg));
                read
            });
            add(v, read);
        }
    } else {
        let shape_only = matches!(d.kind, OpKind::Tensor(TensorOp::Dim));
        for (k, &v) in d.operands.iter().enumerate() {
            add(v, !(shape_only && k == 0));
        }
    }
    // Values defined outside the op and read inside its regions.
    for &r in &d.regions {
        m.walk(r, &mut |inner| {
            for &v in &m.op(inner).operands {
                if !defined_inside(m, v, op) {
                    add(v, true);
                }
            }
        });
    }
    out
}

/// Whether `v` is defined inside `op`'s regions.
fn defined_inside(m: &TensorModule, v: TValue, op: TOp) -> bool {
    let mut block = match m.value(v).def {
        ValueDef::BlockArg { block, .. } => block,
        ValueDef::Result { op: def, .. } => match m.op(def).parent {
            Some(b) => b,
            None => return false,
        },
    };
    loop {
        match m.block(block).parent {
            BlockParent::Op(o) if o == op => return true,
            BlockParent::Op(o) => match m.op(o).parent {
                Some(b) => block = b,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// The placeholder a poisoned result holds: zeros where the type gives
/// the shape.
pub(super) fn placeholder(m: &TensorModule, v: TValue) -> Option<Value> {
    let kind = m.value_kind(v);
    match kind.tensor_shape() {
        None => Some(Value::Scalar(if kind.elem().is_float() {
            Scalar::Float(0.0)
        } else {
            Scalar::Int(0)
        })),
        Some(dims) => {
            let shape: Option<Vec<usize>> =
                dims.iter().map(|d| d.fixed().map(|n| n as usize)).collect();
            let t = Tensor::zeros(kind.elem(), &shape?).ok()?;
            Some(Value::Tensor(std::rc::Rc::new(t)))
        }
    }
}

/// The error a poisoned value carries, per value of a function body.
pub(super) type PoisonTable = Vec<Option<EvalError>>;
