//! [`Ctx`]: the program being built and the building blocks op functions
//! share — materialising constants, `tensor.empty` of a shape, numpy
//! broadcasting as a `linalg.generic`, reshapes through
//! `tensor.collapse_shape`/`expand_shape`, transposes, reductions.

use kiln_core::tensor::attr::{DenseElements, IteratorType, Mixed, ScalarBits};
use kiln_core::tensor::builder::FuncBuilder;
use kiln_core::tensor::ops::{LinalgKind, TensorOp};
use kiln_core::tensor::structured::BodyBuilder;
use kiln_core::tensor::{AffineExpr, AffineMap, Dim, ElemType, TValue};

use std::rc::Rc;

use crate::dtype::DataType;
use crate::value::{Permuted, Value};

/// Why a building block cannot build its part of a node (the node's error
/// message).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Static shapes that do not broadcast: all the shapes (as text) and
    /// the two sizes that clash.
    #[error("shapes {shapes} cannot be broadcast ({a} against {b})")]
    Broadcast {
        /// The shapes, `2x3 and 4x3`.
        shapes: String,
        /// One clashing size.
        a: u64,
        /// The other.
        b: u64,
    },
    /// A reshape of a dynamic shape.
    #[error("reshaping a tensor of dynamic shape is not supported")]
    DynamicReshape,
    /// A reshape to another number of elements.
    #[error("cannot reshape {from:?} ({from_count} elements) to {to:?} ({to_count} elements)")]
    ReshapeCount {
        /// The source shape.
        from: Vec<u64>,
        /// Its element count.
        from_count: u64,
        /// The target shape.
        to: Vec<u64>,
        /// Its element count.
        to_count: u64,
    },
    /// A reshape to a shape whose element count overflows 64 bits.
    #[error("cannot reshape to {to:?}: its element count overflows 64 bits")]
    ReshapeOverflow {
        /// The target shape.
        to: Vec<u64>,
    },
    /// `keepdims` of a dynamic shape.
    #[error("keepdims of a dynamic shape is not supported")]
    DynamicKeepDims,
    /// A named linalg op whose body cannot be built (its name).
    #[error("{op}: {error}")]
    Linalg {
        /// The op's name.
        op: &'static str,
        /// Why.
        error: kiln_core::tensor::structured::StructuredError,
    },
    /// A quantization input of dynamic shape.
    #[error("a dynamic input shape is not supported")]
    DynamicQuantInput,
    /// A quantization scale of dynamic shape.
    #[error("a dynamic scale shape is not supported")]
    DynamicScale,
    /// An invalid axis (the node's error).
    #[error(transparent)]
    Axis(Box<crate::OnnxError>),
    /// A per-axis scale of the wrong shape.
    #[error("scale of shape {scale:?} is neither a scalar nor of {len} elements (axis {axis} of {input:?})")]
    ScaleShape {
        /// The scale's shape.
        scale: Vec<u64>,
        /// The axis's length.
        len: u64,
        /// The axis.
        axis: usize,
        /// The input's shape.
        input: Vec<u64>,
    },
    /// A blocked scale whose axis does not match the blocks.
    #[error(
        "blocked scale of shape {scale:?} does not match input {input:?} with block_size {block} on axis {axis} \
         (the axis must be a multiple of the block)"
    )]
    BlockedScaleAxis {
        /// The scale's shape.
        scale: Vec<u64>,
        /// The input's shape.
        input: Vec<u64>,
        /// The block size.
        block: u64,
        /// The axis.
        axis: usize,
    },
    /// A blocked scale that differs from the input off the axis.
    #[error("blocked scale of shape {scale:?} differs from input {input:?} off axis {axis}")]
    BlockedScaleShape {
        /// The scale's shape.
        scale: Vec<u64>,
        /// The input's shape.
        input: Vec<u64>,
        /// The axis.
        axis: usize,
    },
}

/// The result of a building block: a [`BuildError`] for the node's error.
pub type BResult<T> = Result<T, BuildError>;

/// The function being built.
pub struct Ctx<'m> {
    /// The builder.
    pub b: FuncBuilder<'m>,
}

/// How the dims of `big` group into those of `small` (consecutive dims
/// whose product is each of `small`'s; unit dims join a neighbour), or
/// `None`. Rank 0 `small` takes an empty grouping of all-unit `big`.
fn reassociation(big: &[u64], small: &[u64]) -> Option<Vec<Vec<u64>>> {
    if small.is_empty() {
        return big.iter().all(|&d| d == 1).then(Vec::new);
    }
    if big.len() < small.len() {
        return None;
    }
    let mut groups: Vec<Vec<u64>> = Vec::with_capacity(small.len());
    let mut i = 0usize;
    for (k, &want) in small.iter().enumerate() {
        let mut g = Vec::new();
        let mut prod = 1u64;
        // Take dims until the product matches; a unit target takes one dim.
        while i < big.len() {
            if prod == want && !g.is_empty() && (big[i] != 1 || want != 1) {
                break;
            }
            if prod == want && !g.is_empty() && k + 1 < small.len() {
                break;
            }
            prod = prod.checked_mul(big[i])?;
            g.push(i as u64);
            i += 1;
            if prod > want && want != 0 {
                return None;
            }
        }
        if prod != want || g.is_empty() {
            return None;
        }
        groups.push(g);
    }
    // Trailing unit dims join the last group.
    while i < big.len() {
        if big[i] != 1 {
            return None;
        }
        groups.last_mut()?.push(i as u64);
        i += 1;
    }
    Some(groups)
}

/// Whether `perm` keeps every dim in place.
fn is_identity(perm: &[usize]) -> bool {
    perm.iter().enumerate().all(|(i, &p)| i == p)
}

/// The permutation undoing `perm`.
fn inverse(perm: &[usize]) -> Vec<usize> {
    let mut inv = vec![0; perm.len()];
    for (k, &p) in perm.iter().enumerate() {
        inv[p] = k;
    }
    inv
}

fn dims_text(shape: &[Dim]) -> String {
    let parts: Vec<String> = shape
        .iter()
        .map(|d| d.fixed().map_or("?".into(), |n| n.to_string()))
        .collect();
    format!("[{}]", parts.join(", "))
}

impl<'m> Ctx<'m> {
    /// The program value of `v`, materialising a known value as a dense
    /// constant on first use.
    pub fn ssa(&mut self, v: &Value) -> TValue {
        if let Some(s) = v.ssa {
            return s;
        }
        let known = v.known.as_ref().expect("a value is computed or known");
        let shape: Vec<u64> = known.shape().iter().map(|&d| d as u64).collect();
        let ty = self.b.module().types.static_tensor(&shape, v.dtype.elem());
        let dense = DenseElements {
            ty,
            data: known.tensor.data.clone(),
            splat: false,
        };
        self.b.constant_dense(dense)
    }

    /// A computed value of `v`'s type with `ssa`.
    pub fn tensor(&self, v: TValue, dtype: DataType, shape: Vec<Dim>) -> Value {
        Value::computed(v, dtype, shape)
    }

    /// `tensor.empty` of `shape`; dynamic dims read from `dyn_src[i] =
    /// (tensor, dim)` for each dynamic dim in order.
    pub fn empty(&mut self, shape: &[Dim], elem: ElemType, dyn_src: &[(TValue, usize)]) -> TValue {
        if shape.iter().all(|d| d.fixed().is_some()) {
            let s: Vec<u64> = shape.iter().map(|d| d.fixed().unwrap_or(0)).collect();
            return self.b.empty(&s, elem);
        }
        let mut sizes = Vec::new();
        for &(t, i) in dyn_src {
            let idx = self.b.constant_int(i as i64, ElemType::Index);
            sizes.push(self.b.dim(t, idx));
        }
        self.b.empty_dynamic(shape, elem, &sizes)
    }

    /// `tensor.empty` of a static shape.
    pub fn empty_static(&mut self, shape: &[u64], elem: ElemType) -> TValue {
        self.b.empty(shape, elem)
    }

    /// A tensor of `shape` filled with `value`.
    pub fn full(&mut self, shape: &[u64], dtype: DataType, value: ScalarBits) -> TValue {
        let elem = dtype.elem();
        let init = self.b.empty(shape, elem);
        let c = match value {
            ScalarBits::Float(f) if elem.is_float() => self.b.constant_float(f, elem),
            ScalarBits::Float(f) => self.b.constant_int(f as i64, elem),
            ScalarBits::Int(i) if elem.is_float() => self.b.constant_float(i as f64, elem),
            ScalarBits::Int(i) => self.b.constant_int(i, elem),
        };
        self.b.fill(c, init)
    }

    /// The numpy broadcast of `shapes`.
    pub fn broadcast_shape(shapes: &[&[Dim]]) -> BResult<Vec<Dim>> {
        let r = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
        let mut out = vec![Dim::Static(1); r];
        for s in shapes {
            let off = r - s.len();
            for (j, &d) in s.iter().enumerate() {
                let o = &mut out[off + j];
                *o = match (*o, d) {
                    (Dim::Static(1), x) => x,
                    (x, Dim::Static(1)) => x,
                    (Dim::Static(a), Dim::Static(b)) if a == b => Dim::Static(a),
                    (Dim::Static(a), Dim::Static(b)) => {
                        return Err(BuildError::Broadcast {
                            shapes: shapes
                                .iter()
                                .map(|s| dims_text(s))
                                .collect::<Vec<_>>()
                                .join(" and "),
                            a,
                            b,
                        })
                    }
                    (Dim::Dynamic, _) | (_, Dim::Dynamic) => Dim::Dynamic,
                };
            }
        }
        Ok(out)
    }

    /// `v` without the dims in `drop` (each of static size 1), by
    /// `tensor.collapse_shape`.
    pub fn drop_unit_dims(&mut self, v: TValue, shape: &[Dim], drop: &[bool]) -> TValue {
        if !drop.iter().any(|&d| d) {
            return v;
        }
        let kept: Vec<usize> = (0..shape.len()).filter(|&i| !drop[i]).collect();
        let mut groups: Vec<Vec<u64>> = kept.iter().map(|_| Vec::new()).collect();
        let mut pending: Vec<u64> = Vec::new();
        let mut g = 0usize;
        for (i, &d) in drop.iter().enumerate() {
            if d {
                pending.push(i as u64);
            } else {
                groups[g].append(&mut pending);
                groups[g].push(i as u64);
                g += 1;
            }
        }
        if let Some(last) = groups.last_mut() {
            last.append(&mut pending);
        }
        let new_shape: Vec<Dim> = kept.iter().map(|&i| shape[i]).collect();
        let elem = self.b.module().value_kind(v).elem();
        let ty = self.b.module().types.tensor(&new_shape, elem);
        self.b.tensor_op(
            TensorOp::CollapseShape {
                reassociation: groups,
            },
            &[v],
            ty,
        )
    }

    /// An elementwise op over numpy-broadcast `ins`: a `linalg.generic`
    /// whose body `f` gets one scalar per input and returns the result's.
    ///
    /// When the full-size inputs are all transposes alike of their sources
    /// ([`Value::permuted`]) and every other input's transpose is a
    /// reshape (a per-channel vector, a scalar), the op runs on the
    /// sources and its result is a transpose of that: a chain of
    /// convolutions, their bias, batch norm and activations stays in the
    /// convolutions' layout.
    pub fn elementwise(
        &mut self,
        ins: &[&Value],
        out_dtype: DataType,
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> TValue,
    ) -> BResult<Value> {
        let shapes: Vec<&[Dim]> = ins.iter().map(|v| v.shape.as_slice()).collect();
        let out_shape = Self::broadcast_shape(&shapes)?;
        if let Some((srcs, perm)) = self.on_sources(ins, &out_shape)? {
            let refs: Vec<&Value> = srcs.iter().collect();
            let y = self.elementwise_here(&refs, out_dtype, f)?;
            return self.transpose(&y, &perm);
        }
        self.elementwise_here(ins, out_dtype, f)
    }

    /// The inputs of an elementwise op producing `out_shape`, each in the
    /// layout of the sources of its transposed full-size inputs, and the
    /// permutation the result takes back; `None` unless some full-size
    /// input is a transpose, every full-size one is a transpose by the
    /// same permutation, and every other input is one too (broadcast in
    /// the source's layout, as a squeeze-and-excite's per-channel scale
    /// is) or static and transposed by a reshape (its non-unit dims keep
    /// their order).
    fn on_sources(
        &mut self,
        ins: &[&Value],
        out_shape: &[Dim],
    ) -> BResult<Option<(Vec<Value>, Vec<usize>)>> {
        let r = out_shape.len();
        let full = |v: &Value| v.shape.as_slice() == out_shape;
        let Some(perm) = ins
            .iter()
            .filter(|v| full(v))
            .find_map(|v| v.permuted().map(|(_, p)| p.to_vec()))
        else {
            return Ok(None);
        };
        let inv = inverse(&perm);
        // Each input's source, or the shape its reshape takes: decided for
        // all before any reshape is built (a refusal builds nothing).
        let mut plan: Vec<Result<Value, Vec<u64>>> = Vec::with_capacity(ins.len());
        for v in ins {
            match v.permuted() {
                Some((src, p)) if p == perm.as_slice() => plan.push(Ok(src.clone())),
                _ if full(v) => return Ok(None),
                _ => {
                    let Some(s) = v.static_shape() else {
                        return Ok(None);
                    };
                    let mut padded = vec![1u64; r - s.len()];
                    padded.extend(&s);
                    let moved: Vec<usize> =
                        (0..r).map(|j| inv[j]).filter(|&k| padded[k] != 1).collect();
                    if moved.windows(2).any(|w| w[0] > w[1]) {
                        return Ok(None);
                    }
                    plan.push(Err((0..r).map(|j| padded[inv[j]]).collect()));
                }
            }
        }
        let mut srcs = Vec::with_capacity(ins.len());
        for (v, p) in ins.iter().zip(plan) {
            srcs.push(match p {
                Ok(src) => src,
                Err(shape) => self.reshape(v, &shape)?,
            });
        }
        Ok(Some((srcs, perm)))
    }

    /// [`Ctx::elementwise`] in the inputs' own layout.
    fn elementwise_here(
        &mut self,
        ins: &[&Value],
        out_dtype: DataType,
        f: impl FnOnce(&mut BodyBuilder<'_>, &[TValue]) -> TValue,
    ) -> BResult<Value> {
        let shapes: Vec<&[Dim]> = ins.iter().map(|v| v.shape.as_slice()).collect();
        let out_shape = Self::broadcast_shape(&shapes)?;
        let r = out_shape.len();
        let mut operands = Vec::new();
        let mut maps = Vec::new();
        let mut dyn_src: Vec<Option<(TValue, usize)>> = vec![None; r];
        for v in ins {
            let s = self.ssa(v);
            let off = r - v.rank();
            let drop: Vec<bool> = v
                .shape
                .iter()
                .enumerate()
                .map(|(j, &d)| d == Dim::Static(1) && out_shape[off + j] != Dim::Static(1))
                .collect();
            for (j, &d) in v.shape.iter().enumerate() {
                if d == Dim::Dynamic && dyn_src[off + j].is_none() {
                    dyn_src[off + j] = Some((s, j));
                }
            }
            let s = self.drop_unit_dims(s, &v.shape, &drop);
            let results: Vec<AffineExpr> = (0..v.rank())
                .filter(|&j| !drop[j])
                .map(|j| AffineExpr::Dim((off + j) as u32))
                .collect();
            operands.push(s);
            maps.push(AffineMap::new(r as u32, 0, results));
        }
        let srcs: Vec<(TValue, usize)> = out_shape
            .iter()
            .enumerate()
            .filter(|(_, d)| **d == Dim::Dynamic)
            .map(|(i, _)| dyn_src[i].expect("a dynamic output dim comes from an input"))
            .collect();
        let init = self.empty(&out_shape, out_dtype.elem(), &srcs);
        maps.push(AffineMap::identity(r as u32));
        let n = operands.len();
        let res = self.b.generic(
            maps,
            vec![IteratorType::Parallel; r],
            &operands,
            &[init],
            |body, args| vec![f(body, &args[..n])],
        );
        Ok(Value::computed(res[0], out_dtype, out_shape))
    }

    /// `v` reshaped to the static `shape` (same number of elements).
    pub fn reshape(&mut self, v: &Value, shape: &[u64]) -> BResult<Value> {
        let src_shape = v.static_shape().ok_or(BuildError::DynamicReshape)?;
        let n: u64 = src_shape.iter().product();
        let m = kiln_core::host_memory::element_count(shape.iter().copied())
            .ok_or_else(|| BuildError::ReshapeOverflow { to: shape.to_vec() })?;
        if n != m {
            return Err(BuildError::ReshapeCount {
                from: src_shape,
                from_count: n,
                to: shape.to_vec(),
                to_count: m,
            });
        }
        let new_dims: Vec<Dim> = shape.iter().map(|&d| Dim::Static(d)).collect();
        if src_shape == shape {
            let mut out = v.clone();
            out.shape = new_dims;
            return Ok(out);
        }
        if let Some(k) = &v.known {
            if v.foldable {
                let mut t = (**k).clone();
                t.tensor.shape = shape.iter().map(|&d| d as usize).collect();
                let mut out = Value::constant(t);
                out.foldable = true;
                return Ok(out);
            }
        }
        let elem = v.dtype.elem();
        let src = self.ssa(v);
        // One collapse or expand when the shapes group into each other
        // (unit dims added or removed, dims merged or split), else both
        // through rank 1.
        if let Some(groups) = reassociation(&src_shape, shape) {
            let ty = self.b.module().types.static_tensor(shape, elem);
            let s = self.b.tensor_op(
                TensorOp::CollapseShape {
                    reassociation: groups,
                },
                &[src],
                ty,
            );
            return Ok(Value::computed(s, v.dtype, new_dims));
        }
        if let Some(groups) = reassociation(shape, &src_shape) {
            let ty = self.b.module().types.static_tensor(shape, elem);
            let s = self.b.tensor_op(
                TensorOp::ExpandShape {
                    reassociation: groups,
                    output_shape: shape.iter().map(|&d| Mixed::Static(d as i64)).collect(),
                },
                &[src],
                ty,
            );
            return Ok(Value::computed(s, v.dtype, new_dims));
        }
        let flat = Value::computed(
            {
                let ty = self.b.module().types.static_tensor(&[n], elem);
                let groups = vec![(0..src_shape.len() as u64).collect()];
                self.b.tensor_op(
                    TensorOp::CollapseShape {
                        reassociation: groups,
                    },
                    &[src],
                    ty,
                )
            },
            v.dtype,
            vec![Dim::Static(n)],
        );
        let fs = self.ssa(&flat);
        let ty = self.b.module().types.static_tensor(shape, elem);
        let groups = vec![(0..shape.len() as u64).collect()];
        let s = self.b.tensor_op(
            TensorOp::ExpandShape {
                reassociation: groups,
                output_shape: shape.iter().map(|&d| Mixed::Static(d as i64)).collect(),
            },
            &[fs],
            ty,
        );
        Ok(Value::computed(s, v.dtype, new_dims))
    }

    /// `linalg.transpose` of `v` by `perm` (output dim k = input dim
    /// `perm[k]`). A transpose of a transpose reads the first one's source
    /// (and is that source when the two cancel); the result records what
    /// it transposes ([`Permuted`]).
    pub fn transpose(&mut self, v: &Value, perm: &[usize]) -> BResult<Value> {
        if is_identity(perm) {
            return Ok(v.clone());
        }
        if let Some((src, p0)) = v.permuted() {
            let composed: Vec<usize> = perm.iter().map(|&k| p0[k]).collect();
            let src = src.clone();
            return self.transpose(&src, &composed);
        }
        let out_shape: Vec<Dim> = perm.iter().map(|&p| v.shape[p]).collect();
        let s = self.ssa(v);
        let srcs: Vec<(TValue, usize)> = perm
            .iter()
            .filter(|&&p| v.shape[p] == Dim::Dynamic)
            .map(|&p| (s, p))
            .collect();
        let init = self.empty(&out_shape, v.dtype.elem(), &srcs);
        let r = self
            .b
            .linalg(
                LinalgKind::Transpose {
                    permutation: perm.iter().map(|&p| p as u64).collect(),
                },
                &[s],
                &[init],
            )
            .map_err(|error| BuildError::Linalg {
                op: "linalg.transpose",
                error,
            })?;
        let mut out = Value::computed(r[0], v.dtype, out_shape);
        out.permuted = Some(Rc::new(Permuted {
            src: v.clone(),
            perm: perm.to_vec(),
        }));
        Ok(out)
    }

    /// A reduction of `v` over `axes` (sorted, unique) with accumulator
    /// start `init` and body `f(input scalar, accumulator)`; the reduced
    /// dims are dropped. A transpose ([`Value::permuted`]) is reduced in
    /// its source's layout, its result transposed back where the kept dims
    /// change order.
    pub fn reduce(
        &mut self,
        v: &Value,
        axes: &[usize],
        out_dtype: DataType,
        init: ScalarBits,
        f: impl FnOnce(&mut BodyBuilder<'_>, TValue, TValue) -> TValue,
    ) -> BResult<Value> {
        if let Some((src, perm)) = v.permuted() {
            let (src, perm) = (src.clone(), perm.to_vec());
            let mut src_axes: Vec<usize> = axes.iter().map(|&a| perm[a]).collect();
            src_axes.sort_unstable();
            let y = self.reduce_here(&src, &src_axes, out_dtype, init, f)?;
            // Kept dim i of the result is source dim perm[k_i]: its place
            // among the source's kept dims.
            let kept_src: Vec<usize> = (0..src.rank()).filter(|j| !src_axes.contains(j)).collect();
            let back: Vec<usize> = (0..v.rank())
                .filter(|k| !axes.contains(k))
                .map(|k| {
                    kept_src
                        .iter()
                        .position(|&j| j == perm[k])
                        .expect("a kept dim of a permutation stays kept")
                })
                .collect();
            return self.transpose(&y, &back);
        }
        self.reduce_here(v, axes, out_dtype, init, f)
    }

    /// [`Ctx::reduce`] in `v`'s own layout.
    fn reduce_here(
        &mut self,
        v: &Value,
        axes: &[usize],
        out_dtype: DataType,
        init: ScalarBits,
        f: impl FnOnce(&mut BodyBuilder<'_>, TValue, TValue) -> TValue,
    ) -> BResult<Value> {
        let out_shape: Vec<Dim> = (0..v.rank())
            .filter(|i| !axes.contains(i))
            .map(|i| v.shape[i])
            .collect();
        let s = self.ssa(v);
        let srcs: Vec<(TValue, usize)> = (0..v.rank())
            .filter(|i| !axes.contains(i) && v.shape[*i] == Dim::Dynamic)
            .map(|i| (s, i))
            .collect();
        let elem = out_dtype.elem();
        let e = self.empty(&out_shape, elem, &srcs);
        let c = match init {
            ScalarBits::Float(x) if elem.is_float() => self.b.constant_float(x, elem),
            ScalarBits::Float(x) => self.b.constant_int(x as i64, elem),
            ScalarBits::Int(x) if elem.is_float() => self.b.constant_float(x as f64, elem),
            ScalarBits::Int(x) => self.b.constant_int(x, elem),
        };
        let acc = self.b.fill(c, e);
        let dims: Vec<u64> = axes.iter().map(|&a| a as u64).collect();
        let r = self.b.reduce(&[s], &[acc], &dims, |body, args| {
            vec![f(body, args[0], args[1])]
        });
        Ok(Value::computed(r[0], out_dtype, out_shape))
    }

    /// `v` (its `axes` reduced away) with unit dims put back at `axes`.
    pub fn keep_dims(&mut self, v: &Value, axes: &[usize], rank: usize) -> BResult<Value> {
        let shape = v.static_shape().ok_or(BuildError::DynamicKeepDims)?;
        let mut out = Vec::with_capacity(rank);
        let mut it = shape.iter();
        for i in 0..rank {
            if axes.contains(&i) {
                out.push(1);
            } else {
                out.push(*it.next().unwrap_or(&1));
            }
        }
        self.reshape(v, &out)
    }
}
