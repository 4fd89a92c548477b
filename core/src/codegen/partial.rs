//! Faults of ops a kernel computes at only some of their points (issue 31
//! §2, one verdict on every engine).
//!
//! An op fused into a dispatch is computed only at the points its reader
//! needs: a slice's reader computes the producer at the slice's elements,
//! an `insert_slice` its destination outside the slice, a map that is not
//! a projected permutation (a strided window) the elements it lands on.
//! The reference evaluator computes every op a live op reads whole, and
//! an index out of bounds at any of its points is the run's error. So an
//! op that may fault (a gather: a `tensor.extract` or `cf.assert` in its
//! region; a `tensor.insert` at an index that is not a constant) is a
//! dispatch of its own wherever it would be computed in part
//! ([`regions`](super::regions)): a live op's faults are errors whatever
//! part of its result is read.

use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::{TOp, TValue};

use super::analysis::FuncInfo;

/// Whether op `c` reads value `v` at only some of its elements (or may:
/// a slice of it, the destination of an `insert_slice`, an element of it,
/// an operand of a structured op whose map is not a projected
/// permutation).
pub fn reads_in_part(info: &FuncInfo<'_>, c: TOp, v: TValue) -> bool {
    let d = info.m.op(c);
    if let Some(s) = info.structured.get(&c) {
        return s
            .inputs
            .iter()
            .chain(&s.outputs)
            .zip(&s.indexing_maps)
            .any(|(&x, map)| x == v && !map.is_projected_permutation());
    }
    match d.kind {
        OpKind::Tensor(TensorOp::ExtractSlice { .. } | TensorOp::Extract) => {
            d.operands.first() == Some(&v)
        }
        OpKind::Tensor(TensorOp::InsertSlice { .. }) => d.operands.get(1) == Some(&v),
        _ => false,
    }
}

/// Whether computing op `op` may fault at some of its points: an element
/// index in its region or a `cf.assert` there (checked by the kernel), or
/// a top-level `tensor.insert` at an index that is not a constant.
pub fn may_fault(info: &FuncInfo<'_>, op: TOp) -> bool {
    let m = info.m;
    let d = m.op(op);
    if d.kind == OpKind::Tensor(TensorOp::Insert) {
        return d.operands.iter().skip(2).any(|&i| {
            info.def_op(i)
                .is_none_or(|o| !matches!(m.op(o).kind, OpKind::Constant(_)))
        });
    }
    let mut any = false;
    for &r in &d.regions {
        m.walk(r, &mut |o| {
            let inner = m.op(o);
            any |= match inner.kind {
                OpKind::Tensor(TensorOp::Extract) => inner.operands.len() > 1,
                OpKind::Assert { .. } => true,
                _ => false,
            };
        });
    }
    any
}
