//! Hand-written custom forms (see the parser's `structural.rs` for the
//! grammar of each). Every printer first checks that the op fits its form
//! and returns `false` (before writing anything that matters) otherwise.

use super::attrs::{write_string, write_symbol};
use super::Printer;
use crate::grammar::{self, OperandKind};
use crate::ir::{Attr, AttrKind, Op, OpKind, Successor, Type, TypeKind};

impl Printer<'_> {
    fn attr_of(&self, op: Op, name: &str) -> Option<&AttrKind> {
        self.m.attr_kind(op, name)
    }

    fn enum_of(&self, op: Op, name: &str, kind: OperandKind) -> Option<u32> {
        match self.attr_of(op, name) {
            Some(AttrKind::Enum { kind: k, value }) if *k == kind => Some(*value),
            _ => None,
        }
    }

    fn string_of(&self, op: Op, name: &str) -> Option<String> {
        match self.attr_of(op, name) {
            Some(AttrKind::String(s)) => Some(s.clone()),
            _ => None,
        }
    }

    fn symbol_of(&self, op: Op, name: &str) -> Option<String> {
        match self.attr_of(op, name) {
            Some(AttrKind::SymbolRef(path)) if path.len() == 1 => Some(path[0].clone()),
            _ => None,
        }
    }

    fn type_of(&self, op: Op, name: &str) -> Option<Type> {
        match self.attr_of(op, name) {
            Some(AttrKind::Type(t)) => Some(*t),
            _ => None,
        }
    }

    fn shape(&self, op: Op, operands: usize, results: usize, regions: usize) -> bool {
        let d = self.m.op(op);
        d.operands.len() == operands
            && d.results.len() == results
            && d.regions.len() == regions
            && d.successors.is_empty()
    }

    pub(super) fn print_module_op(&mut self, op: Op) -> bool {
        let (Some(am), Some(mm)) = (
            self.enum_of(op, "addressing_model", OperandKind::AddressingModel),
            self.enum_of(op, "memory_model", OperandKind::MemoryModel),
        ) else {
            return false;
        };
        let name = self.attr_of(op, "sym_name").cloned();
        let vce = self.attr_of(op, "vce_triple").cloned();
        if !self.shape(op, 0, 0, 1)
            || !matches!(name, None | Some(AttrKind::String(_)))
            || !matches!(vce, None | Some(AttrKind::Vce(_)))
            || self.m.region(self.m.op(op).regions[0]).blocks.len() != 1
            || grammar::enumerant(OperandKind::AddressingModel, am).is_none()
            || grammar::enumerant(OperandKind::MemoryModel, mm).is_none()
        {
            return false;
        }
        let n = self.op_name(&OpKind::Module);
        self.out.push_str(&n);
        if let Some(AttrKind::String(s)) = &name {
            self.out.push(' ');
            write_symbol(&mut self.out, s);
        }
        self.out.push(' ');
        self.out
            .push_str(&grammar::format_bits(OperandKind::AddressingModel, am));
        self.out.push(' ');
        self.out
            .push_str(&grammar::format_bits(OperandKind::MemoryModel, mm));
        if let Some(a) = self.m.attr(op, "vce_triple") {
            self.out.push_str(" requires ");
            self.write_attr(a);
        }
        self.write_opt_attr_dict_kw(
            op,
            &["addressing_model", "memory_model", "vce_triple", "sym_name"],
        );
        self.out.push(' ');
        let r = self.m.op(op).regions[0];
        self.print_region(r, false);
        true
    }

    pub(super) fn print_func(&mut self, op: Op) -> bool {
        let (Some(name), Some(fty), Some(control)) = (
            self.string_of(op, "sym_name"),
            self.type_of(op, "function_type"),
            self.enum_of(op, "function_control", OperandKind::FunctionControl),
        ) else {
            return false;
        };
        let TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone() else {
            return false;
        };
        if !self.shape(op, 0, 0, 1) {
            return false;
        }
        let dicts = |p: &Self, attr: &str, n: usize| -> Option<Vec<Vec<(String, Attr)>>> {
            match p.m.attr_kind(op, attr) {
                None => Some(vec![Vec::new(); n]),
                Some(AttrKind::Array(items)) if items.len() == n => items
                    .iter()
                    .map(|&a| match p.m.attrs.kind(a) {
                        AttrKind::Dict(d) => Some(d.clone()),
                        _ => None,
                    })
                    .collect(),
                _ => None,
            }
        };
        let (Some(arg_attrs), Some(res_attrs)) = (
            dicts(self, "arg_attrs", inputs.len()),
            dicts(self, "res_attrs", results.len()),
        ) else {
            return false;
        };
        let region = self.m.op(op).regions[0];
        let blocks = self.m.region(region).blocks.clone();
        let args = match blocks.first() {
            Some(&entry) => {
                let args = self.m.block(entry).args.clone();
                let types: Vec<Type> = args.iter().map(|&a| self.m.value_type(a)).collect();
                if types != inputs {
                    return false;
                }
                Some(args)
            }
            None => None,
        };
        let n = self.op_name(&OpKind::Func);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &name);
        self.out.push('(');
        for (i, &ty) in inputs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(args) = &args {
                let v = self.value_name(args[i]).to_string();
                self.out.push_str(&v);
                self.out.push_str(": ");
            }
            self.write_type(ty);
            if !arg_attrs[i].is_empty() {
                self.out.push(' ');
                self.write_attr_dict(&arg_attrs[i]);
            }
        }
        self.out.push(')');
        if !results.is_empty() {
            self.out.push_str(" -> ");
            let simple = results.len() == 1
                && res_attrs[0].is_empty()
                && !matches!(self.m.types.kind(results[0]), TypeKind::Function { .. });
            if simple {
                self.write_type(results[0]);
            } else {
                self.out.push('(');
                for (i, &ty) in results.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.write_type(ty);
                    if !res_attrs[i].is_empty() {
                        self.out.push(' ');
                        self.write_attr_dict(&res_attrs[i]);
                    }
                }
                self.out.push(')');
            }
        }
        self.out.push(' ');
        write_string(
            &mut self.out,
            &grammar::format_bits(OperandKind::FunctionControl, control),
        );
        self.write_opt_attr_dict_kw(
            op,
            &[
                "sym_name",
                "function_type",
                "function_control",
                "arg_attrs",
                "res_attrs",
            ],
        );
        if !blocks.is_empty() {
            self.out.push(' ');
            self.print_region(region, false);
        }
        true
    }

    /// ` bind(s, b)` / ` built_in("X")`; returns the attribute names used.
    fn write_variable_decorations(&mut self, op: Op) -> Vec<&'static str> {
        let mut used = Vec::new();
        if let (
            Some(AttrKind::Int { value: set, .. }),
            Some(AttrKind::Int { value: binding, .. }),
        ) = (
            self.attr_of(op, "descriptor_set").cloned(),
            self.attr_of(op, "binding").cloned(),
        ) {
            if self.int_is_i32(op, "descriptor_set") && self.int_is_i32(op, "binding") {
                self.out.push_str(&format!(" bind({set}, {binding})"));
                used.extend(["descriptor_set", "binding"]);
            }
        }
        if let Some(s) = self.string_of(op, "built_in") {
            self.out.push_str(" built_in(");
            write_string(&mut self.out, &s);
            self.out.push(')');
            used.push("built_in");
        }
        used
    }

    fn int_is_i32(&self, op: Op, name: &str) -> bool {
        match self.attr_of(op, name) {
            Some(AttrKind::Int { ty, .. }) => matches!(
                self.m.types.kind(*ty),
                TypeKind::Int {
                    width: 32,
                    signedness: crate::ir::Signedness::Signless
                }
            ),
            _ => false,
        }
    }

    pub(super) fn print_global_variable(&mut self, op: Op) -> bool {
        let (Some(name), Some(ty)) = (self.string_of(op, "sym_name"), self.type_of(op, "type"))
        else {
            return false;
        };
        let init = self.attr_of(op, "initializer").cloned();
        if !self.shape(op, 0, 0, 0) || !matches!(init, None | Some(AttrKind::SymbolRef(_))) {
            return false;
        }
        let n = self.op_name(&OpKind::GlobalVariable);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &name);
        let mut elided = vec!["sym_name", "type"];
        if let Some(a) = self.m.attr(op, "initializer") {
            self.out.push_str(" initializer(");
            self.write_attr(a);
            self.out.push(')');
            elided.push("initializer");
        }
        elided.extend(self.write_variable_decorations(op));
        self.write_opt_attr_dict(op, &elided);
        self.out.push_str(" : ");
        self.write_type(ty);
        true
    }

    pub(super) fn print_symbol_value_op(&mut self, op: Op, attr: &str) -> bool {
        let Some(sym) = self.symbol_of(op, attr) else {
            return false;
        };
        if !self.shape(op, 0, 1, 0) {
            return false;
        }
        let kind = self.m.op(op).kind.clone();
        let n = self.op_name(&kind);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &sym);
        self.write_opt_attr_dict(op, &[attr]);
        self.out.push_str(" : ");
        let t = self.m.value_type(self.m.op(op).results[0]);
        self.write_type(t);
        true
    }

    /// The type a typed attribute carries (`None` for untyped ones).
    fn attr_natural_type(&self, a: &AttrKind) -> Option<Option<Type>> {
        match a {
            AttrKind::Int { ty, .. } | AttrKind::Float { ty, .. } | AttrKind::Dense { ty, .. } => {
                Some(Some(*ty))
            }
            AttrKind::Bool(_) => Some(self.m.types.lookup(&TypeKind::Int {
                width: 1,
                signedness: crate::ir::Signedness::Signless,
            })),
            _ => None,
        }
    }

    pub(super) fn print_constant(&mut self, op: Op) -> bool {
        let Some(value) = self.m.attr(op, "value") else {
            return false;
        };
        if !self.shape(op, 0, 1, 0) {
            return false;
        }
        let result_ty = self.m.value_type(self.m.op(op).results[0]);
        let natural = self.attr_natural_type(self.m.attrs.kind(value));
        let typed = match natural {
            Some(Some(t)) if t == result_ty => true,
            Some(_) => return false,
            None => false,
        };
        // An untyped value must not itself start like a typed one.
        let n = self.op_name(&OpKind::Constant);
        self.out.push_str(&n);
        self.out.push(' ');
        self.write_attr(value);
        if !typed {
            self.out.push_str(" : ");
            self.write_type(result_ty);
        }
        self.write_opt_attr_dict(op, &["value"]);
        true
    }

    pub(super) fn print_spec_constant(&mut self, op: Op) -> bool {
        let (Some(name), Some(value)) = (
            self.string_of(op, "sym_name"),
            self.m.attr(op, "default_value"),
        ) else {
            return false;
        };
        if !self.shape(op, 0, 0, 0) {
            return false;
        }
        let n = self.op_name(&OpKind::SpecConstant);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &name);
        let mut elided = vec!["sym_name", "default_value"];
        if let Some(AttrKind::Int { value, .. }) = self.attr_of(op, "spec_id").cloned() {
            self.out.push_str(&format!(" spec_id({value})"));
            elided.push("spec_id");
        }
        self.out.push_str(" = ");
        self.write_attr(value);
        self.write_opt_attr_dict(op, &elided);
        true
    }

    pub(super) fn print_spec_constant_composite(&mut self, op: Op) -> bool {
        let (Some(name), Some(ty)) = (self.string_of(op, "sym_name"), self.type_of(op, "type"))
        else {
            return false;
        };
        let Some(AttrKind::Array(items)) = self.attr_of(op, "constituents").cloned() else {
            return false;
        };
        let syms: Option<Vec<String>> = items
            .iter()
            .map(|&a| match self.m.attrs.kind(a) {
                AttrKind::SymbolRef(p) if p.len() == 1 => Some(p[0].clone()),
                _ => None,
            })
            .collect();
        let Some(syms) = syms else {
            return false;
        };
        if !self.shape(op, 0, 0, 0) {
            return false;
        }
        let n = self.op_name(&OpKind::SpecConstantComposite);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &name);
        self.out.push_str(" (");
        for (i, s) in syms.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            write_symbol(&mut self.out, s);
        }
        self.out.push(')');
        self.write_opt_attr_dict(op, &["sym_name", "type", "constituents"]);
        self.out.push_str(" : ");
        self.write_type(ty);
        true
    }

    fn symbol_list(&self, op: Op, name: &str) -> Option<Vec<String>> {
        match self.attr_of(op, name) {
            Some(AttrKind::Array(items)) => items
                .iter()
                .map(|&a| match self.m.attrs.kind(a) {
                    AttrKind::SymbolRef(p) if p.len() == 1 => Some(p[0].clone()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    pub(super) fn print_entry_point(&mut self, op: Op) -> bool {
        let (Some(model), Some(f), Some(iface)) = (
            self.enum_of(op, "execution_model", OperandKind::ExecutionModel),
            self.symbol_of(op, "fn"),
            self.symbol_list(op, "interface"),
        ) else {
            return false;
        };
        if !self.shape(op, 0, 0, 0)
            || grammar::enumerant(OperandKind::ExecutionModel, model).is_none()
        {
            return false;
        }
        let n = self.op_name(&OpKind::EntryPoint);
        self.out.push_str(&n);
        self.out.push(' ');
        write_string(
            &mut self.out,
            &grammar::format_bits(OperandKind::ExecutionModel, model),
        );
        self.out.push(' ');
        write_symbol(&mut self.out, &f);
        for s in &iface {
            self.out.push_str(", ");
            write_symbol(&mut self.out, s);
        }
        self.write_opt_attr_dict(op, &["execution_model", "fn", "interface"]);
        true
    }

    pub(super) fn print_execution_mode(&mut self, op: Op) -> bool {
        let (Some(f), Some(mode)) = (
            self.symbol_of(op, "fn"),
            self.enum_of(op, "execution_mode", OperandKind::ExecutionMode),
        ) else {
            return false;
        };
        let Some(values) = self.attr_of(op, "values").and_then(|k| self.i32_items(k)) else {
            return false;
        };
        if !self.shape(op, 0, 0, 0)
            || grammar::enumerant(OperandKind::ExecutionMode, mode).is_none()
        {
            return false;
        }
        let n = self.op_name(&OpKind::ExecutionMode);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &f);
        self.out.push(' ');
        write_string(
            &mut self.out,
            &grammar::format_bits(OperandKind::ExecutionMode, mode),
        );
        for v in values {
            self.out.push_str(&format!(", {v}"));
        }
        self.write_opt_attr_dict(op, &["fn", "execution_mode", "values"]);
        true
    }

    pub(super) fn print_structured(&mut self, op: Op) -> bool {
        let kind = self.m.op(op).kind.clone();
        let (attr, enum_kind) = if kind == OpKind::Loop {
            ("loop_control", OperandKind::LoopControl)
        } else {
            ("selection_control", OperandKind::SelectionControl)
        };
        let Some(control) = self.enum_of(op, attr, enum_kind) else {
            return false;
        };
        if !self.shape(op, 0, 0, 1) {
            return false;
        }
        let region = self.m.op(op).regions[0];
        if let Some(&entry) = self.m.region(region).blocks.first() {
            if !self.m.block(entry).args.is_empty() {
                return false;
            }
        }
        let n = self.op_name(&kind);
        self.out.push_str(&n);
        if control != 0 {
            self.out.push_str(" control(");
            self.out.push_str(&grammar::format_bits(enum_kind, control));
            self.out.push(')');
        }
        self.write_opt_attr_dict_kw(op, &[attr]);
        self.out.push(' ');
        self.print_region(region, false);
        true
    }

    pub(super) fn print_merge(&mut self, op: Op) -> bool {
        let d = self.m.op(op).clone();
        if !d.results.is_empty() || !d.regions.is_empty() || !d.successors.is_empty() {
            return false;
        }
        let n = self.op_name(&OpKind::Merge);
        self.out.push_str(&n);
        if !d.operands.is_empty() {
            self.out.push(' ');
            self.write_values(&d.operands);
        }
        self.write_opt_attr_dict(op, &[]);
        if !d.operands.is_empty() {
            self.out.push_str(" : ");
            let types: Vec<Type> = d.operands.iter().map(|&v| self.m.value_type(v)).collect();
            self.write_types(&types);
        }
        true
    }

    /// `^bb1` or `^bb1(%a, %b : i32, f32)`.
    fn write_successor(&mut self, s: &Successor) {
        let n = self.block_name(s.block).to_string();
        self.out.push_str(&n);
        if !s.args.is_empty() {
            self.out.push('(');
            self.write_values(&s.args);
            self.out.push_str(" : ");
            let types: Vec<Type> = s.args.iter().map(|&v| self.m.value_type(v)).collect();
            self.write_types(&types);
            self.out.push(')');
        }
    }

    pub(super) fn print_branch(&mut self, op: Op) -> bool {
        let d = self.m.op(op).clone();
        if !d.operands.is_empty()
            || !d.results.is_empty()
            || !d.regions.is_empty()
            || d.successors.len() != 1
        {
            return false;
        }
        let n = self.op_name(&d.kind);
        self.out.push_str(&n);
        self.out.push(' ');
        self.write_successor(&d.successors[0]);
        self.write_opt_attr_dict(op, &[]);
        true
    }

    /// The values of an array attribute whose items are all signless `i32`.
    fn i32_items(&self, array: &AttrKind) -> Option<Vec<i128>> {
        let AttrKind::Array(items) = array else {
            return None;
        };
        items
            .iter()
            .map(|&a| match self.m.attrs.kind(a) {
                AttrKind::Int { value, ty }
                    if matches!(
                        self.m.types.kind(*ty),
                        TypeKind::Int {
                            width: 32,
                            signedness: crate::ir::Signedness::Signless
                        }
                    ) =>
                {
                    Some(*value)
                }
                _ => None,
            })
            .collect()
    }

    fn i32_pair(&self, a: Attr) -> Option<(i128, i128)> {
        match self.i32_items(self.m.attrs.kind(a))?.as_slice() {
            [t, f] => Some((*t, *f)),
            _ => None,
        }
    }

    pub(super) fn print_branch_conditional(&mut self, op: Op) -> bool {
        let d = self.m.op(op).clone();
        if d.operands.len() != 1
            || !d.results.is_empty()
            || !d.regions.is_empty()
            || d.successors.len() != 2
        {
            return false;
        }
        if !self.m.types.is_bool(self.m.value_type(d.operands[0])) {
            return false;
        }
        let weights = match self.m.attr(op, "branch_weights") {
            None => None,
            Some(a) => match self.i32_pair(a) {
                Some(p) => Some(p),
                None => return false,
            },
        };
        let n = self.op_name(&d.kind);
        self.out.push_str(&n);
        self.out.push(' ');
        let c = self.value_name(d.operands[0]).to_string();
        self.out.push_str(&c);
        if let Some((t, f)) = weights {
            self.out.push_str(&format!(" [{t}, {f}]"));
        }
        self.out.push_str(", ");
        self.write_successor(&d.successors[0]);
        self.out.push_str(", ");
        self.write_successor(&d.successors[1]);
        self.write_opt_attr_dict(op, &["branch_weights"]);
        true
    }

    pub(super) fn print_switch(&mut self, op: Op) -> bool {
        let d = self.m.op(op).clone();
        if d.operands.len() != 1
            || !d.results.is_empty()
            || !d.regions.is_empty()
            || d.successors.is_empty()
        {
            return false;
        }
        let sel_ty = self.m.value_type(d.operands[0]);
        let Some(AttrKind::Array(lits)) = self.attr_of(op, "literals").cloned() else {
            return false;
        };
        if lits.len() + 1 != d.successors.len() {
            return false;
        }
        let values: Option<Vec<i128>> = lits
            .iter()
            .map(|&a| match self.m.attrs.kind(a) {
                AttrKind::Int { value, ty } if *ty == sel_ty => Some(*value),
                _ => None,
            })
            .collect();
        let Some(values) = values else {
            return false;
        };
        let n = self.op_name(&d.kind);
        self.out.push_str(&n);
        self.out.push(' ');
        let s = self.value_name(d.operands[0]).to_string();
        self.out.push_str(&s);
        self.out.push_str(" : ");
        self.write_type(sel_ty);
        self.out.push_str(", [");
        self.out.push('\n');
        self.push_indent();
        self.out.push_str("  default: ");
        self.write_successor(&d.successors[0]);
        for (v, s) in values.iter().zip(&d.successors[1..]) {
            self.out.push_str(",\n");
            self.push_indent();
            self.out.push_str("  ");
            super::attrs::write_int_value(&mut self.out, &self.m.types, *v, sel_ty);
            self.out.push_str(": ");
            self.write_successor(s);
        }
        self.out.push('\n');
        self.push_indent();
        self.out.push(']');
        self.write_opt_attr_dict(op, &["literals"]);
        true
    }

    pub(super) fn print_function_call(&mut self, op: Op) -> bool {
        let Some(callee) = self.symbol_of(op, "callee") else {
            return false;
        };
        let d = self.m.op(op).clone();
        if !d.regions.is_empty() || !d.successors.is_empty() {
            return false;
        }
        let n = self.op_name(&d.kind);
        self.out.push_str(&n);
        self.out.push(' ');
        write_symbol(&mut self.out, &callee);
        self.out.push('(');
        self.write_values(&d.operands);
        self.out.push(')');
        self.write_opt_attr_dict(op, &["callee"]);
        self.out.push_str(" : (");
        let types: Vec<Type> = d.operands.iter().map(|&v| self.m.value_type(v)).collect();
        self.write_types(&types);
        self.out.push_str(") -> ");
        let results: Vec<Type> = d.results.iter().map(|&v| self.m.value_type(v)).collect();
        self.write_result_types(&results);
        true
    }

    pub(super) fn print_variable(&mut self, op: Op) -> bool {
        let d = self.m.op(op).clone();
        if d.operands.len() > 1
            || d.results.len() != 1
            || !d.regions.is_empty()
            || !d.successors.is_empty()
        {
            return false;
        }
        let ty = self.m.value_type(d.results[0]);
        let Some((pointee, sc)) = self.m.types.pointer_parts(ty) else {
            return false;
        };
        if self.enum_of(op, "storage_class", OperandKind::StorageClass) != Some(sc as u32) {
            return false;
        }
        if let Some(&init) = d.operands.first() {
            if self.m.value_type(init) != pointee {
                return false;
            }
        }
        let n = self.op_name(&d.kind);
        self.out.push_str(&n);
        if let Some(&init) = d.operands.first() {
            self.out.push_str(" init(");
            let v = self.value_name(init).to_string();
            self.out.push_str(&v);
            self.out.push(')');
        }
        let mut elided = vec!["storage_class"];
        elided.extend(self.write_variable_decorations(op));
        self.write_opt_attr_dict(op, &elided);
        self.out.push_str(" : ");
        self.write_type(ty);
        true
    }
}
