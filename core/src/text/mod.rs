//! The MLIR-syntax text form of the spv IR: printer and parser.
//!
//! The text is what `mlir-opt` prints for the SPIR-V dialect: custom
//! assembly for the structural ops (`spirv.module`, `spirv.func`,
//! `spirv.GlobalVariable`, `spirv.Constant`, `spirv.mlir.selection`, ...) and
//! for the computational ops `mlir-opt-19` gives a custom form (one
//! declarative table, `asm_forms`, drives both the printer and the parser),
//! and MLIR's generic form `%r = "spirv.OpName"(%a) <{props}> {attrs} : (T) -> R`
//! for everything else.
//!
//! Both spellings of the dialect are accepted: the seeds' `spv.` prefix with
//! `spv.GLSL.*` ops, `!spv.*` types and `#spv.*` attributes, and current
//! MLIR's `spirv.` with `spirv.GL.*`. The printer writes either
//! ([`Prefix`]).
//!
//! Invariants:
//!
//! * Printing a module and parsing the text gives a module that prints to
//!   the same text (values are renumbered deterministically: `%argN` for
//!   function arguments, `%0, %1, ...` per function in MLIR's scoped order,
//!   `^bb0, ^bb1, ...` per region).
//! * The parser never panics; every failure is a [`ParseError`] naming the
//!   line, the column and what was expected.
//! * Ops of other dialects inside `spirv.module` parse into
//!   [`OpKind::Foreign`](crate::ir::OpKind::Foreign) (the verifier rejects
//!   them with their location); a builtin `module` wrapper keeps its
//!   attributes in [`Module::wrapper`], and other ops next to the
//!   `spirv.module` (`gpu.module`, `func.func`) are skipped.

mod asm_forms;
pub(crate) mod cursor;
mod enums;
pub(crate) mod float;
pub(crate) mod lexer;
mod parser;
mod printer;

pub use enums::mlir_capability_name;

use crate::ir::{Attr, AttrStore, Location, Module, Op, Type, TypeStore, Value, Vce};

/// Which spelling of the dialect to print.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Prefix {
    /// The seeds' spelling: `spv.module`, `spv.GLSL.Exp`, `!spv.ptr`, `#spv.vce`.
    Spv,
    /// Current MLIR's spelling: `spirv.module`, `spirv.GL.Exp`, `!spirv.ptr`.
    #[default]
    Spirv,
}

impl Prefix {
    /// The dialect namespace without the dot (`"spv"` / `"spirv"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::Spv => "spv",
            Prefix::Spirv => "spirv",
        }
    }
}

/// Options of [`print()`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// The dialect spelling.
    pub prefix: Prefix,
}

/// A parse failure: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: {message}")]
pub struct ParseError {
    /// Line and column of the offending token.
    pub loc: Location,
    /// What went wrong.
    pub message: String,
}

/// Prints `module` (wrapped in a builtin `module` when it had one).
pub fn print(module: &Module, opts: &PrintOptions) -> String {
    printer::print_module(module, opts.prefix)
}

/// Prints one op (with its regions), numbering values as in its enclosing
/// function; for diagnostics.
pub fn print_op(module: &Module, op: Op, opts: &PrintOptions) -> String {
    printer::print_single_op(module, op, opts.prefix)
}

/// Parses a text holding one `spirv.module` (or `spv.module`), optionally
/// inside a builtin `module`.
pub fn parse(src: &str) -> Result<Module, ParseError> {
    parser::parse_module(src)
}

/// Parses a text holding any number of `spirv.module`s and spv
/// module-level ops (`spirv.func`, `spirv.GlobalVariable`, ...) outside
/// them, at the top level or in a builtin module, as MLIR's conversion
/// tests write them. The ops outside any `spirv.module` are gathered, in
/// order, into a `spirv.module Logical GLSL450` without a VCE triple,
/// which comes first; a text without ops gives one empty module. Ops of
/// other dialects are skipped.
pub fn parse_modules(src: &str) -> Result<Vec<Module>, ParseError> {
    parser::parse_modules(src)
}

/// The chunks of a text between `// -----` lines (MLIR's
/// `--split-input-file`), each padded with empty lines so that its line
/// numbers are those of the whole text.
pub fn split_input(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if line.trim_end() == "// -----" {
            let lines = current.matches('\n').count() + 1;
            chunks.push(std::mem::replace(&mut current, "\n".repeat(lines)));
        } else {
            current.push_str(line);
        }
    }
    chunks.push(current);
    chunks
}

/// Parses one op of spv text without its result names (`spirv.IAdd %a, %b
/// : i32`, or the generic form), expected to define `results` results,
/// into `module`, detached (the caller inserts it), with each `(name,
/// value)` of `bindings` giving what `%name` stands for. Uses of other
/// values and ops with regions are errors. Error locations are in `src`
/// (a result-name prefix may shift columns of the first line).
pub fn parse_op_into(
    module: &mut Module,
    src: &str,
    bindings: &[(String, Value)],
    results: usize,
) -> Result<Op, ParseError> {
    parser::parse_op_into(module, src, bindings, results)
}

/// Prints a type (`!spirv.ptr<f32, StorageBuffer>`).
pub fn print_type(types: &TypeStore, ty: Type, prefix: Prefix) -> String {
    printer::type_to_string(types, ty, prefix)
}

/// Prints an attribute (`#spirv.storage_class<StorageBuffer>`, `42 : i32`).
pub fn print_attr(attrs: &AttrStore, types: &TypeStore, attr: Attr, prefix: Prefix) -> String {
    printer::attr_to_string(attrs, types, attr, prefix)
}

/// Prints a version / capabilities / extensions triple as MLIR 19 does:
/// `#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>`
/// (capabilities in [`mlir_capability_name`]'s spelling).
pub fn print_vce(vce: &Vce, prefix: Prefix) -> String {
    let mut s = String::new();
    printer::write_vce(&mut s, vce, prefix);
    s
}

/// Parses a whole string as one type, interning it (and its parts) in `types`.
pub fn parse_type(types: &mut TypeStore, src: &str) -> Result<Type, ParseError> {
    parser::parse_standalone_type(types, src)
}

/// Parses a whole string as one attribute, interning it in `attrs` / `types`.
pub fn parse_attr(
    attrs: &mut AttrStore,
    types: &mut TypeStore,
    src: &str,
) -> Result<Attr, ParseError> {
    parser::parse_standalone_attr(attrs, types, src)
}

/// Splits an op name into its dialect-relative part: `spirv.IAdd` and
/// `spv.IAdd` -> `IAdd`, `spv.GLSL.Exp` -> `GLSL.Exp`; `None` for other
/// dialects.
pub(crate) fn strip_dialect(name: &str) -> Option<&str> {
    name.strip_prefix("spirv.")
        .or_else(|| name.strip_prefix("spv."))
}

/// The printed name of an op given its dialect-relative MLIR name.
pub(crate) fn op_name(prefix: Prefix, relative: &str) -> String {
    match prefix {
        Prefix::Spirv => format!("spirv.{relative}"),
        Prefix::Spv => match relative.strip_prefix("GL.") {
            Some(rest) => format!("spv.GLSL.{rest}"),
            None => format!("spv.{relative}"),
        },
    }
}

/// Normalizes `#spv.` / `!spv.` to `#spirv.` / `!spirv.` outside string
/// literals (dialect attribute bodies are kept in the `spirv.` spelling).
pub(crate) fn normalize_prefixes(body: &str) -> String {
    rewrite_prefixes(body, "spv.", "spirv.")
}

/// Rewrites `#from` / `!from` to `#to` / `!to` outside string literals.
pub(crate) fn rewrite_prefixes(body: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut in_string = false;
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some((_, e)) = chars.next() {
                    out.push(e);
                }
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '#' | '!' if body[i + 1..].starts_with(from) => {
                out.push(c);
                out.push_str(to);
                for _ in 0..from.chars().count() {
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// Normalizes a discardable attribute name of the dialect (`spv.entry_point_abi`
/// -> `spirv.entry_point_abi`).
pub(crate) fn normalize_attr_name(name: &str) -> String {
    match name.strip_prefix("spv.") {
        Some(rest) => format!("spirv.{rest}"),
        None => name.to_string(),
    }
}

/// The printed form of a (normalized) attribute name.
pub(crate) fn attr_name_for(prefix: Prefix, name: &str) -> String {
    match (prefix, name.strip_prefix("spirv.")) {
        (Prefix::Spv, Some(rest)) => format!("spv.{rest}"),
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_rewriting_skips_strings() {
        assert_eq!(
            normalize_prefixes("#spv.vce<v1.0>, \"#spv.x\", !spv.ptr<f32, Input>"),
            "#spirv.vce<v1.0>, \"#spv.x\", !spirv.ptr<f32, Input>"
        );
        assert_eq!(op_name(Prefix::Spv, "GL.Exp"), "spv.GLSL.Exp");
        assert_eq!(op_name(Prefix::Spirv, "GL.Exp"), "spirv.GL.Exp");
    }
}
