//! Shape ops: `Reshape`, `Flatten`, `Squeeze`, `Unsqueeze`, `Transpose`,
//! `Concat`, `Shape`, `Size`, `Constant`, `ConstantOfShape`, `Expand`,
//! `Slice` (positive steps), `Gather` (known indices).

use kiln_core::tensor::attr::{Mixed, ScalarBits};
use kiln_core::tensor::ops::TensorOp;
use kiln_core::tensor::Dim;

use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

fn static_shape(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, crate::error::OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("inputs of dynamic shape are not supported by this op yet"))
}

/// `Reshape` (shape input from opset 5; `0` copies, `-1` infers; `allowzero`).
pub fn reshape(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let spec = if n.opset < 5 {
        n.ints("shape").unwrap_or_default()
    } else {
        n.known(1)?.ints()
    };
    let allowzero = n.int("allowzero", 0) != 0;
    let mut out: Vec<i64> = Vec::with_capacity(spec.len());
    for (i, &d) in spec.iter().enumerate() {
        out.push(if d == 0 && !allowzero {
            *src.get(i)
                .ok_or_else(|| n.err("0 in the shape past the input's rank"))? as i64
        } else {
            d
        });
    }
    let total: u64 = src.iter().product();
    if let Some(d) = out.iter().find(|&&d| d < -1) {
        return Err(n.err(format!("dimension {d} in the shape {spec:?}")));
    }
    let known: i64 = out
        .iter()
        .filter(|&&d| d != -1)
        .try_fold(1i64, |p, &d| p.checked_mul(d))
        .ok_or_else(|| n.err(format!("the shape {spec:?} overflows 64 bits")))?;
    if out.iter().filter(|&&d| d == -1).count() > 1 {
        return Err(n.err("more than one -1 in the shape"));
    }
    let shape: Vec<u64> = out
        .iter()
        .map(|&d| {
            if d == -1 {
                if known == 0 {
                    0
                } else {
                    total / known as u64
                }
            } else {
                d as u64
            }
        })
        .collect();
    Ok(vec![c.reshape(a, &shape).map_err(|e| n.err(e))?])
}

/// `Flatten(axis)`.
pub fn flatten(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let axis = n.int("axis", 1);
    let axis = if axis < 0 {
        axis + src.len() as i64
    } else {
        axis
    };
    if axis < 0 || axis as usize > src.len() {
        return Err(n.err(format!("axis {axis} out of range")));
    }
    let outer: u64 = src[..axis as usize].iter().product();
    let inner: u64 = src[axis as usize..].iter().product();
    Ok(vec![c.reshape(a, &[outer, inner]).map_err(|e| n.err(e))?])
}

/// `Squeeze(axes)` (axes an input from opset 13).
pub fn squeeze(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let axes = if n.opset < 13 {
        n.ints("axes")
    } else {
        n.opt_ints(1)?
    };
    let axes: Vec<usize> = match axes {
        Some(ax) => ax
            .iter()
            .map(|&x| n.axis(x, src.len()))
            .collect::<Result<_, _>>()?,
        None => (0..src.len()).filter(|&i| src[i] == 1).collect(),
    };
    let shape: Vec<u64> = (0..src.len())
        .filter(|i| !axes.contains(i))
        .map(|i| src[i])
        .collect();
    Ok(vec![c.reshape(a, &shape).map_err(|e| n.err(e))?])
}

/// `Unsqueeze(axes)` (axes an input from opset 13).
pub fn unsqueeze(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let axes = if n.opset < 13 {
        n.ints("axes").unwrap_or_default()
    } else {
        n.known(1)?.ints()
    };
    let r = src.len() + axes.len();
    let axes: Vec<usize> = axes
        .iter()
        .map(|&x| n.axis(x, r))
        .collect::<Result<_, _>>()?;
    let mut it = src.iter();
    let shape: Vec<u64> = (0..r)
        .map(|i| {
            if axes.contains(&i) {
                1
            } else {
                *it.next().unwrap_or(&1)
            }
        })
        .collect();
    Ok(vec![c.reshape(a, &shape).map_err(|e| n.err(e))?])
}

/// `Transpose(perm)`.
pub fn transpose(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let r = a.rank();
    let perm: Vec<usize> = match n.ints("perm") {
        Some(p) => p.iter().map(|&x| n.axis(x, r)).collect::<Result<_, _>>()?,
        None => (0..r).rev().collect(),
    };
    let mut seen = vec![false; r];
    if perm.len() != r || perm.iter().any(|&p| std::mem::replace(&mut seen[p], true)) {
        return Err(n.err(format!("perm {perm:?} is not a permutation of {r} axes")));
    }
    Ok(vec![c.transpose(a, &perm).map_err(|e| n.err(e))?])
}

/// `Concat(axis)`.
pub fn concat(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let ins: Vec<&Value> = (0..n.inputs.len()).filter_map(|i| n.opt_input(i)).collect();
    let first = ins.first().ok_or_else(|| n.err("no inputs"))?;
    let r = first.rank();
    let axis = n.axis(n.int("axis", 0), r)?;
    let mut shape = static_shape(n, first)?;
    shape[axis] = 0;
    let mut parts = Vec::new();
    for v in &ins {
        let s = static_shape(n, v)?;
        if s.len() != r {
            return Err(n.err("inputs of different ranks"));
        }
        if s[axis] == 0 {
            continue;
        }
        shape[axis] += s[axis];
        parts.push(*v);
    }
    if parts.len() == 1 {
        return Ok(vec![parts[0].clone()]);
    }
    // Parts that are all transposes by one permutation (convolutions'
    // outputs seen as NCHW, `Value::permuted`) are joined as their
    // sources and transposed back: the result stays in their layout.
    let Some((srcs, perm)) = common_sources(&parts) else {
        return Ok(vec![join(c, &parts, axis, &shape)]);
    };
    let mut src_shape = vec![0; r];
    for (k, &p) in perm.iter().enumerate() {
        src_shape[p] = shape[k];
    }
    let refs: Vec<&Value> = srcs.iter().collect();
    let y = join(c, &refs, perm[axis], &src_shape);
    Ok(vec![c.transpose(&y, &perm).map_err(|e| n.err(e))?])
}

/// `tensor.concat` of `parts` along `axis` into `shape`.
fn join(c: &mut Ctx<'_>, parts: &[&Value], axis: usize, shape: &[u64]) -> Value {
    let ssa: Vec<_> = parts.iter().map(|v| c.ssa(v)).collect();
    let dtype = parts[0].dtype;
    let ty = c.b.module().types.static_tensor(shape, dtype.elem());
    let out =
        c.b.tensor_op(TensorOp::Concat { dim: axis as u64 }, &ssa, ty);
    c.tensor(out, dtype, shape.iter().map(|&d| Dim::Static(d)).collect())
}

/// The sources of `parts` and their permutation, when every part is a
/// transpose by the same one.
fn common_sources(parts: &[&Value]) -> Option<(Vec<Value>, Vec<usize>)> {
    let perm = parts.first()?.permuted()?.1.to_vec();
    let srcs = parts
        .iter()
        .map(|v| match v.permuted() {
            Some((s, p)) if p == perm.as_slice() => Some(s.clone()),
            _ => None,
        })
        .collect::<Option<Vec<Value>>>()?;
    Some((srcs, perm))
}

/// `Shape(start, end)`: known at import time when the shape is static.
pub fn shape(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let s = static_shape(n, a)?;
    let r = s.len() as i64;
    let clamp = |x: i64| (if x < 0 { x + r } else { x }).clamp(0, r) as usize;
    let start = clamp(n.int("start", 0));
    let end = clamp(n.int("end", r));
    let dims: Vec<i64> = s[start..end.max(start)].iter().map(|&d| d as i64).collect();
    Ok(vec![Value::constant(HostTensor::from_ints(
        DataType::Int64,
        &[dims.len()],
        &dims,
    ))])
}

/// `Size`.
pub fn size(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let s = static_shape(n, a)?;
    let total: u64 = s.iter().product();
    Ok(vec![Value::constant(HostTensor::from_ints(
        DataType::Int64,
        &[],
        &[total as i64],
    ))])
}

/// `Constant`.
pub fn constant(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let t = if let Some(t) = n.tensor("value")? {
        t
    } else if let Some(f) = n.floats("value_floats") {
        let v: Vec<f64> = f.iter().map(|&x| f64::from(x)).collect();
        HostTensor::from_floats(DataType::Float, &[v.len()], &v)
    } else if let Some(i) = n.ints("value_ints") {
        HostTensor::from_ints(DataType::Int64, &[i.len()], &i)
    } else if n.has("value_float") {
        HostTensor::from_floats(
            DataType::Float,
            &[],
            &[f64::from(n.float("value_float", 0.0))],
        )
    } else if n.has("value_int") {
        HostTensor::from_ints(DataType::Int64, &[], &[n.int("value_int", 0)])
    } else {
        return Err(n.err("no value attribute kiln supports (sparse and string constants are not)"));
    };
    Ok(vec![Value::constant(t)])
}

/// `ConstantOfShape(value)`.
pub fn constant_of_shape(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let shape: Vec<u64> = n
        .known(0)?
        .ints()
        .iter()
        .map(|&d| d.max(0) as u64)
        .collect();
    let (dtype, value) = match n.tensor("value")? {
        Some(t) => (t.dtype, t.tensor.data.get(0)),
        None => (DataType::Float, ScalarBits::Float(0.0)),
    };
    let v = c.full(&shape, dtype, value);
    Ok(vec![c.tensor(
        v,
        dtype,
        shape.iter().map(|&d| Dim::Static(d)).collect(),
    )])
}

/// `Expand(x, shape)`: numpy broadcast to `shape`.
pub fn expand(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let shape: Vec<u64> = n.known(1)?.ints().iter().map(|&d| d as u64).collect();
    let tshape: Vec<Dim> = shape.iter().map(|&d| Dim::Static(d)).collect();
    let out_shape = Ctx::broadcast_shape(&[&a.shape, &tshape]).map_err(|e| n.err(e))?;
    // A shape-only operand: broadcast `a` against an empty-shaped template.
    let dims: Vec<u64> = out_shape.iter().map(|d| d.fixed().unwrap_or(1)).collect();
    let t = c.full(&dims, DataType::Bool, ScalarBits::Int(0));
    let tv = c.tensor(t, DataType::Bool, out_shape);
    let v = c
        .elementwise(&[a, &tv], a.dtype, |_, x| x[0])
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `Slice` (attributes before opset 10, inputs after; positive steps).
pub fn slice(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let r = src.len();
    let (starts, ends, axes, steps) = if n.opset < 10 {
        (
            n.ints("starts").unwrap_or_default(),
            n.ints("ends").unwrap_or_default(),
            n.ints("axes"),
            None,
        )
    } else {
        (
            n.known(1)?.ints(),
            n.known(2)?.ints(),
            n.opt_ints(3)?,
            n.opt_ints(4)?,
        )
    };
    let axes: Vec<usize> = match axes {
        Some(ax) => ax.iter().map(|&x| n.axis(x, r)).collect::<Result<_, _>>()?,
        None => (0..starts.len()).collect(),
    };
    let mut off = vec![0i64; r];
    let mut size: Vec<i64> = src.iter().map(|&d| d as i64).collect();
    let mut stride = vec![1i64; r];
    // Axes with a negative step: sliced forward, then reversed.
    let mut reversed = Vec::new();
    for (k, &ax) in axes.iter().enumerate() {
        let dim = src[ax] as i64;
        let step = steps.as_ref().map_or(1, |s| s[k]);
        if step == 0 {
            return Err(n.err("a zero step is not defined"));
        }
        let wrap = |x: i64| if x < 0 { x + dim } else { x };
        // ceil(span / step) without overflow (a step may be near 2^63).
        let steps_in = |span: i64, step: i64| {
            if span > 0 {
                (span - 1) / step + 1
            } else {
                0
            }
        };
        if step < 0 {
            if dim == 0 {
                stride[ax] = 1;
                size[ax] = 0;
                continue;
            }
            // numpy's rules: start in [0, dim - 1], end in [-1, dim - 1].
            let s = wrap(starts[k]).clamp(0, dim - 1);
            let e = if ends[k] < -dim {
                -1
            } else {
                wrap(ends[k]).clamp(-1, dim - 1)
            };
            // A step of -2^63 takes one element (every span is shorter).
            let k_ = step.checked_neg().unwrap_or(i64::MAX);
            let count = steps_in(s - e, k_);
            off[ax] = if count > 0 { s - (count - 1) * k_ } else { 0 };
            stride[ax] = k_;
            size[ax] = count;
            reversed.push(ax);
            continue;
        }
        let norm = |x: i64| wrap(x).clamp(0, dim);
        let s = norm(starts[k]);
        let e = norm(ends[k]);
        off[ax] = s;
        stride[ax] = step;
        size[ax] = steps_in(e - s, step);
    }
    let shape: Vec<u64> = size.iter().map(|&d| d as u64).collect();
    let s = c.ssa(a);
    let ty = c.b.module().types.static_tensor(&shape, a.dtype.elem());
    let out = c.b.tensor_op(
        TensorOp::ExtractSlice {
            offsets: off.iter().map(|&x| Mixed::Static(x)).collect(),
            sizes: size.iter().map(|&x| Mixed::Static(x)).collect(),
            strides: stride.iter().map(|&x| Mixed::Static(x)).collect(),
        },
        &[s],
        ty,
    );
    let mut v = c.tensor(
        out,
        a.dtype,
        shape.iter().map(|&d| Dim::Static(d)).collect(),
    );
    if !reversed.is_empty() && shape.iter().all(|&d| d > 0) {
        let src = c.ssa(&v);
        let elem = a.dtype.elem();
        v = super::gather::indexed_generic(c, &shape, a.dtype, &[], |bb, li, _| {
            let mut at = li.to_vec();
            for &ax in &reversed {
                let last = super::gather::index_const(bb, shape[ax] as i64 - 1);
                at[ax] = bb.arith(
                    kiln_core::tensor::ops::ArithOp::SubI,
                    vec![last, li[ax]],
                    kiln_core::tensor::ElemType::Index,
                );
            }
            super::gather::extract(bb, src, &at, elem)
        });
    }
    Ok(vec![v])
}

/// Most indices known at import a Gather takes as slices; past it, the
/// run-time gather (one indexed load per element) is the smaller kernel.
const SLICED_GATHER_LIMIT: usize = 16;

/// `Gather(axis)` with indices known at import time: one slice per index,
/// concatenated (what shape computations fold through); more than
/// `SLICED_GATHER_LIMIT` indices (a model imported with its inputs'
/// values) take the run-time gather.
pub fn gather(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let src = static_shape(n, a)?;
    let r = src.len();
    let axis = n.axis(n.int("axis", 0), r)?;
    if n.input(1)?.known.is_none() {
        return super::gather::gather_runtime(c, n);
    }
    let idx = n.known(1)?;
    let dim = src[axis] as i64;
    let s = c.ssa(a);
    let mut slice_shape = src.clone();
    slice_shape[axis] = 1;
    let ks = idx.ints();
    if let Some(&k) = ks.iter().find(|&&k| !(-dim..dim).contains(&k)) {
        return Err(n.err(format!("index {k} out of range for a dimension of {dim}")));
    }
    if ks.len() > SLICED_GATHER_LIMIT {
        return super::gather::gather_runtime(c, n);
    }
    let mut parts = Vec::new();
    for k in ks {
        let k = if k < 0 { k + dim } else { k };
        let mut off = vec![0i64; r];
        off[axis] = k;
        let ty =
            c.b.module()
                .types
                .static_tensor(&slice_shape, a.dtype.elem());
        parts.push(
            c.b.tensor_op(
                TensorOp::ExtractSlice {
                    offsets: off.iter().map(|&x| Mixed::Static(x)).collect(),
                    sizes: slice_shape
                        .iter()
                        .map(|&x| Mixed::Static(x as i64))
                        .collect(),
                    strides: vec![Mixed::Static(1); r],
                },
                &[s],
                ty,
            ),
        );
    }
    let mut cat_shape = src.clone();
    cat_shape[axis] = parts.len() as u64;
    let cat = if parts.len() == 1 {
        parts[0]
    } else if parts.is_empty() {
        return Err(n.err("an empty index tensor is not supported"));
    } else {
        let ty = c.b.module().types.static_tensor(&cat_shape, a.dtype.elem());
        c.b.tensor_op(TensorOp::Concat { dim: axis as u64 }, &parts, ty)
    };
    let cat_v = c.tensor(
        cat,
        a.dtype,
        cat_shape.iter().map(|&d| Dim::Static(d)).collect(),
    );
    let mut out: Vec<u64> = src[..axis].to_vec();
    out.extend(idx.shape().iter().map(|&d| d as u64));
    out.extend(&src[axis + 1..]);
    Ok(vec![c.reshape(&cat_v, &out).map_err(|e| n.err(e))?])
}
