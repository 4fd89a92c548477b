//! Slicing one element off an axis and stacking values along a new one:
//! how unrolled loops (`Scan`, `Loop`) and the ops that iterate over an
//! axis at import (LinearAttention, STFT) read and build their tensors.

use kiln_core::tensor::attr::Mixed;
use kiln_core::tensor::ops::TensorOp;
use kiln_core::tensor::Dim;

use crate::ctx::Ctx;
use crate::error::OnnxError;
use crate::node::Node;
use crate::value::Value;

/// Element `i` of `v` along `axis`, that axis dropped.
pub fn take(
    c: &mut Ctx<'_>,
    node: &Node<'_>,
    v: &Value,
    axis: usize,
    i: usize,
) -> Result<Value, OnnxError> {
    let src = v
        .static_shape()
        .ok_or_else(|| node.err("a scanned tensor of dynamic shape is not supported"))?;
    let mut one = src.clone();
    one[axis] = 1;
    let mut offsets = vec![Mixed::Static(0); src.len()];
    offsets[axis] = Mixed::Static(i as i64);
    let ty = c.b.module().types.static_tensor(&one, v.dtype.elem());
    let s = c.ssa(v);
    let sliced = c.b.tensor_op(
        TensorOp::ExtractSlice {
            offsets,
            sizes: one.iter().map(|&x| Mixed::Static(x as i64)).collect(),
            strides: vec![Mixed::Static(1); src.len()],
        },
        &[s],
        ty,
    );
    let sv = c.tensor(
        sliced,
        v.dtype,
        one.iter().map(|&d| Dim::Static(d)).collect(),
    );
    let mut out = src;
    out.remove(axis);
    c.reshape(&sv, &out).map_err(|e| node.err(e))
}

/// `parts` (of one shape) stacked along a new axis `axis`.
pub fn stack(
    c: &mut Ctx<'_>,
    node: &Node<'_>,
    parts: &[Value],
    axis: usize,
) -> Result<Value, OnnxError> {
    let first = parts
        .first()
        .ok_or_else(|| node.err("no iteration produced a scan output"))?;
    let shape = first
        .static_shape()
        .ok_or_else(|| node.err("a scan output of dynamic shape is not supported"))?;
    let mut one = shape.clone();
    one.insert(axis, 1);
    let mut ssa = Vec::with_capacity(parts.len());
    for p in parts {
        if p.static_shape().as_ref() != Some(&shape) || p.dtype != first.dtype {
            return Err(node.err("scan outputs change shape or type between iterations"));
        }
        let r = c.reshape(p, &one).map_err(|e| node.err(e))?;
        ssa.push(c.ssa(&r));
    }
    let mut all = shape;
    all.insert(axis, parts.len() as u64);
    let dims: Vec<Dim> = all.iter().map(|&d| Dim::Static(d)).collect();
    if ssa.len() == 1 {
        return Ok(c.tensor(ssa[0], first.dtype, dims));
    }
    let ty = c.b.module().types.static_tensor(&all, first.dtype.elem());
    let cat =
        c.b.tensor_op(TensorOp::Concat { dim: axis as u64 }, &ssa, ty);
    Ok(c.tensor(cat, first.dtype, dims))
}
