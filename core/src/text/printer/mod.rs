//! The printer: [`Module`] -> text.
//!
//! Values and blocks are named the way `mlir-opt` numbers them: inside each
//! isolated op (`spirv.func`, `spirv.module`) function arguments are
//! `%arg0...`, and other values `%0, %1, ...` in order, first over the
//! region's own blocks and then over nested regions, each sibling region
//! starting from the same number; blocks are `^bb0...` per region. Ops print
//! in their custom form when they have one and fit it, and in the generic
//! form otherwise, so any module prints to text that parses back to it.

mod attrs;
mod custom;
mod structural;
mod types;

use std::collections::HashMap;

use super::Prefix;
use crate::grammar::Opcode;
use crate::ir::schema::core_schema;
use crate::ir::{Attr, AttrStore, Block, Module, Op, OpKind, Region, Type, TypeStore, Value};

pub(crate) use attrs::{write_attr, write_symbol, write_vce};
pub(crate) use types::write_type;

/// Prints a type to a string.
pub(crate) fn type_to_string(types: &TypeStore, ty: Type, prefix: Prefix) -> String {
    let mut s = String::new();
    write_type(&mut s, types, ty, prefix);
    s
}

/// Prints an attribute to a string.
pub(crate) fn attr_to_string(
    attrs: &AttrStore,
    types: &TypeStore,
    attr: Attr,
    prefix: Prefix,
) -> String {
    let mut s = String::new();
    write_attr(&mut s, attrs, types, attr, prefix);
    s
}

/// Prints a whole module.
pub(crate) fn print_module(m: &Module, prefix: Prefix) -> String {
    let mut p = Printer::new(m, prefix);
    let top = m.top();
    match &m.wrapper {
        Some(attrs) => {
            p.out.push_str("module");
            let mut rest: Vec<(String, Attr)> = Vec::new();
            for (k, v) in attrs {
                match (k.as_str(), m.attrs.as_str(*v)) {
                    ("sym_name", Some(name)) => {
                        p.out.push(' ');
                        attrs::write_symbol(&mut p.out, name);
                    }
                    _ => rest.push((k.clone(), *v)),
                }
            }
            if !rest.is_empty() {
                p.out.push_str(" attributes ");
                p.write_attr_dict(&rest);
            }
            p.out.push_str(" {\n");
            p.indent = 1;
            p.print_op_line(top);
            p.out.push_str("}\n");
        }
        None => p.print_op_line(top),
    }
    p.out
}

/// Prints one op (numbering values as in its enclosing isolated op).
pub(crate) fn print_single_op(m: &Module, op: Op, prefix: Prefix) -> String {
    let mut p = Printer::new(m, prefix);
    let mut anchor = op;
    let mut guard = 0;
    while !p.is_isolated(anchor) {
        match m.parent_op(anchor) {
            Some(parent) if guard < 10_000 => {
                anchor = parent;
                guard += 1;
            }
            _ => break,
        }
    }
    if p.is_isolated(anchor) && anchor != op {
        p.number_isolated(anchor);
    }
    p.print_op(op);
    p.out
}

/// The printer state.
pub(crate) struct Printer<'m> {
    pub(crate) m: &'m Module,
    pub(crate) prefix: Prefix,
    pub(crate) out: String,
    pub(crate) indent: usize,
    values: HashMap<Value, String>,
    blocks: HashMap<Block, String>,
    /// Ops currently being printed (guards against cyclic region structure).
    active: Vec<Op>,
}

impl<'m> Printer<'m> {
    fn new(m: &'m Module, prefix: Prefix) -> Self {
        Printer {
            m,
            prefix,
            out: String::new(),
            indent: 0,
            values: HashMap::new(),
            blocks: HashMap::new(),
            active: Vec::new(),
        }
    }

    pub(crate) fn is_isolated(&self, op: Op) -> bool {
        matches!(self.m.op(op).kind, OpKind::Func | OpKind::Module)
    }

    // ---- naming ------------------------------------------------------------

    /// Names the values and blocks of an isolated op's regions.
    pub(crate) fn number_isolated(&mut self, op: Op) {
        let func = self.m.op(op).kind == OpKind::Func;
        let regions = self.m.op(op).regions.clone();
        for r in regions {
            self.number_region(r, 0, func, 0);
        }
    }

    fn number_region(&mut self, region: Region, start: usize, func_entry: bool, depth: usize) {
        if depth > 500 {
            return;
        }
        let mut next = start;
        let blocks = self.m.region(region).blocks.clone();
        for (bi, &b) in blocks.iter().enumerate() {
            self.blocks.insert(b, format!("^bb{bi}"));
            for (ai, &arg) in self.m.block(b).args.iter().enumerate() {
                if func_entry && bi == 0 {
                    self.values.insert(arg, format!("%arg{ai}"));
                } else {
                    self.values.insert(arg, format!("%{next}"));
                    next += 1;
                }
            }
            for &op in &self.m.block(b).ops {
                for &r in &self.m.op(op).results {
                    self.values.insert(r, format!("%{next}"));
                    next += 1;
                }
            }
        }
        for &b in &blocks {
            for &op in &self.m.block(b).ops {
                if self.is_isolated(op) {
                    continue;
                }
                for &r in &self.m.op(op).regions {
                    self.number_region(r, next, false, depth + 1);
                }
            }
        }
    }

    /// The printed name of a value.
    pub(crate) fn value_name(&self, v: Value) -> &str {
        self.values
            .get(&v)
            .map_or("%<<UNKNOWN SSA VALUE>>", String::as_str)
    }

    /// The printed name of a block.
    pub(crate) fn block_name(&self, b: Block) -> &str {
        self.blocks
            .get(&b)
            .map_or("^<<UNKNOWN BLOCK>>", String::as_str)
    }

    // ---- output helpers ------------------------------------------------------

    pub(crate) fn write_type(&mut self, ty: Type) {
        write_type(&mut self.out, &self.m.types, ty, self.prefix);
    }

    pub(crate) fn write_attr(&mut self, attr: Attr) {
        write_attr(
            &mut self.out,
            &self.m.attrs,
            &self.m.types,
            attr,
            self.prefix,
        );
    }

    /// `{a = 1 : i32, flag}`.
    pub(crate) fn write_attr_dict(&mut self, entries: &[(String, Attr)]) {
        attrs::write_dict(
            &mut self.out,
            &self.m.attrs,
            &self.m.types,
            entries,
            self.prefix,
        );
    }

    /// ` {a = 1 : i32}` unless every attribute is elided.
    pub(crate) fn write_opt_attr_dict(&mut self, op: Op, elided: &[&str]) {
        let rest: Vec<(String, Attr)> = self
            .m
            .op(op)
            .attrs
            .iter()
            .filter(|(n, _)| !elided.contains(&n.as_str()))
            .cloned()
            .collect();
        if !rest.is_empty() {
            self.out.push(' ');
            self.write_attr_dict(&rest);
        }
    }

    /// ` attributes {...}` unless every attribute is elided.
    pub(crate) fn write_opt_attr_dict_kw(&mut self, op: Op, elided: &[&str]) {
        let rest: Vec<(String, Attr)> = self
            .m
            .op(op)
            .attrs
            .iter()
            .filter(|(n, _)| !elided.contains(&n.as_str()))
            .cloned()
            .collect();
        if !rest.is_empty() {
            self.out.push_str(" attributes ");
            self.write_attr_dict(&rest);
        }
    }

    pub(crate) fn write_values(&mut self, values: &[Value]) {
        for (i, &v) in values.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let name = self.value_name(v).to_string();
            self.out.push_str(&name);
        }
    }

    pub(crate) fn write_types(&mut self, types: &[Type]) {
        for (i, &t) in types.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_type(t);
        }
    }

    fn newline_indent(&mut self) {
        self.out.push('\n');
        self.push_indent();
    }

    pub(crate) fn push_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    /// The op's name as printed (`spirv.IAdd`, `spv.GLSL.Exp`, `foo.bar`).
    pub(crate) fn op_name(&self, kind: &OpKind) -> String {
        match kind {
            OpKind::Foreign(name) => name.clone(),
            _ => super::op_name(self.prefix, &kind.name()),
        }
    }

    // ---- ops -------------------------------------------------------------------

    /// Prints an op on its own line at the current indentation.
    fn print_op_line(&mut self, op: Op) {
        self.push_indent();
        self.print_op(op);
        self.out.push('\n');
    }

    /// Prints an op (custom form when it fits, generic otherwise).
    pub(crate) fn print_op(&mut self, op: Op) {
        if self.active.contains(&op) || self.active.len() > 500 {
            self.out.push_str("<<CYCLIC IR>>");
            return;
        }
        self.active.push(op);
        if self.is_isolated(op) {
            self.number_isolated(op);
        }
        let results = self.m.op(op).results.clone();
        if !results.is_empty() {
            self.write_values(&results);
            self.out.push_str(" = ");
        }
        let start = self.out.len();
        if !self.print_custom(op) {
            self.out.truncate(start);
            self.print_generic(op);
        }
        self.active.pop();
    }

    /// Dispatches to the custom printers; false when the op has no custom
    /// form or does not fit it.
    fn print_custom(&mut self, op: Op) -> bool {
        let kind = self.m.op(op).kind.clone();
        match &kind {
            OpKind::Module => self.print_module_op(op),
            OpKind::Func => self.print_func(op),
            OpKind::GlobalVariable => self.print_global_variable(op),
            OpKind::AddressOf => self.print_symbol_value_op(op, "variable"),
            OpKind::ReferenceOf => self.print_symbol_value_op(op, "spec_const"),
            OpKind::Constant => self.print_constant(op),
            OpKind::SpecConstant => self.print_spec_constant(op),
            OpKind::SpecConstantComposite => self.print_spec_constant_composite(op),
            OpKind::EntryPoint => self.print_entry_point(op),
            OpKind::ExecutionMode => self.print_execution_mode(op),
            OpKind::Selection | OpKind::Loop => self.print_structured(op),
            OpKind::Merge => self.print_merge(op),
            OpKind::Foreign(_) => false,
            OpKind::Core(_) if kind.is_core(Opcode::Branch) => self.print_branch(op),
            OpKind::Core(_) if kind.is_core(Opcode::BranchConditional) => {
                self.print_branch_conditional(op)
            }
            OpKind::Core(_) if kind.is_core(Opcode::Switch) => self.print_switch(op),
            OpKind::Core(_) if kind.is_core(Opcode::FunctionCall) => self.print_function_call(op),
            OpKind::Core(_) if kind.is_core(Opcode::Variable) => self.print_variable(op),
            _ => match super::asm_forms::form_for(&kind) {
                Some(form) => self.print_form(op, form),
                None => false,
            },
        }
    }

    /// Attribute names MLIR keeps as properties of `kind` (printed in `<{...}>`).
    fn is_inherent(&self, kind: &OpKind, name: &str) -> bool {
        let list: &[&str] = match kind {
            OpKind::Module => &["addressing_model", "memory_model", "vce_triple", "sym_name"],
            OpKind::Func => &[
                "sym_name",
                "function_type",
                "function_control",
                "arg_attrs",
                "res_attrs",
                "linkage_attributes",
            ],
            OpKind::GlobalVariable => &[
                "sym_name",
                "type",
                "descriptor_set",
                "binding",
                "initializer",
                "linkage_attributes",
            ],
            OpKind::AddressOf => &["variable"],
            OpKind::ReferenceOf => &["spec_const"],
            OpKind::Constant => &["value"],
            OpKind::SpecConstant => &["sym_name", "default_value"],
            OpKind::SpecConstantComposite => &["sym_name", "type", "constituents"],
            OpKind::EntryPoint => &["execution_model", "fn", "interface"],
            OpKind::ExecutionMode => &["fn", "execution_mode", "values"],
            OpKind::Selection => &["selection_control"],
            OpKind::Loop => &["loop_control"],
            OpKind::Core(opcode) => {
                let Some(schema) = core_schema(*opcode) else {
                    return false;
                };
                let names: Vec<&str> = schema.attr_names().collect();
                return names.contains(&name)
                    || (name == "alignment" && names.contains(&"memory_access"))
                    || name
                        .strip_suffix("_literals")
                        .is_some_and(|base| names.contains(&base));
            }
            _ => &[],
        };
        list.contains(&name)
    }

    /// `"spirv.Name"(%a)[^bb] <{props}> ({...}) {attrs} : (T) -> R`.
    fn print_generic(&mut self, op: Op) {
        let data = self.m.op(op).clone();
        self.out.push('"');
        let name = self.op_name(&data.kind);
        attrs::write_escaped(&mut self.out, &name);
        self.out.push('"');
        let mut operands = data.operands.clone();
        for s in &data.successors {
            operands.extend(s.args.iter().copied());
        }
        self.out.push('(');
        self.write_values(&operands);
        self.out.push(')');
        if !data.successors.is_empty() {
            self.out.push('[');
            for (i, s) in data.successors.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let n = self.block_name(s.block).to_string();
                self.out.push_str(&n);
            }
            self.out.push(']');
        }
        type Attrs = Vec<(String, Attr)>;
        let (mut props, discardable): (Attrs, Attrs) = data
            .attrs
            .iter()
            .cloned()
            .partition(|(n, _)| self.is_inherent(&data.kind, n));
        // Segment sizes MLIR needs to split successor operands.
        let mut extra: Vec<(String, String)> = Vec::new();
        if matches!(data.kind, OpKind::Core(_)) && data.successors.len() > 1 {
            let fmt = |v: &[usize]| {
                let parts: Vec<String> = v.iter().map(|x| x.to_string()).collect();
                format!("array<i32: {}>", parts.join(", "))
            };
            if data.kind.is_core(Opcode::Switch) {
                let cases: Vec<usize> = data.successors[1..].iter().map(|s| s.args.len()).collect();
                let total: usize = cases.iter().sum();
                extra.push(("case_operand_segments".into(), fmt(&cases)));
                extra.push((
                    "operandSegmentSizes".into(),
                    fmt(&[data.operands.len(), data.successors[0].args.len(), total]),
                ));
            } else {
                let mut segs = vec![data.operands.len()];
                segs.extend(data.successors.iter().map(|s| s.args.len()));
                extra.push(("operandSegmentSizes".into(), fmt(&segs)));
            }
        }
        props.retain(|(n, _)| !extra.iter().any(|(e, _)| e == n));
        if !props.is_empty() || !extra.is_empty() {
            self.out.push_str(" <{");
            let mut items: Vec<(String, Option<Attr>, Option<String>)> =
                props.into_iter().map(|(n, a)| (n, Some(a), None)).collect();
            items.extend(extra.into_iter().map(|(n, s)| (n, None, Some(s))));
            items.sort_by(|a, b| a.0.cmp(&b.0));
            for (i, (n, a, s)) in items.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                attrs::write_key(&mut self.out, &super::attr_name_for(self.prefix, n));
                if let Some(a) = a {
                    if !matches!(self.m.attrs.kind(*a), crate::ir::AttrKind::Unit) {
                        self.out.push_str(" = ");
                        self.write_attr(*a);
                    }
                } else if let Some(s) = s {
                    self.out.push_str(" = ");
                    self.out.push_str(s);
                }
            }
            self.out.push_str("}>");
        }
        if !data.regions.is_empty() {
            self.out.push_str(" (");
            for (i, &r) in data.regions.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.print_region(r, true);
            }
            self.out.push(')');
        }
        if !discardable.is_empty() {
            self.out.push(' ');
            self.write_attr_dict(&discardable);
        }
        self.out.push_str(" : (");
        let types: Vec<Type> = operands.iter().map(|&v| self.m.value_type(v)).collect();
        self.write_types(&types);
        self.out.push_str(") -> ");
        let results: Vec<Type> = data.results.iter().map(|&v| self.m.value_type(v)).collect();
        self.write_result_types(&results);
    }

    /// `()`, `T`, or `(T, U)`; a lone function type is parenthesized.
    pub(crate) fn write_result_types(&mut self, results: &[Type]) {
        let single_plain = results.len() == 1
            && !matches!(
                self.m.types.kind(results[0]),
                crate::ir::TypeKind::Function { .. }
            );
        if single_plain {
            self.write_type(results[0]);
        } else {
            self.out.push('(');
            self.write_types(results);
            self.out.push(')');
        }
    }

    // ---- regions ---------------------------------------------------------------

    /// Prints `{ ... }`. The entry block's label is printed when it has
    /// arguments and `entry_args` is set.
    pub(crate) fn print_region(&mut self, region: Region, entry_args: bool) {
        self.out.push('{');
        let blocks = self.m.region(region).blocks.clone();
        let preds = self.predecessors(&blocks);
        let owner_indent = self.indent;
        for (i, &b) in blocks.iter().enumerate() {
            let args = self.m.block(b).args.clone();
            if i > 0 || (entry_args && !args.is_empty()) {
                self.indent = owner_indent;
                self.newline_indent();
                let name = self.block_name(b).to_string();
                self.out.push_str(&name);
                if !args.is_empty() {
                    self.out.push('(');
                    for (k, &a) in args.iter().enumerate() {
                        if k > 0 {
                            self.out.push_str(", ");
                        }
                        let n = self.value_name(a).to_string();
                        self.out.push_str(&n);
                        self.out.push_str(": ");
                        let t = self.m.value_type(a);
                        self.write_type(t);
                    }
                    self.out.push(')');
                }
                self.out.push(':');
                let list = preds.get(&b).cloned().unwrap_or_default();
                if list.is_empty() {
                    if i > 0 {
                        self.out.push_str("  // no predecessors");
                    }
                } else if list.iter().all(|p| *p == list[0]) {
                    self.out.push_str("  // pred: ");
                    let n = self.block_name(list[0]).to_string();
                    self.out.push_str(&n);
                } else {
                    let mut sorted = list.clone();
                    let order: HashMap<Block, usize> =
                        blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
                    sorted.sort_by_key(|p| order.get(p).copied().unwrap_or(usize::MAX));
                    self.out.push_str(&format!("  // {} preds: ", sorted.len()));
                    for (k, p) in sorted.iter().enumerate() {
                        if k > 0 {
                            self.out.push_str(", ");
                        }
                        let n = self.block_name(*p).to_string();
                        self.out.push_str(&n);
                    }
                }
            }
            self.indent = owner_indent + 1;
            for &op in &self.m.block(b).ops.clone() {
                self.newline_indent();
                self.print_op(op);
            }
        }
        self.indent = owner_indent;
        self.newline_indent();
        self.out.push('}');
    }

    /// Predecessor edges of each block of a region.
    fn predecessors(&self, blocks: &[Block]) -> HashMap<Block, Vec<Block>> {
        let mut preds: HashMap<Block, Vec<Block>> = HashMap::new();
        for &b in blocks {
            for &op in &self.m.block(b).ops {
                for s in &self.m.op(op).successors {
                    preds.entry(s.block).or_default().push(b);
                }
            }
        }
        preds
    }
}
