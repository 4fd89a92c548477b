//! MLIR 19's custom assembly of the computational and control-flow kernel
//! ops: the families of [`form`] (`%a, %b : T`, casts, ids, ...), then one
//! parser per op of [`Form::Special`] (`arith`, `index`, `gpu`,
//! `func.call`/`func.return`, `gpu.launch_func` here; `memref`, `vector`
//! and `scf` in their own files).

use super::{KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KValue};
pub(crate) use crate::kernel::forms::*;
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::print::type_to_string;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// Checks that `v` has type `ty` (MLIR checks operand types while
    /// parsing custom forms).
    pub(crate) fn check_ty(&self, v: KValue, ty: &KType, loc: Location) -> PResult<()> {
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
    pub(super) fn parse_tail(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.parse_flags(spec)?;
        let extra = self.opt_attr_dict()?;
        spec.attrs.extend(extra);
        Ok(())
    }

    pub(super) fn enum_kw(&mut self, what: &str, allowed: &[&str]) -> PResult<String> {
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
    pub(super) fn index_list(&mut self) -> PResult<Vec<KValue>> {
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
    pub(super) fn mixed_list(&mut self) -> PResult<(Vec<i64>, Vec<KValue>)> {
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

    pub(super) fn memref_type(&mut self) -> PResult<KType> {
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

    pub(super) fn vector_type(&mut self) -> PResult<KType> {
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
    fn values_colon_types(&mut self) -> PResult<Vec<KValue>> {
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
    pub(crate) fn parse_custom(
        &mut self,
        kind: KOpKind,
        block: KBlock,
        loc: Location,
    ) -> PResult<KOp> {
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

    /// An op of [`Form::Special`]: one parser per op (or per family of
    /// ops spelled alike). Every op is listed, so that a new op fails to
    /// compile until it is given a syntax here.
    fn parse_special(&mut self, mut spec: OpSpecK, block: KBlock, loc: Location) -> PResult<KOp> {
        use KOpKind::*;
        match spec.kind {
            ArithConstant => self.parse_arith_constant(&mut spec)?,
            IndexConstant => self.parse_index_constant(&mut spec)?,
            ArithAddUIExtended | ArithMulUIExtended | ArithMulSIExtended => {
                self.parse_extended(&mut spec, loc)?
            }
            ArithCmpI | ArithCmpF => self.parse_cmp(&mut spec, loc)?,
            IndexCmp => self.parse_index_cmp(&mut spec)?,
            ArithSelect => self.parse_select(&mut spec, loc)?,
            GpuLaneId => self.parse_lane_id(&mut spec)?,
            GpuSubgroupId | GpuSubgroupSize | GpuNumSubgroups => {
                self.parse_subgroup_query(&mut spec)?
            }
            GpuBarrier => spec.attrs = self.opt_attr_dict()?,
            GpuShuffle => self.parse_shuffle(&mut spec, loc)?,
            GpuSubgroupReduce => self.parse_subgroup_reduce(&mut spec, loc)?,
            GpuSubgroupMmaLoadMatrix => self.parse_mma_load(&mut spec, loc)?,
            GpuSubgroupMmaStoreMatrix => self.parse_mma_store(&mut spec, loc)?,
            GpuSubgroupMmaCompute => self.parse_mma_compute(&mut spec, loc)?,
            GpuSubgroupMmaConstantMatrix => self.parse_mma_constant(&mut spec)?,
            GpuReturn | FuncReturn | ScfYield => self.parse_return(&mut spec)?,
            ScfCondition => self.parse_condition(&mut spec)?,
            FuncCall => self.parse_call(&mut spec, loc)?,
            GpuLaunchFunc => self.parse_launch_func(&mut spec, loc)?,
            MemRefLoad => self.parse_memref_load(&mut spec, loc)?,
            MemRefStore => self.parse_memref_store(&mut spec, loc)?,
            MemRefAlloc | MemRefAlloca => self.parse_alloc(&mut spec)?,
            MemRefDealloc => self.parse_dealloc(&mut spec, loc)?,
            MemRefDim => self.parse_memref_dim(&mut spec, loc)?,
            MemRefSubView => self.parse_subview(&mut spec, loc)?,
            VectorLoad => self.parse_vector_load(&mut spec, loc)?,
            VectorStore => self.parse_vector_store(&mut spec, loc)?,
            VectorExtract => self.parse_vector_extract(&mut spec, loc)?,
            VectorInsert => self.parse_vector_insert(&mut spec, loc)?,
            VectorExtractElement | VectorInsertElement => {
                self.parse_vector_element(&mut spec, loc)?
            }
            VectorSplat => self.parse_splat(&mut spec, loc)?,
            VectorShuffle => self.parse_vector_shuffle(&mut spec, loc)?,
            VectorInterleave => self.parse_interleave(&mut spec, loc)?,
            VectorDeinterleave => self.parse_deinterleave(&mut spec, loc)?,
            VectorReduction => self.parse_reduction(&mut spec, loc)?,
            ScfFor => return self.parse_scf_for(spec, block, loc),
            ScfIf => return self.parse_scf_if(spec, block, loc),
            ScfWhile => return self.parse_scf_while(spec, block, loc),
            // Parsed elsewhere: the structure (structure.rs), SPIR-V ops
            // (spirv.rs) and the families of `form` (parse_custom).
            BuiltinModule | GpuModule | GpuFunc | FuncFunc | SpirvOp | family_ops!() => {
                return Err(KernelParseError::new(
                    loc,
                    format!("'{}' cannot appear here", spec.kind.name()),
                ))
            }
        }
        Ok(self.build(block, spec, loc))
    }

    // ---- arith and index ----------------------------------------------

    /// `arith.constant [attrs] VALUE`: the result has the value's type.
    fn parse_arith_constant(&mut self, spec: &mut OpSpecK) -> PResult<()> {
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
        Ok(())
    }

    /// `index.constant N`.
    fn parse_index_constant(&mut self, spec: &mut OpSpecK) -> PResult<()> {
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
        Ok(())
    }

    /// `arith.addui_extended` / `mului_extended` / `mulsi_extended`: `%a, %b : T`
    /// (`: T, U` for the add).
    fn parse_extended(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let a = self.value_use()?;
        self.expect_punct(",")?;
        let b = self.value_use()?;
        spec.attrs = self.opt_attr_dict()?;
        self.expect_punct(":")?;
        let ty = self.parse_type()?;
        let second = if spec.kind == KOpKind::ArithAddUIExtended {
            self.expect_punct(",")?;
            self.parse_type()?
        } else {
            ty.clone()
        };
        self.check_ty(a, &ty, loc)?;
        self.check_ty(b, &ty, loc)?;
        spec.operands = vec![a, b];
        spec.results = vec![ty, second];
        Ok(())
    }

    /// `arith.cmpi` / `arith.cmpf`: `PRED, %a, %b [flags] : T`.
    fn parse_cmp(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let preds: &[&str] = if spec.kind == KOpKind::ArithCmpI {
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
        self.parse_tail(spec)?;
        self.expect_punct(":")?;
        let ty = self.parse_type()?;
        self.check_ty(a, &ty, loc)?;
        self.check_ty(b, &ty, loc)?;
        spec.operands = vec![a, b];
        spec.results = vec![bool_like(&ty)];
        Ok(())
    }

    /// `index.cmp PRED(%a, %b)`.
    fn parse_index_cmp(&mut self, spec: &mut OpSpecK) -> PResult<()> {
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
        Ok(())
    }

    /// `arith.select %c, %a, %b : T` (or `: C, T`).
    fn parse_select(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
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
        Ok(())
    }

    // ---- gpu ----------------------------------------------------------

    /// `gpu.lane_id [upper_bound N]`.
    fn parse_lane_id(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.optional_upper_bound(spec)?;
        spec.attrs.extend(self.opt_attr_dict()?);
        spec.results = vec![KType::Index];
        Ok(())
    }

    /// `gpu.subgroup_id` / `subgroup_size` / `num_subgroups`: `[upper_bound N] :
    /// index`.
    fn parse_subgroup_query(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.optional_upper_bound(spec)?;
        spec.attrs.extend(self.opt_attr_dict()?);
        self.expect_punct(":")?;
        let tloc = self.loc();
        if self.parse_type()? != KType::Index {
            return Err(KernelParseError::new(tloc, "expected 'index'"));
        }
        spec.results = vec![KType::Index];
        Ok(())
    }

    /// `gpu.shuffle MODE %v, %offset, %width : T`.
    fn parse_shuffle(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
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
        Ok(())
    }

    /// `gpu.subgroup_reduce OP %v [uniform] : (T) -> T`.
    fn parse_subgroup_reduce(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
        let op = self.enum_kw("reduction", &REDUCE_OPS)?;
        spec.attrs.push(("op".into(), KAttr::Enum(op)));
        let v = self.value_use()?;
        if self.eat_ident("uniform")? {
            spec.attrs.push(("uniform".into(), KAttr::Unit));
        }
        if self.is_ident("cluster") {
            return self.err("'cluster(...)' of gpu.subgroup_reduce is not in MLIR 19's syntax");
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
        Ok(())
    }

    // ---- terminators and calls ----------------------------------------

    /// `gpu.return` / `return` / `scf.yield`: `[%a, ... : T, ...]`.
    fn parse_return(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        spec.attrs = self.opt_attr_dict()?;
        spec.operands = self.values_colon_types()?;
        Ok(())
    }

    /// `scf.condition(%c) [%a, ... : T, ...]`.
    fn parse_condition(&mut self, spec: &mut OpSpecK) -> PResult<()> {
        self.expect_punct("(")?;
        let c = self.typed_use(&KType::bool())?;
        self.expect_punct(")")?;
        spec.attrs = self.opt_attr_dict()?;
        let mut ops = vec![c];
        ops.extend(self.values_colon_types()?);
        spec.operands = ops;
        Ok(())
    }

    /// `call @f(%a, ...) : (T, ...) -> (R, ...)`.
    fn parse_call(&mut self, spec: &mut OpSpecK, loc: Location) -> PResult<()> {
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
        Ok(())
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
        let triple = |p: &mut Self, kw: &str| -> PResult<Vec<KValue>> {
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
