//! Shapes of every tensor of a function, in [`Size`]s, and the host
//! program that computes the dynamic ones at run time
//! ([`HostProgram`]), with the checks that a run's sizes fit (a dynamic
//! dimension cast to a static one, the shared loop of a matmul's operands,
//! slice bounds, ...).

use std::collections::HashMap;

use crate::tensor::attr::{ConstAttr, Mixed};
use crate::tensor::eval::{self, Scalar};
use crate::tensor::ops::{LinalgKind, OpKind, TensorOp};
use crate::tensor::types::{Dim, ElemType};
use crate::tensor::{AffineExpr, TOp, TValue};

use super::analysis::{FuncInfo, OpClass};
use super::error::CodegenError;
use super::host::{
    CheckKind, HostProgram, HostVal, RuntimeCheck, Size, SizeOp, SlotDef, SourceRef,
};

/// The shapes and host scalars of a function.
#[derive(Clone, Debug, Default)]
pub struct Shapes {
    /// The host program computing dynamic sizes and run-time scalars.
    pub host: HostProgram,
    /// The shape of each top-level tensor value.
    pub shape: HashMap<TValue, Vec<Size>>,
    /// The value of each host scalar.
    pub scalar: HashMap<TValue, HostVal>,
}

impl Shapes {
    /// The shape of tensor `v`.
    pub fn of(&self, v: TValue) -> &[Size] {
        self.shape.get(&v).map_or(&[], Vec::as_slice)
    }

    /// Whether the host checks `v` where it is an element index of a
    /// `tensor.extract` / `tensor.insert` that a kernel computes: a
    /// constant, or a host scalar computed without reading tensor data.
    /// An index the host reads back from tensor data (it is also a size
    /// somewhere) is checked, like one computed on the device, by the
    /// kernel that computes the op, so an op no live op reads is not
    /// checked (the reference evaluator poisons it; issue 31 §2).
    pub fn host_checks_index(&self, v: TValue) -> bool {
        match self.scalar.get(&v) {
            Some(HostVal::Const(_)) => true,
            Some(&HostVal::Slot(s)) => !self.host.depends_on_read(Size::Slot(s)),
            None => false,
        }
    }

    /// Whether sizes `a` and `b` are equal whenever the function runs:
    /// the same size, or linked by the host program's equality checks
    /// (which refuse the call before any dispatch where they differ; an
    /// elementwise op's operands' dynamic dimensions).
    pub fn same_size(&self, a: Size, b: Size) -> bool {
        if a == b {
            return true;
        }
        let mut reached = vec![a];
        let mut at = 0;
        while at < reached.len() {
            let x = reached[at];
            at += 1;
            for (_, c) in &self.host.checks {
                if c.kind != CheckKind::Equal {
                    continue;
                }
                let other = if c.a == x {
                    c.b
                } else if c.b == x {
                    c.a
                } else {
                    continue;
                };
                if other == b {
                    return true;
                }
                if !reached.contains(&other) {
                    reached.push(other);
                }
            }
        }
        false
    }
}

/// The slice dims kept in a (possibly rank-reducing) slice of `sizes`
/// whose result has `want` dims: for each result dim, its slice dim.
///
/// MLIR's rule (`ExtractSliceOp::getDroppedDims`): left to right, a slice
/// dim of static size 1 is dropped unless the next result dim is a static
/// 1 too; every other slice dim is kept. So `[1, 2, 1, 2]` sliced to
/// `1x2x2` keeps dims 0, 1 and 3. Where that rule does not give the
/// result's rank (a type MLIR's verifier would refuse), the unit dims are
/// dropped from the left while enough dims remain.
pub fn kept_slice_dims(sizes: &[Mixed], want: &[Dim]) -> Vec<usize> {
    if sizes.len() == want.len() {
        return (0..sizes.len()).collect();
    }
    let mut mlir = Vec::with_capacity(want.len());
    for (i, s) in sizes.iter().enumerate() {
        let unit = *s == Mixed::Static(1);
        if !unit || want.get(mlir.len()) == Some(&Dim::Static(1)) {
            mlir.push(i);
        }
    }
    if mlir.len() == want.len() {
        return mlir;
    }
    let mut out = Vec::with_capacity(want.len());
    let mut j = 0;
    for (i, s) in sizes.iter().enumerate() {
        let must_keep = sizes.len() - i <= want.len() - j;
        let unit = *s == Mixed::Static(1);
        if !must_keep && unit {
            continue;
        }
        out.push(i);
        j += 1;
    }
    out
}

struct Builder<'a, 'm> {
    info: &'a FuncInfo<'m>,
    s: Shapes,
}

/// Infers the shapes of every tensor of the analysed function.
pub fn infer_shapes(info: &FuncInfo<'_>) -> Result<Shapes, CodegenError> {
    let mut b = Builder {
        info,
        s: Shapes::default(),
    };
    let m = info.m;
    for (i, &a) in m.block(info.body).args.iter().enumerate() {
        let k = m.value_kind(a);
        if let Some(shape) = k.tensor_shape() {
            let sizes = shape
                .iter()
                .enumerate()
                .map(|(d, dim)| match dim {
                    Dim::Static(n) => Size::Static(*n),
                    Dim::Dynamic => Size::Slot(b.s.host.add(
                        SlotDef::SourceDim {
                            source: SourceRef::Argument(i),
                            dim: d,
                        },
                        ElemType::Index,
                        format!("arg{i}.dim{d}"),
                    )),
                })
                .collect();
            b.s.shape.insert(a, sizes);
        } else {
            let slot =
                b.s.host
                    .add(SlotDef::Argument(i), k.elem(), format!("arg{i}"));
            b.s.scalar.insert(a, HostVal::Slot(slot));
        }
    }
    for &op in &info.ops {
        b.op(op)?;
    }
    Ok(b.s)
}

impl Builder<'_, '_> {
    fn err(&self, op: TOp, msg: impl Into<String>) -> CodegenError {
        CodegenError::unsupported(self.info.m, op, msg)
    }

    fn check(
        &mut self,
        op: TOp,
        kind: CheckKind,
        a: Size,
        b: Size,
        what: String,
    ) -> Result<(), CodegenError> {
        let d = self.info.m.op(op);
        let c = RuntimeCheck {
            kind,
            a,
            b,
            op: d.kind.name(),
            loc: d.loc,
            what,
        };
        if let (Size::Static(x), Size::Static(y)) = (a, b) {
            let fails = match kind {
                CheckKind::Equal => x != y,
                CheckKind::Less | CheckKind::Index => x >= y,
                CheckKind::NonNegative => false,
                CheckKind::Assert | CheckKind::NonEmpty => x == 0,
            };
            if fails {
                // The error names the location once.
                let bare = RuntimeCheck {
                    loc: crate::ir::Location::UNKNOWN,
                    ..c
                };
                return Err(CodegenError::Limit {
                    loc: d.loc,
                    message: bare.message(x as i64, y as i64),
                });
            }
        }
        self.s.host.check(c);
        Ok(())
    }

    /// The `index` value of host scalar `v` as a size.
    fn size_of(&mut self, op: TOp, v: TValue) -> Result<Size, CodegenError> {
        match self.s.scalar.get(&v).copied() {
            Some(HostVal::Const(c)) => {
                let n = c.int();
                if n < 0 {
                    // Fails whatever the run: a limit, which the reference
                    // evaluator's call check refuses too (one verdict,
                    // however dead the op).
                    let d = self.info.m.op(op);
                    return Err(CodegenError::Limit {
                        loc: d.loc,
                        message: format!("'{}' op size {n} is negative", d.kind.name()),
                    });
                }
                Ok(Size::Static(n as u64))
            }
            Some(HostVal::Slot(s)) => {
                let size = Size::Slot(s);
                let what = self.s.host.text(size);
                self.check(op, CheckKind::NonNegative, size, size, what.clone())?;
                // A size read from tensor data can be anything: one that
                // no buffer could hold is refused before it is used.
                if self.s.host.depends_on_read(size) {
                    self.check(
                        op,
                        CheckKind::Less,
                        size,
                        Size::Static(1 << 31),
                        format!("size {what}"),
                    )?;
                }
                Ok(size)
            }
            None => Err(self.err(
                op,
                "uses a size computed from tensor data; only sizes known to the host are supported",
            )),
        }
    }

    /// A `tensor.extract` of tensor data read back by the host: a
    /// [`SlotDef::Read`] slot (its buffer is set once buffers are planned).
    fn host_read(&mut self, op: TOp) -> Result<(), CodegenError> {
        let m = self.info.m;
        let d = m.op(op);
        let (tensor, r) = (d.operands[0], d.results[0]);
        let indices = d.operands[1..]
            .iter()
            .map(|v| {
                self.s
                    .scalar
                    .get(v)
                    .copied()
                    .ok_or_else(|| self.err(op, "has an index the host does not know"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let text = format!(
            "{}[{}]",
            d.kind.name(),
            indices
                .iter()
                .map(|i| match i {
                    HostVal::Const(c) => c.int().to_string(),
                    HostVal::Slot(s) => self.s.host.slots[*s].text.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
        let slot = self.s.host.add(
            SlotDef::Read {
                tensor,
                buffer: usize::MAX,
                dims: self.shape(tensor),
                indices,
            },
            m.value_kind(r).elem(),
            text,
        );
        self.s.scalar.insert(r, HostVal::Slot(slot));
        Ok(())
    }

    /// Checks the indices of a `tensor.extract` / `tensor.insert` into a
    /// tensor of `dims` that the host knows (constants and host scalars):
    /// a constant one at compile time, a run-time one by a host check.
    /// An index computed on the device from tensor data is checked by the
    /// kernel that reads it (a fault site, see
    /// [`FaultSite`](super::program::FaultSite)), and its dimension by a
    /// host check that it is not empty (seed 10361 of the random tester:
    /// a `tensor.insert` into a 3x0 tensor ran no kernel and returned).
    fn host_indices(
        &mut self,
        op: TOp,
        dims: &[Size],
        indices: &[TValue],
    ) -> Result<(), CodegenError> {
        // An element the host reads back: it checks the indices before
        // reading (every one is known to it).
        let host_read = self.info.host_reads.contains(&op);
        for (k, (&v, &dim)) in indices.iter().zip(dims).enumerate() {
            let what = format!("index {k}");
            match self.s.scalar.get(&v).copied() {
                Some(HostVal::Const(c)) => {
                    let i = c.int();
                    if i < 0 {
                        let d = self.info.m.op(op);
                        let size = dim
                            .fixed()
                            .map_or_else(|| "?".to_string(), |n| n.to_string());
                        return Err(CodegenError::Limit {
                            loc: d.loc,
                            message: format!(
                                "'{}' op index out of bounds: {what} is {i}, outside a dimension of size {size}",
                                d.kind.name()
                            ),
                        });
                    }
                    self.check(op, CheckKind::Index, Size::Static(i as u64), dim, what)?;
                }
                Some(HostVal::Slot(s))
                    if host_read || !self.s.host.depends_on_read(Size::Slot(s)) =>
                {
                    self.check(op, CheckKind::Index, Size::Slot(s), dim, what)?;
                }
                // Checked by the kernel that computes it (see
                // [`Shapes::host_checks_index`]), which runs for no
                // element where the tensor is empty: the host checks that
                // the dimension is not.
                _ => self.check(op, CheckKind::NonEmpty, dim, Size::Static(0), what)?,
            }
        }
        Ok(())
    }

    /// Sizes of a mixed static/dynamic list, taking dynamic entries from
    /// `dynamic` in order.
    fn mixed(
        &mut self,
        op: TOp,
        list: &[Mixed],
        dynamic: &mut impl Iterator<Item = TValue>,
    ) -> Result<Vec<Size>, CodegenError> {
        list.iter()
            .map(|m| match m {
                Mixed::Static(n) if *n >= 0 => Ok(Size::Static(*n as u64)),
                Mixed::Static(n) => Err(self.err(op, format!("negative entry {n}"))),
                Mixed::Dynamic => {
                    let v = dynamic
                        .next()
                        .ok_or_else(|| self.err(op, "too few dynamic operands"))?;
                    self.size_of(op, v)
                }
            })
            .collect()
    }

    /// Fixes a result shape to its type: a static dimension of the type
    /// wins, checked against the computed size.
    fn set_result(&mut self, op: TOp, r: TValue, sizes: Vec<Size>) -> Result<(), CodegenError> {
        let m = self.info.m;
        let ty = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
        let mut out = Vec::with_capacity(ty.len());
        for (d, (dim, &s)) in ty.iter().zip(&sizes).enumerate() {
            match dim {
                Dim::Static(n) => {
                    self.check(
                        op,
                        CheckKind::Equal,
                        s,
                        Size::Static(*n),
                        format!("result dimension {d}"),
                    )?;
                    out.push(Size::Static(*n));
                }
                Dim::Dynamic => out.push(s),
            }
        }
        self.s.shape.insert(r, out);
        Ok(())
    }

    fn static_shape(&mut self, r: TValue) {
        let m = self.info.m;
        let sizes = m
            .value_kind(r)
            .tensor_shape()
            .unwrap_or(&[])
            .iter()
            .map(|d| Size::Static(d.fixed().unwrap_or(0)))
            .collect();
        self.s.shape.insert(r, sizes);
    }

    fn shape(&self, v: TValue) -> Vec<Size> {
        self.s.shape.get(&v).cloned().unwrap_or_default()
    }

    fn op(&mut self, op: TOp) -> Result<(), CodegenError> {
        let info = self.info;
        let m = info.m;
        let d = m.op(op).clone();
        match &d.kind {
            OpKind::Constant(c) | OpKind::UnfoldableConstant(c) => match c {
                ConstAttr::Dense(_) => self.static_shape(d.results[0]),
                other => {
                    let v = eval::constant_scalar(other).unwrap_or(Scalar::Int(0));
                    self.s.scalar.insert(d.results[0], HostVal::Const(v));
                }
            },
            OpKind::DynamicConstant(dense) => {
                let r = d.results[0];
                let data_shape: Vec<u64> = m
                    .ty(dense.ty)
                    .tensor_shape()
                    .unwrap_or(&[])
                    .iter()
                    .map(|x| x.fixed().unwrap_or(0))
                    .collect();
                let ty = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
                let pos = info.position[&op];
                let sizes = ty
                    .iter()
                    .enumerate()
                    .map(|(i, dim)| match dim {
                        Dim::Static(n) => Size::Static(*n),
                        Dim::Dynamic => Size::Slot(self.s.host.add(
                            SlotDef::SourceDim {
                                source: SourceRef::Constant(r),
                                dim: i,
                            },
                            ElemType::Index,
                            format!("c{pos}.dim{i}"),
                        )),
                    })
                    .collect();
                let _ = data_shape;
                self.s.shape.insert(r, sizes);
            }
            OpKind::OptimizationBarrier => {
                for (&o, &r) in d.operands.iter().zip(&d.results) {
                    if let Some(sh) = self.s.shape.get(&o).cloned() {
                        self.s.shape.insert(r, sh);
                    }
                    if let Some(v) = self.s.scalar.get(&o).copied() {
                        self.s.scalar.insert(r, v);
                    }
                }
            }
            OpKind::Arith { .. } | OpKind::Math { .. }
                if info.class[&op] == OpClass::HostScalar =>
            {
                self.host_scalar_op(op)?;
            }
            OpKind::Linalg(l) => {
                if let LinalgKind::Softmax { .. } = l.kind {
                    let (inp, out) = (d.operands[0], d.operands[1]);
                    let (si, so) = (self.shape(inp), self.shape(out));
                    for (k, (&a, &b)) in si.iter().zip(&so).enumerate() {
                        self.check(op, CheckKind::Equal, a, b, format!("input dimension {k}"))?;
                    }
                    self.set_result(op, d.results[0], so)?;
                } else {
                    self.structured(op)?;
                }
            }
            OpKind::Tensor(t) => self.tensor_op(op, t)?,
            // A condition computed from tensor data: its own kernel
            // checks it (a fault site, see `program::add_fault_sites`).
            OpKind::Assert { .. } if info.class[&op] == OpClass::DeviceScalar => {}
            OpKind::Assert { message } => {
                let cond = match self.s.scalar.get(&d.operands[0]).copied() {
                    Some(HostVal::Const(c)) => Size::Static(u64::from(c.int() != 0)),
                    Some(HostVal::Slot(s)) => Size::Slot(s),
                    None => return Err(self.err(op, "has a condition the host does not know")),
                };
                self.check(
                    op,
                    CheckKind::Assert,
                    cond,
                    Size::Static(1),
                    message.clone(),
                )?;
            }
            _ => {}
        }
        Ok(())
    }

    fn host_scalar_op(&mut self, op: TOp) -> Result<(), CodegenError> {
        let m = self.info.m;
        let d = m.op(op);
        let r = d.results[0];
        let res_elem = m.value_kind(r).elem();
        let args: Vec<HostVal> = d
            .operands
            .iter()
            .map(|v| {
                self.s
                    .scalar
                    .get(v)
                    .copied()
                    .ok_or_else(|| self.err(op, "has an operand the host does not know"))
            })
            .collect::<Result<_, _>>()?;
        let k = match d.kind {
            OpKind::Arith {
                op: crate::tensor::ops::ArithOp::Select,
                ..
            } => 1,
            _ => 0,
        };
        let arg_elem = m.value_kind(d.operands[k]).elem();
        if args.iter().all(|a| matches!(a, HostVal::Const(_))) {
            let xs: Vec<Scalar> = args
                .iter()
                .map(|a| match a {
                    HostVal::Const(c) => *c,
                    HostVal::Slot(_) => Scalar::Int(0),
                })
                .collect();
            let v = eval_scalar(&d.kind, &xs, arg_elem, res_elem)
                .map_err(|e| self.err(op, e.to_string()))?;
            self.s.scalar.insert(r, HostVal::Const(v));
            return Ok(());
        }
        let text = format!(
            "{}({})",
            d.kind.name(),
            args.iter()
                .map(|a| match a {
                    HostVal::Const(c) => format!("{c:?}"),
                    HostVal::Slot(s) => self.s.host.slots[*s].text.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
        let slot = self.s.host.add(
            SlotDef::Scalar {
                kind: d.kind.clone(),
                args,
                arg_elem,
            },
            res_elem,
            text,
        );
        self.s.scalar.insert(r, HostVal::Slot(slot));
        Ok(())
    }

    fn structured(&mut self, op: TOp) -> Result<(), CodegenError> {
        let info = self.info;
        let Some(s) = info.structured.get(&op).cloned() else {
            return Err(self.err(op, "has operands of unexpected ranks"));
        };
        let m = info.m;
        let operands: Vec<TValue> = s.operands().collect();
        let shapes: Vec<Vec<Size>> = operands.iter().map(|&v| self.shape(v)).collect();
        // Loop sizes, then every bare-dim use checked against them, and
        // every window expression bounded by its dimension.
        let sources = s.loop_sources();
        let mut loops = Vec::with_capacity(sources.len());
        for (l, src) in sources.iter().enumerate() {
            let (k, r) = src.ok_or_else(|| self.err(op, format!("loop d{l} has no size")))?;
            loops.push(shapes[k].get(r).copied().unwrap_or(Size::Static(0)));
        }
        for (k, map) in s.indexing_maps.iter().enumerate() {
            if !m.value_kind(operands[k]).is_tensor() {
                continue;
            }
            for (r, e) in map.results.iter().enumerate() {
                let Some(&size) = shapes[k].get(r) else {
                    continue;
                };
                if let Some(l) = e.as_dim() {
                    self.check(
                        op,
                        CheckKind::Equal,
                        size,
                        loops[l as usize],
                        format!("dimension {r} of operand {k} (loop d{l})"),
                    )?;
                } else if let Some((coeffs, c)) = e.linear(loops.len()) {
                    // The largest index it reaches must be in bounds.
                    if coeffs.iter().any(|&x| x < 0) || c < 0 {
                        continue;
                    }
                    let mut max = Size::Static(c as u64);
                    let mut empty = false;
                    for (l, &x) in coeffs.iter().enumerate() {
                        if x == 0 {
                            continue;
                        }
                        if loops[l] == Size::Static(0) {
                            empty = true;
                        }
                        let last = self.s.host.arith(SizeOp::Sub, loops[l], Size::Static(1));
                        let t = self.s.host.arith(SizeOp::Mul, last, Size::Static(x as u64));
                        max = self.s.host.arith(SizeOp::Add, max, t);
                    }
                    if !empty {
                        self.check(
                            op,
                            CheckKind::Less,
                            max,
                            size,
                            format!("the largest index of dimension {r} of operand {k}"),
                        )?;
                    }
                } else if let AffineExpr::Const(c) = e {
                    if *c >= 0 {
                        self.check(
                            op,
                            CheckKind::Less,
                            Size::Static(*c as u64),
                            size,
                            format!("index {c} of dimension {r} of operand {k}"),
                        )?;
                    }
                }
            }
        }
        let d = m.op(op).clone();
        for (j, &r) in d.results.iter().enumerate() {
            let sh = self.shape(s.outputs[j]);
            self.set_result(op, r, sh)?;
        }
        Ok(())
    }

    fn tensor_op(&mut self, op: TOp, t: &TensorOp) -> Result<(), CodegenError> {
        let m = self.info.m;
        let d = m.op(op).clone();
        let r = d.results.first().copied();
        match t {
            TensorOp::Dim => {
                let (src, idx) = (d.operands[0], d.operands[1]);
                let dims = self.shape(src);
                let r = d.results[0];
                let v = match self.s.scalar.get(&idx).copied() {
                    Some(HostVal::Const(c)) => {
                        let i = c.int();
                        let size = usize::try_from(i)
                            .ok()
                            .and_then(|i| dims.get(i).copied())
                            .ok_or_else(|| self.err(op, format!("index {i} is out of range")))?;
                        match size {
                            Size::Static(n) => HostVal::Const(Scalar::Int(n as i64)),
                            Size::Slot(s) => HostVal::Slot(s),
                        }
                    }
                    Some(index) => {
                        let text = format!("dim({})", self.s.host.slots.len());
                        HostVal::Slot(self.s.host.add(
                            SlotDef::SelectDim { dims, index },
                            ElemType::Index,
                            text,
                        ))
                    }
                    None => return Err(self.err(op, "index computed from tensor data")),
                };
                self.s.scalar.insert(r, v);
            }
            TensorOp::Extract => {
                let src = self.shape(d.operands[0]);
                self.host_indices(op, &src, &d.operands[1..])?;
                if self.info.host_reads.contains(&op) {
                    return self.host_read(op);
                }
                if self.info.class[&op] == OpClass::HostScalar {
                    if let (Some(r), Some(v)) = (r, eval::host_constant::constant_extract(m, op)) {
                        self.s.scalar.insert(r, HostVal::Const(v));
                    }
                }
            }
            TensorOp::Empty | TensorOp::Splat => {
                let r = r.ok_or_else(|| self.err(op, "expects a result"))?;
                let ty = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
                let first_dyn = usize::from(*t == TensorOp::Splat);
                let mut dynamic = d.operands[first_dyn..].iter().copied();
                let mut sizes = Vec::new();
                for dim in ty {
                    sizes.push(match dim {
                        Dim::Static(n) => Size::Static(n),
                        Dim::Dynamic => {
                            let v = dynamic
                                .next()
                                .ok_or_else(|| self.err(op, "too few dynamic sizes"))?;
                            self.size_of(op, v)?
                        }
                    });
                }
                self.s.shape.insert(r, sizes);
            }
            TensorOp::FromElements => {
                let r = r.ok_or_else(|| self.err(op, "expects a result"))?;
                self.static_shape(r);
            }
            TensorOp::Cast => {
                let r = d.results[0];
                let sh = self.shape(d.operands[0]);
                self.set_result(op, r, sh)?;
            }
            TensorOp::CollapseShape { reassociation } => {
                let r = d.results[0];
                let src = self.shape(d.operands[0]);
                let sizes = reassociation
                    .iter()
                    .map(|g| {
                        let dims: Vec<Size> = g.iter().map(|&i| src[i as usize]).collect();
                        self.s.host.product(&dims)
                    })
                    .collect();
                self.set_result(op, r, sizes)?;
            }
            TensorOp::ExpandShape {
                reassociation,
                output_shape,
            } => {
                let r = d.results[0];
                let src = self.shape(d.operands[0]);
                let mut dynamic = d.operands[1..].iter().copied();
                let sizes = self.mixed(op, output_shape, &mut dynamic)?;
                for (g, group) in reassociation.iter().enumerate() {
                    let dims: Vec<Size> = group.iter().map(|&i| sizes[i as usize]).collect();
                    let p = self.s.host.product(&dims);
                    if let Some(&s) = src.get(g) {
                        self.check(
                            op,
                            CheckKind::Equal,
                            p,
                            s,
                            format!("the product of output group {g}"),
                        )?;
                    }
                }
                self.set_result(op, r, sizes)?;
            }
            TensorOp::ExtractSlice {
                offsets,
                sizes,
                strides,
            }
            | TensorOp::InsertSlice {
                offsets,
                sizes,
                strides,
            } => {
                let insert = matches!(t, TensorOp::InsertSlice { .. });
                let full_v = d.operands[usize::from(insert)];
                let full = self.shape(full_v);
                let mut dynamic = d.operands[1 + usize::from(insert)..].iter().copied();
                let o = self.mixed(op, offsets, &mut dynamic)?;
                let sz = self.mixed(op, sizes, &mut dynamic)?;
                let st = self.mixed(op, strides, &mut dynamic)?;
                for dim in 0..full.len() {
                    if sz[dim] == Size::Static(0) {
                        continue;
                    }
                    let last = self.s.host.arith(SizeOp::Sub, sz[dim], Size::Static(1));
                    let span = self.s.host.arith(SizeOp::Mul, last, st[dim]);
                    let max = self.s.host.arith(SizeOp::Add, o[dim], span);
                    // A slice of no elements is in bounds at any offset
                    // (MLIR bounds only a non-empty one): where the size is
                    // 0 at run time, the check is 0 < full + 1. A static
                    // size leaves it `max < full`.
                    let nonempty = self.s.host.arith(SizeOp::Min, sz[dim], Size::Static(1));
                    let last = self.s.host.arith(SizeOp::Mul, max, nonempty);
                    let empty = self.s.host.arith(SizeOp::Sub, Size::Static(1), nonempty);
                    let bound = self.s.host.arith(SizeOp::Add, full[dim], empty);
                    self.check(
                        op,
                        CheckKind::Less,
                        last,
                        bound,
                        format!("the last index of the slice along dimension {dim}"),
                    )?;
                }
                let r = d.results[0];
                if insert {
                    // The source fills the slice exactly: its dimensions
                    // are the slice's kept sizes.
                    let want = m
                        .value_kind(d.operands[0])
                        .tensor_shape()
                        .unwrap_or(&[])
                        .to_vec();
                    let kept = kept_slice_dims(sizes, &want);
                    let source = self.shape(d.operands[0]);
                    for (k, (&i, &have)) in kept.iter().zip(&source).enumerate() {
                        self.check(
                            op,
                            CheckKind::Equal,
                            have,
                            sz[i],
                            format!("dimension {k} of the source (slice dimension {i})"),
                        )?;
                    }
                    self.s.shape.insert(r, full);
                } else {
                    let want = m.value_kind(r).tensor_shape().unwrap_or(&[]).to_vec();
                    let kept = kept_slice_dims(sizes, &want);
                    let res: Vec<Size> = kept.iter().map(|&i| sz[i]).collect();
                    self.set_result(op, r, res)?;
                }
            }
            TensorOp::Pad { low, high, .. } => {
                let r = d.results[0];
                let src = self.shape(d.operands[0]);
                let mut dynamic = d.operands[1..].iter().copied();
                let lo = self.mixed(op, low, &mut dynamic)?;
                let hi = self.mixed(op, high, &mut dynamic)?;
                let sizes = (0..src.len())
                    .map(|i| {
                        let a = self.s.host.arith(SizeOp::Add, src[i], lo[i]);
                        self.s.host.arith(SizeOp::Add, a, hi[i])
                    })
                    .collect();
                self.set_result(op, r, sizes)?;
            }
            TensorOp::Concat { dim } => {
                let r = d.results[0];
                let dim = *dim as usize;
                let first = self.shape(d.operands[0]);
                let mut total = Size::Static(0);
                for (k, &v) in d.operands.iter().enumerate() {
                    let sh = self.shape(v);
                    for (i, (&a, &b)) in sh.iter().zip(&first).enumerate() {
                        if i != dim {
                            self.check(
                                op,
                                CheckKind::Equal,
                                a,
                                b,
                                format!("dimension {i} of operand {k}"),
                            )?;
                        }
                    }
                    total = self.s.host.arith(SizeOp::Add, total, sh[dim]);
                }
                let mut sizes = first;
                sizes[dim] = total;
                self.set_result(op, r, sizes)?;
            }
            TensorOp::Insert => {
                let r = d.results[0];
                let sh = self.shape(d.operands[1]);
                self.host_indices(op, &sh, &d.operands[2..])?;
                self.s.shape.insert(r, sh);
            }
        }
        Ok(())
    }
}

/// Why a scalar op cannot be evaluated on the host.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScalarEvalError {
    /// The op has no defined result for its operands.
    #[error(transparent)]
    Scalar(#[from] eval::scalar::ScalarError),
    /// An `optimization_barrier` without operand.
    #[error("no operand")]
    NoOperand,
    /// An op that is not a scalar `arith`/`math` op (its name).
    #[error("'{0}' is not a scalar op")]
    NotScalar(String),
}

/// Evaluates a scalar `arith`/`math` op with the reference semantics.
pub fn eval_scalar(
    kind: &OpKind,
    args: &[Scalar],
    arg_elem: ElemType,
    res_elem: ElemType,
) -> Result<Scalar, ScalarEvalError> {
    Ok(match kind {
        OpKind::Arith { op, .. } => eval::scalar::arith(*op, args, arg_elem, res_elem)?,
        OpKind::Math { op, .. } => eval::scalar::math(*op, args, res_elem)?,
        OpKind::OptimizationBarrier => args.first().copied().ok_or(ScalarEvalError::NoOperand)?,
        other => return Err(ScalarEvalError::NotScalar(other.name())),
    })
}
