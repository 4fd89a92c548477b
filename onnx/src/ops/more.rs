//! More shape and index ops: `Split`, `Pad` (all modes), `Tile`,
//! `Range` (known inputs), `ArgMax`/`ArgMin`, `Trilu`, `Mod`, `BitShift`.

use kiln_core::tensor::attr::{IteratorType, Mixed, ScalarBits};
use kiln_core::tensor::ops::{ArithOp, OpKind, TensorOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{AffineMap, Dim, ElemType, TValue};

use super::scalar::{arith, cmp, convert, cst, select, Bin, Cmp};
use super::OpResult;
use crate::ctx::Ctx;
use crate::dtype::DataType;
use crate::node::Node;
use crate::tensor::HostTensor;
use crate::value::Value;

fn dims(s: &[u64]) -> Vec<Dim> {
    s.iter().map(|&d| Dim::Static(d)).collect()
}

fn shape_of(n: &Node<'_>, v: &Value) -> Result<Vec<u64>, crate::error::OnnxError> {
    v.static_shape()
        .ok_or_else(|| n.err("inputs of dynamic shape are not supported by this op yet"))
}

/// `Split(axis)`: sizes from the `split` attribute (< 13), the split
/// input (13+), or `num_outputs` (18+), else equal parts.
pub fn split(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let s = shape_of(n, a)?;
    let axis = n.axis(n.int("axis", 0), s.len())?;
    let dim = s[axis];
    let parts = n.num_outputs() as u64;
    let sizes: Vec<u64> = match if n.opset < 13 {
        n.ints("split")
    } else {
        n.opt_ints(1)?
    } {
        Some(v) if !v.is_empty() => v.iter().map(|&x| x.max(0) as u64).collect(),
        _ => {
            let k = if n.opset >= 18 && n.has("num_outputs") {
                n.int("num_outputs", 1) as u64
            } else {
                parts
            };
            let each = dim.div_ceil(k.max(1));
            (0..k)
                .map(|i| each.min(dim.saturating_sub(i * each)))
                .collect()
        }
    };
    if sizes.iter().sum::<u64>() != dim {
        return Err(n.err(format!("split sizes {sizes:?} do not add up to {dim}")));
    }
    let src = c.ssa(a);
    let mut out = Vec::new();
    let mut off = 0u64;
    for &sz in &sizes {
        let mut shape = s.clone();
        shape[axis] = sz;
        let mut offs = vec![0i64; s.len()];
        offs[axis] = off as i64;
        let ty = c.b.module().types.static_tensor(&shape, a.dtype.elem());
        let v = c.b.tensor_op(
            TensorOp::ExtractSlice {
                offsets: offs.into_iter().map(Mixed::Static).collect(),
                sizes: shape.iter().map(|&d| Mixed::Static(d as i64)).collect(),
                strides: vec![Mixed::Static(1); s.len()],
            },
            &[src],
            ty,
        );
        out.push(Value::computed(v, a.dtype, dims(&shape)));
        off += sz;
    }
    Ok(out)
}

/// `Pad` (pads an attribute before opset 11, inputs after; axes an
/// input from 18): constant mode with non-negative pads and a known value
/// on `tensor.pad`; negative pads (cropping), a computed value and the
/// `edge`/`reflect`/`wrap` modes on a generic that reads each output
/// element's source index.
pub fn pad(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let s = shape_of(n, a)?;
    let r = s.len();
    let mode = n.string("mode", "constant");
    if !matches!(mode.as_str(), "constant" | "edge" | "reflect" | "wrap") {
        return Err(n.err(format!(
            "mode {mode:?} is not constant, edge, reflect or wrap"
        )));
    }
    // The constant: known, computed (a rank-0 or one-element tensor), or 0.
    let (pads, value, computed) = if n.opset < 11 {
        (
            n.ints("pads").unwrap_or_default(),
            f64::from(n.float("value", 0.0)),
            None,
        )
    } else {
        let (v, comp) = match n.opt_input(2) {
            Some(cv) => match &cv.known {
                Some(k) if k.len() == 1 => (k.float(0), None),
                _ if cv
                    .static_shape()
                    .is_some_and(|s| s.iter().product::<u64>() == 1) =>
                {
                    (0.0, Some(cv.clone()))
                }
                _ => return Err(n.err("constant_value must be a scalar")),
            },
            None => (0.0, None),
        };
        (n.known(1)?.ints(), v, comp)
    };
    let axes: Vec<usize> = match n.opt_ints(3).ok().flatten() {
        Some(ax) if n.opset >= 18 => ax.iter().map(|&x| n.axis(x, r)).collect::<Result<_, _>>()?,
        _ => (0..r).collect(),
    };
    if pads.len() != 2 * axes.len() {
        return Err(n.err(format!("{} pads for {} axes", pads.len(), axes.len())));
    }
    let (mut low, mut high) = (vec![0i64; r], vec![0i64; r]);
    for (k, &ax) in axes.iter().enumerate() {
        low[ax] = pads[k];
        high[ax] = pads[k + axes.len()];
    }
    let mut out = Vec::with_capacity(r);
    for d in 0..r {
        let o = i64::try_from(s[d])
            .ok()
            .and_then(|x| x.checked_add(low[d])?.checked_add(high[d]))
            .ok_or_else(|| n.err(format!("pads {pads:?} overflow axis {d}")))?;
        if o < 0 {
            return Err(n.err(format!("pads {pads:?} leave axis {d} of size {o}")));
        }
        out.push(o as u64);
    }
    let plain = mode == "constant" && computed.is_none() && pads.iter().all(|&p| p >= 0);
    let dt = a.dtype;
    let v = if dt.is_float() {
        ScalarBits::Float(value)
    } else {
        ScalarBits::Int(value as i64)
    };
    if plain {
        let src = c.ssa(a);
        let low: Vec<u64> = low.iter().map(|&p| p as u64).collect();
        let high: Vec<u64> = high.iter().map(|&p| p as u64).collect();
        let (y, shape) = super::conv::pad(c, src, &s, &low, &high, v);
        return Ok(vec![Value::computed(y, dt, dims(&shape))]);
    }
    if mode != "constant" && s.iter().zip(&out).any(|(&d, &o)| d == 0 && o > 0) {
        return Err(n.err(format!("{mode} padding of an empty axis")));
    }
    if mode == "reflect"
        && (0..r).any(|d| (low[d] > 0 || high[d] > 0) && (low[d].max(high[d]) >= s[d] as i64))
    {
        return Err(n.err("reflect pads must be smaller than the axis"));
    }
    let src = c.ssa(a);
    let mut ins = Vec::new();
    if let Some(cv) = &computed {
        let flat = c.reshape(cv, &[]).map_err(|e| n.err(e))?;
        ins.push((c.ssa(&flat), AffineMap::new(r as u32, 0, vec![])));
    }
    let cdt = computed.as_ref().map(|cv| cv.dtype);
    let elem = dt.elem();
    let y = super::gather::indexed_generic(c, &out, dt, &ins, |bb, li, args| {
        use kiln_core::tensor::attr::CmpIPred;
        let i64t = ElemType::Int(64);
        let i1 = ElemType::Int(1);
        let mut inside = bb.constant(ScalarBits::Int(1), i1);
        let mut at = Vec::with_capacity(r);
        for d in 0..r {
            let o = bb.arith(ArithOp::IndexCast, vec![li[d]], i64t);
            let lo = bb.constant(ScalarBits::Int(low[d]), i64t);
            let i = bb.arith(ArithOp::SubI, vec![o, lo], i64t);
            let size = s[d] as i64;
            let zero = bb.constant(ScalarBits::Int(0), i64t);
            let last = bb.constant(ScalarBits::Int((size - 1).max(0)), i64t);
            let idx = match mode.as_str() {
                "constant" => {
                    let n_ = bb.constant(ScalarBits::Int(size), i64t);
                    let ge = bb.arith(ArithOp::CmpI(CmpIPred::Sge), vec![i, zero], i1);
                    let lt = bb.arith(ArithOp::CmpI(CmpIPred::Slt), vec![i, n_], i1);
                    let ok = bb.arith(ArithOp::AndI, vec![ge, lt], i1);
                    inside = bb.arith(ArithOp::AndI, vec![inside, ok], i1);
                    let t = bb.arith(ArithOp::MaxSI, vec![i, zero], i64t);
                    bb.arith(ArithOp::MinSI, vec![t, last], i64t)
                }
                "edge" => {
                    let t = bb.arith(ArithOp::MaxSI, vec![i, zero], i64t);
                    bb.arith(ArithOp::MinSI, vec![t, last], i64t)
                }
                "reflect" => {
                    // |i| mirrors the front; 2 (n - 1) - i the back.
                    let ni = bb.arith(ArithOp::SubI, vec![zero, i], i64t);
                    let t = bb.arith(ArithOp::MaxSI, vec![i, ni], i64t);
                    let two = bb.arith(ArithOp::AddI, vec![last, last], i64t);
                    let back = bb.arith(ArithOp::SubI, vec![two, t], i64t);
                    bb.arith(ArithOp::MinSI, vec![t, back], i64t)
                }
                _ => {
                    // wrap: i mod n, non-negative.
                    let n_ = bb.constant(ScalarBits::Int(size), i64t);
                    let m = bb.arith(ArithOp::RemSI, vec![i, n_], i64t);
                    let m2 = bb.arith(ArithOp::AddI, vec![m, n_], i64t);
                    bb.arith(ArithOp::RemSI, vec![m2, n_], i64t)
                }
            };
            at.push(bb.arith(ArithOp::IndexCast, vec![idx], ElemType::Index));
        }
        let e = super::gather::extract(bb, src, &at, elem);
        if mode != "constant" {
            return e;
        }
        let k = match cdt {
            Some(cdt) => convert(bb, cdt, dt, args[0]),
            None => cst(bb, dt, value),
        };
        select(bb, inside, e, k)
    });
    Ok(vec![y])
}

/// The most copies `Tile` concatenates along one axis (each is one operand
/// of a `tensor.concat`).
const MAX_TILE_COPIES: i64 = 1 << 16;

/// `Tile(repeats)`: copies concatenated along each axis.
pub fn tile(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let mut s = shape_of(n, a)?;
    let reps = n.known(1)?.ints();
    if reps.len() != s.len() || reps.iter().any(|&x| x < 1) {
        return Err(n.err(format!("repeats {reps:?} do not fit rank {}", s.len())));
    }
    let mut v = c.ssa(a);
    for (ax, &k) in reps.iter().enumerate() {
        if k == 1 {
            continue;
        }
        if k > MAX_TILE_COPIES {
            return Err(n.err(format!(
                "{k} repeats of axis {ax}: kiln tiles at most {MAX_TILE_COPIES} copies per axis"
            )));
        }
        s[ax] = s[ax]
            .checked_mul(k as u64)
            .ok_or_else(|| n.err(format!("repeats {reps:?} overflow axis {ax}")))?;
        crate::size::addressable(&s, a.dtype).map_err(|m| n.err(m))?;
        let ty = c.b.module().types.static_tensor(&s, a.dtype.elem());
        let copies = vec![v; k as usize];
        v =
            c.b.tensor_op(TensorOp::Concat { dim: ax as u64 }, &copies, ty);
    }
    Ok(vec![Value::computed(v, a.dtype, dims(&s))])
}

/// `Range(start, limit, delta)` of known scalars: a constant.
pub fn range(_c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (s, l, d) = (n.known(0)?, n.known(1)?, n.known(2)?);
    let dt = s.dtype;
    let (start, limit, delta) = (s.float(0), l.float(0), d.float(0));
    if delta == 0.0 {
        return Err(n.err("delta is 0"));
    }
    let steps = ((limit - start) / delta).ceil().max(0.0);
    if !steps.is_finite() || steps >= u64::MAX as f64 {
        return Err(n.err(format!(
            "range({start}, {limit}, {delta}) has no finite length"
        )));
    }
    let count = crate::size::on_host(steps as u64, 8, "the range").map_err(|m| n.err(m))?;
    let t = if dt.is_float() {
        let v: Vec<f64> = (0..count).map(|i| start + i as f64 * delta).collect();
        HostTensor::from_floats(dt, &[count], &v)
    } else {
        let (s0, d0) = (s.int(0), d.int(0));
        // ONNX's integer Range is start + i * delta in the type; wrapping
        // happens only past the type's range, where no ONNX runtime
        // defines a value either.
        let v: Vec<i64> = (0..count as i64)
            .map(|i| s0.wrapping_add(i.wrapping_mul(d0)))
            .collect();
        HostTensor::from_ints(dt, &[count], &v)
    };
    let mut v = Value::constant(t);
    v.foldable = n.inputs.iter().flatten().all(|x| x.foldable);
    Ok(vec![v])
}

fn arg_reduce(c: &mut Ctx<'_>, n: &Node<'_>, max: bool) -> OpResult {
    let a = n.input(0)?;
    let s = shape_of(n, a)?;
    let r = s.len();
    let axis = n.axis(n.int("axis", 0), r)?;
    let keep = n.int("keepdims", 1) != 0;
    let last = n.int("select_last_index", 0) != 0;
    let dt = a.dtype;
    let extreme = if max {
        super::reduce::lowest_of(dt)
    } else {
        super::reduce::highest_of(dt)
    };
    let best = c
        .reduce(a, &[axis], dt, extreme, |bb, x, acc| {
            arith(bb, dt, if max { Bin::Max } else { Bin::Min }, x, acc)
        })
        .map_err(|e| n.err(e))?;
    let kept: Vec<u32> = (0..r as u32).filter(|&d| d != axis as u32).collect();
    let out_shape: Vec<u64> = (0..r).filter(|&d| d != axis).map(|d| s[d]).collect();
    let init_v = if last { -1 } else { i64::MAX };
    let init = c.full(&out_shape, DataType::Int64, ScalarBits::Int(init_v));
    let (x, bv) = (c.ssa(a), c.ssa(&best));
    let sel = AffineMap::select(r as u32, &kept);
    let maps = vec![AffineMap::identity(r as u32), sel.clone(), sel];
    let iters: Vec<IteratorType> = (0..r)
        .map(|d| {
            if d == axis {
                IteratorType::Reduction
            } else {
                IteratorType::Parallel
            }
        })
        .collect();
    let res = c.b.generic(maps, iters, &[x, bv], &[init], |bb, v| {
        let i = bb
            .push(
                OpKind::LinalgIndex { dim: axis as u32 },
                vec![],
                Some(ElemType::Index),
            )
            .expect("one result");
        let i = bb.arith(ArithOp::IndexCast, vec![i], ElemType::I64);
        let hit = cmp(bb, dt, Cmp::Eq, v[0], v[1]);
        let other = bb.constant(ScalarBits::Int(init_v), ElemType::I64);
        let cand = select(bb, hit, i, other);
        let op = if last { ArithOp::MaxSI } else { ArithOp::MinSI };
        vec![bb.arith(op, vec![cand, v[2]], ElemType::I64)]
    });
    let mut out = Value::computed(res[0], DataType::Int64, dims(&out_shape));
    if keep {
        out = c.keep_dims(&out, &[axis], r).map_err(|e| n.err(e))?;
    }
    Ok(vec![out])
}

/// `ArgMax`.
pub fn arg_max(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    arg_reduce(c, n, true)
}

/// `ArgMin`.
pub fn arg_min(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    arg_reduce(c, n, false)
}

/// `Trilu(upper, k)`.
pub fn trilu(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let a = n.input(0)?;
    let r = a.rank();
    if r < 2 {
        return Err(n.err("Trilu needs a matrix"));
    }
    let k = match n.opt_input(1) {
        Some(_) => n.known(1)?.int(0),
        None => 0,
    };
    let upper = n.int("upper", 1) != 0;
    let dt = a.dtype;
    let v = c
        .elementwise(&[a], dt, |bb, x| {
            let i = bb
                .push(
                    OpKind::LinalgIndex {
                        dim: (r - 2) as u32,
                    },
                    vec![],
                    Some(ElemType::Index),
                )
                .expect("one result");
            let j = bb
                .push(
                    OpKind::LinalgIndex {
                        dim: (r - 1) as u32,
                    },
                    vec![],
                    Some(ElemType::Index),
                )
                .expect("one result");
            let i = bb.arith(ArithOp::IndexCast, vec![i], ElemType::I64);
            let j = bb.arith(ArithOp::IndexCast, vec![j], ElemType::I64);
            let d = bb.arith(ArithOp::SubI, vec![j, i], ElemType::I64);
            let kk = bb.constant(ScalarBits::Int(k), ElemType::I64);
            let keep = cmp(
                bb,
                DataType::Int64,
                if upper { Cmp::Ge } else { Cmp::Le },
                d,
                kk,
            );
            let z = cst(bb, dt, 0.0);
            select(bb, keep, x[0], z)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// numpy's mod from a truncated remainder `rem` of `a / b`: a non-zero
/// remainder whose sign differs from the divisor's moves by one divisor.
fn divisor_sign(bb: &mut BodyBuilder<'_>, dt: DataType, rem: TValue, b: TValue) -> TValue {
    let z = cst(bb, dt, 0.0);
    let nz = cmp(bb, dt, Cmp::Ne, rem, z);
    let rn = cmp(bb, dt, Cmp::Lt, rem, z);
    let bn = cmp(bb, dt, Cmp::Lt, b, z);
    let differ = bb.arith(ArithOp::XOrI, vec![rn, bn], ElemType::I1);
    let fix = bb.arith(ArithOp::AndI, vec![nz, differ], ElemType::I1);
    let adj = arith(bb, dt, Bin::Add, rem, b);
    select(bb, fix, adj, rem)
}

/// `Mod(fmod)`: `fmod=1` is C's fmod (the dividend's sign); `fmod=0`
/// takes the divisor's sign (Python's %, numpy's `mod` for floats).
pub fn modulo(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let fmod = n.int("fmod", 0) != 0;
    let v = c
        .elementwise(&[a, b], dt, |bb, x| {
            let e = dt.elem();
            if dt.is_float() {
                let rem = bb.arith(ArithOp::RemF, vec![x[0], x[1]], e);
                if fmod {
                    return rem;
                }
                return divisor_sign(bb, dt, rem, x[1]);
            }
            if dt.is_unsigned() {
                return bb.arith(ArithOp::RemUI, vec![x[0], x[1]], e);
            }
            let rem = bb.arith(ArithOp::RemSI, vec![x[0], x[1]], e);
            if fmod {
                return rem;
            }
            divisor_sign(bb, dt, rem, x[1])
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `BitShift(direction)`: unsigned shifts; signed integers (opset 28)
/// shift right arithmetically. A shift amount outside `[0, width)` gives
/// 0 (left, unsigned right) or the sign fill (signed right).
pub fn bit_shift(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let (a, b) = (n.input(0)?, n.input(1)?);
    let dt = a.dtype;
    let left = match n.string("direction", "").as_str() {
        "LEFT" => true,
        "RIGHT" => false,
        d => return Err(n.err(format!("direction {d:?}"))),
    };
    let signed = !dt.is_unsigned();
    let width = dt.elem().bits();
    let v = c
        .elementwise(&[a, b], dt, |bb, x| {
            let e = dt.elem();
            let w = bb.constant(ScalarBits::Int(i64::from(width)), e);
            // Unsigned compare: negative amounts are out of range too.
            let inside = bb.arith(
                ArithOp::CmpI(kiln_core::tensor::attr::CmpIPred::Ult),
                vec![x[1], w],
                ElemType::I1,
            );
            let zero = bb.constant(ScalarBits::Int(0), e);
            let amt = select(bb, inside, x[1], zero);
            let (op, fill) = if left {
                (ArithOp::ShLI, zero)
            } else if signed {
                let top = bb.constant(ScalarBits::Int(i64::from(width) - 1), e);
                let f = bb.arith(ArithOp::ShRSI, vec![x[0], top], e);
                (ArithOp::ShRSI, f)
            } else {
                (ArithOp::ShRUI, zero)
            };
            let y = bb.arith(op, vec![x[0], amt], e);
            select(bb, inside, y, fill)
        })
        .map_err(|e| n.err(e))?;
    Ok(vec![v])
}

/// `CenterCropPad(shape, axes)`: each listed axis cropped or zero-padded
/// to its target size around the centre (the extra element of an odd
/// difference at the end), as a `Pad` with negative pads for crops.
pub fn center_crop_pad(c: &mut Ctx<'_>, n: &Node<'_>) -> OpResult {
    let x = n.input(0)?;
    let s = shape_of(n, x)?;
    let r = s.len();
    let target = n.known(1)?.ints();
    let axes: Vec<usize> = match n.ints("axes") {
        Some(ax) => ax.iter().map(|&a| n.axis(a, r)).collect::<Result<_, _>>()?,
        None => (0..r).collect(),
    };
    if target.len() != axes.len() {
        return Err(n.err(format!("{} sizes for {} axes", target.len(), axes.len())));
    }
    let (mut low, mut high) = (vec![0i64; r], vec![0i64; r]);
    for (&a, &t) in axes.iter().zip(&target) {
        if t < 0 {
            return Err(n.err(format!("negative target size {t}")));
        }
        let d = s[a] as i64;
        let lo = if t < d { -((d - t) / 2) } else { (t - d) / 2 };
        low[a] = lo;
        high[a] = t - d - lo;
    }
    let mut pads = low;
    pads.extend(high);
    let pv = Value::constant(HostTensor::from_ints(DataType::Int64, &[2 * r], &pads));
    let y = super::attention::sub(c, n, pad, "Pad", vec![x.clone(), pv], &[])?;
    Ok(vec![y])
}
