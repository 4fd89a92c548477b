//! The parser of the tensor IR's text form: MLIR 19's custom syntax for
//! `func`, `arith`, `math`, `linalg` and `tensor` ops, and IREE's syntax
//! for the ops of its end-to-end test files (`util`, `flow`, `check`).
//!
//! Accepted structure: attribute and type aliases (`#map = affine_map<...>`,
//! `!t = tensor<...>`), an optional `module [@name] [attributes {...}]`
//! wrapper, and `func.func` definitions. Inside functions, `return`/`call`
//! may be written with or without `func.`. Named linalg ops get their
//! synthesized body ([`structured`](super::structured)); the short forms
//! `linalg.map { arith.addf }` / `linalg.reduce { arith.addf }` get the
//! body MLIR builds for them.
//!
//! The parser never panics; every failure is a [`TensorParseError`] with
//! the line and column. Unknown ops are errors naming the supported ops of
//! their dialect; when a program uses several, the error lists every one
//! with its line ([`unsupported`]).

mod affine_ops;
mod assume;
mod attrs;
mod generic_form;
mod linalg;
mod linalg_ext;
mod ml_program;
mod mul_extended;
mod ops;
mod resources;
mod rewrite;
mod scf;
mod scf_guard;
mod tensor_ops;
mod tie_shape;
mod types;
mod unsupported;

use std::collections::HashMap;

use super::affine::AffineMap;
use super::entity::{TBlock, TOp, TType, TValue};
use super::error::TensorParseError;
use super::module::TensorModule;
use super::ops::OpKind;
use crate::ir::Location;
use crate::text::cursor::{Cursor, TokenParser};
use crate::text::lexer::TokKind;

/// Parse results.
pub(crate) type PResult<T> = Result<T, TensorParseError>;

/// An attribute dictionary kept as written: (name, value text) pairs.
type AttrDict = Vec<(String, String)>;

/// Parses a tensor program (see the module documentation). The result is
/// not verified: call [`verify`](super::verify()) (or use
/// [`load`](super::load)).
pub fn parse(src: &str) -> Result<TensorModule, TensorParseError> {
    let (src, blobs) = resources::split_resources(src)?;
    let src = src.as_str();
    let mut p = Parser::new(src)?;
    p.resources = blobs;
    match p.parse_top() {
        Ok(()) => Ok(p.m),
        Err(_) if p.generic_form || unsupported::has_generic_ops(src) => {
            // MLIR's generic op form: read as the custom syntax it stands
            // for (every op on its own line still).
            let blobs = std::mem::take(&mut p.resources);
            let text = generic_form::translate(src)?;
            let mut p = Parser::new(&text)?;
            p.resources = blobs;
            p.translated = true;
            match p.parse_top() {
                Ok(()) => Ok(p.m),
                Err(e) => Err(unsupported::with_all_unsupported(&text, e)),
            }
        }
        Err(e) => Err(unsupported::with_all_unsupported(src, e)),
    }
}

/// An attribute alias's value.
#[derive(Clone, Debug)]
pub(crate) enum AliasValue {
    /// `affine_map<...>`.
    Map(AffineMap),
    /// Any other attribute: the byte offset of its text, parsed on use.
    Text(usize),
}

struct Scope {
    names: HashMap<String, Vec<TValue>>,
    isolated: bool,
}

/// What an op parser produces before the op is created.
pub(crate) struct ParsedOp {
    pub kind: OpKind,
    pub operands: Vec<TValue>,
    pub results: Vec<TType>,
    pub regions: Vec<TBlock>,
    /// Ops created for a rewrite at import (detached, in order), placed
    /// before the op itself; the op may use their results.
    pub before: Vec<TOp>,
}

impl ParsedOp {
    pub(crate) fn new(kind: OpKind, operands: Vec<TValue>, results: Vec<TType>) -> Self {
        ParsedOp {
            kind,
            operands,
            results,
            regions: Vec::new(),
            before: Vec::new(),
        }
    }
}

/// The tensor-IR parser: a lexer with one token of lookahead, the module
/// being built, SSA scopes and aliases.
pub(crate) struct Parser<'a> {
    cur: Cursor<'a>,
    pub(crate) m: TensorModule,
    scopes: Vec<Scope>,
    pub(crate) attr_aliases: HashMap<String, AliasValue>,
    pub(crate) type_aliases: HashMap<String, TType>,
    /// `ml_program.global` initial values by name.
    pub(crate) globals: HashMap<String, super::attr::ConstAttr>,
    /// The blobs of the `{-# dialect_resources #-}` section.
    pub(crate) resources: resources::Blobs,
    /// Set when the parser meets an op in MLIR's generic form: the program
    /// is then translated ([`generic_form`]) and parsed again.
    generic_form: bool,
    /// Whether the text is such a translation.
    translated: bool,
}

impl<'a> TokenParser<'a> for Parser<'a> {
    type Error = TensorParseError;

    fn cursor(&self) -> &Cursor<'a> {
        &self.cur
    }

    fn cursor_mut(&mut self) -> &mut Cursor<'a> {
        &mut self.cur
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> PResult<Self> {
        Ok(Parser {
            cur: Cursor::new(src)?,
            m: TensorModule::new(),
            scopes: Vec::new(),
            attr_aliases: HashMap::new(),
            type_aliases: HashMap::new(),
            globals: HashMap::new(),
            resources: resources::Blobs::new(),
            generic_form: false,
            translated: false,
        })
    }

    // ---- SSA names ---------------------------------------------------------

    pub(crate) fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(Scope {
            names: HashMap::new(),
            isolated,
        });
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Binds `%name` to `values` (one, or an op's result group). A name
    /// visible here — bound in this region or an enclosing one up to the
    /// nearest isolated from above — cannot be bound again (MLIR's rule:
    /// a region's values do not shadow those of the regions around it).
    pub(crate) fn define(&mut self, name: &str, values: Vec<TValue>, loc: Location) -> PResult<()> {
        if self.lookup(name).is_some() {
            return self.err_at(loc, format!("redefinition of SSA value '%{name}'"));
        }
        let Some(scope) = self.scopes.last_mut() else {
            return self.err_at(loc, "value defined outside any region");
        };
        scope.names.insert(name.to_owned(), values);
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<&Vec<TValue>> {
        for scope in self.scopes.iter().rev() {
            if let Some(v) = scope.names.get(name) {
                return Some(v);
            }
            if scope.isolated {
                return None;
            }
        }
        None
    }

    /// A use `%name` or `%name#N`.
    pub(crate) fn value_use(&mut self) -> PResult<TValue> {
        let TokKind::Value(name) = *self.peek() else {
            return self.expected("an SSA value '%...'");
        };
        let (base, index) = match name.split_once('#') {
            Some((b, i)) => (b, i.parse::<usize>().ok()),
            None => (name, None),
        };
        let found = match (self.lookup(base), index) {
            (Some(group), Some(i)) => group.get(i).copied(),
            (Some(group), None) if group.len() == 1 => group.first().copied(),
            (Some(group), None) => {
                return self.err(format!(
                    "'%{base}' names {} results: use '%{base}#N'",
                    group.len()
                ))
            }
            (None, _) => None,
        };
        match found {
            Some(v) => {
                self.bump()?;
                Ok(v)
            }
            None => self.err(format!("use of undefined value '%{name}'")),
        }
    }

    /// `%a, %b : T, U` (nothing when the next token is not a value): the
    /// values, checked against the written types.
    pub(crate) fn typed_value_list(&mut self) -> PResult<Vec<TValue>> {
        let values = self.value_list()?;
        if !values.is_empty() {
            self.expect_punct(":")?;
            let loc = self.loc();
            let written = self.parse_type_list()?;
            self.check_types(&values, &written, loc)?;
        }
        Ok(values)
    }

    /// `%a, %b, ...` (empty when the next token is not a value).
    pub(crate) fn value_list(&mut self) -> PResult<Vec<TValue>> {
        let mut out = Vec::new();
        if !matches!(*self.peek(), TokKind::Value(_)) {
            return Ok(out);
        }
        loop {
            out.push(self.value_use()?);
            if !self.is_punct(",") {
                return Ok(out);
            }
            let save = self.pos();
            self.bump()?;
            if !matches!(*self.peek(), TokKind::Value(_)) {
                self.reset_to(save)?;
                return Ok(out);
            }
        }
    }

    /// A use whose type must be `ty` (as written after the operands).
    pub(crate) fn check_type(&self, v: TValue, ty: TType, loc: Location) -> PResult<()> {
        let have = self.m.value_type(v);
        if have != ty {
            return self.err_at(
                loc,
                format!(
                    "use of value with type {} where {} is expected",
                    self.m.types.text(have),
                    self.m.types.text(ty)
                ),
            );
        }
        Ok(())
    }

    /// `%name` of a new definition.
    pub(crate) fn def_name(&mut self) -> PResult<(String, Location)> {
        match *self.peek() {
            TokKind::Value(name) if !name.contains('#') => {
                let loc = self.loc();
                self.bump()?;
                Ok((name.to_owned(), loc))
            }
            _ => self.expected("an SSA value name '%...'"),
        }
    }

    // ---- structure ---------------------------------------------------------

    fn parse_top(&mut self) -> PResult<()> {
        self.parse_aliases()?;
        if self.is_ident("module") || self.is_ident("builtin.module") {
            self.bump()?;
            if let TokKind::Symbol(_) = self.peek() {
                self.m.name = Some(self.symbol()?);
            }
            if self.eat_ident("attributes")? {
                self.m.attributes = self.raw_attr_dict()?;
            }
            self.expect_punct("{")?;
            while !self.eat_punct("}")? {
                self.parse_top_item()?;
            }
            self.parse_aliases()?;
            if !matches!(self.peek(), TokKind::Eof) {
                return self.expected("end of input after the module");
            }
            return Ok(());
        }
        while !matches!(self.peek(), TokKind::Eof) {
            self.parse_top_item()?;
            self.parse_aliases()?;
        }
        Ok(())
    }

    fn parse_top_item(&mut self) -> PResult<()> {
        match self.peek() {
            TokKind::Ident("func.func") => self.parse_func(),
            TokKind::Ident("ml_program.global") => self.parse_global(),
            TokKind::Ident(name) => {
                let name = name.to_string();
                self.err(format!(
                    "unsupported top-level op '{name}': a tensor program holds func.func definitions"
                ))
            }
            TokKind::Str(_) if !self.translated => {
                self.generic_form = true;
                self.err("an op in MLIR's generic form")
            }
            _ => self.expected("'func.func'"),
        }
    }

    /// `#name = attr` and `!name = type` definitions.
    fn parse_aliases(&mut self) -> PResult<()> {
        loop {
            match *self.peek() {
                TokKind::Hash(name) => {
                    let loc = self.loc();
                    self.bump()?;
                    self.expect_punct("=")?;
                    let value = if self.is_ident("affine_map") {
                        AliasValue::Map(self.parse_affine_map()?)
                    } else {
                        let start = self.pos();
                        self.skip_attr_value()?;
                        AliasValue::Text(start)
                    };
                    if self.attr_aliases.insert(name.to_string(), value).is_some() {
                        return self
                            .err_at(loc, format!("redefinition of attribute alias '#{name}'"));
                    }
                }
                TokKind::Bang(name) => {
                    let loc = self.loc();
                    self.bump()?;
                    self.expect_punct("=")?;
                    let ty = self.parse_type()?;
                    if self.type_aliases.insert(name.to_string(), ty).is_some() {
                        return self.err_at(loc, format!("redefinition of type alias '!{name}'"));
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// `{name = value, ...}` kept as text (module attributes).
    pub(crate) fn raw_attr_dict(&mut self) -> PResult<Vec<(String, String)>> {
        self.expect_punct("{")?;
        let mut out = Vec::new();
        self.comma_list("}", |p| {
            let name = match p.peek() {
                TokKind::Ident(s) => s.to_string(),
                TokKind::Str(s) => s.to_string(),
                _ => return p.expected("an attribute name"),
            };
            p.bump()?;
            if !p.eat_punct("=")? {
                out.push((name, String::new()));
                return Ok(());
            }
            let start = p.pos();
            p.skip_attr_value()?;
            let text = p.src()[start..p.prev_end()].trim().to_string();
            out.push((name, text));
            Ok(())
        })?;
        Ok(out)
    }

    /// An argument's or result's `{name = value, ...}` if one follows
    /// (empty otherwise).
    fn opt_attr_dict(&mut self) -> PResult<AttrDict> {
        if self.is_punct("{") {
            self.raw_attr_dict()
        } else {
            Ok(Vec::new())
        }
    }

    /// A function's results after `->`: `T`, or `(T [{attrs}], ...)`.
    fn parse_func_results(&mut self) -> PResult<(Vec<TType>, Vec<AttrDict>)> {
        let mut types = Vec::new();
        let mut attrs = Vec::new();
        if self.eat_punct("(")? {
            self.comma_list(")", |p| {
                types.push(p.parse_type()?);
                attrs.push(p.opt_attr_dict()?);
                Ok(())
            })?;
        } else {
            types.push(self.parse_type()?);
        }
        Ok((types, attrs))
    }

    /// Skips one attribute value (up to a `,` or closer at depth 0).
    fn skip_attr_value(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        let mut empty = true;
        loop {
            let ends = match self.peek() {
                TokKind::Eof => return self.expected("an attribute value"),
                TokKind::Punct("(" | "[" | "{" | "<") => {
                    depth += 1;
                    false
                }
                TokKind::Punct(")" | "]" | "}" | ">") if depth > 0 => {
                    depth -= 1;
                    false
                }
                TokKind::Punct(")" | "]" | "}" | ">") => true,
                TokKind::Punct(",") if depth == 0 => true,
                TokKind::Hash(_) | TokKind::Bang(_) | TokKind::Ident(_) => {
                    depth == 0 && !empty && self.starts_next_line()
                }
                _ => false,
            };
            if ends {
                // `{name = }`: no value at all.
                return if empty {
                    self.expected("an attribute value")
                } else {
                    Ok(())
                };
            }
            self.bump()?;
            empty = false;
        }
    }

    /// `func.func [vis] @name(%a: T, ...) [-> R] { body }`.
    fn parse_func(&mut self) -> PResult<()> {
        let loc = self.loc();
        self.bump()?;
        let visibility = match self.peek() {
            TokKind::Ident(v @ ("public" | "private" | "nested")) => {
                let v = v.to_string();
                self.bump()?;
                Some(v)
            }
            _ => None,
        };
        let name = self.symbol()?;
        if self.m.func_by_name(&name).is_some() {
            return self.err_at(loc, format!("redefinition of symbol '@{name}'"));
        }
        self.expect_punct("(")?;
        let mut args: Vec<(String, Location, TType)> = Vec::new();
        let mut decl_inputs = Vec::new();
        let mut arg_attrs = Vec::new();
        self.comma_list(")", |p| {
            if let TokKind::Value(_) = p.peek() {
                let (n, l) = p.def_name()?;
                p.expect_punct(":")?;
                let ty = p.parse_type()?;
                args.push((n, l, ty));
            } else {
                decl_inputs.push(p.parse_type()?);
            }
            arg_attrs.push(p.opt_attr_dict()?);
            Ok(())
        })?;
        if !args.is_empty() && !decl_inputs.is_empty() {
            return self.err_at(
                loc,
                "expected named arguments for every argument or for none",
            );
        }
        let (results, result_attrs) = if self.eat_punct("->")? {
            self.parse_func_results()?
        } else {
            (Vec::new(), Vec::new())
        };
        let attributes = if self.eat_ident("attributes")? {
            self.raw_attr_dict()?
        } else {
            Vec::new()
        };
        let has_body = self.is_punct("{");
        let inputs: Vec<TType> = if has_body {
            if !decl_inputs.is_empty() {
                return self.err_at(loc, "a function with a body needs named arguments");
            }
            args.iter().map(|a| a.2).collect()
        } else {
            decl_inputs
        };
        let f = self.m.add_func(&name, inputs, results, has_body, loc);
        let data = self.m.func_mut(f);
        data.visibility = visibility;
        data.attributes = attributes;
        if arg_attrs.iter().any(|a| !a.is_empty()) {
            data.arg_attrs = arg_attrs;
        }
        if result_attrs.iter().any(|a| !a.is_empty()) {
            data.result_attrs = result_attrs;
        }
        if let Some(body) = self.m.func(f).body {
            self.bump()?;
            self.push_scope(true);
            let values = self.m.block(body).args.clone();
            for ((n, l, _), v) in args.iter().zip(values) {
                self.define(n, vec![v], *l)?;
            }
            self.parse_ops_until_close(body)?;
            self.pop_scope();
        }
        Ok(())
    }

    /// Ops until the closing `}` (consumed).
    pub(crate) fn parse_ops_until_close(&mut self, block: TBlock) -> PResult<()> {
        loop {
            if self.eat_punct("}")? {
                return Ok(());
            }
            if matches!(self.peek(), TokKind::Eof) {
                return self.expected("'}'");
            }
            self.parse_op_into(block)?;
        }
    }

    /// A region `{ [^bb0(%a: T, ...):] ops }`; `entry_args` are its block
    /// arguments when given separately (the long forms of `linalg.map` and
    /// `linalg.reduce`).
    pub(crate) fn parse_region(
        &mut self,
        entry_args: Option<Vec<(String, Location, TType)>>,
    ) -> PResult<TBlock> {
        self.enter()?;
        self.expect_punct("{")?;
        self.push_scope(false);
        let mut args = entry_args.unwrap_or_default();
        if let TokKind::Block(_) = self.peek() {
            self.bump()?;
            if self.eat_punct("(")? {
                self.comma_list(")", |p| {
                    let (n, l) = p.def_name()?;
                    p.expect_punct(":")?;
                    let ty = p.parse_type()?;
                    args.push((n, l, ty));
                    Ok(())
                })?;
            }
            self.expect_punct(":")?;
        }
        let types: Vec<TType> = args.iter().map(|a| a.2).collect();
        let block = self.m.create_block(&types);
        let values = self.m.block(block).args.clone();
        for ((n, l, _), v) in args.iter().zip(values) {
            self.define(n, vec![v], *l)?;
        }
        let r = self.parse_ops_until_close(block);
        self.pop_scope();
        self.leave();
        r?;
        Ok(block)
    }

    /// `(%a: T, ...)` block arguments written before a region.
    pub(crate) fn parse_block_args(&mut self) -> PResult<Vec<(String, Location, TType)>> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        self.comma_list(")", |p| {
            let (n, l) = p.def_name()?;
            p.expect_punct(":")?;
            let ty = p.parse_type()?;
            args.push((n, l, ty));
            Ok(())
        })?;
        Ok(args)
    }

    /// `[%a[:N], ... =] op-name ...`, appended to `block`.
    pub(crate) fn parse_op_into(&mut self, block: TBlock) -> PResult<()> {
        self.enter()?;
        let mut defs: Vec<(String, usize, Location)> = Vec::new();
        if let TokKind::Value(_) = self.peek() {
            loop {
                let (name, loc) = self.def_name()?;
                let count = if self.eat_punct(":")? {
                    let n = self.uint("a result count")?;
                    usize::try_from(n).unwrap_or(usize::MAX)
                } else {
                    1
                };
                defs.push((name, count, loc));
                if !self.eat_punct(",")? {
                    break;
                }
            }
            self.expect_punct("=")?;
        }
        let loc = self.loc();
        let name = match self.peek() {
            TokKind::Ident(n) => n.to_string(),
            TokKind::Str(_) => {
                self.generic_form = !self.translated;
                return self.err("an op in MLIR's generic form that kiln cannot read");
            }
            _ => return self.expected("an operation name"),
        };
        self.bump()?;
        if let Some(short) = name.strip_prefix("scf.") {
            // Resolved at import: its results are values of the block.
            let results = self.parse_scf(block, short, loc)?;
            self.bind_results(defs, &results, loc)?;
            self.leave();
            return Ok(());
        }
        if name == "util.assume.int" {
            // Resolved at import: its results are its operands.
            let results = self.parse_assume_int(loc)?;
            self.bind_results(defs, &results, loc)?;
            self.leave();
            return Ok(());
        }
        if name == "flow.tensor.tie_shape" {
            // Resolved at import: its result is its operand.
            let result = self.parse_tie_shape(loc)?;
            self.bind_results(defs, &[result], loc)?;
            self.leave();
            return Ok(());
        }
        if name == "arith.mulsi_extended" || name == "arith.mului_extended" {
            // Rewritten at import into 64-bit arith ops of the block.
            let signed = name == "arith.mulsi_extended";
            let results = self.parse_mul_extended(block, signed, loc)?;
            self.bind_results(defs, &results, loc)?;
            self.leave();
            return Ok(());
        }
        if name.starts_with("iree_linalg_ext.") || name.starts_with("tm_tensor.") {
            // Rewritten at import into linalg ops of the block.
            let results = self.parse_linalg_ext(block, &name, loc)?;
            self.bind_results(defs, &results, loc)?;
            self.leave();
            return Ok(());
        }
        let parsed = self.parse_op_body(&name, loc)?;
        for op in parsed.before {
            self.m.append_op(block, op);
        }
        let op = self.m.create_op(
            parsed.kind,
            parsed.operands,
            &parsed.results,
            parsed.regions,
            loc,
        );
        self.m.append_op(block, op);
        let results = self.m.op(op).results.clone();
        self.bind_results(defs, &results, loc)?;
        self.leave();
        Ok(())
    }

    /// Binds the `%a[:N], ...` of an op to its results.
    fn bind_results(
        &mut self,
        defs: Vec<(String, usize, Location)>,
        results: &[TValue],
        loc: Location,
    ) -> PResult<()> {
        let declared: usize = defs.iter().map(|d| d.1).sum();
        if declared != results.len() {
            return self.err_at(
                loc,
                format!(
                    "operation defines {} results but was provided {declared} to bind",
                    results.len()
                ),
            );
        }
        let mut next = 0;
        for (name, count, l) in defs {
            self.define(&name, results[next..next + count].to_vec(), l)?;
            next += count;
        }
        Ok(())
    }
}
