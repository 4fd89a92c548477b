//! MLIR's generic op form (`"dialect.op"(%a) <{props}> ({regions}) {attrs}
//! : (types) -> types`, what `mlir-opt --mlir-print-op-generic` and many
//! tools print), read by translating it to the custom syntax of the same op
//! and parsing that: every check the custom parser makes applies, and a
//! program gives the same tensor IR in either form.
//!
//! The translation keeps every op on its source line (columns move), so
//! errors name the line of the generic op. Custom-syntax ops may be mixed
//! in: they are copied as written, and a `{` that ends a line inside one
//! opens a region whose ops are translated in turn (the layout MLIR prints).
//! Ops kiln has no custom parser for are written with their name, so the
//! parser refuses them as it refuses their custom form.

mod iree;

use std::collections::HashMap;

use super::PResult;
use crate::tensor::error::TensorParseError;
use crate::text::cursor::{Cursor, TokenParser};
use crate::text::lexer::TokKind;

/// `src` with every generic-form op written in its custom syntax.
pub(crate) fn translate(src: &str) -> PResult<String> {
    let mut t = Translator {
        cur: Cursor::new(src)?,
        out: String::with_capacity(src.len()),
        out_line: 1,
        aliases: HashMap::new(),
    };
    t.statements(true)?;
    Ok(t.out)
}

/// The cmpi predicates by their number in MLIR's `arith::CmpIPredicate`.
const CMPI: [&str; 10] = [
    "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
];

/// The cmpf predicates by their number in MLIR's `arith::CmpFPredicate`.
const CMPF: [&str; 16] = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule",
    "une", "uno", "true",
];

/// MLIR's marker of a dynamic entry in a static size/offset array.
const DYNAMIC: i64 = i64::MIN;

struct Translator<'a> {
    cur: Cursor<'a>,
    out: String,
    out_line: u32,
    /// Attribute aliases seen so far (`#map = affine_map<...>`): text.
    aliases: HashMap<String, String>,
}

impl<'a> TokenParser<'a> for Translator<'a> {
    type Error = TensorParseError;

    fn cursor(&self) -> &Cursor<'a> {
        &self.cur
    }

    fn cursor_mut(&mut self) -> &mut Cursor<'a> {
        &mut self.cur
    }
}

/// One region of a generic op: its entry block's arguments (name, type
/// text), the line of its `^bb0` label if written, its statements and the
/// line of its closing `}`.
struct Region {
    args: Vec<(String, String)>,
    label_line: Option<u32>,
    body: Vec<Stmt>,
    close_line: u32,
}

/// A statement inside a region.
enum Stmt {
    /// A generic op.
    Generic(Box<GenericOp>),
    /// Custom-syntax text copied as written, from `line`, with regions
    /// inside it (the text before each, then the region).
    Custom {
        line: u32,
        col: u32,
        pieces: Vec<(String, Option<Region>)>,
    },
}

/// A generic op as written.
struct GenericOp {
    line: u32,
    col: u32,
    /// `%a, %b:2 = ` as written, or empty.
    results: String,
    name: String,
    operands: Vec<String>,
    /// Properties then attributes: (name, value text; empty for a unit).
    attrs: Vec<(String, String)>,
    regions: Vec<Region>,
    in_types: Vec<String>,
    out_types: Vec<String>,
    /// The line of the `)` after the regions (where the types follow).
    tail_line: u32,
}

impl GenericOp {
    /// An error at the op's line, naming it as written in generic form.
    fn err(&self, msg: impl std::fmt::Display) -> TensorParseError {
        TensorParseError::new(
            crate::ir::Location {
                line: self.line,
                col: 1,
            },
            format!("'{}' (generic form): {msg}", self.name),
        )
    }

    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A region rendered in custom syntax: `args_before` are written before
/// its `{` (the long forms of `linalg.map`/`reduce`, `func.func`'s
/// signature) instead of as a `^bb0` label.
struct Out<'r> {
    head: String,
    regions: Vec<(&'r Region, bool, &'static str)>,
    tail: String,
}

impl Out<'_> {
    /// An op without regions: its whole text is `head`.
    fn simple(head: String) -> Self {
        Out {
            head,
            regions: Vec::new(),
            tail: String::new(),
        }
    }
}

impl<'a> Translator<'a> {
    // ---- output ------------------------------------------------------------

    /// Moves the output to `line` (never back).
    fn goto(&mut self, line: u32) {
        while self.out_line < line {
            self.out.push('\n');
            self.out_line += 1;
        }
    }

    /// Moves the output to `line`, indented to `col` when the line is
    /// still empty (so that ops keep their columns too).
    fn goto_col(&mut self, line: u32, col: u32) {
        self.goto(line);
        if self.out.is_empty() || self.out.ends_with('\n') {
            for _ in 1..col {
                self.out.push(' ');
            }
        }
    }

    fn put(&mut self, text: &str) {
        self.out_line += text.matches('\n').count() as u32;
        self.out.push_str(text);
    }

    // ---- reading -----------------------------------------------------------

    fn line(&self) -> u32 {
        self.loc().line
    }

    /// The text of the tokens from byte `start` to the last consumed one.
    fn text_from(&self, start: usize) -> String {
        self.src()[start..self.prev_end()].to_string()
    }

    /// Statements until a `}` (not consumed) or the end of input.
    fn statements(&mut self, top: bool) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                TokKind::Eof => {
                    if top {
                        return Ok(out);
                    }
                    return self.expected("'}'");
                }
                TokKind::Punct("}") if !top => return Ok(out),
                // A `}` closing no region: custom syntax would copy
                // nothing and the loop would never advance.
                TokKind::Punct("}") => return self.err("unexpected '}' closing no region"),
                _ => {}
            }
            let stmt = self.statement()?;
            if top {
                self.emit_stmt(&stmt)?;
            } else {
                out.push(stmt);
            }
        }
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let start = self.pos();
        let (line, col) = (self.line(), self.loc().col);
        if let TokKind::Value(_) = self.peek() {
            loop {
                self.bump()?;
                if self.eat_punct(":")? {
                    self.bump()?;
                }
                if !self.eat_punct(",")? {
                    break;
                }
                if !matches!(self.peek(), TokKind::Value(_)) {
                    return self.expected("an SSA value name '%...'");
                }
            }
            self.expect_punct("=")?;
        }
        let results = self.src()[start..self.pos()].to_string();
        let stmt = match self.peek().clone() {
            TokKind::Str(name) if self.is_generic_start() => {
                let name = name.to_string();
                self.bump()?;
                let mut op = self.generic_op(line, results, name)?;
                op.col = col;
                Stmt::Generic(Box::new(op))
            }
            _ => {
                self.reset_to(start)?;
                self.custom(line, col)?
            }
        };
        self.leave();
        Ok(stmt)
    }

    /// Whether the lookahead (a string) starts a generic op: `"name"(`.
    fn is_generic_start(&self) -> bool {
        let rest = &self.src()[self.tok_end()..];
        rest.trim_start().starts_with('(')
    }

    /// Custom syntax (an op, an alias definition, a block label), copied up
    /// to the first token of a later line at bracket depth 0 (or the `}`
    /// closing the enclosing region). A `{` ending a line opens a region.
    fn custom(&mut self, line: u32, col: u32) -> PResult<Stmt> {
        let mut pieces = Vec::new();
        let mut start = self.pos();
        let mut depth = 0usize;
        let alias = match self.peek() {
            TokKind::Hash(n) => Some(n.to_string()),
            _ => None,
        };
        loop {
            match self.peek() {
                TokKind::Eof => break,
                TokKind::Punct("}") if depth == 0 => break,
                _ if depth == 0 && self.prev_end() > start && self.starts_next_line() => break,
                TokKind::Punct("(" | "[" | "<") => depth += 1,
                TokKind::Punct(")" | "]" | ">") => depth = depth.saturating_sub(1),
                TokKind::Punct("{") => {
                    self.bump()?;
                    if self.starts_next_line() || matches!(self.peek(), TokKind::Punct("}")) {
                        let text = self.text_from(start);
                        let region = self.region_body()?;
                        pieces.push((text, Some(region)));
                        start = self.pos();
                        if depth == 0 && self.starts_next_line() {
                            break;
                        }
                        continue;
                    }
                    depth += 1;
                    continue;
                }
                TokKind::Punct("}") => depth -= 1,
                _ => {}
            }
            self.bump()?;
        }
        let text = if self.prev_end() > start {
            self.text_from(start)
        } else {
            String::new()
        };
        if let Some(name) = alias {
            if let Some((_, value)) = text.split_once('=') {
                self.aliases.insert(name, value.trim().to_string());
            }
        }
        pieces.push((text, None));
        Ok(Stmt::Custom { line, col, pieces })
    }

    /// After a region's `{`: `[^bb0(%a: T, ...):]` and statements up to the
    /// `}` (consumed).
    fn region_body(&mut self) -> PResult<Region> {
        let mut args = Vec::new();
        let mut label_line = None;
        if let TokKind::Block(_) = self.peek() {
            label_line = Some(self.line());
            self.bump()?;
            if self.eat_punct("(")? {
                self.comma_list(")", |p| {
                    let name = match p.peek() {
                        TokKind::Value(n) => format!("%{n}"),
                        _ => return p.expected("a block argument"),
                    };
                    p.bump()?;
                    p.expect_punct(":")?;
                    let ty = p.type_text()?;
                    if p.is_ident("loc") {
                        p.skip_loc()?;
                    }
                    args.push((name, ty));
                    Ok(())
                })?;
            }
            self.expect_punct(":")?;
        }
        let body = self.statements(false)?;
        let close_line = self.line();
        self.expect_punct("}")?;
        if matches!(self.peek(), TokKind::Block(_)) {
            return self.err("regions with more than one block are not supported");
        }
        Ok(Region {
            args,
            label_line,
            body,
            close_line,
        })
    }

    /// `loc(...)`.
    fn skip_loc(&mut self) -> PResult<()> {
        self.expect_ident("loc")?;
        self.expect_punct("(")?;
        self.skip_balanced(")")?;
        Ok(())
    }

    /// Tokens up to the closer matching an already consumed opener
    /// (consumed).
    fn skip_balanced(&mut self, closer: &str) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                TokKind::Eof => return self.expected(&format!("'{closer}'")),
                TokKind::Punct("(" | "[" | "{" | "<") => depth += 1,
                TokKind::Punct(p @ (")" | "]" | "}" | ">")) => {
                    if depth == 0 {
                        if *p == closer {
                            self.bump()?;
                            return Ok(());
                        }
                        return self.expected(&format!("'{closer}'"));
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump()?;
        }
    }

    /// One attribute value or type: tokens up to a `,` or an unmatched
    /// closer at depth 0, as text. `stop_arrow` also stops at a `->` at
    /// depth 0 (a function type's inputs).
    fn value_text(&mut self) -> PResult<String> {
        let start = self.pos();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                TokKind::Eof => break,
                TokKind::Punct("(" | "[" | "{" | "<") => depth += 1,
                TokKind::Punct(")" | "]" | "}" | ">") if depth == 0 => break,
                TokKind::Punct(")" | "]" | "}" | ">") => depth -= 1,
                TokKind::Punct(",") if depth == 0 => break,
                _ => {}
            }
            self.bump()?;
        }
        if self.prev_end() <= start {
            return self.expected("a value");
        }
        Ok(self.text_from(start))
    }

    /// A type: one token, with its `<...>` parameters if any.
    fn type_text(&mut self) -> PResult<String> {
        let start = self.pos();
        match self.peek() {
            TokKind::Ident(_) | TokKind::Bang(_) => {
                self.bump()?;
            }
            TokKind::Punct("(") => {
                // A function type as a type: `(T) -> U`.
                self.bump()?;
                self.skip_balanced(")")?;
                self.expect_punct("->")?;
                self.type_text()?;
                return Ok(self.text_from(start));
            }
            _ => return self.expected("a type"),
        }
        if self.is_punct("<") {
            self.bump()?;
            self.skip_balanced(">")?;
        }
        Ok(self.text_from(start))
    }

    /// `(T, ...)`.
    fn type_list(&mut self) -> PResult<Vec<String>> {
        self.expect_punct("(")?;
        let mut out = Vec::new();
        self.comma_list(")", |p| {
            out.push(p.type_text()?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `{name [= value], ...}` (the `{` not yet consumed).
    fn attr_dict(&mut self, out: &mut Vec<(String, String)>) -> PResult<()> {
        self.expect_punct("{")?;
        self.comma_list("}", |p| {
            let name = match p.peek() {
                TokKind::Ident(s) => s.to_string(),
                TokKind::Str(s) => s.to_string(),
                _ => return p.expected("an attribute name"),
            };
            p.bump()?;
            let value = if p.eat_punct("=")? {
                p.value_text()?
            } else {
                String::new()
            };
            out.push((name, value));
            Ok(())
        })
    }

    /// The rest of a generic op after its name.
    fn generic_op(&mut self, line: u32, results: String, name: String) -> PResult<GenericOp> {
        self.expect_punct("(")?;
        let mut operands = Vec::new();
        self.comma_list(")", |p| {
            match p.peek() {
                TokKind::Value(v) => operands.push(format!("%{v}")),
                _ => return p.expected("an SSA value '%...'"),
            }
            p.bump()?;
            Ok(())
        })?;
        if self.is_punct("[") {
            return self.err(format!(
                "'{name}' has successors: ops with successor blocks are not supported"
            ));
        }
        let mut attrs = Vec::new();
        if self.is_punct("<") {
            self.bump()?;
            self.attr_dict(&mut attrs)?;
            self.expect_punct(">")?;
        }
        let mut regions = Vec::new();
        let mut tail_line = line;
        if self.is_punct("(") {
            self.bump()?;
            loop {
                self.expect_punct("{")?;
                regions.push(self.region_body()?);
                if !self.eat_punct(",")? {
                    break;
                }
            }
            tail_line = self.line();
            self.expect_punct(")")?;
        }
        if self.is_punct("{") {
            self.attr_dict(&mut attrs)?;
        }
        self.expect_punct(":")?;
        let in_types = self.type_list()?;
        self.expect_punct("->")?;
        let out_types = if self.is_punct("(") {
            self.type_list()?
        } else {
            vec![self.type_text()?]
        };
        if self.is_ident("loc") {
            self.skip_loc()?;
        }
        if in_types.len() != operands.len() {
            return self.err_at(
                crate::ir::Location { line, col: 1 },
                format!(
                    "'{name}': {} operands but {} operand types",
                    operands.len(),
                    in_types.len()
                ),
            );
        }
        Ok(GenericOp {
            line,
            col: 1,
            results,
            name,
            operands,
            attrs,
            regions,
            in_types,
            out_types,
            tail_line,
        })
    }

    // ---- writing -----------------------------------------------------------

    fn emit_stmt(&mut self, stmt: &Stmt) -> PResult<()> {
        match stmt {
            Stmt::Custom { line, col, pieces } => {
                self.goto_col(*line, *col);
                for (text, region) in pieces {
                    self.put(text);
                    if let Some(r) = region {
                        self.emit_region_inside(r, true)?;
                    }
                }
                Ok(())
            }
            Stmt::Generic(op) => {
                let out = self.render(op)?;
                self.goto_col(op.line, op.col);
                self.put(&op.results);
                self.put(&out.head);
                for (r, label, open) in &out.regions {
                    self.put(open);
                    self.emit_region_inside(r, *label)?;
                }
                self.goto(op.tail_line);
                self.put(&out.tail);
                Ok(())
            }
        }
    }

    /// A region's label (if `label`), statements and `}`, after its `{`.
    fn emit_region_inside(&mut self, r: &Region, label: bool) -> PResult<()> {
        if label {
            if let Some(l) = r.label_line {
                self.goto(l);
                let args: Vec<String> = r.args.iter().map(|(n, t)| format!("{n}: {t}")).collect();
                self.put(&format!("^bb0({}):", args.join(", ")));
            }
        }
        for s in &r.body {
            self.emit_stmt(s)?;
        }
        self.goto(r.close_line);
        self.put("}");
        Ok(())
    }

    /// The custom syntax of a generic op.
    fn render<'r>(&self, op: &'r GenericOp) -> PResult<Out<'r>> {
        let name = op.name.as_str();
        let (dialect, short) = name.split_once('.').unwrap_or(("", name));
        let ops = op.operands.join(", ");
        let ins = op.in_types.join(", ");
        let outs = op.out_types.join(", ");
        let out1 = op.out_types.first().cloned().unwrap_or_default();
        let in1 = op.in_types.first().cloned().unwrap_or_default();
        let simple = Out::simple;
        let flags = || {
            let mut s = String::new();
            if let Some(v) = op.attr("overflowFlags") {
                let inner = enum_inner(v);
                if inner != "none" {
                    s.push_str(&format!(" overflow<{inner}>"));
                }
            }
            if let Some(v) = op.attr("fastmath") {
                let inner = enum_inner(v);
                if inner != "none" {
                    s.push_str(&format!(" fastmath<{inner}>"));
                }
            }
            s
        };
        let need_regions = |n: usize| -> PResult<()> {
            if op.regions.len() != n {
                return Err(op.err(format!(
                    "expected {n} region(s), found {}",
                    op.regions.len()
                )));
            }
            Ok(())
        };
        Ok(match (dialect, short) {
            ("builtin", "module") => {
                need_regions(1)?;
                let mut head = "module".to_string();
                if let Some(n) = op.attr("sym_name") {
                    head.push_str(&format!(" @{n}"));
                }
                let rest: Vec<String> = op
                    .attrs
                    .iter()
                    .filter(|(n, _)| n != "sym_name")
                    .map(|(n, v)| attr_entry(n, v))
                    .collect();
                if !rest.is_empty() {
                    head.push_str(&format!(" attributes {{{}}}", rest.join(", ")));
                }
                Out {
                    head,
                    regions: vec![(&op.regions[0], true, " {")],
                    tail: String::new(),
                }
            }
            ("func", "func") => return self.render_func(op),
            ("func", "return") => {
                if op.operands.is_empty() {
                    simple("return".into())
                } else {
                    simple(format!("return {ops} : {ins}"))
                }
            }
            ("func", "call") => {
                let Some(callee) = op.attr("callee") else {
                    return Err(op.err("expected a 'callee'"));
                };
                simple(format!("func.call {callee}({ops}) : ({ins}) -> ({outs})"))
            }
            ("arith", "constant") => {
                let Some(v) = op.attr("value") else {
                    return Err(op.err("expected a 'value'"));
                };
                simple(format!("arith.constant {}", typed_value(v, &out1)))
            }
            ("arith", "cmpi" | "cmpf") => {
                let table: &[&str] = if short == "cmpi" { &CMPI } else { &CMPF };
                let pred = op
                    .attr("predicate")
                    .and_then(|v| v.split(':').next())
                    .and_then(|n| n.trim().parse::<usize>().ok())
                    .and_then(|n| table.get(n));
                let Some(pred) = pred else {
                    return Err(op.err("expected a known 'predicate'"));
                };
                simple(format!("{name} {pred}, {ops}{} : {in1}", flags()))
            }
            ("arith", "select") => {
                let value = op.in_types.get(1).map_or("", String::as_str);
                simple(format!("arith.select {ops} : {in1}, {value}"))
            }
            ("arith", _) if is_cast(short) => {
                simple(format!("{name} {ops}{} : {in1} to {out1}", flags()))
            }
            ("math", "fpowi") => simple(format!("{name} {ops}{} : {ins}", flags())),
            ("arith" | "math", _) => simple(format!("{name} {ops}{} : {out1}", flags())),
            ("cf", "assert") => {
                let Some(msg) = op.attr("msg") else {
                    return Err(op.err("expected a 'msg'"));
                };
                simple(format!("cf.assert {ops}, {msg}"))
            }
            ("affine", _) => {
                let Some(map) = op.attr("map") else {
                    return Err(op.err("expected a 'map'"));
                };
                let text = self
                    .aliases
                    .get(map.trim_start_matches('#'))
                    .map_or(map, |s| s);
                let dims = map_dims(text);
                if dims > op.operands.len() {
                    return Err(op.err("fewer operands than the map's dims"));
                }
                let (d, s) = op.operands.split_at(dims);
                let mut head = format!("{name} {map}({})", d.join(", "));
                if !s.is_empty() {
                    head.push_str(&format!("[{}]", s.join(", ")));
                }
                simple(head)
            }
            ("ml_program", "global_load" | "global_load_const") => {
                let Some(g) = op.attr("global") else {
                    return Err(op.err("expected a 'global'"));
                };
                simple(format!("{name} {g} : {out1}"))
            }
            ("ml_program", "global") => {
                let (Some(sym), Some(ty)) = (op.attr("sym_name"), op.attr("type")) else {
                    return Err(op.err("expected 'sym_name' and 'type'"));
                };
                let mut head = "ml_program.global".to_string();
                if let Some(v) = op.attr("sym_visibility") {
                    head.push_str(&format!(" {}", v.trim_matches('"')));
                }
                if op.attr("is_mutable").is_some() {
                    head.push_str(" mutable");
                }
                head.push_str(&format!(" @{}", sym.trim_matches('"')));
                if let Some(v) = op.attr("value") {
                    head.push_str(&format!("({})", typed_value(v, ty)));
                }
                head.push_str(&format!(" : {ty}"));
                simple(head)
            }
            ("linalg", "yield") | ("tensor", "yield") => {
                if op.operands.is_empty() {
                    simple(name.into())
                } else {
                    simple(format!("{name} {ops} : {ins}"))
                }
            }
            ("linalg", "index") => {
                let dim = op
                    .attr("dim")
                    .and_then(|v| v.split(':').next())
                    .unwrap_or("");
                simple(format!("linalg.index {} : index", dim.trim()))
            }
            ("scf", "for") => {
                need_regions(1)?;
                let r = &op.regions[0];
                if op.operands.len() < 3 || r.args.len() != op.operands.len() - 2 {
                    return Err(op.err("expected bounds, a step and one block argument each for the induction variable and the iter_args"));
                }
                let (iv, iv_ty) = &r.args[0];
                let o = &op.operands;
                let mut head = format!("scf.for {iv} = {} to {} step {}", o[0], o[1], o[2]);
                if o.len() > 3 {
                    let pairs: Vec<String> = r.args[1..]
                        .iter()
                        .zip(&o[3..])
                        .map(|((n, _), v)| format!("{n} = {v}"))
                        .collect();
                    head.push_str(&format!(" iter_args({}) -> ({outs})", pairs.join(", ")));
                }
                if iv_ty != "index" {
                    head.push_str(&format!(" : {iv_ty}"));
                }
                Out {
                    head,
                    regions: vec![(r, false, " {")],
                    tail: String::new(),
                }
            }
            ("scf", "if") => {
                need_regions(2)?;
                let mut head = format!("scf.if {ops}");
                if !op.out_types.is_empty() {
                    head.push_str(&format!(" -> ({outs})"));
                }
                let mut regions = vec![(&op.regions[0], false, " {")];
                let e = &op.regions[1];
                if !e.body.is_empty() {
                    regions.push((e, false, " else {"));
                }
                Out {
                    head,
                    regions,
                    tail: String::new(),
                }
            }
            ("scf", "while") => {
                need_regions(2)?;
                let before = &op.regions[0];
                if before.args.len() != op.operands.len() {
                    return Err(
                        op.err("expected one block argument of the 'before' region per operand")
                    );
                }
                let pairs: Vec<String> = before
                    .args
                    .iter()
                    .zip(&op.operands)
                    .map(|((n, _), v)| format!("{n} = {v}"))
                    .collect();
                Out {
                    head: format!("scf.while ({}) : ({ins}) -> ({outs})", pairs.join(", ")),
                    regions: vec![(before, false, " {"), (&op.regions[1], true, " do {")],
                    tail: String::new(),
                }
            }
            ("scf", "condition") => {
                let Some((cond, forwarded)) = op.operands.split_first() else {
                    return Err(op.err("expected a condition"));
                };
                if forwarded.is_empty() {
                    simple(format!("scf.condition({cond})"))
                } else {
                    let types = op.in_types.get(1..).unwrap_or(&[]).join(", ");
                    simple(format!(
                        "scf.condition({cond}) {} : {types}",
                        forwarded.join(", ")
                    ))
                }
            }
            ("scf", "yield") => {
                if op.operands.is_empty() {
                    simple(name.into())
                } else {
                    simple(format!("{name} {ops} : {ins}"))
                }
            }
            ("linalg", _) => return self.render_linalg(op),
            ("tensor", _) => return self.render_tensor(op),
            ("util", _) => iree::render_util(op, short)?,
            ("check", _) => iree::render_check(op, short)?,
            ("flow", _) => iree::render_flow(op, short)?,
            _ => {
                // Written with its name so that the parser refuses it as it
                // refuses the custom form (every unsupported op listed).
                simple(format!("{name} {ops}"))
            }
        })
    }

    fn render_func<'r>(&self, op: &'r GenericOp) -> PResult<Out<'r>> {
        let (Some(sym), Some(fty)) = (op.attr("sym_name"), op.attr("function_type")) else {
            return Err(op.err("expected 'sym_name' and 'function_type'"));
        };
        let Some((inputs, results)) = split_function_type(fty) else {
            return Err(op.err("cannot read 'function_type'"));
        };
        let arg_attrs = op.attr("arg_attrs").map(dict_list).unwrap_or_default();
        let res_attrs = op.attr("res_attrs").map(dict_list).unwrap_or_default();
        let with_attrs = |i: usize, text: String, list: &[String]| match list.get(i) {
            Some(a) if a != "{}" => format!("{text} {a}"),
            _ => text,
        };
        let mut head = "func.func ".to_string();
        if let Some(v) = op.attr("sym_visibility") {
            head.push_str(&format!("{} ", v.trim_matches('"')));
        }
        head.push_str(&format!("@{}(", sym.trim_matches('"')));
        let region = op
            .regions
            .first()
            .filter(|r| r.label_line.is_some() || !r.body.is_empty());
        let args: Vec<String> = match region {
            Some(r) => {
                if r.args.len() != inputs.len() {
                    return Err(op.err(
                        "the entry block's arguments differ from the function type's inputs",
                    ));
                }
                r.args
                    .iter()
                    .enumerate()
                    .map(|(i, (n, t))| with_attrs(i, format!("{n}: {t}"), &arg_attrs))
                    .collect()
            }
            None => inputs
                .iter()
                .enumerate()
                .map(|(i, t)| with_attrs(i, t.clone(), &arg_attrs))
                .collect(),
        };
        head.push_str(&args.join(", "));
        head.push(')');
        if !results.is_empty() {
            let rs: Vec<String> = results
                .iter()
                .enumerate()
                .map(|(i, t)| with_attrs(i, t.clone(), &res_attrs))
                .collect();
            head.push_str(&format!(" -> ({})", rs.join(", ")));
        }
        let rest: Vec<String> = op
            .attrs
            .iter()
            .filter(|(n, _)| {
                !matches!(
                    n.as_str(),
                    "sym_name" | "function_type" | "sym_visibility" | "arg_attrs" | "res_attrs"
                )
            })
            .map(|(n, v)| attr_entry(n, v))
            .collect();
        if !rest.is_empty() {
            head.push_str(&format!(" attributes {{{}}}", rest.join(", ")));
        }
        Ok(Out {
            head,
            regions: region.map(|r| vec![(r, false, " {")]).unwrap_or_default(),
            tail: String::new(),
        })
    }

    fn render_linalg<'r>(&self, op: &'r GenericOp) -> PResult<Out<'r>> {
        let short = &op.name["linalg.".len()..];
        let n_in = match op.attr("operandSegmentSizes").map(int_array) {
            Some(Some(v)) if v.len() == 2 && v[0] >= 0 => v[0] as usize,
            Some(_) => return Err(op.err("cannot read 'operandSegmentSizes'")),
            // reduce: one init per input; map, transpose, broadcast,
            // softmax: one output.
            None if short == "reduce" => op.operands.len() / 2,
            None => op.operands.len().saturating_sub(1),
        };
        if n_in > op.operands.len() {
            return Err(op.err("'operandSegmentSizes' exceeds the operands"));
        }
        let group = |vals: &[String], tys: &[String]| {
            if vals.is_empty() {
                "()".to_string()
            } else {
                format!("({} : {})", vals.join(", "), tys.join(", "))
            }
        };
        let ins = format!("ins{}", group(&op.operands[..n_in], &op.in_types[..n_in]));
        let outs = format!("outs{}", group(&op.operands[n_in..], &op.in_types[n_in..]));
        let arrow = match op.out_types.len() {
            0 => String::new(),
            1 => format!(" -> {}", op.out_types[0]),
            _ => format!(" -> ({})", op.out_types.join(", ")),
        };
        let ignored =
            |n: &str| matches!(n, "operandSegmentSizes" | "linalg.memoized_indexing_maps");
        let region = |i: usize| -> PResult<&'r Region> {
            match op.regions.get(i) {
                Some(r) => Ok(r),
                None => Err(op.err("expected a region")),
            }
        };
        let block_args = |r: &Region| {
            let a: Vec<String> = r.args.iter().map(|(n, t)| format!("{n}: {t}")).collect();
            format!("({})", a.join(", "))
        };
        Ok(match short {
            "generic" => {
                let mut entries = Vec::new();
                for (n, v) in &op.attrs {
                    if ignored(n) {
                        continue;
                    }
                    let v = if n == "iterator_types" {
                        v.replace("#linalg.iterator_type<parallel>", "\"parallel\"")
                            .replace("#linalg.iterator_type<reduction>", "\"reduction\"")
                    } else {
                        v.clone()
                    };
                    entries.push(attr_entry(n, &v));
                }
                Out {
                    head: format!("linalg.generic {{{}}} {ins} {outs}", entries.join(", ")),
                    regions: vec![(region(0)?, true, " {")],
                    tail: arrow,
                }
            }
            "map" | "reduce" => {
                let r = region(0)?;
                let dims = if short == "reduce" {
                    let Some(Some(d)) = op.attr("dimensions").map(int_array) else {
                        return Err(op.err("expected 'dimensions'"));
                    };
                    format!(" dimensions = [{}]", join_ints(&d))
                } else {
                    String::new()
                };
                Out {
                    head: format!("linalg.{short} {ins} {outs}{dims} {}", block_args(r)),
                    regions: vec![(r, false, " {")],
                    tail: String::new(),
                }
            }
            "transpose" | "broadcast" => {
                let key = if short == "transpose" {
                    "permutation"
                } else {
                    "dimensions"
                };
                let Some(Some(d)) = op.attr(key).map(int_array) else {
                    return Err(op.err(format!("expected '{key}'")));
                };
                Out::simple(format!(
                    "linalg.{short} {ins} {outs} {key} = [{}]",
                    join_ints(&d)
                ))
            }
            "softmax" => {
                let d = op
                    .attr("dimension")
                    .and_then(|v| v.split(':').next())
                    .unwrap_or("");
                Out::simple(format!(
                    "linalg.softmax dimension({}) {ins} {outs}{arrow}",
                    d.trim()
                ))
            }
            _ => {
                // A named op: its body is implied by its name.
                let entries: Vec<String> = op
                    .attrs
                    .iter()
                    .filter(|(n, _)| !ignored(n))
                    .map(|(n, v)| attr_entry(n, v))
                    .collect();
                let attrs = if entries.is_empty() {
                    String::new()
                } else {
                    format!(" {{{}}}", entries.join(", "))
                };
                Out::simple(format!("{}{attrs} {ins} {outs}{arrow}", op.name))
            }
        })
    }

    fn render_tensor<'r>(&self, op: &'r GenericOp) -> PResult<Out<'r>> {
        let name = op.name.as_str();
        let short = &name["tensor.".len()..];
        let o = &op.operands;
        let t = &op.in_types;
        let out1 = op.out_types.first().cloned().unwrap_or_default();
        let simple = Out::simple;
        let first = |n: usize| -> PResult<()> {
            if o.len() < n {
                return Err(op.err(format!("expected at least {n} operands")));
            }
            Ok(())
        };
        // `[a, %d, b]` from a static array and the dynamic operands.
        let mixed = |key: &str, dynamic: &mut std::slice::Iter<'_, String>| -> PResult<String> {
            let Some(Some(v)) = op.attr(key).map(int_array) else {
                return Err(op.err(format!("expected '{key}'")));
            };
            let mut parts = Vec::new();
            for x in v {
                if x == DYNAMIC {
                    match dynamic.next() {
                        Some(d) => parts.push(d.clone()),
                        None => return Err(op.err(format!("too few dynamic operands for '{key}'"))),
                    }
                } else {
                    parts.push(x.to_string());
                }
            }
            Ok(format!("[{}]", parts.join(", ")))
        };
        Ok(match short {
            "empty" => simple(format!("tensor.empty({}) : {out1}", o.join(", "))),
            "extract" => {
                first(1)?;
                simple(format!(
                    "tensor.extract {}[{}] : {}",
                    o[0],
                    o[1..].join(", "),
                    t[0]
                ))
            }
            "insert" => {
                first(2)?;
                simple(format!(
                    "tensor.insert {} into {}[{}] : {}",
                    o[0],
                    o[1],
                    o[2..].join(", "),
                    t[1]
                ))
            }
            "cast" => {
                first(1)?;
                simple(format!("tensor.cast {} : {} to {out1}", o[0], t[0]))
            }
            "dim" => {
                first(2)?;
                simple(format!("tensor.dim {}, {} : {}", o[0], o[1], t[0]))
            }
            "splat" => {
                first(1)?;
                let dims = if o.len() > 1 {
                    format!("[{}]", o[1..].join(", "))
                } else {
                    String::new()
                };
                simple(format!("tensor.splat {}{dims} : {out1}", o[0]))
            }
            "from_elements" => simple(format!("tensor.from_elements {} : {out1}", o.join(", "))),
            "concat" => {
                let d = op
                    .attr("dim")
                    .and_then(|v| v.split(':').next())
                    .unwrap_or("");
                simple(format!(
                    "tensor.concat dim({}) {} : ({}) -> {out1}",
                    d.trim(),
                    o.join(", "),
                    t.join(", ")
                ))
            }
            "reshape" => {
                first(2)?;
                simple(format!(
                    "tensor.reshape {}({}) : ({}, {}) -> {out1}",
                    o[0], o[1], t[0], t[1]
                ))
            }
            "collapse_shape" | "expand_shape" => {
                first(1)?;
                let Some(re) = op.attr("reassociation") else {
                    return Err(op.err("expected 'reassociation'"));
                };
                let mut head = format!("{name} {} {re}", o[0]);
                if short == "expand_shape" {
                    let mut dynamic = o[1..].iter();
                    head.push_str(&format!(
                        " output_shape {}",
                        mixed("static_output_shape", &mut dynamic)?
                    ));
                }
                head.push_str(&format!(" : {} into {out1}", t[0]));
                simple(head)
            }
            "extract_slice" | "insert_slice" => {
                let fixed = if short == "extract_slice" { 1 } else { 2 };
                first(fixed)?;
                let mut dynamic = o[fixed..].iter();
                let offsets = mixed("static_offsets", &mut dynamic)?;
                let sizes = mixed("static_sizes", &mut dynamic)?;
                let strides = mixed("static_strides", &mut dynamic)?;
                if short == "extract_slice" {
                    simple(format!(
                        "tensor.extract_slice {}{offsets} {sizes} {strides} : {} to {out1}",
                        o[0], t[0]
                    ))
                } else {
                    simple(format!(
                        "tensor.insert_slice {} into {}{offsets} {sizes} {strides} : {} into {}",
                        o[0], o[1], t[0], t[1]
                    ))
                }
            }
            "pad" => {
                first(1)?;
                let mut dynamic = o[1..].iter();
                let low = mixed("static_low", &mut dynamic)?;
                let high = mixed("static_high", &mut dynamic)?;
                let nofold = if op.attr("nofold").is_some() {
                    " nofold"
                } else {
                    ""
                };
                let Some(r) = op.regions.first() else {
                    return Err(op.err("expected a region"));
                };
                Out {
                    head: format!("tensor.pad {}{nofold} low{low} high{high}", o[0]),
                    regions: vec![(r, true, " {")],
                    tail: format!(" : {} to {out1}", t[0]),
                }
            }
            "generate" => {
                let Some(r) = op.regions.first() else {
                    return Err(op.err("expected a region"));
                };
                Out {
                    head: format!("tensor.generate {}", o.join(", ")),
                    regions: vec![(r, true, " {")],
                    tail: format!(" : {out1}"),
                }
            }
            _ => simple(format!("{name} {}", o.join(", "))),
        })
    }
}

/// Whether an arith op (short name) is a cast (`%a : A to B`).
fn is_cast(short: &str) -> bool {
    matches!(
        short,
        "extf"
            | "truncf"
            | "extsi"
            | "extui"
            | "trunci"
            | "sitofp"
            | "uitofp"
            | "fptosi"
            | "fptoui"
            | "bitcast"
            | "index_cast"
            | "index_castui"
    )
}

/// `x` of `#dialect.enum<x>`.
fn enum_inner(v: &str) -> &str {
    match (v.find('<'), v.rfind('>')) {
        (Some(a), Some(b)) if a < b => v[a + 1..b].trim(),
        _ => v.trim(),
    }
}

/// `name = value` (or `name` for a unit attribute).
fn attr_entry(name: &str, value: &str) -> String {
    if value.is_empty() {
        name.to_string()
    } else {
        format!("{name} = {value}")
    }
}

/// A constant's value with its type: `1.0 : f32` stays, `true` stays, a
/// value printed without a type gets `ty`.
fn typed_value(v: &str, ty: &str) -> String {
    if v.contains(':') || v == "true" || v == "false" {
        v.to_string()
    } else {
        format!("{v} : {ty}")
    }
}

/// The integers of `array<i64: 1, 2>` / `array<i32: ...>` / `[1, 2]`.
fn int_array(v: &str) -> Option<Vec<i64>> {
    let inner = if let Some(rest) = v.trim().strip_prefix("array<") {
        let rest = rest.strip_suffix('>')?;
        match rest.split_once(':') {
            Some((_, list)) => list,
            None => "",
        }
    } else {
        v.trim().strip_prefix('[')?.strip_suffix(']')?
    };
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<i64>().ok())
        .collect()
}

fn join_ints(v: &[i64]) -> String {
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
}

/// The number of dims of `affine_map<(d0, d1)[s0] -> ...>`.
fn map_dims(text: &str) -> usize {
    let Some(open) = text.find('(') else {
        return 0;
    };
    let Some(close) = text[open..].find(')') else {
        return 0;
    };
    text[open + 1..open + close]
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .count()
}

/// Splits `s` at commas outside brackets.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    let mut prev = ' ';
    for c in s.chars() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '>' if prev != '-' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                prev = c;
                continue;
            }
            _ => {}
        }
        cur.push(c);
        prev = c;
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// `(A, B) -> (R, S)` / `(A) -> R` as (inputs, results).
fn split_function_type(fty: &str) -> Option<(Vec<String>, Vec<String>)> {
    let fty = fty.trim();
    let rest = fty.strip_prefix('(')?;
    let mut depth = 0i32;
    let mut close = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' if depth == 0 => {
                close = Some(i);
                break;
            }
            ')' | '>' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    let close = close?;
    let inputs = split_top(&rest[..close]);
    let after = rest[close + 1..].trim().strip_prefix("->")?.trim();
    let results = match after.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(list) => split_top(list),
        None => vec![after.to_string()],
    };
    Some((inputs, results))
}

/// The dictionaries of `[{...}, {}]`.
fn dict_list(v: &str) -> Vec<String> {
    let v = v.trim();
    match v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        Some(inner) => split_top(inner),
        None => Vec::new(),
    }
}
