//! Values at coordinates: the element of a tensor at given coordinates and
//! the value of a top-level scalar, computed where a kernel reads them.
//!
//! A tensor in memory is loaded (its coordinates linearized with its
//! sizes). Otherwise its defining op is evaluated at those coordinates:
//! an all-parallel structured op at the point its output map gives (its
//! inputs in turn at their maps' coordinates, its body inlined); a view at
//! its operand's coordinates; `tensor` ops as selects between their
//! operands (with `scf.if` where an operand's coordinates may be out of
//! bounds: pad, insert_slice, concat). Memo tables make a value read twice
//! at the same coordinates computed once.

use std::collections::HashMap;

use crate::kernel::KType;
use crate::kernel::KValue;
use crate::tensor::attr::{ConstAttr, Mixed};
use crate::tensor::eval::{Scalar, Tensor};
use crate::tensor::ops::{LinalgKind, OpKind, TensorOp};
use crate::tensor::structured::Structured;
use crate::tensor::types::ElemType;
use crate::tensor::{AffineExpr, TOp, TValue};

use super::super::analysis::OpClass;
use super::super::error::{CodegenError, Invariant};
use super::super::host::HostVal;
use super::super::regions::ValueFate;
use super::super::shapes::kept_slice_dims;
use super::emitter::{Emitter, Key};

impl Emitter<'_, '_, '_> {
    /// The element of tensor `v` at `coords`, in its compute type.
    pub fn elem(&mut self, v: TValue, coords: &[KValue]) -> Result<KValue, CodegenError> {
        let key = Key::Elem(v, coords.to_vec());
        if let Some(x) = self.memo(&key) {
            return Ok(x[0]);
        }
        let x = match self.c.buffers.buffer(v) {
            Some(buf) if !self.computed_here.contains(&v) => self.load(v, buf, coords),
            _ => {
                if self.compute_depth >= super::emitter::MAX_COMPUTE_DEPTH {
                    let message = format!(
                        "too many ops fused into one dispatch (a chain deeper than {})",
                        super::emitter::MAX_COMPUTE_DEPTH
                    );
                    return Err(match self.c.info.def_op(v) {
                        Some(op) => self.unsupported(op, message),
                        None => CodegenError::Unsupported {
                            loc: self.loc,
                            op: "func.func".into(),
                            message,
                        },
                    });
                }
                self.compute_depth += 1;
                let x = self.compute_elem(v, coords);
                self.compute_depth -= 1;
                x?
            }
        };
        self.remember(key, vec![x]);
        Ok(x)
    }

    /// Loads element `coords` of `v` from buffer `buf`.
    fn load(&mut self, v: TValue, buf: usize, coords: &[KValue]) -> KValue {
        if let Some(x) = self.vector_lane_load(v, buf, coords) {
            return x;
        }
        let shapes = self.c.shapes;
        let sizes = self.sizes(shapes.of(v));
        let idx = self.linearize(coords, &sizes);
        let elem = self.c.info.m.value_kind(v).elem();
        if let Some(x) = self.wide_load(buf, idx, elem) {
            return x;
        }
        self.load_at(buf, idx, elem)
    }

    /// Stores compute value `x` as element `coords` of `v` (which has a
    /// buffer).
    pub fn store(&mut self, v: TValue, coords: &[KValue], x: KValue) -> Result<(), CodegenError> {
        let buf = self
            .c
            .buffers
            .buffer(v)
            .ok_or_else(|| CodegenError::Internal {
                loc: self.loc,
                op: "kernel".into(),
                invariant: Invariant::NoBuffer("a stored value"),
            })?;
        if self.vector_lane_store(v, buf, coords, x) {
            return Ok(());
        }
        let shapes = self.c.shapes;
        let sizes = self.sizes(shapes.of(v));
        let idx = self.linearize(coords, &sizes);
        self.store_at(buf, idx, x, self.c.info.m.value_kind(v).elem());
        Ok(())
    }

    /// Stores compute value `x` of `elem` at linear index `idx` of `buf`.
    pub fn store_at(&mut self, buf: usize, idx: KValue, x: KValue, elem: ElemType) {
        let mem = self.buffer(buf);
        self.mark_written(buf);
        if self.is_pair(elem) {
            self.pair_store(x, mem, idx);
            return;
        }
        let raw = self.store_conv(x, elem);
        self.b.store(raw, mem, &[idx]);
    }

    /// Loads element `idx` of `buf` (holding `elem`s) in its compute type.
    pub fn load_at(&mut self, buf: usize, idx: KValue, elem: ElemType) -> KValue {
        let mem = self.buffer(buf);
        if self.is_pair(elem) {
            return self.pair_load(mem, idx);
        }
        let raw = self.b.load(mem, &[idx]);
        self.load_conv(raw, elem)
    }

    /// The element of `v` at `coords`, computed from its defining op (not
    /// loaded, even when `v` has a buffer).
    pub fn compute_elem(&mut self, v: TValue, coords: &[KValue]) -> Result<KValue, CodegenError> {
        let info = self.c.info;
        let m = info.m;
        let elem = m.value_kind(v).elem();
        let Some(op) = info.def_op(v) else {
            return Err(CodegenError::Internal {
                loc: self.loc,
                op: "func.func".into(),
                invariant: Invariant::NoBuffer("an argument"),
            });
        };
        if self.c.regions.fate(v) == ValueFate::Dead {
            return Err(self.internal(op, Invariant::DeadValueRead));
        }
        let d = m.op(op);
        match &d.kind {
            OpKind::Constant(ConstAttr::Dense(dense)) if dense.splat => {
                let t = Tensor::from_dense(m, dense, &[1])
                    .map_err(|e| self.unsupported(op, e.to_string()))?;
                Ok(self.konst(t.get(0), elem))
            }
            OpKind::OptimizationBarrier => {
                let i = info.result_index(v);
                self.elem(d.operands[i], coords)
            }
            OpKind::Linalg(l) => {
                if matches!(l.kind, LinalgKind::Softmax { .. }) {
                    return Err(self.internal(op, Invariant::ReadOutsideItsDispatch("a softmax")));
                }
                let s = info
                    .structured
                    .get(&op)
                    .ok_or_else(|| self.unsupported(op, "has operands of unexpected ranks"))?;
                let j = info.result_index(v);
                if info.class[&op] == OpClass::Root {
                    let vals = self.prepared_roots.get(&op).cloned().ok_or_else(|| {
                        self.internal(op, Invariant::ReadOutsideItsDispatch("a reduction"))
                    })?;
                    return Ok(vals[j]);
                }
                let point = self.point_from_output(op, s, j, coords)?;
                let ys = self.body(op, s, &point, None)?;
                Ok(ys[j])
            }
            OpKind::Tensor(t) => self.tensor_elem(op, t, v, coords),
            other => Err(self.unsupported(
                op,
                format!("'{}' cannot be computed at a coordinate", other.name()),
            )),
        }
    }

    /// The iteration point of all-parallel structured op `op` that writes
    /// output `j` at `coords` (loops not in the output map stay 0;
    /// constant results of the map are skipped).
    pub fn point_from_output(
        &mut self,
        op: TOp,
        s: &Structured,
        j: usize,
        coords: &[KValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let map = &s.indexing_maps[s.inputs.len() + j];
        let zero = self.index(0);
        let mut point = vec![zero; s.num_loops()];
        let mut seen = vec![false; s.num_loops()];
        for (i, e) in map.results.iter().enumerate() {
            // A constant result (a reduction kept as a unit dim, `(d0, d1)
            // -> (d0, 0)`) names no loop: the only coordinate it is read
            // at is that constant.
            if e.as_const().is_some() {
                continue;
            }
            let d = e.as_dim().ok_or_else(|| {
                self.unsupported(op, "an output map that is not a projected permutation")
            })?;
            point[d as usize] = coords[i];
            seen[d as usize] = true;
        }
        for (l, t) in s.iterator_types.iter().enumerate() {
            if *t == crate::tensor::attr::IteratorType::Parallel && !seen[l] {
                return Err(
                    self.unsupported(op, format!("parallel loop d{l} does not index any output"))
                );
            }
        }
        Ok(point)
    }

    /// The value of affine expression `e` at `point`.
    pub fn affine(
        &mut self,
        op: TOp,
        e: &AffineExpr,
        point: &[KValue],
    ) -> Result<KValue, CodegenError> {
        Ok(match e {
            AffineExpr::Dim(d) => point[*d as usize],
            AffineExpr::Const(c) => self.index(*c),
            AffineExpr::Symbol(_) => return Err(self.unsupported(op, "affine maps with symbols")),
            AffineExpr::Add(a, b) => {
                let (x, y) = (self.affine(op, a, point)?, self.affine(op, b, point)?);
                self.add(x, y)
            }
            AffineExpr::Mul(a, b) => {
                let (x, y) = (self.affine(op, a, point)?, self.affine(op, b, point)?);
                self.mul(x, y)
            }
            AffineExpr::FloorDiv(a, b) => {
                let (x, y) = (self.affine(op, a, point)?, self.affine(op, b, point)?);
                if let Some(q) = self.wide_floordiv(x, y) {
                    return Ok(q);
                }
                self.b.binary(crate::kernel::KOpKind::ArithFloorDivSI, x, y)
            }
            AffineExpr::CeilDiv(a, b) => {
                let (x, y) = (self.affine(op, a, point)?, self.affine(op, b, point)?);
                self.b.binary(crate::kernel::KOpKind::ArithCeilDivSI, x, y)
            }
            AffineExpr::Mod(a, b) => {
                let (x, y) = (self.affine(op, a, point)?, self.affine(op, b, point)?);
                if let Some(r) = self.wide_mod(x, y) {
                    return Ok(r);
                }
                // a mod b = a - floordiv(a, b) * b (non-negative for b > 0).
                let q = self.b.binary(crate::kernel::KOpKind::ArithFloorDivSI, x, y);
                let p = self.b.muli(q, y);
                self.b.subi(x, p)
            }
        })
    }

    /// The body of structured op `op` at `point`: its yields. `acc` gives
    /// the output arguments (reductions); otherwise outputs read by the
    /// body are loaded at their map's coordinates.
    pub fn body(
        &mut self,
        op: TOp,
        s: &Structured,
        point: &[KValue],
        acc: Option<&[KValue]>,
    ) -> Result<Vec<KValue>, CodegenError> {
        let m = self.c.info.m;
        let block = m.block(s.body);
        let yields = m
            .op(*block
                .ops
                .last()
                .ok_or_else(|| self.unsupported(op, "empty body"))?)
            .operands
            .clone();
        self.body_values(op, s, point, acc, &[], &yields)
    }

    /// Emits the body of `op` at `point` except the ops in `skip`, and
    /// returns the values of `want`.
    pub fn body_values(
        &mut self,
        op: TOp,
        s: &Structured,
        point: &[KValue],
        acc: Option<&[KValue]>,
        skip: &[TOp],
        want: &[TValue],
    ) -> Result<Vec<KValue>, CodegenError> {
        let mut env = self.body_args(op, s, point, acc)?;
        let block = self.c.info.m.block(s.body).clone();
        let n = block.ops.len();
        for &o in &block.ops[..n.saturating_sub(1)] {
            if !skip.contains(&o) {
                self.body_op(o, point, &mut env)?;
            }
        }
        want.iter().map(|&v| self.local(v, &env)).collect()
    }

    /// The values of the body arguments `op`'s body reads.
    pub fn body_args(
        &mut self,
        op: TOp,
        s: &Structured,
        point: &[KValue],
        acc: Option<&[KValue]>,
    ) -> Result<HashMap<TValue, KValue>, CodegenError> {
        let m = self.c.info.m;
        let block = m.block(s.body).clone();
        let mut used = vec![false; block.args.len()];
        m.walk(s.body, &mut |o| {
            for v in &m.op(o).operands {
                if let Some(i) = block.args.iter().position(|a| a == v) {
                    used[i] = true;
                }
            }
        });
        let mut env = HashMap::new();
        let n_in = s.inputs.len();
        for (i, &arg) in block.args.iter().enumerate() {
            if !used[i] {
                continue;
            }
            let x = if i < n_in {
                self.operand_at(op, s, i, s.inputs[i], point)?
            } else if let Some(acc) = acc {
                acc[i - n_in]
            } else {
                self.operand_at(op, s, i, s.outputs[i - n_in], point)?
            };
            env.insert(arg, x);
        }
        Ok(env)
    }

    /// Operand `k` (value `v`) of structured op `op` at `point`.
    pub fn operand_at(
        &mut self,
        op: TOp,
        s: &Structured,
        k: usize,
        v: TValue,
        point: &[KValue],
    ) -> Result<KValue, CodegenError> {
        if !self.c.info.m.value_kind(v).is_tensor() {
            return self.scalar(v);
        }
        let map = s.indexing_maps[k].clone();
        let coords = map
            .results
            .iter()
            .map(|e| self.affine(op, e, point))
            .collect::<Result<Vec<_>, _>>()?;
        self.elem(v, &coords)
    }

    /// Emits body op `o` (not the yield), binding its result in `env`.
    pub fn body_op(
        &mut self,
        o: TOp,
        point: &[KValue],
        env: &mut HashMap<TValue, KValue>,
    ) -> Result<(), CodegenError> {
        let m = self.c.info.m;
        let d = m.op(o).clone();
        let r = match &d.kind {
            OpKind::LinalgIndex { dim } => *point
                .get(*dim as usize)
                .ok_or_else(|| self.unsupported(o, "index out of range"))?,
            OpKind::Constant(c) => {
                let elem = m.value_kind(d.results[0]).elem();
                let v = match c {
                    ConstAttr::Int { value, .. } => Scalar::Int(*value),
                    ConstAttr::Float { value, .. } => Scalar::Float(*value),
                    ConstAttr::Dense(_) => {
                        return Err(self.unsupported(o, "a tensor constant inside a body"))
                    }
                };
                self.konst(v, elem)
            }
            OpKind::Arith { .. } | OpKind::Math { .. } => {
                let args = d
                    .operands
                    .iter()
                    .map(|&v| self.local(v, env))
                    .collect::<Result<Vec<_>, _>>()?;
                let k = usize::from(matches!(
                    d.kind,
                    OpKind::Arith {
                        op: crate::tensor::ops::ArithOp::Select,
                        ..
                    }
                ));
                let arg_elem = m.value_kind(d.operands[k]).elem();
                let res_elem = m.value_kind(d.results[0]).elem();
                self.scalar_op(o, &d.kind, &args, arg_elem, res_elem)?
            }
            OpKind::Tensor(TensorOp::Extract) => {
                let t = d.operands[0];
                let idx = d.operands[1..]
                    .iter()
                    .map(|&v| self.local(v, env))
                    .collect::<Result<Vec<_>, _>>()?;
                // The host checks nothing inside a body.
                let idx = self.checked_indices(o, t, &idx, &[])?;
                self.elem(t, &idx)?
            }
            OpKind::Assert { .. } => {
                let cond = self.local(d.operands[0], env)?;
                return self.checked_assert(o, cond);
            }
            other => {
                return Err(
                    self.unsupported(o, format!("'{}' inside a structured op body", other.name()))
                )
            }
        };
        if let Some(&res) = d.results.first() {
            env.insert(res, r);
        }
        Ok(())
    }

    /// A value read inside a body: bound locally, or a top-level scalar.
    pub fn local(
        &mut self,
        v: TValue,
        env: &HashMap<TValue, KValue>,
    ) -> Result<KValue, CodegenError> {
        if let Some(&x) = env.get(&v) {
            return Ok(x);
        }
        self.scalar(v)
    }

    /// The value of top-level scalar `v` in its compute type.
    pub fn scalar(&mut self, v: TValue) -> Result<KValue, CodegenError> {
        let key = Key::Scalar(v);
        if let Some(x) = self.memo(&key) {
            return Ok(x[0]);
        }
        let x = self.scalar_uncached(v)?;
        self.remember(key, vec![x]);
        Ok(x)
    }

    fn scalar_uncached(&mut self, v: TValue) -> Result<KValue, CodegenError> {
        let info = self.c.info;
        let m = info.m;
        let elem = m.value_kind(v).elem();
        if let Some(hv) = self.c.shapes.scalar.get(&v).copied() {
            return match hv {
                HostVal::Const(c) => Ok(self.konst(c, elem)),
                HostVal::Slot(s) => self.slot_value(s, elem),
            };
        }
        if let Some(buf) = self.c.buffers.buffer(v) {
            let zero = self.index(0);
            return Ok(self.load_at(buf, zero, elem));
        }
        self.compute_scalar(v)
    }

    /// A device scalar computed from its defining op.
    pub fn compute_scalar(&mut self, v: TValue) -> Result<KValue, CodegenError> {
        let info = self.c.info;
        let m = info.m;
        let op = info.def_op(v).ok_or_else(|| CodegenError::Internal {
            loc: self.loc,
            op: "func.func".into(),
            invariant: Invariant::UnknownScalar,
        })?;
        let d = m.op(op).clone();
        match &d.kind {
            OpKind::Tensor(TensorOp::Extract) => {
                let idx = d.operands[1..]
                    .iter()
                    .map(|&i| self.scalar(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let host: Vec<bool> = d.operands[1..]
                    .iter()
                    .map(|&i| self.c.shapes.host_checks_index(i))
                    .collect();
                let idx = self.checked_indices(op, d.operands[0], &idx, &host)?;
                self.elem(d.operands[0], &idx)
            }
            OpKind::OptimizationBarrier => {
                let i = info.result_index(v);
                self.scalar(d.operands[i])
            }
            OpKind::Arith { .. } | OpKind::Math { .. } => {
                let args = d
                    .operands
                    .iter()
                    .map(|&a| self.scalar(a))
                    .collect::<Result<Vec<_>, _>>()?;
                let k = usize::from(matches!(
                    d.kind,
                    OpKind::Arith {
                        op: crate::tensor::ops::ArithOp::Select,
                        ..
                    }
                ));
                let arg_elem = m.value_kind(d.operands[k]).elem();
                let res_elem = m.value_kind(v).elem();
                self.scalar_op(op, &d.kind, &args, arg_elem, res_elem)
            }
            other => Err(self.unsupported(
                op,
                format!("'{}' as a scalar inside a kernel", other.name()),
            )),
        }
    }

    /// An entry of a mixed static/dynamic list as an index.
    fn mixed_at(
        &mut self,
        list: &[Mixed],
        dynamic: &[TValue],
        i: usize,
    ) -> Result<KValue, CodegenError> {
        match list[i] {
            Mixed::Static(n) => Ok(self.index(n)),
            Mixed::Dynamic => {
                let k = list[..i].iter().filter(|x| **x == Mixed::Dynamic).count();
                self.scalar(dynamic[k])
            }
        }
    }

    fn tensor_elem(
        &mut self,
        op: TOp,
        t: &TensorOp,
        v: TValue,
        coords: &[KValue],
    ) -> Result<KValue, CodegenError> {
        let info = self.c.info;
        let m = info.m;
        let d = m.op(op).clone();
        let elem = m.value_kind(v).elem();
        let shapes = self.c.shapes;
        match t {
            TensorOp::Empty => Ok(self.konst(Scalar::Int(0), elem)),
            TensorOp::Splat => self.scalar(d.operands[0]),
            TensorOp::Cast => self.elem(d.operands[0], coords),
            TensorOp::CollapseShape { .. } | TensorOp::ExpandShape { .. } => {
                let src = d.operands[0];
                // A lane of a vector group stays one under the reshape
                // (the two-stage sum's rows of a 1-D input, attention
                // heads collapsed back into rows).
                let vs = self.sizes(shapes.of(v));
                let ss = self.sizes(shapes.of(src));
                if let Some(x) = self.reshaped_lane(v, src, coords, &vs, &ss)? {
                    return Ok(x);
                }
                let lin = self.linearize(coords, &vs);
                let sc = self.delinearize(lin, &ss);
                self.elem(src, &sc)
            }
            TensorOp::FromElements => {
                let vs = self.sizes(shapes.of(v));
                let lin = self.linearize(coords, &vs);
                let mut acc = self.scalar(d.operands[0])?;
                for (i, &x) in d.operands.iter().enumerate().skip(1) {
                    let xv = self.scalar(x)?;
                    let iv = self.index(i as i64);
                    let is = self.b.cmpi("eq", lin, iv);
                    acc = self.b.select(is, xv, acc);
                }
                Ok(acc)
            }
            TensorOp::Insert => {
                let (x, dest) = (d.operands[0], d.operands[1]);
                let mut hit = None;
                let wants = d.operands[2..]
                    .iter()
                    .map(|&i| self.scalar(i))
                    .collect::<Result<Vec<_>, _>>()?;
                let host: Vec<bool> = d.operands[2..]
                    .iter()
                    .map(|&i| self.c.shapes.host_checks_index(i))
                    .collect();
                let wants = self.checked_indices(op, dest, &wants, &host)?;
                for (i, &want) in wants.iter().enumerate() {
                    let eq = self.b.cmpi("eq", coords[i], want);
                    hit = Some(match hit {
                        None => eq,
                        Some(h) => self.b.andi(h, eq),
                    });
                }
                let xv = self.scalar(x)?;
                let dv = self.elem(dest, coords)?;
                Ok(match hit {
                    Some(h) => self.b.select(h, xv, dv),
                    None => xv,
                })
            }
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            } => {
                let src = d.operands[0];
                let rank = offsets.len();
                let dyn_ops = &d.operands[1..];
                let n_off = Mixed::count_dynamic(offsets);
                let n_sz = Mixed::count_dynamic(sizes);
                let want = m.value_kind(v).tensor_shape().unwrap_or(&[]).to_vec();
                let kept = kept_slice_dims(sizes, &want);
                let mut src_coords = Vec::with_capacity(rank);
                for dim in 0..rank {
                    let off = self.mixed_at(offsets, &dyn_ops[..n_off], dim)?;
                    let st = self.mixed_at(strides, &dyn_ops[n_off + n_sz..], dim)?;
                    let c = match kept.iter().position(|&k| k == dim) {
                        Some(r) => coords[r],
                        None => self.index(0),
                    };
                    let sc = self.mul(c, st);
                    src_coords.push(self.add(off, sc));
                }
                self.elem(src, &src_coords)
            }
            TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => {
                let (src, dest) = (d.operands[0], d.operands[1]);
                let rank = offsets.len();
                let dyn_ops = d.operands[2..].to_vec();
                let n_off = Mixed::count_dynamic(offsets);
                let n_sz = Mixed::count_dynamic(sizes);
                let src_shape = m.value_kind(src).tensor_shape().unwrap_or(&[]).to_vec();
                let kept = kept_slice_dims(sizes, &src_shape);
                let mut inside = None;
                let mut slice_coords = Vec::with_capacity(rank);
                for (dim, &c) in coords.iter().enumerate().take(rank) {
                    let off = self.mixed_at(offsets, &dyn_ops[..n_off], dim)?;
                    let sz = self.mixed_at(sizes, &dyn_ops[n_off..n_off + n_sz], dim)?;
                    let st = self.mixed_at(strides, &dyn_ops[n_off + n_sz..], dim)?;
                    // rel = c - off (wraps when c < off: then out of range).
                    let rel = self.sub(c, off);
                    let q = self.div(rel, st);
                    let r = self.rem(rel, st);
                    let zero = self.index(0);
                    let on_grid = self.b.cmpi("eq", r, zero);
                    let in_range = self.lt(q, sz);
                    let ok = self.b.andi(on_grid, in_range);
                    inside = Some(match inside {
                        None => ok,
                        Some(p) => self.b.andi(p, ok),
                    });
                    slice_coords.push(q);
                }
                let ty = self.compute_type(elem);
                let inside = match inside {
                    Some(c) => c,
                    None => return self.elem(src, &[]),
                };
                let src_c: Vec<KValue> = kept.iter().map(|&k| slice_coords[k]).collect();
                let coords = coords.to_vec();
                let r = self.if_else(
                    inside,
                    &[ty],
                    |e| Ok(vec![e.elem(src, &src_c)?]),
                    |e| Ok(vec![e.elem(dest, &coords)?]),
                )?;
                Ok(r[0])
            }
            TensorOp::Pad { low, .. } => {
                let src = d.operands[0];
                let rank = low.len();
                let n_low = Mixed::count_dynamic(low);
                let dyn_low = d.operands[1..1 + n_low].to_vec();
                let src_sizes = self.sizes(shapes.of(src));
                let mut inside = None;
                let mut src_coords = Vec::with_capacity(rank);
                for (dim, &c) in coords.iter().enumerate().take(rank) {
                    let lo = self.mixed_at(low, &dyn_low, dim)?;
                    let rel = self.sub(c, lo);
                    let ok = self.lt(rel, src_sizes[dim]);
                    inside = Some(match inside {
                        None => ok,
                        Some(p) => self.b.andi(p, ok),
                    });
                    src_coords.push(rel);
                }
                let ty = self.compute_type(elem);
                let region = d.regions.first().copied();
                let coords = coords.to_vec();
                let pad_value = move |e: &mut Self| -> Result<Vec<KValue>, CodegenError> {
                    let Some(block) = region else {
                        return Err(e.unsupported(op, "has no padding region"));
                    };
                    let bd = e.c.info.m.block(block).clone();
                    let mut env = HashMap::new();
                    for (i, &a) in bd.args.iter().enumerate() {
                        env.insert(a, coords[i]);
                    }
                    let n = bd.ops.len();
                    for &o in &bd.ops[..n.saturating_sub(1)] {
                        e.body_op(o, &coords, &mut env)?;
                    }
                    let y = e.c.info.m.op(bd.ops[n - 1]).operands[0];
                    Ok(vec![e.local(y, &env)?])
                };
                let Some(inside) = inside else {
                    return self.elem(src, &[]);
                };
                let r = self.if_else(
                    inside,
                    &[ty],
                    |e| Ok(vec![e.elem(src, &src_coords)?]),
                    pad_value,
                )?;
                Ok(r[0])
            }
            TensorOp::Concat { dim } => {
                let dim = *dim as usize;
                let ty = self.compute_type(elem);
                self.concat_at(&d.operands, dim, coords.to_vec(), ty)
            }
            TensorOp::Dim | TensorOp::Extract => {
                Err(self.internal(op, Invariant::ScalarReadAsTensor))
            }
        }
    }

    /// The element of the concatenation of `parts` along `dim` at `coords`:
    /// a bisection of the operands, so that selections nest
    /// `ceil(log2(parts))` deep rather than one per operand (an ONNX Gather
    /// with indices known at import is a concat of one slice per index;
    /// lavapipe ignores selections nested deeper than 80, and SPIR-V's
    /// tools here take 64).
    fn concat_at(
        &mut self,
        parts: &[TValue],
        dim: usize,
        coords: Vec<KValue>,
        ty: KType,
    ) -> Result<KValue, CodegenError> {
        if parts.len() == 1 {
            return self.elem(parts[0], &coords);
        }
        let (left, right) = parts.split_at(parts.len() / 2);
        let shapes = self.c.shapes;
        let mut n = self.index(0);
        for &p in left {
            let s = self.size(shapes.of(p)[dim]);
            n = self.add(n, s);
        }
        let here = self.lt(coords[dim], n);
        let mut shifted = coords.clone();
        shifted[dim] = self.sub(coords[dim], n);
        let r = self.if_else(
            here,
            std::slice::from_ref(&ty),
            |e| Ok(vec![e.concat_at(left, dim, coords, ty.clone())?]),
            |e| Ok(vec![e.concat_at(right, dim, shifted, ty.clone())?]),
        )?;
        Ok(r[0])
    }
}
