//! The parser: text -> [`Module`].
//!
//! A recursive-descent parser over the on-demand [`Lexer`]. The file is a
//! sequence of alias definitions and top-level ops; exactly one of them must
//! be a `spirv.module` (possibly inside a builtin `module`). Ops are created
//! detached and appended to blocks as they are read; regions are read into
//! detached blocks that are attached once their op exists.
//!
//! SSA names are scoped like MLIR's: a function body is isolated from
//! above, nested regions see the values of their enclosing regions, and a
//! use before the definition creates a placeholder value that is replaced
//! once the definition is seen (at the end of the isolated region at the
//! latest, where an unresolved name is an error).

mod attrs;
mod custom;
mod ops;
mod structural;
mod types;

use std::collections::HashMap;

use super::lexer::{missing_token_pos, Lexer, TokKind, Token};
use super::ParseError;
use crate::grammar::{AddressingModel, MemoryModel, OperandKind};
use crate::ir::{
    Attr, AttrStore, Block, Location, Module, Op, OpKind, OpSpec, Type, TypeStore, Value,
};

/// Result of a parse step.
pub(crate) type PResult<T> = Result<T, ParseError>;

/// Deepest nesting of types, attributes and regions the parser accepts.
const MAX_DEPTH: u32 = 100;

/// A forward reference to a value not yet defined.
#[derive(Clone, Debug)]
struct FwdRef {
    placeholder: Value,
    loc: Location,
}

/// Value names visible in one region.
#[derive(Debug, Default)]
struct ValueScope {
    names: HashMap<String, Value>,
    fwd: HashMap<String, FwdRef>,
    isolated: bool,
}

/// A block name known in the region being parsed.
#[derive(Clone, Copy, Debug)]
struct BlockRef {
    block: Block,
    defined: bool,
    first_use: Location,
}

/// Block names of one region.
#[derive(Debug, Default)]
struct RegionScope {
    blocks: HashMap<String, BlockRef>,
}

/// The parser state.
pub(crate) struct Parser<'a> {
    lex: Lexer<'a>,
    /// The lookahead token, lexed lazily.
    tok: Option<Token<'a>>,
    /// End of the last consumed token.
    prev_end: usize,
    pub(crate) m: Module,
    type_aliases: HashMap<String, Type>,
    attr_aliases: HashMap<String, Attr>,
    scopes: Vec<ValueScope>,
    regions: Vec<RegionScope>,
    /// Placeholder -> definition, applied when an isolated region closes.
    replacements: HashMap<Value, Value>,
    depth: u32,
    /// With [`parse_modules`]: the top-level spv ops and modules, in order.
    items: Option<Vec<TopItem>>,
    /// Inside a top-level `func.func` read as a `spirv.func`
    /// ([`parse_modules`]): `return` / `func.return` are spv returns.
    in_mlir_func: bool,
}

/// Parses a module text.
pub(crate) fn parse_module(src: &str) -> PResult<Module> {
    let mut p = Parser::new(src, Module::empty());
    p.parse_top_level()?;
    Ok(p.m)
}

/// Parses a text holding any number of `spirv.module`s and spv
/// module-level ops (`spirv.func`, `spirv.GlobalVariable`, ...) outside
/// them, at the top level or in a builtin module, as MLIR's conversion
/// tests write them. The ops outside any `spirv.module` are gathered, in
/// order, into a `spirv.module Logical GLSL450` without a VCE triple,
/// which comes first; a text without any op gives one empty module (MLIR
/// reads an empty file as an empty module). The modules share one arena
/// (each is the arena with its own top op).
pub(crate) fn parse_modules(src: &str) -> PResult<Vec<Module>> {
    let mut p = Parser::new(src, Module::empty());
    p.items = Some(Vec::new());
    let mut found = None;
    p.parse_top_items(&mut found, false)?;
    let items = p.items.take().unwrap_or_default();
    // Runs of loose ops become modules of their own, in source order.
    let mut tops: Vec<Op> = Vec::new();
    let mut run: Vec<Op> = Vec::new();
    for item in items.into_iter().chain([TopItem::End]) {
        match item {
            TopItem::Loose(op) => run.push(op),
            TopItem::Module(op) => {
                if !run.is_empty() {
                    tops.push(p.loose_module(std::mem::take(&mut run)));
                }
                tops.push(op);
            }
            TopItem::End => {
                if !run.is_empty() || tops.is_empty() {
                    tops.push(p.loose_module(std::mem::take(&mut run)));
                }
            }
        }
    }
    let base = p.m;
    Ok(tops
        .into_iter()
        .map(|top| {
            let mut m = base.clone();
            m.set_top(top);
            m
        })
        .collect())
}

/// One item at the top level of a text read by [`parse_modules`].
enum TopItem {
    /// An spv op outside any `spirv.module`.
    Loose(Op),
    /// A `spirv.module`.
    Module(Op),
    /// The end of the text.
    End,
}

/// Parses one op (custom or generic form, without its result names)
/// covering the whole input into `m`, detached, expecting `results`
/// results, with each `%name` of `bindings` standing for an existing value
/// of `m`. Every other value use is an error; so are regions (their blocks
/// would belong to no function here).
pub(crate) fn parse_op_into(
    m: &mut Module,
    src: &str,
    bindings: &[(String, Value)],
    results: usize,
) -> PResult<Op> {
    // Custom forms read the result count from the names bound to them.
    let src = match results {
        0 => src.to_owned(),
        n => format!("%__result:{n} = {src}"),
    };
    let mut p = Parser::new(&src, std::mem::replace(m, Module::empty()));
    p.scopes[0].names.extend(bindings.iter().cloned());
    let r = p.parse_operation().and_then(|op| {
        p.expect_eof()?;
        if let Some((name, fwd)) = p.scopes[0].fwd.iter().next() {
            return Err(p.err_at(fwd.loc, format!("use of undefined value '%{name}'")));
        }
        if !p.m.op(op).regions.is_empty() {
            return Err(p.err_at(
                p.m.op(op).loc,
                "an op with regions cannot be parsed on its own",
            ));
        }
        Ok(op)
    });
    *m = std::mem::replace(&mut p.m, Module::empty());
    r
}

/// Parses one type covering the whole input.
pub(crate) fn parse_standalone_type(types: &mut TypeStore, src: &str) -> PResult<Type> {
    let mut m = Module::empty();
    m.types = std::mem::take(types);
    let mut p = Parser::new(src, m);
    let r = p.parse_type().and_then(|t| p.expect_eof().map(|()| t));
    *types = std::mem::take(&mut p.m.types);
    r
}

/// Parses one attribute covering the whole input.
pub(crate) fn parse_standalone_attr(
    attrs: &mut AttrStore,
    types: &mut TypeStore,
    src: &str,
) -> PResult<Attr> {
    let mut m = Module::empty();
    m.types = std::mem::take(types);
    m.attrs = std::mem::take(attrs);
    let mut p = Parser::new(src, m);
    let r = p.parse_attr().and_then(|a| p.expect_eof().map(|()| a));
    *types = std::mem::take(&mut p.m.types);
    *attrs = std::mem::take(&mut p.m.attrs);
    r
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, m: Module) -> Self {
        Parser {
            lex: Lexer::new(src),
            tok: None,
            prev_end: 0,
            m,
            type_aliases: HashMap::new(),
            attr_aliases: HashMap::new(),
            scopes: vec![ValueScope {
                isolated: true,
                ..ValueScope::default()
            }],
            regions: vec![RegionScope::default()],
            replacements: HashMap::new(),
            depth: 0,
            items: None,
            in_mlir_func: false,
        }
    }

    // ---- tokens --------------------------------------------------------

    /// The lookahead token.
    pub(crate) fn peek(&mut self) -> PResult<&Token<'a>> {
        if self.tok.is_none() {
            let t = self.lex.next_token()?;
            self.tok = Some(t);
        }
        Ok(self.tok.as_ref().expect("lookahead was just filled"))
    }

    /// The kind of the lookahead token.
    pub(crate) fn peek_kind(&mut self) -> PResult<TokKind<'a>> {
        Ok(self.peek()?.kind.clone())
    }

    /// Consumes the lookahead token.
    pub(crate) fn bump(&mut self) -> PResult<Token<'a>> {
        self.peek()?;
        let t = self.tok.take().expect("lookahead was just filled");
        self.prev_end = t.end;
        Ok(t)
    }

    /// Drops the lookahead so raw scanning starts right after the last
    /// consumed token.
    pub(crate) fn raw_mode(&mut self) {
        if self.tok.take().is_some() {
            self.lex.reset(self.prev_end);
        }
    }

    /// Rewinds to byte offset `pos`.
    pub(crate) fn rewind(&mut self, pos: usize) {
        self.tok = None;
        self.lex.reset(pos);
    }

    /// The location of the lookahead token.
    pub(crate) fn loc(&mut self) -> PResult<Location> {
        let start = self.peek()?.start;
        Ok(self.lex.location(start))
    }

    /// The location of byte offset `pos`.
    pub(crate) fn loc_of(&self, pos: usize) -> Location {
        self.lex.location(pos)
    }

    /// An error at the lookahead token.
    pub(crate) fn err_here(&mut self, message: impl Into<String>) -> ParseError {
        let start = match self.peek() {
            Ok(t) => t.start,
            Err(e) => return e,
        };
        ParseError {
            loc: self.lex.location(start),
            message: message.into(),
        }
    }

    /// An error at `loc`.
    pub(crate) fn err_at(&self, loc: Location, message: impl Into<String>) -> ParseError {
        ParseError {
            loc,
            message: message.into(),
        }
    }

    /// "expected `what`": at the lookahead, or, when the lookahead starts a
    /// later line, just after the previous token (where the missing text
    /// belongs), as MLIR reports it.
    pub(crate) fn expected(&mut self, what: &str) -> ParseError {
        let (found, start) = match self.peek() {
            Ok(t) => (t.kind.describe(), t.start),
            Err(e) => return e,
        };
        let message = format!("expected {what}, found {found}");
        let pos = missing_token_pos(self.lex.src(), self.prev_end, start);
        self.err_at(self.loc_of(pos), message)
    }

    /// Whether the lookahead is punctuation `p`.
    pub(crate) fn at(&mut self, p: &str) -> PResult<bool> {
        Ok(matches!(self.peek()?.kind, TokKind::Punct(q) if q == p))
    }

    /// Whether the lookahead is the bare identifier `kw`.
    pub(crate) fn at_kw(&mut self, kw: &str) -> PResult<bool> {
        Ok(matches!(self.peek()?.kind, TokKind::Ident(s) if s == kw))
    }

    /// Consumes punctuation `p` if it is next.
    pub(crate) fn eat(&mut self, p: &str) -> PResult<bool> {
        if self.at(p)? {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Consumes keyword `kw` if it is next.
    pub(crate) fn eat_kw(&mut self, kw: &str) -> PResult<bool> {
        if self.at_kw(kw)? {
            self.bump()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Consumes punctuation `p` or fails with "expected 'p' {context}".
    pub(crate) fn expect(&mut self, p: &str, context: &str) -> PResult<()> {
        if self.eat(p)? {
            return Ok(());
        }
        let what = if context.is_empty() {
            format!("'{p}'")
        } else {
            format!("'{p}' {context}")
        };
        Err(self.expected(&what))
    }

    /// Consumes keyword `kw` or fails.
    pub(crate) fn expect_kw(&mut self, kw: &str, context: &str) -> PResult<()> {
        if self.eat_kw(kw)? {
            return Ok(());
        }
        let what = if context.is_empty() {
            format!("'{kw}'")
        } else {
            format!("'{kw}' {context}")
        };
        Err(self.expected(&what))
    }

    /// Fails unless the input is exhausted.
    pub(crate) fn expect_eof(&mut self) -> PResult<()> {
        if matches!(self.peek()?.kind, TokKind::Eof) {
            Ok(())
        } else {
            Err(self.expected("end of input"))
        }
    }

    /// Consumes a bare identifier.
    pub(crate) fn ident(&mut self, what: &str) -> PResult<&'a str> {
        match self.peek()?.kind {
            TokKind::Ident(s) => {
                self.bump()?;
                Ok(s)
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Consumes a string literal.
    pub(crate) fn string(&mut self, what: &str) -> PResult<String> {
        match self.peek_kind()? {
            TokKind::Str(s) => {
                self.bump()?;
                Ok(s.into_owned())
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Consumes `@name`.
    pub(crate) fn symbol(&mut self, what: &str) -> PResult<String> {
        match self.peek_kind()? {
            TokKind::Symbol(s) => {
                self.bump()?;
                Ok(s.into_owned())
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Consumes an optionally negative integer literal.
    pub(crate) fn integer(&mut self, what: &str) -> PResult<i128> {
        let loc = self.loc()?;
        let neg = self.eat("-")?;
        match self.peek()?.kind {
            TokKind::Int(text) => {
                self.bump()?;
                let v = parse_int_text(text).ok_or_else(|| {
                    self.err_at(loc, format!("integer literal '{text}' is too large"))
                })?;
                Ok(if neg { -v } else { v })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Consumes a non-negative integer that fits in `u32`.
    pub(crate) fn u32_lit(&mut self, what: &str) -> PResult<u32> {
        let loc = self.loc()?;
        let v = self.integer(what)?;
        u32::try_from(v)
            .map_err(|_| self.err_at(loc, format!("{what} must be in 0..=4294967295, got {v}")))
    }

    /// Enters a nested construct, failing when nesting is absurdly deep.
    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_here("nesting too deep"));
        }
        Ok(())
    }

    /// Leaves a nested construct.
    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips a trailing `loc(...)` location specifier.
    pub(crate) fn skip_trailing_loc(&mut self) -> PResult<()> {
        if self.at_kw("loc")? {
            self.bump()?;
            let open = self.peek()?.start;
            self.expect("(", "after 'loc'")?;
            self.skip_balanced(open, ")")?;
        }
        Ok(())
    }

    /// Skips tokens up to and including the `close` matching an already
    /// consumed opener.
    pub(crate) fn skip_balanced(&mut self, open: usize, close: &str) -> PResult<()> {
        let mut stack = vec![close.to_string()];
        loop {
            let t = self.bump()?;
            match t.kind {
                TokKind::Eof => {
                    return Err(self.err_at(
                        self.loc_of(open),
                        format!("expected '{close}' before end of input"),
                    ))
                }
                TokKind::Punct(p @ ("(" | "[" | "{" | "<")) => stack.push(
                    match p {
                        "(" => ")",
                        "[" => "]",
                        "{" => "}",
                        _ => ">",
                    }
                    .to_string(),
                ),
                TokKind::Punct(p @ (")" | "]" | "}" | ">"))
                    if stack.last().is_some_and(|s| s == p) =>
                {
                    stack.pop();
                    if stack.is_empty() {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
    }

    // ---- SSA scopes ------------------------------------------------------

    /// Opens a value scope (and a block-name scope) for a region.
    pub(crate) fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(ValueScope {
            isolated,
            ..ValueScope::default()
        });
        self.regions.push(RegionScope::default());
    }

    /// Closes the innermost scope. Unresolved forward references move to the
    /// enclosing scope, or fail at an isolated one. `blocks` are the region's
    /// blocks, whose uses of placeholders are rewritten when the scope is
    /// isolated.
    pub(crate) fn pop_scope(&mut self, blocks: &[Block]) -> PResult<()> {
        self.regions.pop();
        let Some(scope) = self.scopes.pop() else {
            return Ok(());
        };
        if scope.isolated || self.scopes.is_empty() {
            if let Some((name, fwd)) = scope.fwd.iter().min_by_key(|(_, f)| f.loc) {
                return Err(self.err_at(fwd.loc, format!("use of undefined value '%{name}'")));
            }
            self.apply_replacements(blocks);
        } else if let Some(parent) = self.scopes.last_mut() {
            for (name, fwd) in scope.fwd {
                parent.fwd.entry(name).or_insert(fwd);
            }
        }
        Ok(())
    }

    /// Rewrites uses of resolved placeholders in `blocks` (recursively).
    fn apply_replacements(&mut self, blocks: &[Block]) {
        if self.replacements.is_empty() {
            return;
        }
        let mut stack: Vec<Op> = Vec::new();
        for &b in blocks {
            stack.extend(self.m.block(b).ops.iter().copied());
        }
        while let Some(op) = stack.pop() {
            let map = &self.replacements;
            let data = self.m.op_mut(op);
            for v in data.operands.iter_mut() {
                if let Some(&to) = map.get(v) {
                    *v = to;
                }
            }
            for s in data.successors.iter_mut() {
                for v in s.args.iter_mut() {
                    if let Some(&to) = map.get(v) {
                        *v = to;
                    }
                }
            }
            let regions = data.regions.clone();
            for r in regions {
                for &b in &self.m.region(r).blocks {
                    stack.extend(self.m.block(b).ops.iter().copied());
                }
            }
        }
        self.replacements.clear();
    }

    /// Looks a name up through the visible scopes (definitions, then
    /// pending forward references).
    fn lookup_value(&self, name: &str) -> Option<Value> {
        for scope in self.scopes.iter().rev() {
            if let Some(&v) = scope.names.get(name) {
                return Some(v);
            }
            if let Some(f) = scope.fwd.get(name) {
                return Some(f.placeholder);
            }
            if scope.isolated {
                break;
            }
        }
        // `%x#0` names the only result of `%x`.
        if let Some(base) = name.strip_suffix("#0") {
            return self.lookup_value(base);
        }
        None
    }

    /// Resolves a use of `%name` expected to have type `ty`.
    pub(crate) fn resolve_value(&mut self, name: &str, ty: Type, loc: Location) -> PResult<Value> {
        if let Some(v) = self.lookup_value(name) {
            let actual = self.m.value_type(v);
            if actual != ty {
                let a = super::printer::type_to_string(&self.m.types, actual, super::Prefix::Spirv);
                let e = super::printer::type_to_string(&self.m.types, ty, super::Prefix::Spirv);
                return Err(self.err_at(
                    loc,
                    format!("use of value '%{name}' expects different type than prior uses: '{e}' vs '{a}'"),
                ));
            }
            return Ok(v);
        }
        let op = self
            .m
            .create_op(OpSpec::new(OpKind::Foreign("kiln.placeholder".into())).results(vec![ty]));
        let placeholder = self.m.op(op).results[0];
        if let Some(scope) = self.scopes.last_mut() {
            scope
                .fwd
                .insert(name.to_string(), FwdRef { placeholder, loc });
        }
        Ok(placeholder)
    }

    /// The constant integer a defined value holds (`spirv.Constant` of an
    /// integer), for forms that index structs.
    pub(crate) fn const_int_of(&self, name: &str) -> Option<i128> {
        let v = self.lookup_value(name)?;
        let op = self.m.defining_op(v)?;
        if self.m.op(op).kind != OpKind::Constant {
            return None;
        }
        let a = self.m.attr(op, "value")?;
        self.m.attrs.as_int(a)
    }

    /// Binds `%name` to `value` in the innermost scope.
    pub(crate) fn define_value(&mut self, name: &str, value: Value, loc: Location) -> PResult<()> {
        for scope in self.scopes.iter().rev() {
            if scope.names.contains_key(name) {
                return Err(self.err_at(loc, format!("redefinition of SSA value '%{name}'")));
            }
            if scope.isolated {
                break;
            }
        }
        let Some(scope) = self.scopes.last_mut() else {
            return Ok(());
        };
        if let Some(fwd) = scope.fwd.remove(name) {
            let expected = self.m.value_type(fwd.placeholder);
            let actual = self.m.value_type(value);
            if expected != actual {
                let e =
                    super::printer::type_to_string(&self.m.types, expected, super::Prefix::Spirv);
                let a = super::printer::type_to_string(&self.m.types, actual, super::Prefix::Spirv);
                return Err(self.err_at(
                    loc,
                    format!("definition of '%{name}' has type '{a}' but it was used as '{e}'"),
                ));
            }
            self.replacements.insert(fwd.placeholder, value);
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.insert(name.to_string(), value);
        }
        Ok(())
    }

    /// The block named `^name` in the current region, created on first use.
    pub(crate) fn block_ref(&mut self, name: &str, loc: Location) -> Block {
        if let Some(r) = self.regions.last().and_then(|r| r.blocks.get(name)) {
            return r.block;
        }
        let block = self.m.create_detached_block();
        if let Some(scope) = self.regions.last_mut() {
            scope.blocks.insert(
                name.to_string(),
                BlockRef {
                    block,
                    defined: false,
                    first_use: loc,
                },
            );
        }
        block
    }

    /// Marks `^name` defined, returning its block.
    fn define_block(&mut self, name: &str, loc: Location) -> PResult<Block> {
        let block = self.block_ref(name, loc);
        let Some(scope) = self.regions.last_mut() else {
            return Ok(block);
        };
        let entry = scope
            .blocks
            .get_mut(name)
            .expect("block_ref registered the name");
        if entry.defined {
            return Err(self.err_at(loc, format!("redefinition of block '^{name}'")));
        }
        entry.defined = true;
        self.m.block_mut(block).loc = loc;
        Ok(block)
    }

    /// Fails when a block of the current region was used but never defined.
    fn check_blocks_defined(&self) -> PResult<()> {
        if let Some(scope) = self.regions.last() {
            if let Some((name, r)) = scope
                .blocks
                .iter()
                .filter(|(_, r)| !r.defined)
                .min_by_key(|(_, r)| r.first_use)
            {
                return Err(self.err_at(
                    r.first_use,
                    format!("reference to an undefined block '^{name}'"),
                ));
            }
        }
        Ok(())
    }

    // ---- regions ---------------------------------------------------------

    /// Parses `{ ... }` into detached blocks. `entry_args` (names, types,
    /// locations) are the entry block's arguments when the op's custom
    /// syntax declares them (function parameters); `isolated` starts a new
    /// SSA scope that does not see enclosing values.
    pub(crate) fn parse_region(
        &mut self,
        entry_args: Option<&[(String, Type, Location)]>,
        isolated: bool,
    ) -> PResult<Vec<Block>> {
        let open = self.loc()?;
        self.expect("{", "to begin a region")?;
        self.enter()?;
        self.push_scope(isolated);
        let mut blocks: Vec<Block> = Vec::new();
        let mut current: Option<Block> = None;
        if let Some(args) = entry_args {
            let b = self.m.create_detached_block();
            self.m.block_mut(b).loc = open;
            for (name, ty, loc) in args {
                let v = self.m.add_block_arg(b, *ty);
                self.define_value(name, v, *loc)?;
            }
            blocks.push(b);
            current = Some(b);
        }
        loop {
            match self.peek_kind()? {
                TokKind::Punct("}") => {
                    self.bump()?;
                    break;
                }
                TokKind::Eof => {
                    return Err(self.err_at(
                        open,
                        "unterminated region: expected '}' before end of input",
                    ))
                }
                TokKind::Block(name) => {
                    let loc = self.loc()?;
                    if entry_args.is_some()
                        && blocks.len() == 1
                        && self.m.block(blocks[0]).ops.is_empty()
                    {
                        return Err(
                            self.err_at(loc, "invalid block name in region with named arguments")
                        );
                    }
                    self.bump()?;
                    let b = self.define_block(name, loc)?;
                    if self.eat("(")? {
                        if !self.at(")")? {
                            loop {
                                let (vname, vloc) = self.value_name("block argument name")?;
                                self.expect(":", "after block argument name")?;
                                let ty = self.parse_type()?;
                                self.skip_trailing_loc()?;
                                let v = self.m.add_block_arg(b, ty);
                                self.define_value(&vname, v, vloc)?;
                                if !self.eat(",")? {
                                    break;
                                }
                            }
                        }
                        self.expect(")", "to end block argument list")?;
                    }
                    self.expect(":", "after block label")?;
                    blocks.push(b);
                    current = Some(b);
                }
                _ => {
                    let block = match current {
                        Some(b) => b,
                        None => {
                            let b = self.m.create_detached_block();
                            blocks.push(b);
                            current = Some(b);
                            b
                        }
                    };
                    let op = self.parse_operation()?;
                    self.m.append_op(block, op);
                }
            }
        }
        self.check_blocks_defined()?;
        self.pop_scope(&blocks)?;
        self.leave();
        Ok(blocks)
    }

    /// Places parsed blocks into `op`'s `index`-th region.
    pub(crate) fn attach_region(&mut self, op: Op, index: usize, blocks: Vec<Block>) {
        let Some(&region) = self.m.op(op).regions.get(index) else {
            return;
        };
        for b in blocks {
            self.m.attach_block(region, b);
        }
    }

    /// Consumes `%name`, returning the name and its location.
    pub(crate) fn value_name(&mut self, what: &str) -> PResult<(String, Location)> {
        let loc = self.loc()?;
        match self.peek()?.kind {
            TokKind::Value(name) => {
                self.bump()?;
                Ok((name.to_string(), loc))
            }
            _ => Err(self.expected(what)),
        }
    }

    // ---- top level ---------------------------------------------------------

    fn parse_top_level(&mut self) -> PResult<()> {
        let mut found: Option<Op> = None;
        self.parse_top_items(&mut found, false)?;
        match found {
            Some(op) => {
                self.m.set_top(op);
                Ok(())
            }
            None => Err(self.err_here("expected a 'spirv.module' op in the input")),
        }
    }

    /// Parses alias definitions and top-level ops until end of input (or a
    /// closing `}` when `in_builtin`).
    fn parse_top_items(&mut self, found: &mut Option<Op>, in_builtin: bool) -> PResult<()> {
        loop {
            let t = self.peek()?.clone();
            match t.kind {
                TokKind::Eof => {
                    if in_builtin {
                        return Err(
                            self.err_here("unterminated region: expected '}' before end of input")
                        );
                    }
                    return Ok(());
                }
                TokKind::Punct("}") if in_builtin => return Ok(()),
                TokKind::Hash(name) | TokKind::Bang(name) if !name.contains('.') => {
                    self.parse_alias_def()?;
                }
                TokKind::Ident("module" | "builtin.module") if !in_builtin => {
                    self.parse_builtin_module(found)?;
                }
                TokKind::Str(ref s) if s == "builtin.module" && !in_builtin => {
                    self.parse_generic_builtin_module(found)?;
                }
                TokKind::Ident(name) if is_spv_module_name(name) => {
                    self.take_module(found, t.start)?;
                }
                TokKind::Str(ref s) if is_spv_module_name(s) => {
                    self.take_module(found, t.start)?;
                }
                TokKind::Ident("func.func") if self.items.is_some() => {
                    self.bump()?;
                    let loc = self.loc_of(t.start);
                    let op = self.parse_mlir_func(loc)?;
                    if let Some(items) = self.items.as_mut() {
                        items.push(TopItem::Loose(op));
                    }
                }
                TokKind::Ident(name)
                    if self.items.is_some() && crate::text::strip_dialect(name).is_some() =>
                {
                    self.take_loose_op()?;
                }
                TokKind::Str(ref name)
                    if self.items.is_some() && crate::text::strip_dialect(name).is_some() =>
                {
                    self.take_loose_op()?;
                }
                TokKind::Ident(_) | TokKind::Str(_) | TokKind::Value(_) => {
                    // Another dialect's op next to the spirv.module: skipped.
                    self.rewind(t.end);
                    self.lex.skip_foreign_op(t.start)?;
                }
                _ => return Err(self.expected("an operation")),
            }
        }
    }

    /// Parses one spv op outside a `spirv.module` ([`parse_modules`]).
    fn take_loose_op(&mut self) -> PResult<()> {
        let op = self.parse_operation()?;
        if let Some(items) = self.items.as_mut() {
            items.push(TopItem::Loose(op));
        }
        Ok(())
    }

    /// A `spirv.module Logical GLSL450` holding `ops` ([`parse_modules`]).
    fn loose_module(&mut self, ops: Vec<Op>) -> Op {
        let am = self.m.attrs.enumerant(
            OperandKind::AddressingModel,
            AddressingModel::Logical as u32,
        );
        let mm = self
            .m
            .attrs
            .enumerant(OperandKind::MemoryModel, MemoryModel::GLSL450 as u32);
        let top = self.m.create_op(
            OpSpec::new(OpKind::Module)
                .attr("addressing_model", am)
                .attr("memory_model", mm)
                .regions(1),
        );
        let region = self.m.op(top).regions[0];
        let block = self.m.append_block(region, &[]);
        for op in ops {
            self.m.append_op(block, op);
        }
        top
    }

    fn take_module(&mut self, found: &mut Option<Op>, start: usize) -> PResult<()> {
        if found.is_some() && self.items.is_none() {
            return Err(self.err_at(
                self.loc_of(start),
                "more than one spirv.module in the input; kiln handles one module per text",
            ));
        }
        let op = self.parse_operation()?;
        let loc = self.loc_of(start);
        if self.m.op(op).kind != OpKind::Module {
            return Err(self.err_at(loc, "expected a 'spirv.module' op"));
        }
        // The module body is exactly one block (`Module::body`).
        let regions = self.m.op(op).regions.clone();
        let [region] = regions.as_slice() else {
            return Err(self.err_at(loc, "'spirv.module' must have exactly one region"));
        };
        match self.m.region(*region).blocks.len() {
            0 => {
                self.m.append_block(*region, &[]);
            }
            1 => {}
            _ => {
                return Err(self.err_at(
                    loc,
                    "'spirv.module' body must be a single block without labels",
                ))
            }
        }
        match self.items.as_mut() {
            Some(items) => items.push(TopItem::Module(op)),
            None => *found = Some(op),
        }
        Ok(())
    }

    fn parse_alias_def(&mut self) -> PResult<()> {
        let t = self.bump()?;
        self.expect("=", "in alias definition")?;
        match t.kind {
            TokKind::Hash(name) => {
                let a = if self.at_kw("loc")? {
                    // `#loc = loc(...)`: locations are not kept.
                    self.skip_trailing_loc()?;
                    self.m.attrs.unit()
                } else {
                    self.parse_attr()?
                };
                self.attr_aliases.insert(name.to_string(), a);
            }
            TokKind::Bang(name) => {
                let ty = self.parse_type()?;
                self.type_aliases.insert(name.to_string(), ty);
            }
            _ => {}
        }
        Ok(())
    }

    /// `module [@name] [attributes {...}] { ... }`.
    fn parse_builtin_module(&mut self, found: &mut Option<Op>) -> PResult<()> {
        self.bump()?;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if let TokKind::Symbol(name) = self.peek_kind()? {
            self.bump()?;
            let a = self.m.attrs.string(name.into_owned());
            attrs.push(("sym_name".into(), a));
        }
        if self.eat_kw("attributes")? {
            attrs.extend(self.parse_attr_dict()?);
        }
        let open = self.loc()?;
        self.expect("{", "to begin the module body")?;
        self.parse_top_items(found, true)?;
        if !self.eat("}")? {
            return Err(self.err_at(
                open,
                "unterminated region: expected '}' before end of input",
            ));
        }
        self.skip_trailing_loc()?;
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        self.m.wrapper = Some(attrs);
        Ok(())
    }

    /// `"builtin.module"() ({ ... }) {...} : () -> ()`.
    fn parse_generic_builtin_module(&mut self, found: &mut Option<Op>) -> PResult<()> {
        self.bump()?;
        self.expect("(", "after op name")?;
        self.expect(")", "after builtin.module operands")?;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        if self.at("<")? {
            self.bump()?;
            attrs.extend(self.parse_attr_dict()?);
            self.expect(">", "to end properties")?;
        }
        self.expect("(", "to begin the module region")?;
        let open = self.loc()?;
        self.expect("{", "to begin the module body")?;
        self.parse_top_items(found, true)?;
        if !self.eat("}")? {
            return Err(self.err_at(
                open,
                "unterminated region: expected '}' before end of input",
            ));
        }
        self.expect(")", "to end the region list")?;
        if self.at("{")? {
            attrs.extend(self.parse_attr_dict()?);
        }
        self.expect(":", "after builtin.module")?;
        self.parse_type()?;
        self.skip_trailing_loc()?;
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        attrs.dedup_by(|a, b| a.0 == b.0);
        self.m.wrapper = Some(attrs);
        Ok(())
    }
}

fn is_spv_module_name(name: &str) -> bool {
    name == "spirv.module" || name == "spv.module"
}

/// Parses the text of an integer literal (decimal or `0x` hex).
pub(crate) fn parse_int_text(text: &str) -> Option<i128> {
    if let Some(hex) = text.strip_prefix("0x") {
        u128::from_str_radix(hex, 16)
            .ok()
            .and_then(|v| i128::try_from(v).ok())
    } else {
        text.parse::<i128>().ok()
    }
}
