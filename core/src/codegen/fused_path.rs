//! The path through which a dispatch's kernel reaches an op computed
//! inside it: structured ops whose inputs are inlined results of the next
//! structured op, seen through inlined reshapes (`tensor.cast`,
//! `collapse_shape`, `expand_shape`). The kernels map a dispatch point to
//! its prologue root's point along it (`kernels/point.rs`); dispatch-region
//! formation ([`super::regions`]) attaches a root as a prologue only where
//! such a path exists (an inlined `tensor.pad`, slice or concat between
//! them is not a point-to-point map, so the root is stored instead).

use crate::tensor::ops::{OpKind, TensorOp};
use crate::tensor::{TOp, TValue};

use super::analysis::{FuncInfo, OpClass};

/// The value an inlined input `v` is a reshaped view of: through
/// `tensor.cast`, `collapse_shape` and `expand_shape` ops whose results are
/// computed in the kernel (`inlined` says which values are; torch-mlir
/// puts them between the matmuls and the elementwise ops of attention),
/// down to the first other value.
pub fn through_reshapes(
    info: &FuncInfo<'_>,
    inlined: &dyn Fn(TValue) -> bool,
    mut v: TValue,
) -> TValue {
    while let Some(p) = info.def_op(v) {
        let reshape = matches!(
            info.m.op(p).kind,
            OpKind::Tensor(
                TensorOp::Cast | TensorOp::CollapseShape { .. } | TensorOp::ExpandShape { .. }
            )
        );
        if !reshape || !inlined(v) {
            break;
        }
        v = info.m.op(p).operands[0];
    }
    v
}

/// The inlined structured ops from `from` down to `to`: `(consumer,
/// input index)` pairs (an input may be a reshaped view of the next op's
/// result); `None` where `to` is not reached that way (`inlined` says
/// which values are computed inside the dispatch). A root other than `to`
/// on the way is not crossed.
pub fn path_to(
    info: &FuncInfo<'_>,
    inlined: &dyn Fn(TValue) -> bool,
    from: TOp,
    to: TOp,
) -> Option<Vec<(TOp, usize)>> {
    let s = info.structured.get(&from)?;
    for (k, &v) in s.inputs.iter().enumerate() {
        let v = through_reshapes(info, inlined, v);
        let Some(p) = info.def_op(v) else { continue };
        if !inlined(v) || !info.structured.contains_key(&p) {
            continue;
        }
        if p == to {
            return Some(vec![(from, k)]);
        }
        if info.class.get(&p) == Some(&OpClass::Root) {
            continue;
        }
        if let Some(mut rest) = path_to(info, inlined, p, to) {
            rest.insert(0, (from, k));
            return Some(rest);
        }
    }
    None
}
