//! The printer of the kernel text form: MLIR 19's custom syntax, which
//! `mlir-opt-19` parses back.
//!
//! Invariants:
//!
//! * `parse(print(m))` succeeds for every module the parser produced and
//!   prints to the same text (values are renumbered deterministically:
//!   `%argN` for block arguments and `%N` for results, counted per
//!   function-like op, multi-result ops as `%N:k` used as `%N#i`).
//! * Ops whose operands, results or attributes do not fit their custom form
//!   (possible through the builder) are printed in MLIR's generic form, so
//!   printing never panics and never loses information.
//! * `scf.yield` without operands is elided where MLIR elides it (bodies of
//!   `scf.for` without `iter_args`, `scf.if` without results).

mod attrs;
mod memref;
mod mma;
mod ops;
mod structure;
mod vector;

use std::collections::HashMap;

pub use attrs::{attr_to_string, dict_to_string, quote, results_to_string, type_to_string};

use super::module::{KAttr, KernelModule};
use super::ops::KOpKind;
use crate::kernel::entity::{KBlock, KOp, KRegion, KValue};

/// Prints `m` in MLIR 19's custom syntax.
pub fn print(m: &KernelModule) -> String {
    let mut p = Printer::new(m);
    p.print_top();
    p.out
}

/// Prints `m` in MLIR's generic form (every op as `"name"(...)`).
pub fn print_generic(m: &KernelModule) -> String {
    let mut p = Printer::new(m);
    p.generic_only = true;
    p.print_top();
    p.out
}

/// Prints one op (with its regions) for diagnostics; values defined outside
/// it print as `%?N`.
pub fn print_op(m: &KernelModule, op: KOp) -> String {
    let mut p = Printer::new(m);
    p.print_op(op);
    p.out.trim_end().to_owned()
}

/// Per function-like op value counters.
#[derive(Clone, Copy, Default)]
struct Counters {
    args: usize,
    vals: usize,
}

pub(crate) struct Printer<'m> {
    m: &'m KernelModule,
    out: String,
    names: HashMap<KValue, String>,
    counters: Counters,
    indent: usize,
    /// The innermost function-like op (for `return`/`call` spelling).
    func: Vec<KOpKind>,
    generic_only: bool,
}

impl<'m> Printer<'m> {
    fn new(m: &'m KernelModule) -> Self {
        Printer {
            m,
            out: String::new(),
            names: HashMap::new(),
            counters: Counters::default(),
            indent: 0,
            func: Vec::new(),
            generic_only: false,
        }
    }

    fn line_start(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn w(&mut self, s: &str) {
        self.out.push_str(s);
    }

    /// The name of a use.
    fn v(&self, v: KValue) -> String {
        self.names
            .get(&v)
            .cloned()
            .unwrap_or_else(|| format!("%?{}", v.index()))
    }

    fn vs(&self, vs: &[KValue]) -> String {
        vs.iter().map(|&v| self.v(v)).collect::<Vec<_>>().join(", ")
    }

    fn ty(&self, v: KValue) -> String {
        type_to_string(self.m.value_type(v))
    }

    fn tys(&self, vs: &[KValue]) -> String {
        vs.iter()
            .map(|&v| self.ty(v))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Names a block argument.
    fn name_arg(&mut self, v: KValue) -> String {
        let n = format!("%arg{}", self.counters.args);
        self.counters.args += 1;
        self.names.insert(v, n.clone());
        n
    }

    /// Names an op's results; returns the `%N = ` / `%N:k = ` prefix.
    fn name_results(&mut self, op: KOp) -> String {
        let results = &self.m.op(op).results;
        match results.len() {
            0 => String::new(),
            1 => {
                let n = format!("%{}", self.counters.vals);
                self.counters.vals += 1;
                self.names.insert(results[0], n.clone());
                format!("{n} = ")
            }
            k => {
                let base = format!("%{}", self.counters.vals);
                self.counters.vals += 1;
                for (i, &r) in results.iter().enumerate() {
                    self.names.insert(r, format!("{base}#{i}"));
                }
                format!("{base}:{k} = ")
            }
        }
    }

    /// Runs `f` with fresh counters (inside a function-like op).
    fn isolated(&mut self, kind: KOpKind, f: impl FnOnce(&mut Self)) {
        let saved = std::mem::take(&mut self.counters);
        self.func.push(kind);
        f(self);
        self.func.pop();
        self.counters = saved;
    }

    fn print_top(&mut self) {
        let top = self.m.top();
        if self.generic_only {
            self.print_generic_op(top);
            return;
        }
        let data = self.m.op(top);
        self.w("module");
        if let Some(name) = self.m.symbol_name(top) {
            self.w(" ");
            self.w(&attrs::symbol(name));
        }
        self.w(&ops::attributes_clause(data, &["sym_name"]));
        self.w(" {\n");
        self.indent += 1;
        if let Some(&region) = data.regions.first() {
            self.isolated(KOpKind::BuiltinModule, |p| {
                p.print_region_blocks(region, false, false)
            });
        }
        self.indent = self.indent.saturating_sub(1);
        self.w("}\n");
    }

    /// Prints the blocks of `region` (without braces). `skip_entry_label`:
    /// the entry block's arguments were printed by the op. `elide_yield`:
    /// a trailing `scf.yield` without operands is left out.
    fn print_region_blocks(&mut self, region: KRegion, skip_entry_label: bool, elide_yield: bool) {
        let blocks = self.m.region(region).blocks.clone();
        for (i, &block) in blocks.iter().enumerate() {
            let args = self.m.block(block).args.clone();
            if !(i == 0 && (skip_entry_label || args.is_empty())) {
                self.indent = self.indent.saturating_sub(1);
                self.line_start();
                self.indent += 1;
                self.w(&format!("^bb{i}"));
                if !args.is_empty() {
                    let items: Vec<String> = args
                        .iter()
                        .map(|&a| {
                            let n = self.name_arg(a);
                            format!("{n}: {}", self.ty(a))
                        })
                        .collect();
                    self.w(&format!("({})", items.join(", ")));
                }
                self.w(":\n");
            }
            self.print_block_ops(block, elide_yield && i + 1 == blocks.len());
        }
    }

    fn print_block_ops(&mut self, block: KBlock, elide_yield: bool) {
        let ops = self.m.block(block).ops.clone();
        for (i, &op) in ops.iter().enumerate() {
            let d = self.m.op(op);
            if elide_yield
                && i + 1 == ops.len()
                && d.kind == KOpKind::ScfYield
                && d.operands.is_empty()
                && d.attrs.is_empty()
            {
                continue;
            }
            self.print_op(op);
        }
    }

    /// `{` region `}` with the closing brace on its own line (no newline
    /// after it).
    fn print_region(&mut self, region: KRegion, skip_entry_label: bool, elide_yield: bool) {
        self.w("{\n");
        self.indent += 1;
        self.print_region_blocks(region, skip_entry_label, elide_yield);
        self.indent = self.indent.saturating_sub(1);
        self.line_start();
        self.w("}");
    }

    /// One op on its own line(s).
    fn print_op(&mut self, op: KOp) {
        self.line_start();
        if self.m.op(op).kind == KOpKind::SpirvOp {
            self.print_spirv_op(op);
        } else if self.generic_only || !self.print_custom(op) {
            self.print_generic_body(op);
        }
        self.w("\n");
    }

    /// A SPIR-V op kept as text: `%_k` becomes operand `k`'s name (in
    /// either print mode: the text is valid MLIR as it stands).
    fn print_spirv_op(&mut self, op: KOp) {
        let prefix = self.name_results(op);
        self.w(&prefix);
        let d = self.m.op(op).clone();
        let text = match d.attrs.iter().find(|(n, _)| n == "op") {
            Some((_, KAttr::String(t))) => t.clone(),
            _ => String::new(),
        };
        let names: Vec<String> = d.operands.iter().map(|&v| self.v(v)).collect();
        self.w(&substitute_operands(&text, &names));
    }

    fn print_generic_op(&mut self, op: KOp) {
        self.line_start();
        self.print_generic_body(op);
        self.w("\n");
    }

    /// `%r = "name"(%a) ({...}) {attrs} : (T) -> R`.
    fn print_generic_body(&mut self, op: KOp) {
        let d = self.m.op(op);
        let prefix = self.name_results(op);
        self.w(&prefix);
        let d = d.clone();
        self.w(&format!("\"{}\"({})", d.kind.name(), self.vs(&d.operands)));
        if !d.regions.is_empty() {
            self.w(" (");
            let isolated = matches!(
                d.kind,
                KOpKind::GpuModule | KOpKind::GpuFunc | KOpKind::FuncFunc | KOpKind::BuiltinModule
            );
            let run = |p: &mut Self| {
                for (i, &r) in d.regions.iter().enumerate() {
                    if i > 0 {
                        p.w(", ");
                    }
                    p.w("{\n");
                    p.indent += 1;
                    // Generic regions always label blocks with arguments.
                    p.print_region_blocks(r, false, false);
                    if d.kind == KOpKind::GpuModule {
                        // MLIR 19's implicit terminator, explicit in the
                        // generic form.
                        p.line_start();
                        p.w("\"gpu.module_end\"() : () -> ()\n");
                    }
                    p.indent = p.indent.saturating_sub(1);
                    p.line_start();
                    p.w("}");
                }
            };
            if isolated {
                self.isolated(d.kind, run);
            } else {
                run(self);
            }
            self.w(")");
        }
        if !d.attrs.is_empty() {
            let items: Vec<String> = d
                .attrs
                .iter()
                .map(|(n, a)| generic_attr(d.kind, n, a))
                .collect();
            self.w(&format!(" {{{}}}", items.join(", ")));
        }
        let results: Vec<_> = d
            .results
            .iter()
            .map(|&r| self.m.value_type(r).clone())
            .collect();
        self.w(&format!(
            " : ({}) -> {}",
            self.tys(&d.operands),
            if results.len() == 1 {
                type_to_string(&results[0])
            } else {
                format!(
                    "({})",
                    results
                        .iter()
                        .map(type_to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        ));
    }
}

/// `text` with each `%_k` (k < `names.len()`) replaced by `names[k]`.
pub(crate) fn substitute_operands(text: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("%_") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let ends_name = after[digits..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || "$._-".contains(c)));
        let name = after[..digits]
            .parse::<usize>()
            .ok()
            .filter(|_| ends_name)
            .and_then(|k| names.get(k));
        match name {
            Some(name) => {
                out.push_str(name);
                rest = &after[digits..];
            }
            None => {
                out.push_str("%_");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `name = value` of a generic-form attribute dictionary, with the
/// normalized enum attributes written back in MLIR's spelling.
fn generic_attr(kind: KOpKind, name: &str, attr: &KAttr) -> String {
    use ops::{CMPF, CMPI};
    let value = match (name, attr) {
        (_, KAttr::Unit) => return name.to_owned(),
        ("predicate", KAttr::Enum(e)) => {
            let table: &[&str] = if kind == KOpKind::ArithCmpF {
                &CMPF
            } else {
                &CMPI
            };
            let i = table.iter().position(|p| p == e).unwrap_or(0);
            format!("{i} : i64")
        }
        ("pred", KAttr::Enum(e)) => format!("#index<cmp_predicate {e}>"),
        ("dimension", KAttr::Enum(e)) => format!("#gpu<dim {e}>"),
        ("mode", KAttr::Enum(e)) => format!("#gpu<shuffle_mode {e}>"),
        ("op", KAttr::Enum(e)) => format!("#gpu<all_reduce_op {e}>"),
        ("kind", KAttr::Enum(e)) => format!("#vector.kind<{e}>"),
        ("fastmath", KAttr::Enum(e)) => format!("#arith.fastmath<{e}>"),
        ("overflowFlags", KAttr::Enum(e)) => format!("#arith.overflow<{e}>"),
        (n, KAttr::DenseI64(v)) if attrs::I32_ARRAYS.contains(&n) => attrs::int_array("i32", v),
        ("mask", KAttr::DenseI64(v)) => format!(
            "[{}]",
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (_, a) => attr_to_string(a),
    };
    let n = if name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$'))
    {
        name.to_owned()
    } else {
        attrs::quote(name)
    };
    format!("{n} = {value}")
}
