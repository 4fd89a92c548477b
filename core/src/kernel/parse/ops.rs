//! MLIR 19's custom assembly of the computational and control-flow kernel
//! ops (`arith`, `math`, `memref`, `scf`, `gpu`, `vector`, `index`,
//! `func.call`/`func.return`, `gpu.launch_func`).

use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::{Block, Location, Op, Value};
pub(crate) use crate::kernel::forms::*;
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOp;
use crate::kernel::print::type_to_string;
use crate::kernel::types::KType;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// `%m[%i, ...] {attrs} : memref<...>, vector<...>` of `vector.load` and
    /// `vector.store`: the memref (type-checked), the indices and the
    /// vector type; the attributes go to `spec`.
    fn vector_access(
        &mut self,
        spec: &mut OpSpecK,
        loc: Location,
    ) -> PResult<(Value, Vec<Value>, KType)> {
        let m = self.value_use()?;
        let idx = self.index_list()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let mty = self.memref_type()?;
        self.expect_punct(",")?;
        let vty = self.vector_type()?;
        self.check_ty(m, &mty, loc)?;
        Ok((m, idx, vty))
    }

    /// Checks that `v` has type `ty` (MLIR checks operand types while
    /// parsing custom forms).
    pub(crate) fn check_ty(&self, v: Value, ty: &KType, loc: Location) -> PResult<()> {
        let have = self.m.value_type(v);
        if have != ty {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "operand has type {} but the op's type is {}",
                    type_to_string(have),
                    type_to_string(ty)
                ),
            ));
        }
        Ok(())
    }

    /// `fastmath<...>` / `overflow<...>` flags.
    fn parse_flags(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        loop {
            let (kw, attr) = if self.is_ident("fastmath") {
                ("fastmath", "fastmath")
            } else if self.is_ident("overflow") {
                ("overflow", "overflowFlags")
            } else {
                return Ok(());
            };
            self.bump()?;
            let body = self.angle_body()?;
            let flags: String = body.split_whitespace().collect();
            if flags.is_empty() {
                return self.err(format!("empty {kw}<> flags"));
            }
            if flags != "none" {
                spec.attrs.push((attr.into(), KAttr::Enum(flags)));
            }
        }
    }

    /// Flags and an attribute dictionary.
    fn parse_tail(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.parse_flags(spec)?;
        let extra = self.opt_attr_dict()?;
        spec.attrs.extend(extra);
        Ok(())
    }

    fn enum_kw(&mut self, what: &str, allowed: &[&str]) -> PResult<String> {
        let loc = self.loc();
        let kw = self.ident(what)?;
        if !allowed.contains(&kw) {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "unknown {what} '{kw}' (expected one of {})",
                    allowed.join(", ")
                ),
            ));
        }
        Ok(kw.to_owned())
    }

    /// `[%i, %j]` index operands.
    fn index_list(&mut self) -> PResult<Vec<Value>> {
        self.expect_punct("[")?;
        let mut out = Vec::new();
        self.comma_list("]", |p| {
            out.push(p.typed_use(&KType::Index)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `[0, %i, 4]`: static values (`i64::MIN` for dynamic) and the dynamic
    /// operands.
    fn mixed_list(&mut self) -> PResult<(Vec<i64>, Vec<Value>)> {
        self.expect_punct("[")?;
        let mut stat = Vec::new();
        let mut dynamic = Vec::new();
        self.comma_list("]", |p| {
            if matches!(p.peek(), TokKind::Value(_)) {
                dynamic.push(p.typed_use(&KType::Index)?);
                stat.push(i64::MIN);
            } else {
                stat.push(p.int("an integer or an index value")?);
            }
            Ok(())
        })?;
        Ok((stat, dynamic))
    }

    fn memref_type(&mut self) -> PResult<KType> {
        let loc = self.loc();
        let ty = self.parse_type()?;
        if !matches!(ty, KType::MemRef { .. } | KType::UnrankedMemRef { .. }) {
            return Err(KernelParseError::new(
                loc,
                format!("expected a memref type, found {}", type_to_string(&ty)),
            ));
        }
        Ok(ty)
    }

    fn vector_type(&mut self) -> PResult<KType> {
        let loc = self.loc();
        let ty = self.parse_type()?;
        if !matches!(ty, KType::Vector { .. }) {
            return Err(KernelParseError::new(
                loc,
                format!("expected a vector type, found {}", type_to_string(&ty)),
            ));
        }
        Ok(ty)
    }

    fn optional_upper_bound(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        if self.eat_ident("upper_bound")? {
            let v = self.uint("an upper bound")?;
            spec.attrs.push((
                "upper_bound".into(),
                KAttr::Int {
                    value: v as i128,
                    ty: KType::Index,
                },
            ));
        }
        Ok(())
    }

    /// `%a, %b : T, U` operand/type list of a terminator (both optional).
    fn values_colon_types(&mut self) -> PResult<Vec<Value>> {
        let loc = self.loc();
        let vals = self.value_list()?;
        if vals.is_empty() {
            return Ok(vals);
        }
        self.expect_punct(":")?;
        let tys = self.parse_type_list()?;
        if tys.len() != vals.len() {
            return Err(KernelParseError::new(
                loc,
                format!("{} values but {} types", vals.len(), tys.len()),
            ));
        }
        for (v, t) in vals.iter().zip(&tys) {
            self.check_ty(*v, t, loc)?;
        }
        Ok(vals)
    }

    /// An op in custom syntax (all but the structural ones).
    pub(crate) fn parse_custom(&mut self, kind: KOp, block: Block, loc: Location) -> PResult<Op> {
        let mut spec = OpSpecK::new(kind);
        let form = form(kind);
        match form {
            Form::Unary | Form::Binary | Form::Ternary => {
                // `%a, %b, ... attr-dict : type`, all operands and the result
                // of one type.
                let n = form.same_type_arity().unwrap_or(1);
                let mut operands = vec![self.value_use()?];
                for _ in 1..n {
                    self.expect_punct(",")?;
                    operands.push(self.value_use()?);
                }
                self.parse_tail(&mut spec)?;
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                for &v in &operands {
                    self.check_ty(v, &ty, loc)?;
                }
                spec.operands = operands;
                spec.results = vec![ty];
            }
            Form::Cast => {
                let a = self.value_use()?;
                self.parse_tail(&mut spec)?;
                self.expect_punct(":")?;
                let from = self.parse_type()?;
                self.expect_ident("to")?;
                let to = self.parse_type()?;
                self.check_ty(a, &from, loc)?;
                spec.operands = vec![a];
                spec.results = vec![to];
            }
            Form::IndexBinary => {
                let a = self.typed_use(&KType::Index)?;
                self.expect_punct(",")?;
                let b = self.typed_use(&KType::Index)?;
                spec.attrs = self.opt_attr_dict()?;
                spec.operands = vec![a, b];
                spec.results = vec![KType::Index];
            }
            Form::Dim => {
                let d = self.enum_kw("dimension", &["x", "y", "z"])?;
                spec.attrs.push(("dimension".into(), KAttr::Enum(d)));
                self.optional_upper_bound(&mut spec)?;
                spec.attrs.extend(self.opt_attr_dict()?);
                spec.results = vec![KType::Index];
            }
            Form::Special => return self.parse_special(spec, block, loc),
        }
        Ok(self.build(block, spec, loc))
    }

    fn parse_special(&mut self, mut spec: OpSpecK, block: Block, loc: Location) -> PResult<Op> {
        use KOp::*;
        match spec.kind {
            ArithConstant => {
                spec.attrs = self.opt_attr_dict()?;
                let vloc = self.loc();
                let value = match self.parse_attr()? {
                    KAttr::Bool(b) => KAttr::Int {
                        value: b as i128,
                        ty: KType::bool(),
                    },
                    a @ (KAttr::Int { .. }
                    | KAttr::Float { .. }
                    | KAttr::DenseInts { .. }
                    | KAttr::DenseFloats { .. }) => a,
                    _ => {
                        return Err(KernelParseError::new(
                            vloc,
                            "arith.constant needs an integer, float or dense vector value",
                        ))
                    }
                };
                if let KAttr::Int { ty, .. } | KAttr::Float { ty, .. } = &value {
                    // An untyped literal defaults to i64/f64 (MLIR: only
                    // with an explicit type; accept `: i64` spelled out).
                    spec.results = vec![ty.clone()];
                }
                if let KAttr::DenseInts { ty, .. } | KAttr::DenseFloats { ty, .. } = &value {
                    spec.results = vec![ty.clone()];
                }
                spec.attrs.insert(0, ("value".into(), value));
            }
            IndexConstant => {
                let v = self.int("an integer")?;
                spec.attrs.push((
                    "value".into(),
                    KAttr::Int {
                        value: v as i128,
                        ty: KType::Index,
                    },
                ));
                spec.attrs.extend(self.opt_attr_dict()?);
                spec.results = vec![KType::Index];
            }
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                let a = self.value_use()?;
                self.expect_punct(",")?;
                let b = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                let second = if spec.kind == ArithAddUIExtended {
                    self.expect_punct(",")?;
                    self.parse_type()?
                } else {
                    ty.clone()
                };
                self.check_ty(a, &ty, loc)?;
                self.check_ty(b, &ty, loc)?;
                spec.operands = vec![a, b];
                spec.results = vec![ty, second];
            }
            ArithCmpI | ArithCmpF => {
                let preds: &[&str] = if spec.kind == ArithCmpI {
                    &CMPI_PREDICATES
                } else {
                    &CMPF_PREDICATES
                };
                let p = self.enum_kw("predicate", preds)?;
                spec.attrs.push(("predicate".into(), KAttr::Enum(p)));
                self.expect_punct(",")?;
                let a = self.value_use()?;
                self.expect_punct(",")?;
                let b = self.value_use()?;
                self.parse_tail(&mut spec)?;
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                self.check_ty(a, &ty, loc)?;
                self.check_ty(b, &ty, loc)?;
                spec.operands = vec![a, b];
                spec.results = vec![bool_like(&ty)];
            }
            IndexCmp => {
                let p = self.enum_kw("predicate", &CMPI_PREDICATES)?;
                spec.attrs.push(("pred".into(), KAttr::Enum(p)));
                self.expect_punct("(")?;
                let a = self.typed_use(&KType::Index)?;
                self.expect_punct(",")?;
                let b = self.typed_use(&KType::Index)?;
                self.expect_punct(")")?;
                spec.attrs.extend(self.opt_attr_dict()?);
                spec.operands = vec![a, b];
                spec.results = vec![KType::bool()];
            }
            ArithSelect => {
                let c = self.value_use()?;
                self.expect_punct(",")?;
                let a = self.value_use()?;
                self.expect_punct(",")?;
                let b = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let t1 = self.parse_type()?;
                let (cty, ty) = if self.eat_punct(",")? {
                    (t1, self.parse_type()?)
                } else {
                    (KType::bool(), t1)
                };
                self.check_ty(c, &cty, loc)?;
                self.check_ty(a, &ty, loc)?;
                self.check_ty(b, &ty, loc)?;
                spec.operands = vec![c, a, b];
                spec.results = vec![ty];
            }
            GpuLaneId => {
                self.optional_upper_bound(&mut spec)?;
                spec.attrs.extend(self.opt_attr_dict()?);
                spec.results = vec![KType::Index];
            }
            GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups => {
                self.optional_upper_bound(&mut spec)?;
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let tloc = self.loc();
                if self.parse_type()? != KType::Index {
                    return Err(KernelParseError::new(tloc, "expected 'index'"));
                }
                spec.results = vec![KType::Index];
            }
            GpuBarrier => spec.attrs = self.opt_attr_dict()?,
            GpuShuffle => {
                let mode = self.enum_kw("shuffle mode", &SHUFFLE_MODES)?;
                spec.attrs.push(("mode".into(), KAttr::Enum(mode)));
                let v = self.value_use()?;
                self.expect_punct(",")?;
                let off = self.typed_use(&KType::i32())?;
                self.expect_punct(",")?;
                let width = self.typed_use(&KType::i32())?;
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let ty = self.parse_type()?;
                self.check_ty(v, &ty, loc)?;
                spec.operands = vec![v, off, width];
                spec.results = vec![ty, KType::bool()];
            }
            GpuSubgroupReduce => {
                let op = self.enum_kw("reduction", &REDUCE_OPS)?;
                spec.attrs.push(("op".into(), KAttr::Enum(op)));
                let v = self.value_use()?;
                if self.eat_ident("uniform")? {
                    spec.attrs.push(("uniform".into(), KAttr::Unit));
                }
                if self.is_ident("cluster") {
                    return self
                        .err("'cluster(...)' of gpu.subgroup_reduce is not in MLIR 19's syntax");
                }
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                self.expect_punct("(")?;
                let ty = self.parse_type()?;
                self.expect_punct(")")?;
                self.expect_punct("->")?;
                let rloc = self.loc();
                // `-> f32` or `-> (f32)`.
                let mut rtys = self.parse_result_types()?;
                if rtys.len() != 1 {
                    return Err(KernelParseError::new(rloc, "expected one result type"));
                }
                self.check_ty(v, &ty, loc)?;
                spec.operands = vec![v];
                spec.results = vec![rtys.remove(0)];
            }
            GpuReturn | FuncReturn => {
                spec.attrs = self.opt_attr_dict()?;
                spec.operands = self.values_colon_types()?;
            }
            ScfYield => {
                spec.attrs = self.opt_attr_dict()?;
                spec.operands = self.values_colon_types()?;
            }
            ScfCondition => {
                self.expect_punct("(")?;
                let c = self.typed_use(&KType::bool())?;
                self.expect_punct(")")?;
                spec.attrs = self.opt_attr_dict()?;
                let mut ops = vec![c];
                ops.extend(self.values_colon_types()?);
                spec.operands = ops;
            }
            FuncCall => {
                let callee = self.symbol_ref()?;
                spec.attrs.push(("callee".into(), KAttr::SymbolRef(callee)));
                self.expect_punct("(")?;
                let mut args = Vec::new();
                self.comma_list(")", |p| {
                    args.push(p.value_use()?);
                    Ok(())
                })?;
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let tloc = self.loc();
                let KType::Function { inputs, results } = self.parse_type()? else {
                    return Err(KernelParseError::new(tloc, "expected a function type"));
                };
                if inputs.len() != args.len() {
                    return Err(KernelParseError::new(
                        tloc,
                        format!(
                            "{} arguments but {} argument types",
                            args.len(),
                            inputs.len()
                        ),
                    ));
                }
                for (a, t) in args.iter().zip(&inputs) {
                    self.check_ty(*a, t, loc)?;
                }
                spec.operands = args;
                spec.results = results;
            }
            GpuLaunchFunc => self.parse_launch_func(&mut spec, loc)?,
            MemRefLoad => {
                let m = self.value_use()?;
                let idx = self.index_list()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let ty = self.memref_type()?;
                self.check_ty(m, &ty, loc)?;
                let elem = ty.memref_elem().cloned().unwrap_or(KType::f32());
                spec.operands = std::iter::once(m).chain(idx).collect();
                spec.results = vec![elem];
            }
            MemRefStore => {
                let v = self.value_use()?;
                self.expect_punct(",")?;
                let m = self.value_use()?;
                let idx = self.index_list()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let ty = self.memref_type()?;
                self.check_ty(m, &ty, loc)?;
                if let Some(elem) = ty.memref_elem() {
                    self.check_ty(v, elem, loc)?;
                }
                spec.operands = [v, m].into_iter().chain(idx).collect();
            }
            MemRefAlloc | MemRefAlloca => {
                self.expect_punct("(")?;
                let mut dyn_sizes = Vec::new();
                self.comma_list(")", |p| {
                    dyn_sizes.push(p.typed_use(&KType::Index)?);
                    Ok(())
                })?;
                let mut syms = Vec::new();
                if self.eat_punct("[")? {
                    self.comma_list("]", |p| {
                        syms.push(p.typed_use(&KType::Index)?);
                        Ok(())
                    })?;
                }
                spec.attrs.push((
                    "operandSegmentSizes".into(),
                    KAttr::DenseI64(vec![dyn_sizes.len() as i64, syms.len() as i64]),
                ));
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let tloc = self.loc();
                let ty = self.memref_type()?;
                let dynamic = match &ty {
                    KType::MemRef { shape, .. } => shape.iter().filter(|d| d.is_none()).count(),
                    _ => usize::MAX,
                };
                if dynamic != dyn_sizes.len() {
                    return Err(KernelParseError::new(
                        tloc,
                        format!(
                            "the type has {dynamic} dynamic dimensions but {} sizes are given",
                            dyn_sizes.len()
                        ),
                    ));
                }
                spec.operands = dyn_sizes.into_iter().chain(syms).collect();
                spec.results = vec![ty];
            }
            MemRefDealloc => {
                let m = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let ty = self.memref_type()?;
                self.check_ty(m, &ty, loc)?;
                spec.operands = vec![m];
            }
            MemRefDim => {
                spec.attrs = self.opt_attr_dict()?;
                let m = self.value_use()?;
                self.expect_punct(",")?;
                let i = self.typed_use(&KType::Index)?;
                self.expect_punct(":")?;
                let ty = self.memref_type()?;
                self.check_ty(m, &ty, loc)?;
                spec.operands = vec![m, i];
                spec.results = vec![KType::Index];
            }
            MemRefSubView => {
                let m = self.value_use()?;
                let (offs, doffs) = self.mixed_list()?;
                let (sizes, dsizes) = self.mixed_list()?;
                let (strides, dstrides) = self.mixed_list()?;
                spec.attrs.push((
                    "operandSegmentSizes".into(),
                    KAttr::DenseI64(vec![
                        1,
                        doffs.len() as i64,
                        dsizes.len() as i64,
                        dstrides.len() as i64,
                    ]),
                ));
                spec.attrs
                    .push(("static_offsets".into(), KAttr::DenseI64(offs)));
                spec.attrs
                    .push(("static_sizes".into(), KAttr::DenseI64(sizes)));
                spec.attrs
                    .push(("static_strides".into(), KAttr::DenseI64(strides)));
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let from = self.memref_type()?;
                self.expect_ident("to")?;
                let to = self.memref_type()?;
                self.check_ty(m, &from, loc)?;
                spec.operands = std::iter::once(m)
                    .chain(doffs)
                    .chain(dsizes)
                    .chain(dstrides)
                    .collect();
                spec.results = vec![to];
            }
            VectorLoad => {
                let (m, idx, vty) = self.vector_access(&mut spec, loc)?;
                spec.operands = std::iter::once(m).chain(idx).collect();
                spec.results = vec![vty];
            }
            VectorStore => {
                let v = self.value_use()?;
                self.expect_punct(",")?;
                let (m, idx, vty) = self.vector_access(&mut spec, loc)?;
                self.check_ty(v, &vty, loc)?;
                spec.operands = [v, m].into_iter().chain(idx).collect();
            }
            VectorExtract => {
                let v = self.value_use()?;
                let (pos, dynamic) = self.mixed_list()?;
                spec.attrs
                    .push(("static_position".into(), KAttr::DenseI64(pos)));
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let rty = self.parse_type()?;
                self.expect_ident("from")?;
                let vty = self.vector_type()?;
                self.check_ty(v, &vty, loc)?;
                spec.operands = std::iter::once(v).chain(dynamic).collect();
                spec.results = vec![rty];
            }
            VectorInsert => {
                let s = self.value_use()?;
                self.expect_punct(",")?;
                let v = self.value_use()?;
                let (pos, dynamic) = self.mixed_list()?;
                spec.attrs
                    .push(("static_position".into(), KAttr::DenseI64(pos)));
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let sty = self.parse_type()?;
                self.expect_ident("into")?;
                let vty = self.vector_type()?;
                self.check_ty(s, &sty, loc)?;
                self.check_ty(v, &vty, loc)?;
                spec.operands = [s, v].into_iter().chain(dynamic).collect();
                spec.results = vec![vty];
            }
            VectorExtractElement | VectorInsertElement => {
                let s = if spec.kind == VectorInsertElement {
                    let s = self.value_use()?;
                    self.expect_punct(",")?;
                    Some(s)
                } else {
                    None
                };
                let v = self.value_use()?;
                self.expect_punct("[")?;
                let mut pos = None;
                if !self.is_punct("]") {
                    let p = self.value_use()?;
                    self.expect_punct(":")?;
                    let pty = self.parse_type()?;
                    self.check_ty(p, &pty, loc)?;
                    pos = Some(p);
                }
                self.expect_punct("]")?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let vty = self.vector_type()?;
                self.check_ty(v, &vty, loc)?;
                let elem = vty.scalar().clone();
                if let Some(s) = s {
                    self.check_ty(s, &elem, loc)?;
                    spec.operands = [s, v].into_iter().chain(pos).collect();
                    spec.results = vec![vty];
                } else {
                    spec.operands = std::iter::once(v).chain(pos).collect();
                    spec.results = vec![elem];
                }
            }
            VectorSplat => {
                let s = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let vty = self.vector_type()?;
                self.check_ty(s, vty.scalar(), loc)?;
                spec.operands = vec![s];
                spec.results = vec![vty];
            }
            VectorShuffle => {
                let a = self.value_use()?;
                self.expect_punct(",")?;
                let b = self.value_use()?;
                self.expect_punct("[")?;
                let mut mask = Vec::new();
                self.comma_list("]", |p| {
                    mask.push(p.int("a mask index")?);
                    Ok(())
                })?;
                spec.attrs
                    .push(("mask".into(), KAttr::DenseI64(mask.clone())));
                spec.attrs.extend(self.opt_attr_dict()?);
                self.expect_punct(":")?;
                let t1 = self.vector_type()?;
                self.expect_punct(",")?;
                let t2 = self.vector_type()?;
                self.check_ty(a, &t1, loc)?;
                self.check_ty(b, &t2, loc)?;
                spec.operands = vec![a, b];
                spec.results = vec![KType::vector(mask.len() as u64, t1.scalar().clone())];
            }
            VectorInterleave => {
                let a = self.value_use()?;
                self.expect_punct(",")?;
                let b = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let t = self.vector_type()?;
                self.expect_punct("->")?;
                let r = self.vector_type()?;
                self.check_ty(a, &t, loc)?;
                self.check_ty(b, &t, loc)?;
                spec.operands = vec![a, b];
                spec.results = vec![r];
            }
            VectorDeinterleave => {
                let a = self.value_use()?;
                spec.attrs = self.opt_attr_dict()?;
                self.expect_punct(":")?;
                let t = self.vector_type()?;
                self.expect_punct("->")?;
                let r = self.vector_type()?;
                self.check_ty(a, &t, loc)?;
                spec.operands = vec![a];
                spec.results = vec![r.clone(), r];
            }
            VectorReduction => {
                self.expect_punct("<")?;
                let kind = self.enum_kw("combining kind", &VECTOR_KINDS)?;
                self.expect_punct(">")?;
                spec.attrs.push(("kind".into(), KAttr::Enum(kind)));
                self.expect_punct(",")?;
                let v = self.value_use()?;
                let acc = if self.eat_punct(",")? {
                    Some(self.value_use()?)
                } else {
                    None
                };
                self.parse_tail(&mut spec)?;
                self.expect_punct(":")?;
                let vty = self.vector_type()?;
                self.expect_ident("into")?;
                let rty = self.parse_type()?;
                self.check_ty(v, &vty, loc)?;
                if let Some(acc) = acc {
                    self.check_ty(acc, &rty, loc)?;
                }
                spec.operands = std::iter::once(v).chain(acc).collect();
                spec.results = vec![rty];
            }
            ScfFor => return self.parse_scf_for(spec, block, loc),
            ScfIf => return self.parse_scf_if(spec, block, loc),
            ScfWhile => return self.parse_scf_while(spec, block, loc),
            other => {
                return Err(KernelParseError::new(
                    loc,
                    format!("'{}' cannot appear here", other.name()),
                ))
            }
        }
        Ok(self.build(block, spec, loc))
    }

    /// `gpu.launch_func @m::@k [clusters in (...)] blocks in (...) threads
    /// in (...) [dynamic_shared_memory_size %s] [args(%a : T, ...)]`.
    fn parse_launch_func(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        if self.is_ident("async") {
            return self.err("async gpu.launch_func is not supported");
        }
        let kernel = self.symbol_ref()?;
        if kernel.len() != 2 {
            return self.err("gpu.launch_func needs a nested symbol '@module::@kernel'");
        }
        spec.attrs.push(("kernel".into(), KAttr::SymbolRef(kernel)));
        let triple = |p: &mut Self, kw: &str| -> PResult<Vec<Value>> {
            p.expect_ident(kw)?;
            p.expect_ident("in")?;
            p.expect_punct("(")?;
            let mut vals = Vec::new();
            for i in 0..3 {
                if i > 0 {
                    p.expect_punct(",")?;
                }
                vals.push(p.typed_use(&KType::Index)?);
            }
            p.expect_punct(")")?;
            Ok(vals)
        };
        let clusters = if self.is_ident("clusters") {
            triple(self, "clusters")?
        } else {
            Vec::new()
        };
        let grid = triple(self, "blocks")?;
        let threads = triple(self, "threads")?;
        let smem = if self.eat_ident("dynamic_shared_memory_size")? {
            vec![self.typed_use(&KType::Int(32))?]
        } else {
            Vec::new()
        };
        let mut args = Vec::new();
        if self.eat_ident("args")? {
            self.expect_punct("(")?;
            self.comma_list(")", |p| {
                let v = p.value_use()?;
                p.expect_punct(":")?;
                let t = p.parse_type()?;
                p.check_ty(v, &t, loc)?;
                args.push(v);
                Ok(())
            })?;
        }
        let c = clusters.len() as i64 / 3;
        spec.attrs.push((
            "operandSegmentSizes".into(),
            KAttr::DenseI64(vec![
                0,
                1,
                1,
                1,
                1,
                1,
                1,
                c,
                c,
                c,
                smem.len() as i64,
                args.len() as i64,
                0,
            ]),
        ));
        spec.attrs.extend(self.opt_attr_dict()?);
        spec.operands = grid
            .into_iter()
            .chain(threads)
            .chain(clusters)
            .chain(smem)
            .chain(args)
            .collect();
        Ok(())
    }
}
