//! Modules, functions, regions, blocks and the op-level dispatch:
//! `module`, `gpu.module`, `gpu.func`, `func.func`, result lists
//! (`%a, %b = ...`, `%r:2 = ...`) and block labels.

use super::{spirv, KernelParseError, OpSpecK, PResult, Parser};
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KRegion};
use crate::kernel::module::KAttr;
use crate::kernel::ops::KOpKind;
use crate::kernel::types::KType;
use crate::text::cursor::TokenParser;
use crate::text::lexer::TokKind;

/// A named argument of a region's entry block.
pub(crate) type ArgDef = (String, Location, KType);

/// An attribute dictionary.
type Dict = Vec<(String, KAttr)>;

impl Parser<'_> {
    /// The whole input: one `module` or a bare list of top-level ops.
    pub(crate) fn parse_top(&mut self) -> PResult<()> {
        let body = self.m.body();
        self.push_scope(true);
        if self.is_ident("module") || self.is_ident("builtin.module") {
            self.bump()?;
            let top = self.m.top();
            if let TokKind::Symbol(_) = self.peek() {
                let name = self.symbol()?;
                self.m.set_attr(top, "sym_name", KAttr::String(name));
            }
            if self.eat_ident("attributes")? {
                for (k, v) in self.parse_attr_dict()? {
                    self.m.set_attr(top, &k, v);
                }
            }
            self.expect_punct("{")?;
            self.parse_ops_until_close(body)?;
            self.expect_punct("}")?;
        } else if matches!(self.peek(), TokKind::Str(s) if s == "builtin.module") {
            // The generic form `"builtin.module"() ({...}) {attrs} : () -> ()`.
            self.bump()?;
            self.expect_punct("(")?;
            self.expect_punct(")")?;
            self.expect_punct("(")?;
            self.expect_punct("{")?;
            if let TokKind::Block(_) = self.peek() {
                self.bump()?;
                self.expect_punct(":")?;
            }
            self.parse_ops_until_close(body)?;
            self.expect_punct("}")?;
            self.expect_punct(")")?;
            let top = self.m.top();
            for (k, v) in self.opt_attr_dict()? {
                self.m.set_attr(top, &k, v);
            }
            self.expect_punct(":")?;
            let loc = self.loc();
            if self.parse_type()?
                != (KType::Function {
                    inputs: vec![],
                    results: vec![],
                })
            {
                return Err(KernelParseError::new(loc, "expected '() -> ()'"));
            }
        } else {
            while !matches!(self.peek(), TokKind::Eof) {
                if self.is_punct("}") {
                    return self.err("unexpected '}'");
                }
                self.parse_op(body)?;
            }
        }
        if !matches!(self.peek(), TokKind::Eof) {
            return self.expected("end of input");
        }
        self.pop_scope();
        Ok(())
    }

    /// Ops of one block, up to (not including) `}` or a block label.
    fn parse_ops_until_close(&mut self, block: KBlock) -> PResult<()> {
        loop {
            match self.peek() {
                TokKind::Punct("}") | TokKind::Block(_) => return Ok(()),
                TokKind::Eof => return self.expected("'}'"),
                _ => {
                    self.parse_op(block)?;
                }
            }
        }
    }

    /// `{ ... }` into `region`. With `entry`, the entry block gets those
    /// named arguments; otherwise a leading `^bb0(...):` label may give
    /// them. `{}` without `entry` leaves the region empty.
    pub(crate) fn parse_region(
        &mut self,
        region: KRegion,
        entry: Option<Vec<ArgDef>>,
        isolated: bool,
    ) -> PResult<()> {
        self.enter()?;
        self.expect_punct("{")?;
        self.push_scope(isolated);
        let mut current = None;
        if let Some(args) = entry {
            let types: Vec<KType> = args.iter().map(|a| a.2.clone()).collect();
            let block = self.m.append_block(region, &types);
            let values = self.m.block(block).args.clone();
            for ((name, loc, _), v) in args.iter().zip(values) {
                self.define(name, v, *loc)?;
            }
            current = Some(block);
            if matches!(self.peek(), TokKind::Block(_)) {
                // `^bb0:` without arguments naming the entry block is allowed
                // only when it declares nothing.
                let save = self.pos();
                self.bump()?;
                if !self.eat_punct(":")? {
                    self.reset_to(save)?;
                    return self.err("invalid block name in region with named arguments");
                }
            }
        }
        loop {
            match self.peek().clone() {
                TokKind::Punct("}") => break,
                TokKind::Eof => return self.expected("'}'"),
                TokKind::Block(_) => {
                    self.bump()?;
                    let mut args = Vec::new();
                    if self.eat_punct("(")? {
                        self.comma_list(")", |p| {
                            let (name, loc) = p.def_name()?;
                            p.expect_punct(":")?;
                            let ty = p.parse_type()?;
                            args.push((name, loc, ty));
                            Ok(())
                        })?;
                    }
                    self.expect_punct(":")?;
                    let types: Vec<KType> = args.iter().map(|a| a.2.clone()).collect();
                    let block = self.m.append_block(region, &types);
                    let values = self.m.block(block).args.clone();
                    for ((name, loc, _), v) in args.iter().zip(values) {
                        self.define(name, v, *loc)?;
                    }
                    current = Some(block);
                }
                _ => {
                    let block = match current {
                        Some(b) => b,
                        None => {
                            let b = self.m.append_block(region, &[]);
                            current = Some(b);
                            b
                        }
                    };
                    self.parse_ops_until_close(block)?;
                }
            }
        }
        self.expect_punct("}")?;
        self.pop_scope();
        self.leave();
        Ok(())
    }

    /// One op, with its result names (`None` for a dropped
    /// `gpu.module_end`).
    pub(crate) fn parse_op(&mut self, block: KBlock) -> PResult<Option<KOp>> {
        self.enter()?;
        let r = self.parse_op_inner(block);
        self.leave();
        r
    }

    fn parse_op_inner(&mut self, block: KBlock) -> PResult<Option<KOp>> {
        let loc = self.loc();
        let mut names: Vec<(String, usize, Location)> = Vec::new();
        if matches!(self.peek(), TokKind::Value(_)) {
            loop {
                let (name, nloc) = self.def_name()?;
                let mut count = 1;
                if self.eat_punct(":")? {
                    count = self.uint("a result count")? as usize;
                    if count == 0 {
                        return self.err("result count must be positive");
                    }
                }
                names.push((name, count, nloc));
                if !self.eat_punct(",")? {
                    break;
                }
            }
            self.expect_punct("=")?;
        }
        // The result count the names ask for (user-written: checked).
        let Some(wanted) = names.iter().try_fold(0usize, |a, n| a.checked_add(n.1)) else {
            return self.err("result count too large");
        };
        let op_loc = self.loc();
        let is_spirv = match self.peek() {
            TokKind::Str(name) => spirv::is_spirv_op(name),
            TokKind::Ident(name) => spirv::is_spirv_op(name),
            _ => false,
        };
        let op = match self.peek().clone() {
            _ if is_spirv => self.parse_spirv_op(block, op_loc, wanted)?,
            TokKind::Str(name) => {
                let name = name.to_string();
                self.bump()?;
                match self.parse_generic(&name, block, op_loc)? {
                    Some(op) => op,
                    None if names.is_empty() => return Ok(None),
                    None => {
                        return Err(KernelParseError::new(
                            loc,
                            "'gpu.module_end' has no results",
                        ))
                    }
                }
            }
            TokKind::Ident(name) => {
                self.bump()?;
                self.parse_named_op(name, block, op_loc)?
            }
            _ => return self.expected("an operation"),
        };
        // A trailing source location `loc(...)` is accepted and dropped.
        if self.is_ident("loc") {
            self.bump()?;
            self.skip_parens()?;
        }
        let results = self.m.op(op).results.clone();
        if !names.is_empty() && wanted != results.len() {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "operation '{}' defines {} results but {wanted} names are given",
                    self.m.op(op).kind.name(),
                    results.len()
                ),
            ));
        }
        if names.is_empty() && !results.is_empty() {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "operation '{}' has {} results that are not named",
                    self.m.op(op).kind.name(),
                    results.len()
                ),
            ));
        }
        let mut next = 0;
        for (name, count, nloc) in names {
            if count == 1 {
                self.define(&name, results[next], nloc)?;
                next += 1;
            } else {
                for i in 0..count {
                    self.define(&format!("{name}#{i}"), results[next], nloc)?;
                    next += 1;
                }
            }
        }
        Ok(Some(op))
    }

    /// An op in custom syntax, by name (with the default-dialect spellings
    /// `return`, `call`, `module`).
    fn parse_named_op(&mut self, name: &str, block: KBlock, loc: Location) -> PResult<KOp> {
        let kind = match name {
            "return" => match self.current_func() {
                Some(KOpKind::GpuFunc) => KOpKind::GpuReturn,
                _ => KOpKind::FuncReturn,
            },
            "call" => KOpKind::FuncCall,
            "spirv.module" | "spv.module" => {
                return Err(KernelParseError::new(
                    loc,
                    format!(
                        "'{name}' is already-lowered SPIR-V dialect IR, not a memref-level \
                         kernel; parse it with kiln_core::text::parse"
                    ),
                ))
            }
            _ => match KOpKind::from_name(name) {
                Some(k) => k,
                None => {
                    return Err(KernelParseError::new(
                        loc,
                        format!("unknown operation '{name}'"),
                    ))
                }
            },
        };
        match kind {
            KOpKind::BuiltinModule => Err(KernelParseError::new(
                loc,
                "a nested 'builtin.module' is not supported in kernels",
            )),
            KOpKind::GpuModule => self.parse_gpu_module(block, loc),
            KOpKind::GpuFunc => self.parse_gpu_func(block, loc),
            KOpKind::FuncFunc => self.parse_func_func(block, loc),
            _ => self.parse_custom(kind, block, loc),
        }
    }

    /// Skips a balanced `( ... )` (the cursor must be on `(`): a trailing
    /// `loc(...)`, or the regions of a generic op (re-parsed later).
    pub(super) fn skip_parens(&mut self) -> PResult<()> {
        self.expect_punct("(")?;
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                TokKind::Punct("(") => depth += 1,
                TokKind::Punct(")") => depth -= 1,
                TokKind::Eof => return self.expected("')'"),
                _ => {}
            }
            self.bump()?;
        }
        Ok(())
    }

    pub(crate) fn current_func(&self) -> Option<KOpKind> {
        self.func_kind.last().copied()
    }

    /// `gpu.module @name [targets] [attributes {...}] { ... }`.
    fn parse_gpu_module(&mut self, block: KBlock, loc: Location) -> PResult<KOp> {
        let name = self.symbol()?;
        let mut spec = OpSpecK::new(KOpKind::GpuModule);
        spec.regions = 1;
        spec.attrs.push(("sym_name".into(), KAttr::String(name)));
        if self.is_punct("[") {
            let targets = self.parse_attr()?;
            spec.attrs.push(("targets".into(), targets));
        }
        if self.eat_ident("attributes")? {
            spec.attrs.extend(self.parse_attr_dict()?);
        }
        let op = self.build(block, spec, loc);
        let region = self.regions_of(op)[0];
        self.parse_region(region, None, true)?;
        if self.m.region(region).blocks.is_empty() {
            self.m.append_block(region, &[]);
        }
        Ok(op)
    }

    /// `(%a: T {attrs}, ...)` or, when `allow_unnamed`, `(T {attrs}, ...)`.
    /// Returns the named arguments (empty names for unnamed ones) and the
    /// per-argument attribute dictionaries.
    fn parse_fn_args(&mut self, allow_unnamed: bool) -> PResult<(Vec<ArgDef>, Vec<Dict>, bool)> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        let mut attrs = Vec::new();
        let mut named = None;
        self.comma_list(")", |p| {
            let is_named = matches!(p.peek(), TokKind::Value(_));
            if *named.get_or_insert(is_named) != is_named {
                return p.err("either all or no function arguments must be named");
            }
            let (name, loc) = if is_named {
                let d = p.def_name()?;
                p.expect_punct(":")?;
                d
            } else if allow_unnamed {
                (String::new(), p.loc())
            } else {
                return p.expected("an argument '%name: type'");
            };
            let ty = p.parse_type()?;
            args.push((name, loc, ty));
            attrs.push(p.opt_attr_dict()?);
            Ok(())
        })?;
        Ok((args, attrs, named.unwrap_or(true)))
    }

    /// `-> T` / `-> (T {attrs}, ...)` after a function signature.
    fn parse_fn_results(&mut self) -> PResult<(Vec<KType>, Vec<Dict>)> {
        let mut tys = Vec::new();
        let mut attrs = Vec::new();
        if !self.eat_punct("->")? {
            return Ok((tys, attrs));
        }
        if self.eat_punct("(")? {
            self.comma_list(")", |p| {
                tys.push(p.parse_type()?);
                attrs.push(p.opt_attr_dict()?);
                Ok(())
            })?;
        } else {
            tys.push(self.parse_type()?);
            attrs.push(Vec::new());
        }
        Ok((tys, attrs))
    }

    /// Adds `arg_attrs`/`res_attrs` (when any argument or result has
    /// attributes) and the `attributes {...}` dictionary, if present, to a
    /// function's attributes; a name given twice is an error.
    fn parse_fn_attrs(
        &mut self,
        spec: &mut OpSpecK,
        arg_attrs: Vec<Dict>,
        res_attrs: Vec<Dict>,
    ) -> PResult<()> {
        if let Some(a) = Self::arg_attrs_attr(arg_attrs) {
            spec.attrs.push(("arg_attrs".into(), a));
        }
        if let Some(a) = Self::arg_attrs_attr(res_attrs) {
            spec.attrs.push(("res_attrs".into(), a));
        }
        if self.eat_ident("attributes")? {
            for (k, v) in self.parse_attr_dict()? {
                if spec.attrs.iter().any(|(n, _)| *n == k) {
                    return self.err(format!("attribute '{k}' is given twice"));
                }
                spec.attrs.push((k, v));
            }
        }
        Ok(())
    }

    fn arg_attrs_attr(attrs: Vec<Vec<(String, KAttr)>>) -> Option<KAttr> {
        if attrs.iter().all(|a| a.is_empty()) {
            None
        } else {
            Some(KAttr::Array(attrs.into_iter().map(KAttr::Dict).collect()))
        }
    }

    /// `gpu.func @k(args) [-> results] [workgroup(...)] [private(...)]
    /// [kernel] [attributes {...}] { ... }`.
    fn parse_gpu_func(&mut self, block: KBlock, loc: Location) -> PResult<KOp> {
        let name = self.symbol()?;
        let (args, arg_attrs, _) = self.parse_fn_args(false)?;
        let (results, res_attrs) = self.parse_fn_results()?;
        let attributions = |p: &mut Self, kw: &str| -> PResult<Vec<ArgDef>> {
            let mut out = Vec::new();
            if p.eat_ident(kw)? {
                p.expect_punct("(")?;
                p.comma_list(")", |p| {
                    let (n, l) = p.def_name()?;
                    p.expect_punct(":")?;
                    let ty = p.parse_type()?;
                    if !matches!(ty, KType::MemRef { .. }) {
                        return p.err(format!("{kw} attribution must be a memref"));
                    }
                    out.push((n, l, ty));
                    Ok(())
                })?;
            }
            Ok(out)
        };
        let workgroup = attributions(self, "workgroup")?;
        let private = attributions(self, "private")?;
        let kernel = self.eat_ident("kernel")?;
        let mut spec = OpSpecK::new(KOpKind::GpuFunc);
        spec.regions = 1;
        spec.attrs.push(("sym_name".into(), KAttr::String(name)));
        spec.attrs.push((
            "function_type".into(),
            KAttr::Type(KType::Function {
                inputs: args.iter().map(|a| a.2.clone()).collect(),
                results,
            }),
        ));
        if kernel {
            spec.attrs.push(("gpu.kernel".into(), KAttr::Unit));
        }
        spec.attrs.push((
            "workgroup_attributions".into(),
            KAttr::Int {
                value: workgroup.len() as i128,
                ty: KType::Int(64),
            },
        ));
        self.parse_fn_attrs(&mut spec, arg_attrs, res_attrs)?;
        let op = self.build(block, spec, loc);
        let region = self.regions_of(op)[0];
        let mut entry = args;
        entry.extend(workgroup);
        entry.extend(private);
        self.func_kind.push(KOpKind::GpuFunc);
        let r = self.parse_region(region, Some(entry), true);
        self.func_kind.pop();
        r?;
        Ok(op)
    }

    /// `func.func [private] @f(args) [-> results] [attributes {...}] [{...}]`.
    fn parse_func_func(&mut self, block: KBlock, loc: Location) -> PResult<KOp> {
        let mut visibility = None;
        for v in ["private", "public", "nested"] {
            if self.eat_ident(v)? {
                visibility = Some(v);
                break;
            }
        }
        let name = self.symbol()?;
        let (args, arg_attrs, named) = self.parse_fn_args(true)?;
        let (results, res_attrs) = self.parse_fn_results()?;
        let mut spec = OpSpecK::new(KOpKind::FuncFunc);
        spec.regions = 1;
        spec.attrs.push(("sym_name".into(), KAttr::String(name)));
        spec.attrs.push((
            "function_type".into(),
            KAttr::Type(KType::Function {
                inputs: args.iter().map(|a| a.2.clone()).collect(),
                results,
            }),
        ));
        if let Some(v) = visibility {
            spec.attrs
                .push(("sym_visibility".into(), KAttr::String(v.into())));
        }
        self.parse_fn_attrs(&mut spec, arg_attrs, res_attrs)?;
        let op = self.build(block, spec, loc);
        if self.is_punct("{") {
            if !named {
                return self.err("a function with a body needs named arguments");
            }
            let region = self.regions_of(op)[0];
            self.func_kind.push(KOpKind::FuncFunc);
            let r = self.parse_region(region, Some(args), true);
            self.func_kind.pop();
            r?;
        }
        Ok(op)
    }
}
