//! Every op of a program that kiln's tensor programs do not support, found
//! in one scan of the text, so that a refused program names all of them at
//! once (op name and line each) instead of only the first the parser meets.
//!
//! The scan is lexical: a dotted identifier (`math.fpowi`) is an op name
//! when it follows `%results =` or starts a line and is not an attribute
//! name (followed by `=`); a string followed by `(` in those places is an
//! op in MLIR's generic form (`"linalg.generic"(...)`) left untranslated
//! (see [`generic_form`](super::generic_form)). Names are checked against
//! [`supported_ops`](crate::tensor::ops::supported_ops), the table the
//! parser's own "supported ops" messages come from.

use std::collections::HashSet;

use crate::ir::Location;
use crate::tensor::error::TensorParseError;
use crate::tensor::ops::supported_ops;
use crate::text::lexer::{Lexer, TokKind};

/// The dialects whose supported ops the scan accepts.
const DIALECTS: [&str; 10] = [
    "func",
    "arith",
    "math",
    "linalg",
    "tensor",
    "util",
    "flow",
    "check",
    "affine",
    "ml_program",
];

/// Ops the parser reads that are not in a dialect table.
const EXTRA: [&str; 21] = [
    "func.func",
    "builtin.module",
    "cf.assert",
    "scf.for",
    "scf.if",
    "scf.while",
    "scf.condition",
    "scf.yield",
    "iree_linalg_ext.scan",
    "iree_linalg_ext.sort",
    "iree_linalg_ext.scatter",
    "iree_linalg_ext.topk",
    "iree_linalg_ext.yield",
    "tm_tensor.scan",
    "tm_tensor.sort",
    "tm_tensor.scatter",
    "tm_tensor.topk",
    "tm_tensor.yield",
    "arith.mulsi_extended",
    "arith.mului_extended",
    "flow.tensor.tie_shape",
];

/// One op the scan found unsupported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unsupported {
    /// The op's name (for the generic form, with its quotes).
    pub name: String,
    /// Where its name is.
    pub loc: Location,
}

/// Whether `src` has an op in MLIR's generic form (a string followed by
/// `(` where an op name goes).
pub(crate) fn has_generic_ops(src: &str) -> bool {
    src.contains("\"(") && unsupported_ops(src).iter().any(|o| o.name.starts_with('"'))
}

/// Every unsupported op of `src`, in text order.
pub(crate) fn unsupported_ops(src: &str) -> Vec<Unsupported> {
    let known: HashSet<String> = DIALECTS
        .iter()
        .flat_map(|d| supported_ops(d))
        .chain(EXTRA.iter().map(|s| s.to_string()))
        .collect();
    let mut lx = Lexer::new(src);
    let mut toks = Vec::new();
    while let Ok(t) = lx.next_token() {
        if t.kind == TokKind::Eof {
            break;
        }
        toks.push(t);
    }
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let line_start = match i.checked_sub(1).and_then(|j| toks.get(j)) {
            None => true,
            Some(p) => src
                .get(p.end..t.start)
                .is_some_and(|gap| gap.contains('\n')),
        };
        let after_results = i >= 2
            && toks[i - 1].kind == TokKind::Punct("=")
            && matches!(toks[i - 2].kind, TokKind::Value(_) | TokKind::Int(_));
        if !line_start && !after_results {
            continue;
        }
        let next = toks.get(i + 1).map(|n| &n.kind);
        let name = match &t.kind {
            TokKind::Ident(s) if s.contains('.') && next != Some(&TokKind::Punct("=")) => {
                if known.contains(*s) {
                    continue;
                }
                s.to_string()
            }
            TokKind::Str(s) if next == Some(&TokKind::Punct("(")) => {
                format!("\"{s}\" (MLIR's generic op form)")
            }
            _ => continue,
        };
        out.push(Unsupported {
            name,
            loc: lx.location(t.start),
        });
    }
    out
}

/// `err` (a parse failure of `src`) extended with every unsupported op of
/// the program: when the parser stopped at one of them, the error lists
/// them all, at the first; otherwise the list follows the parser's error.
/// A program with one unsupported op, stopped there, keeps the parser's own
/// message (it names the supported ops of the dialect).
pub(crate) fn with_all_unsupported(src: &str, err: TensorParseError) -> TensorParseError {
    let ops = unsupported_ops(src);
    let at_op = ops.iter().any(|o| o.loc == err.loc);
    if ops.is_empty() || (ops.len() == 1 && at_op) {
        return err;
    }
    let list: Vec<String> = ops
        .iter()
        .map(|o| format!("  {}: unsupported op '{}'", o.loc, o.name))
        .collect();
    if at_op {
        let first = ops[0].loc;
        TensorParseError::new(
            first,
            format!(
                "the program uses {} unsupported ops:\n{}",
                ops.len(),
                list.join("\n")
            ),
        )
    } else {
        TensorParseError::new(
            err.loc,
            format!(
                "{}\nthe program also uses {} unsupported ops:\n{}",
                err.message,
                ops.len(),
                list.join("\n")
            ),
        )
    }
}
