//! Indexing: [`index_select`] (and [`embedding`], its row lookup),
//! [`gather`] along an axis, [`one_hot`], and [`arange`]. The lookups are
//! one `linalg.generic` each whose region reads the source tensor with
//! `tensor.extract` at the index it was given; every size is dynamic, so
//! one program serves every shape of a rank.
//!
//! Indices are `i32` or `i64` tensors, each in `0..n` for the dimension
//! `n` it indexes. An index out of range is an [`Error::Index`] naming the
//! op, never a value read elsewhere: indices the host can read without
//! waiting (in host-visible memory, no queued work writing them, at most
//! [`HOST_CHECK_MAX`] of them) are checked at the call, before anything is
//! enqueued; others are checked by the kernel, which reports through
//! [`Stream::sync`] and every read of the result (see `fault`).

use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{class, dims_ty, dyn_ty, map, shape_error, Dim, Func, Operand};

/// `indices` must be an integer index tensor.
pub(crate) fn check_indices(what: &'static str, indices: &Tensor) -> Result<()> {
    match indices.dtype() {
        DType::I32 | DType::I64 => Ok(()),
        other => Err(shape_error(
            what,
            format!("the indices must be i32 or i64, not {other}"),
        )),
    }
}

/// The most indices an op reads on the host to check them at the call
/// (more are checked on the device only).
pub const HOST_CHECK_MAX: usize = 1 << 16;

/// Checks `indices` against `0..n` on the host when it can read them
/// without waiting (see the module docs), returning whether it did;
/// otherwise leaves them to the kernel's check.
pub(crate) fn check_host_indices(
    what: &'static str,
    operand: &str,
    indices: &Tensor,
    n: usize,
) -> Result<bool> {
    let storage = &indices.storage;
    let (start, len) = indices.byte_range();
    if !indices.is_contiguous()
        || indices.numel() > HOST_CHECK_MAX
        || storage.slice.kind() != kiln_vulkan::MemoryKind::Unified
        || crate::hazard::writes_pending(storage, start, start + len)
    {
        return Ok(false);
    }
    let values: Vec<i64> = match indices.dtype() {
        DType::I32 => indices
            .to_vec::<i32>()?
            .into_iter()
            .map(i64::from)
            .collect(),
        _ => indices.to_vec::<i64>()?,
    };
    match values
        .iter()
        .enumerate()
        .find(|&(_, &i)| i < 0 || i as u64 >= n as u64)
    {
        Some((at, i)) => Err(Error::Index {
            what: what.to_owned(),
            reason: format!("{operand}[{at}] is {i}, outside 0..{n} (checked on the host)"),
        }),
        None => Ok(true),
    }
}

/// The program `out[p] = x[at(p)]` over the output's dimensions, where the
/// `axis` coordinate of `x` is `index[..]` (read through `index_map` from
/// the output's loop indices) and every other coordinate `d` of `x` is
/// loop index `x_dims[d]`. Output dimension `d` has the size of dimension
/// `sizes[d].1` of argument `sizes[d].0` (0: `x`, 1: the indices).
fn lookup_text(
    name: &'static str,
    x: &Tensor,
    indices: &Tensor,
    axis: usize,
    index_map: &[usize],
    x_dims: &[usize],
    sizes: &[(usize, usize)],
) -> String {
    let elem = x.dtype().name();
    let ielem = indices.dtype().name();
    let mut f = Func::new(name);
    let x_ty = dyn_ty(x.shape().len(), elem);
    let i_ty = dyn_ty(indices.shape().len(), ielem);
    let xa = f.arg(&x_ty);
    let ia = f.arg(&i_ty);
    let dims: Vec<Dim> = sizes
        .iter()
        .map(|&(arg, d)| {
            if arg == 0 {
                f.dim(&xa, &x_ty, d)
            } else {
                f.dim(&ia, &i_ty, d)
            }
        })
        .collect();
    let rank = dims.len();
    let init = f.empty_dims(&dims, elem, None);
    let out_ty = dims_ty(&dims, elem);
    let ins = [Operand {
        value: ia,
        ty: i_ty,
        elem: ielem.to_owned(),
        map: map(rank, index_map),
    }];
    let out = Operand {
        value: init,
        ty: out_ty.clone(),
        elem: elem.to_owned(),
        map: super::text::identity(rank),
    };
    let x_rank = x.shape().len();
    let y = f.generic(&ins, &out, &vec!["parallel"; rank], |f, args| {
        let k = f.let_(&format!("arith.index_cast {} : {ielem} to index", args[0]));
        let coords: Vec<String> = (0..x_rank)
            .map(|d| {
                if d == axis {
                    k.clone()
                } else {
                    f.let_(&format!("linalg.index {} : index", x_dims[d]))
                }
            })
            .collect();
        f.let_(&format!(
            "tensor.extract {xa}[{}] : {x_ty}",
            coords.join(", ")
        ))
    });
    f.finish(&[(y, out_ty)])
}

/// The slices of `x` along `axis` at `indices` (a 1-D `i32` or `i64`
/// tensor), in their order: `x`'s shape with dimension `axis` replaced by
/// the number of indices (PyTorch's `index_select`). Any element type.
pub fn index_select(stream: &Stream, x: &Tensor, axis: usize, indices: &Tensor) -> Result<Tensor> {
    select(stream, "ops::index_select", x, axis, indices)
}

/// [`index_select`] as op `what` (its errors and program name it).
fn select(
    stream: &Stream,
    what: &'static str,
    x: &Tensor,
    axis: usize,
    indices: &Tensor,
) -> Result<Tensor> {
    class(what, x.dtype())?;
    check_indices(what, indices)?;
    let shape = x.shape();
    if axis >= shape.len() {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {shape:?}"),
        ));
    }
    if indices.shape().len() != 1 {
        return Err(shape_error(
            what,
            format!("the indices must be 1-D, got shape {:?}", indices.shape()),
        ));
    }
    let mut out = shape.to_vec();
    out[axis] = indices.numel();
    if out.contains(&0) {
        if shape[axis] == 0 && indices.numel() > 0 {
            return Err(shape_error(
                what,
                format!("selects from an empty dimension {axis} of {shape:?}"),
            ));
        }
        return Tensor::empty(&x.device(), x.dtype(), &out);
    }
    // Indices the host cannot read now are checked by the kernel.
    check_host_indices(what, "indices", indices, shape[axis])?;
    let rank = shape.len();
    let x_dims: Vec<usize> = (0..rank).collect();
    let sizes: Vec<(usize, usize)> = (0..rank)
        .map(|d| if d == axis { (1, 0) } else { (0, d) })
        .collect();
    let text = || {
        Ok(lookup_text(
            super::elementwise::fname(what),
            x,
            indices,
            axis,
            &[axis],
            &x_dims,
            &sizes,
        ))
    };
    single(cache::run_keyed(
        stream,
        what,
        &[axis as u64],
        &[x, indices],
        text,
    )?)
}

/// The rows of `table` (`[V, D]`) at `ids` (an `i32` or `i64` tensor of
/// any shape): `ids`' shape followed by `D` (PyTorch's `embedding`).
pub fn embedding(stream: &Stream, table: &Tensor, ids: &Tensor) -> Result<Tensor> {
    let what = "ops::embedding";
    check_indices(what, ids)?;
    if table.shape().len() != 2 {
        return Err(shape_error(
            what,
            format!("the table must be [V, D], got shape {:?}", table.shape()),
        ));
    }
    let flat = ids.contiguous()?.reshape(&[ids.numel()])?;
    let rows = select(stream, what, table, 0, &flat)?;
    let mut shape = ids.shape().to_vec();
    shape.push(table.shape()[1]);
    rows.reshape(&shape)
}

/// The elements of `x` along `axis` at `index` (PyTorch's `gather`):
/// `index` has `x`'s rank and the result `index`'s shape, with
/// `out[.., i, ..] = x[.., index[.., i, ..], ..]` (`i` at `axis`); along the
/// other dimensions `index` is no larger than `x`.
pub fn gather(stream: &Stream, x: &Tensor, axis: usize, index: &Tensor) -> Result<Tensor> {
    gather_as(stream, "ops::gather", x, axis, index)
}

/// [`gather`] as op `what` (its errors and program name it).
pub(crate) fn gather_as(
    stream: &Stream,
    what: &'static str,
    x: &Tensor,
    axis: usize,
    index: &Tensor,
) -> Result<Tensor> {
    class(what, x.dtype())?;
    check_indices(what, index)?;
    let (sx, si) = (x.shape(), index.shape());
    if axis >= sx.len() {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {sx:?}"),
        ));
    }
    let fits = si.len() == sx.len()
        && si
            .iter()
            .zip(sx)
            .enumerate()
            .all(|(d, (&i, &n))| d == axis || i <= n);
    if !fits {
        return Err(shape_error(
            what,
            format!("the index of shape {si:?} does not fit x of shape {sx:?} along axis {axis}"),
        ));
    }
    if index.numel() == 0 {
        return Tensor::empty(&x.device(), x.dtype(), si);
    }
    if sx[axis] == 0 {
        return Err(shape_error(
            what,
            format!("gathers from an empty dimension {axis} of {sx:?}"),
        ));
    }
    // An index the host cannot read now is checked by the kernel.
    check_host_indices(what, "index", index, sx[axis])?;
    let rank = sx.len();
    let all: Vec<usize> = (0..rank).collect();
    let sizes: Vec<(usize, usize)> = (0..rank).map(|d| (1, d)).collect();
    let name = super::elementwise::fname(what);
    let text = || Ok(lookup_text(name, x, index, axis, &all, &all, &sizes));
    single(cache::run_keyed(
        stream,
        what,
        &[axis as u64],
        &[x, index],
        text,
    )?)
}

/// `indices` (`i32` or `i64`, any shape) as one-hot vectors of `classes`
/// elements of `dtype` (1 at the index, 0 elsewhere; `true`/`false` for
/// `bool`): `indices`' shape followed by `classes`. An index outside
/// `0..classes` gives a vector of zeros.
pub fn one_hot(stream: &Stream, indices: &Tensor, classes: usize, dtype: DType) -> Result<Tensor> {
    let what = "ops::one_hot";
    check_indices(what, indices)?;
    let cls = class(what, dtype)?;
    let mut shape = indices.shape().to_vec();
    shape.push(classes);
    if indices.numel() == 0 || classes == 0 {
        return Tensor::zeros(&indices.device(), dtype, &shape);
    }
    let rank = shape.len();
    let ielem = indices.dtype().name();
    let elem = dtype.name();
    let text = || {
        let mut f = Func::new("one_hot");
        let i_ty = dyn_ty(rank - 1, ielem);
        let ia = f.arg(&i_ty);
        let mut dims: Vec<Dim> = (0..rank - 1).map(|d| f.dim(&ia, &i_ty, d)).collect();
        dims.push(Dim::Fixed(classes));
        let init = f.empty_dims(&dims, elem, None);
        let out_ty = dims_ty(&dims, elem);
        let lead: Vec<usize> = (0..rank - 1).collect();
        let ins = [Operand {
            value: ia,
            ty: i_ty,
            elem: ielem.to_owned(),
            map: map(rank, &lead),
        }];
        let out = Operand {
            value: init,
            ty: out_ty.clone(),
            elem: elem.to_owned(),
            map: super::text::identity(rank),
        };
        let (one, zero) = match cls {
            super::text::Class::Float => ("1.0", "0.0"),
            super::text::Class::Int => ("1", "0"),
            super::text::Class::Bool => ("true", "false"),
        };
        let y = f.generic(&ins, &out, &vec!["parallel"; rank], |f, args| {
            let c = f.let_(&format!("linalg.index {} : index", rank - 1));
            let ci = f.let_(&format!("arith.index_cast {c} : index to {ielem}"));
            let eq = f.let_(&format!("arith.cmpi eq, {}, {ci} : {ielem}", args[0]));
            let a = f.constant(one, elem);
            let b = f.constant(zero, elem);
            f.let_(&format!("arith.select {eq}, {a}, {b} : {elem}"))
        });
        Ok(f.finish(&[(y, out_ty)]))
    };
    single(cache::run_keyed(
        stream,
        what,
        &[classes as u64, dtype as u64],
        &[indices],
        text,
    )?)
}

/// `start, start + step, ..` up to `end` (excluded) as a 1-D tensor of
/// `dtype` (numpy's `arange`; `ceil((end - start) / step)` elements,
/// each `start + i * step` computed in f64 and converted once), written
/// on `stream`. Not `bool`; `step` must not be zero.
pub fn arange(stream: &Stream, start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    let what = "ops::arange";
    if step == 0.0 || !(start.is_finite() && end.is_finite() && step.is_finite()) {
        return Err(shape_error(
            what,
            format!(
                "start {start}, end {end}, step {step}: need finite values and a non-zero step"
            ),
        ));
    }
    let n = ((end - start) / step).ceil().max(0.0);
    if n > (1u64 << 40) as f64 {
        return Err(shape_error(what, format!("{n} elements are too many")));
    }
    let n = n as usize;
    let device = stream.device();
    let at = |i: usize| start + i as f64 * step;
    fn put<T: Element>(stream: &Stream, device: &crate::Device, v: Vec<T>) -> Result<Tensor> {
        let t = Tensor::empty(device, T::DTYPE, &[v.len()])?;
        if !v.is_empty() {
            stream.upload(&t, &v)?;
        }
        Ok(t)
    }
    let v = (0..n).map(at);
    match dtype {
        DType::F32 => put(stream, &device, v.map(|x| x as f32).collect()),
        DType::F16 => put(stream, &device, v.map(half::f16::from_f64).collect()),
        DType::BF16 => put(stream, &device, v.map(half::bf16::from_f64).collect()),
        DType::I8 => put(stream, &device, v.map(|x| x as i8).collect()),
        DType::I16 => put(stream, &device, v.map(|x| x as i16).collect()),
        DType::I32 => put(stream, &device, v.map(|x| x as i32).collect()),
        DType::I64 => put(stream, &device, v.map(|x| x as i64).collect()),
        other => Err(shape_error(what, format!("makes no {other} tensors"))),
    }
}

/// A new tensor of `dtype` and `shape` with every element `value`
/// (converted as [`arange`] converts), filled on `stream`.
pub(crate) fn filled(stream: &Stream, dtype: DType, shape: &[usize], value: f64) -> Result<Tensor> {
    let t = Tensor::empty(&stream.device(), dtype, shape)?;
    if t.numel() == 0 {
        return Ok(t);
    }
    match dtype {
        DType::F32 => stream.fill(&t, value as f32)?,
        DType::F16 => stream.fill(&t, half::f16::from_f64(value))?,
        DType::BF16 => stream.fill(&t, half::bf16::from_f64(value))?,
        DType::I8 => stream.fill(&t, value as i8)?,
        DType::I16 => stream.fill(&t, value as i16)?,
        DType::I32 => stream.fill(&t, value as i32)?,
        DType::I64 => stream.fill(&t, value as i64)?,
        DType::Bool => stream.fill(&t, value != 0.0)?,
        other => {
            return Err(shape_error(
                "ops::pad",
                format!("{other} tensors are not supported by ops"),
            ))
        }
    }
    Ok(t)
}
