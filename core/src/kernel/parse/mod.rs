//! The parser of the kernel text form: MLIR 19's custom syntax for every op
//! of [`KOpKind`], the spellings of MLIR's Vulkan-runner test files (`call` and
//! `return` without the `func.` prefix, `module attributes {...}`), and
//! MLIR's generic form `"arith.addi"(%a, %b) : (i32, i32) -> i32` for any op
//! of the table.
//!
//! The parsed module is MLIR's generic form of the text: operands in
//! generic order, attributes under their generic names, with these
//! normalizations so consumers need not decode MLIR's enum attributes:
//!
//! * enum-valued attributes are [`KAttr::Enum`] with the keyword:
//!   `predicate` (`arith.cmpi`/`arith.cmpf`, `"slt"`, also when the generic
//!   form gives the integer), `pred` (`index.cmp`), `dimension`
//!   (`gpu.thread_id`, ...: `"x"`), `mode` (`gpu.shuffle`), `op`
//!   (`gpu.subgroup_reduce`), `kind` (`vector.reduction`), `fastmath`
//!   (`"fast"`, `"nnan,ninf"`) and `overflowFlags` (`"nsw"`); defaults
//!   (`fastmath<none>`, `overflow<none>`) are dropped;
//! * `operandSegmentSizes` is kept ([`KAttr::DenseI64`]) on
//!   `memref.alloc`/`alloca` (dynamic sizes, symbols), `memref.subview`
//!   (source, offsets, sizes, strides) and `gpu.launch_func` (MLIR 19's 13
//!   segments); `static_offsets`/`static_sizes`/`static_strides` and
//!   `vector.extract`/`insert`'s `static_position` use `i64::MIN` for a
//!   dynamic entry, as MLIR does;
//! * `func.func`/`gpu.func` carry `sym_name`, `function_type`,
//!   `sym_visibility`, `arg_attrs` (an array of dictionaries, only when some
//!   argument has attributes), `gpu.kernel` and `workgroup_attributions`;
//!   the body's entry block holds the arguments, then the workgroup, then
//!   the private attributions;
//! * a SPIR-V dialect op inside a `gpu.func` is a [`KOpKind::SpirvOp`] keeping
//!   its text (see `spirv.rs`);
//! * `scf.for`/`scf.if`/`scf.while` bodies without a terminator get the
//!   implicit `scf.yield`; `scf.if` without `else` has an empty else region;
//!   `gpu.module_end` of the generic form is dropped.
//!
//! The parser never panics; every failure is a [`KernelParseError`] with the
//! line and column.

mod attrs;
mod generic;
mod memref;
mod mma;
pub(crate) mod ops;
mod scf;
mod spirv;
mod structure;
mod types;
mod vector;

pub(crate) use attrs::fit_int;

use std::collections::HashMap;

use super::error::KernelParseError;
use super::module::KernelModule;
use super::ops::KOpKind;
use super::types::KType;
use crate::ir::Location;
use crate::kernel::entity::{KBlock, KOp, KRegion, KValue};
use crate::text::cursor::{Cursor, TokenParser};
use crate::text::lexer::TokKind;

/// Parse results.
pub(crate) type PResult<T> = Result<T, KernelParseError>;

/// Parses a kernel module (see the module documentation).
pub fn parse(src: &str) -> Result<KernelModule, KernelParseError> {
    let mut p = Parser::new(src)?;
    p.parse_top()?;
    Ok(p.m)
}

/// Parses one kernel type in MLIR's syntax (`i32`, `vector<4x3xf32>`,
/// `memref<4x?xf32, strided<[?, 1], offset: ?>, #gpu.address_space<workgroup>>`,
/// `memref<*xf16, 3>`, `(i32) -> f32`); the whole text must be the type.
/// [`type_to_string`](crate::kernel::print::type_to_string) prints it back.
pub fn parse_type(src: &str) -> Result<KType, KernelParseError> {
    let mut p = Parser::new(src)?;
    let ty = p.parse_type()?;
    if !matches!(p.peek(), TokKind::Eof) {
        return p.expected("the end of the type");
    }
    Ok(ty)
}

/// One level of SSA name visibility (a region).
struct Scope {
    names: HashMap<String, KValue>,
    /// Names of enclosing scopes are not visible (function bodies).
    isolated: bool,
}

/// The kernel parser: a lexer with one token of lookahead, the module being
/// built and the SSA name scopes.
pub(crate) struct Parser<'a> {
    cur: Cursor<'a>,
    pub(crate) m: KernelModule,
    scopes: Vec<Scope>,
    /// The innermost function-like op being parsed (for `return`).
    func_kind: Vec<KOpKind>,
}

impl<'a> TokenParser<'a> for Parser<'a> {
    type Error = KernelParseError;

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
            m: KernelModule::new(),
            scopes: Vec::new(),
            func_kind: Vec::new(),
        })
    }

    // ---- SSA names -------------------------------------------------------

    pub(crate) fn push_scope(&mut self, isolated: bool) {
        self.scopes.push(Scope {
            names: HashMap::new(),
            isolated,
        });
    }

    pub(crate) fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    /// Binds `%name` in the innermost scope.
    pub(crate) fn define(&mut self, name: &str, value: KValue, loc: Location) -> PResult<()> {
        let Some(scope) = self.scopes.last_mut() else {
            return Err(KernelParseError::new(
                loc,
                "value defined outside any region",
            ));
        };
        if scope.names.insert(name.to_owned(), value).is_some() {
            return Err(KernelParseError::new(
                loc,
                format!("redefinition of SSA value '%{name}'"),
            ));
        }
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<KValue> {
        for scope in self.scopes.iter().rev() {
            if let Some(&v) = scope.names.get(name) {
                return Some(v);
            }
            if scope.isolated {
                return None;
            }
        }
        None
    }

    /// A use `%name` (or `%name#N`).
    pub(crate) fn value_use(&mut self) -> PResult<KValue> {
        let TokKind::Value(name) = *self.peek() else {
            return self.expected("an SSA value '%...'");
        };
        let found = self.lookup(name).or_else(|| {
            // `%x#0` names the single result of `%x = ...`.
            name.strip_suffix("#0").and_then(|base| self.lookup(base))
        });
        match found {
            Some(v) => {
                self.bump()?;
                Ok(v)
            }
            None => self.err(format!("use of undefined value '%{name}'")),
        }
    }

    /// A use with a type check: `%v` whose type must be `ty`.
    pub(crate) fn typed_use(&mut self, ty: &KType) -> PResult<KValue> {
        let loc = self.loc();
        let v = self.value_use()?;
        let have = self.m.value_type(v);
        if have != ty {
            return Err(KernelParseError::new(
                loc,
                format!(
                    "use of value with type {} where {} is expected",
                    super::print::type_to_string(have),
                    super::print::type_to_string(ty)
                ),
            ));
        }
        Ok(v)
    }

    /// `%a, %b, ...` (possibly empty when the next token is not a value).
    pub(crate) fn value_list(&mut self) -> PResult<Vec<KValue>> {
        let mut out = Vec::new();
        if !matches!(*self.peek(), TokKind::Value(_)) {
            return Ok(out);
        }
        loop {
            out.push(self.value_use()?);
            if !self.is_punct(",") {
                return Ok(out);
            }
            // A `,` followed by something else belongs to the caller.
            let save = self.pos();
            self.bump()?;
            if !matches!(*self.peek(), TokKind::Value(_)) {
                self.reset_to(save)?;
                return Ok(out);
            }
        }
    }

    /// `%name` of a new definition (block argument or region argument).
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

    // ---- building --------------------------------------------------------

    /// Creates `kind` and appends it to `block`.
    pub(crate) fn build(&mut self, block: KBlock, spec: OpSpecK, loc: Location) -> KOp {
        let op = self.m.create_op(
            spec.kind,
            &spec.operands,
            &spec.results,
            spec.attrs,
            spec.regions,
            loc,
        );
        self.m.append_op(block, op);
        op
    }

    /// The regions of `op`.
    pub(crate) fn regions_of(&self, op: KOp) -> Vec<KRegion> {
        self.m.op(op).regions.clone()
    }
}

/// What a custom-syntax parser produces before the op is created.
pub(crate) struct OpSpecK {
    pub kind: KOpKind,
    pub operands: Vec<KValue>,
    pub results: Vec<KType>,
    pub attrs: Vec<(String, crate::kernel::KAttr)>,
    pub regions: usize,
}

impl OpSpecK {
    pub(crate) fn new(kind: KOpKind) -> Self {
        Self {
            kind,
            operands: Vec::new(),
            results: Vec::new(),
            attrs: Vec::new(),
            regions: 0,
        }
    }
}
