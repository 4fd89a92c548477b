//! Data movement into new contiguous tensors: `linalg.transpose`,
//! `tensor.concat`, `tensor.extract_slice` (with steps). For views that
//! move no data see [`Tensor::permute`], [`Tensor::narrow`] and
//! [`Tensor::reshape`].

use crate::error::Result;
use crate::stream::Stream;
use crate::tensor::Tensor;

use super::cache;
use super::elementwise::single;
use super::text::{class, list, same_dtype, shape_error, tensor_ty, Class, Func};

/// `x` with its dimensions reordered: dimension `perm[i]` of `x` becomes
/// dimension `i` of the result (a new tensor; [`Tensor::permute`] is the
/// view).
pub fn transpose(stream: &Stream, x: &Tensor, perm: &[usize]) -> Result<Tensor> {
    let what = "ops::transpose";
    let shape = x.shape();
    let mut seen = vec![false; shape.len()];
    let valid = perm.len() == shape.len()
        && perm
            .iter()
            .all(|&p| p < seen.len() && !std::mem::replace(&mut seen[p], true));
    if !valid {
        return Err(shape_error(
            what,
            format!(
                "{perm:?} is not a permutation of the {} dimensions of {shape:?}",
                shape.len()
            ),
        ));
    }
    let dtype = x.dtype();
    class(what, dtype)?;
    let out: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
    if x.numel() == 0 {
        return Tensor::empty(&x.device(), dtype, &out);
    }
    let elem = dtype.name();
    let text = || -> Result<String> {
        let mut f = Func::new("transpose");
        let ty = tensor_ty(shape, elem);
        let a = f.arg(&ty);
        let init = f.empty(&out, elem, None);
        let out_ty = tensor_ty(&out, elem);
        let y = f.let_(&format!(
            "linalg.transpose ins({a} : {ty}) outs({init} : {out_ty}) permutation = {}",
            list(perm)
        ));
        Ok(f.finish(&[(y, out_ty)]))
    };
    single(cache::run_shaped(
        stream,
        what,
        &perm.iter().map(|&p| p as u64).collect::<Vec<_>>(),
        &[x],
        text,
    )?)
}

/// `tensors` joined along `axis`: all of one element type and rank, equal
/// in every other dimension.
pub fn concat(stream: &Stream, tensors: &[&Tensor], axis: usize) -> Result<Tensor> {
    let what = "ops::concat";
    let dtype = same_dtype(what, tensors)?;
    class(what, dtype)?;
    let first = tensors[0].shape();
    if axis >= first.len() {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for shape {first:?}"),
        ));
    }
    let mut out = first.to_vec();
    out[axis] = 0;
    for (i, t) in tensors.iter().enumerate() {
        let s = t.shape();
        let fits = s.len() == first.len()
            && s.iter()
                .zip(first)
                .enumerate()
                .all(|(d, (a, b))| d == axis || a == b);
        if !fits {
            return Err(shape_error(
                what,
                format!("operand {i} has shape {s:?}, operand 0 {first:?}: they may differ only in dimension {axis}"),
            ));
        }
        out[axis] += s[axis];
    }
    // Operands with nothing to give are left out (a program's tensors are
    // never empty).
    let parts: Vec<&Tensor> = tensors.iter().copied().filter(|t| t.numel() > 0).collect();
    if parts.is_empty() {
        return Tensor::empty(&tensors[0].device(), dtype, &out);
    }
    let elem = dtype.name();
    let text = || -> Result<String> {
        let out_ty = tensor_ty(&out, elem);
        let mut f = Func::new("concat");
        let tys: Vec<String> = parts.iter().map(|t| tensor_ty(t.shape(), elem)).collect();
        let args: Vec<String> = tys.iter().map(|ty| f.arg(ty)).collect();
        let y = if parts.len() == 1 {
            let init = f.empty(&out, elem, None);
            f.let_(&format!(
                "linalg.copy ins({} : {out_ty}) outs({init} : {out_ty}) -> {out_ty}",
                args[0]
            ))
        } else {
            f.let_(&format!(
                "tensor.concat dim({axis}) {} : ({}) -> {out_ty}",
                args.join(", "),
                tys.join(", ")
            ))
        };
        Ok(f.finish(&[(y, out_ty)]))
    };
    single(cache::run_shaped(
        stream,
        what,
        &[axis as u64],
        &parts,
        text,
    )?)
}

/// Elements `start[d] .. end[d]` of `x` in steps of `step[d]` along every
/// dimension `d` (a new tensor; [`Tensor::narrow`] is the view for a
/// step of 1).
pub fn slice(
    stream: &Stream,
    x: &Tensor,
    start: &[usize],
    end: &[usize],
    step: &[usize],
) -> Result<Tensor> {
    let what = "ops::slice";
    let shape = x.shape();
    let rank = shape.len();
    if start.len() != rank || end.len() != rank || step.len() != rank {
        return Err(shape_error(
            what,
            format!(
                "needs a start, end and step per dimension of {shape:?}, got {} / {} / {}",
                start.len(),
                end.len(),
                step.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(rank);
    for d in 0..rank {
        if start[d] > end[d] || end[d] > shape[d] || step[d] == 0 {
            return Err(shape_error(
                what,
                format!(
                    "dimension {d} (size {}): {}..{} step {} is not a slice of it",
                    shape[d], start[d], end[d], step[d]
                ),
            ));
        }
        out.push((end[d] - start[d]).div_ceil(step[d]));
    }
    let dtype = x.dtype();
    class(what, dtype)?;
    if out.contains(&0) {
        return Tensor::empty(&x.device(), dtype, &out);
    }
    let elem = dtype.name();
    let text = || -> Result<String> {
        let ty = tensor_ty(shape, elem);
        let out_ty = tensor_ty(&out, elem);
        let mut f = Func::new("slice");
        let a = f.arg(&ty);
        let y = f.let_(&format!(
            "tensor.extract_slice {a}{} {} {} : {ty} to {out_ty}",
            list(start),
            list(&out),
            list(step)
        ));
        Ok(f.finish(&[(y, out_ty)]))
    };
    single(cache::run_shaped(
        stream,
        what,
        &start
            .iter()
            .chain(step)
            .map(|&v| v as u64)
            .collect::<Vec<_>>(),
        &[x],
        text,
    )?)
}

/// `tensors` (all of one shape and element type) joined along a new
/// dimension `axis` (`0..=rank`).
pub fn stack(stream: &Stream, tensors: &[&Tensor], axis: usize) -> Result<Tensor> {
    let what = "ops::stack";
    let first = tensors
        .first()
        .ok_or_else(|| shape_error(what, "no tensors given"))?
        .shape();
    if axis > first.len() {
        return Err(shape_error(
            what,
            format!("axis {axis} is out of range for stacking shape {first:?}"),
        ));
    }
    let mut one = first.to_vec();
    one.insert(axis, 1);
    let mut parts = Vec::with_capacity(tensors.len());
    for (i, t) in tensors.iter().enumerate() {
        if t.shape() != first {
            return Err(shape_error(
                what,
                format!("operand {i} has shape {:?}, operand 0 {first:?}", t.shape()),
            ));
        }
        parts.push(t.contiguous()?.reshape(&one)?);
    }
    let refs: Vec<&Tensor> = parts.iter().collect();
    concat(stream, &refs, axis).map_err(|e| match e {
        crate::Error::Shape { reason, .. } => shape_error(what, reason),
        other => other,
    })
}

/// `x` padded with `value` (converted to its element type; integers
/// rounded toward zero, `bool`: non-zero is true): `pads[d] = [before,
/// after]` elements along dimension `d`.
pub fn pad(stream: &Stream, x: &Tensor, pads: &[[usize; 2]], value: f64) -> Result<Tensor> {
    let what = "ops::pad";
    let shape = x.shape();
    let rank = shape.len();
    if pads.len() != rank {
        return Err(shape_error(
            what,
            format!(
                "needs a [before, after] per dimension of {shape:?}, got {}",
                pads.len()
            ),
        ));
    }
    let dtype = x.dtype();
    let cls = class(what, dtype)?;
    if value.is_nan() && cls != Class::Float {
        return Err(shape_error(what, format!("NaN is no {dtype} value")));
    }
    let out: Vec<usize> = shape
        .iter()
        .zip(pads)
        .map(|(&n, p)| n + p[0] + p[1])
        .collect();
    if x.numel() == 0 {
        return super::index::filled(stream, dtype, &out, value);
    }
    if out == shape {
        let t = Tensor::empty(&x.device(), dtype, &out)?;
        stream.copy(x, &t)?;
        return Ok(t);
    }
    let elem = dtype.name();
    let lit = match dtype {
        crate::DType::F16 => format!("0x{:04X}", half::f16::from_f64(value).to_bits()),
        crate::DType::BF16 => format!("0x{:04X}", half::bf16::from_f64(value).to_bits()),
        _ => match cls {
            Class::Float => super::text::f32_lit(value as f32),
            Class::Int => super::elementwise::int_literal(dtype, value),
            Class::Bool => (value != 0.0).to_string(),
        },
    };
    let text = || -> Result<String> {
        let mut f = Func::new("pad");
        let ty = tensor_ty(shape, elem);
        let a = f.arg(&ty);
        let out_ty = tensor_ty(&out, elem);
        let lo: Vec<usize> = pads.iter().map(|p| p[0]).collect();
        let hi: Vec<usize> = pads.iter().map(|p| p[1]).collect();
        let y = f.let_(&format!(
            "tensor.pad {a} low{} high{} {{",
            list(&lo),
            list(&hi)
        ));
        let idx: Vec<String> = (0..rank).map(|_| format!("{}: index", f.fresh())).collect();
        f.line(&format!("^bb0({}):", idx.join(", ")));
        let c = f.constant(&lit, elem);
        f.line(&format!("  tensor.yield {c} : {elem}"));
        f.line(&format!("}} : {ty} to {out_ty}"));
        Ok(f.finish(&[(y, out_ty)]))
    };
    let mut params: Vec<u64> = pads
        .iter()
        .flat_map(|p| [p[0] as u64, p[1] as u64])
        .collect();
    params.push(value.to_bits());
    single(cache::run_shaped(stream, what, &params, &[x], text)?)
}
