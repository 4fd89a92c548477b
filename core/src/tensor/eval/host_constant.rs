//! Elements of small constant integer tensors read on the host: a
//! `tensor.extract` at constant indices of integer data the program holds (a dense constant, also
//! `util.unfoldable_constant`, through slices at constant offsets, casts,
//! reshapes and optimization barriers) is a value the host knows before
//! anything runs. Importers compute sizes and their checks (`cf.assert`)
//! from such tensors (torch-mlir's `onnx.Expand`, `onnx.Tile` with a shape
//! operand); the device compiler then evaluates them on the host.
//!
//! Small tensors computed at compile time count too: the result of an
//! all-parallel structured op (`linalg.generic`, `linalg.fill`, ...) or of
//! a tensor op (`tensor.concat`, `tensor.pad`, `tensor.empty`, ...) whose
//! operands and captured values are all such constants, evaluated by the
//! reference evaluator (torch-mlir computes the target shape of the
//! `onnx.Expand` inside expanded attention this way). Below such an op
//! only `arith.constant` data folds: a `util.unfoldable_constant` stands for
//! data a program receives at run time, which the host reads only where
//! it is the data itself.

use std::rc::Rc;

use super::value::{strides, Scalar, Tensor, Value};
use super::Interp;
use crate::tensor::attr::{ConstAttr, IteratorType, Mixed};
use crate::tensor::entity::{TOp, TValue};
use crate::tensor::module::{TensorModule, ValueDef};
use crate::tensor::ops::{OpKind, TensorOp};

/// The most elements a constant tensor read this way may have.
pub const MAX_ELEMENTS: usize = 4096;

/// How deep the chain from the constant to the extract may be.
const MAX_DEPTH: u32 = 32;

/// The element `tensor.extract` op `op` reads, when its source is a small
/// constant tensor (see the module documentation) and its indices are
/// constants; `None` otherwise.
pub fn constant_extract(m: &TensorModule, op: TOp) -> Option<Scalar> {
    let d = m.op(op);
    if d.kind != OpKind::Tensor(TensorOp::Extract) {
        return None;
    }
    // Integer data only (shapes, repeat counts, axes): float data stays on
    // the device, which a program reads it with.
    let src = *d.operands.first()?;
    let elem = m.value_kind(src).elem();
    if !(elem.is_int_or_index() && elem != crate::tensor::types::ElemType::I1) {
        return None;
    }
    let t = constant_tensor(m, src, 0, false)?;
    let idx: Vec<i64> = d.operands[1..]
        .iter()
        .map(|&v| constant_int(m, v))
        .collect::<Option<_>>()?;
    let linear = linear_index(&t.shape, &idx)?;
    Some(t.get(linear))
}

/// The value of an integer or index `arith.constant`.
fn constant_int(m: &TensorModule, v: TValue) -> Option<i64> {
    let ValueDef::Result { op, .. } = m.value(v).def else {
        return None;
    };
    match &m.op(op).kind {
        OpKind::Constant(ConstAttr::Int { value, .. }) => Some(*value),
        _ => None,
    }
}

/// The row-major position of `idx` in `shape`, if in bounds.
fn linear_index(shape: &[usize], idx: &[i64]) -> Option<usize> {
    if idx.len() != shape.len() {
        return None;
    }
    let mut linear = 0usize;
    for (&i, (&n, s)) in idx.iter().zip(shape.iter().zip(strides(shape))) {
        let i = usize::try_from(i).ok().filter(|&i| i < n)?;
        linear = linear.checked_add(i.checked_mul(s)?)?;
    }
    Some(linear)
}

/// The element count of `shape`, if it fits.
fn count(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d))
}

/// The static shape of tensor value `v`.
fn static_shape(m: &TensorModule, v: TValue) -> Option<Vec<usize>> {
    m.value_kind(v)
        .tensor_shape()?
        .iter()
        .map(|d| d.fixed().and_then(|n| usize::try_from(n).ok()))
        .collect()
}

/// Tensor value `v` when it is a small constant the host can compute;
/// `computed`: below an op that computes (only `arith.constant` data).
fn constant_tensor(m: &TensorModule, v: TValue, depth: u32, computed: bool) -> Option<Tensor> {
    if depth > MAX_DEPTH {
        return None;
    }
    let ValueDef::Result { op, .. } = m.value(v).def else {
        return None;
    };
    let d = m.op(op);
    let shape = static_shape(m, v)?;
    let n = count(&shape).filter(|&n| n <= MAX_ELEMENTS)?;
    let src = || constant_tensor(m, *d.operands.first()?, depth + 1, computed);
    match &d.kind {
        OpKind::Constant(ConstAttr::Dense(dense)) => Tensor::from_dense(m, dense, &shape).ok(),
        OpKind::UnfoldableConstant(ConstAttr::Dense(dense)) if !computed => {
            Tensor::from_dense(m, dense, &shape).ok()
        }
        OpKind::OptimizationBarrier
        | OpKind::Tensor(TensorOp::Cast)
        | OpKind::Tensor(TensorOp::CollapseShape { .. })
        | OpKind::Tensor(TensorOp::ExpandShape { .. }) => {
            let mut t = src()?;
            if count(&t.shape)? != n {
                return None;
            }
            t.shape = shape;
            Some(t)
        }
        OpKind::Tensor(TensorOp::ExtractSlice {
            offsets,
            sizes,
            strides: steps,
        }) => {
            let t = src()?;
            let mut dynamic = d.operands[1..].iter();
            let mut read = |list: &[Mixed]| -> Option<Vec<i64>> {
                list.iter()
                    .map(|x| match x {
                        Mixed::Static(n) => Some(*n),
                        Mixed::Dynamic => constant_int(m, *dynamic.next()?),
                    })
                    .collect()
            };
            let (offsets, sizes, steps) = (read(offsets)?, read(sizes)?, read(steps)?);
            if offsets.len() != t.shape.len() || sizes.len() != t.shape.len() {
                return None;
            }
            let full: Vec<usize> = sizes
                .iter()
                .map(|&s| usize::try_from(s).ok())
                .collect::<Option<_>>()?;
            if count(&full)? != n {
                return None;
            }
            let mut out = Tensor::zeros(t.elem, &shape).ok()?;
            let full_strides = strides(&full);
            for k in 0..n {
                let mut idx = Vec::with_capacity(full.len());
                for (dim, &st) in full_strides.iter().enumerate() {
                    let i = (k / st % full[dim].max(1)) as i64;
                    idx.push(offsets[dim].checked_add(i.checked_mul(steps[dim])?)?);
                }
                out.set(k, t.get(linear_index(&t.shape, &idx)?));
            }
            Some(out)
        }
        OpKind::Linalg(_)
        | OpKind::Tensor(
            TensorOp::Concat { .. }
            | TensorOp::Pad { .. }
            | TensorOp::Empty
            | TensorOp::Splat
            | TensorOp::InsertSlice { .. },
        ) => computed_tensor(m, v, op, depth),
        _ => None,
    }
}

/// Result `v` of op `op` (an all-parallel structured op or a tensor op)
/// evaluated by the reference evaluator, when every operand and every
/// value its regions capture is a constant ([`constant_tensor`] below a
/// computing op, or a scalar `arith.constant`).
fn computed_tensor(m: &TensorModule, v: TValue, op: TOp, depth: u32) -> Option<Tensor> {
    // Every loop of an all-parallel op indexes its output: the evaluator
    // runs at most `MAX_ELEMENTS` points.
    if let Some(s) = crate::tensor::structured::structured(m, op) {
        let iterators = crate::codegen::analysis::effective_iterators(&s);
        if iterators.iter().any(|t| *t != IteratorType::Parallel) {
            return None;
        }
    }
    let d = m.op(op);
    // The values read: operands, then values the regions capture (read
    // inside, defined outside).
    let mut inside = std::collections::HashSet::new();
    let mut read = d.operands.clone();
    for &r in &d.regions {
        inside.extend(m.block(r).args.iter().copied());
        m.walk(r, &mut |o| {
            for &rb in &m.op(o).regions {
                inside.extend(m.block(rb).args.iter().copied());
            }
            inside.extend(m.op(o).results.iter().copied());
        });
    }
    for &r in &d.regions {
        m.walk(r, &mut |o| {
            for &x in &m.op(o).operands {
                if !inside.contains(&x) && !read.contains(&x) {
                    read.push(x);
                }
            }
        });
    }
    let mut values = Vec::with_capacity(read.len());
    for &x in &read {
        let value = if m.value_kind(x).is_tensor() {
            Value::Tensor(Rc::new(constant_tensor(m, x, depth + 1, true)?))
        } else {
            let ValueDef::Result { op: def, .. } = m.value(x).def else {
                return None;
            };
            match &m.op(def).kind {
                OpKind::Constant(c) => Value::Scalar(super::constant_scalar(c)?),
                _ => return None,
            }
        };
        values.push((x, value));
    }
    let mut env: Vec<Option<Value>> = vec![None; m.num_values()];
    for (x, value) in values {
        env[x.index()] = Some(value);
    }
    let results = Interp { m, depth: 0 }.exec(op, &env).ok()?;
    let ValueDef::Result { index, .. } = m.value(v).def else {
        return None;
    };
    match results.into_iter().nth(index as usize)? {
        Value::Tensor(t) => Some(Rc::unwrap_or_clone(t)),
        Value::Scalar(_) => None,
    }
}
