//! Symbols and the ops that define or use them (Y1-Y6), global variables
//! (G1-G4) and specialization constants (G5, G6).

use std::collections::hash_map::Entry;

use super::attrs::describe;
use super::Verifier;
use crate::grammar::{BuiltIn, OperandKind, StorageClass};
use crate::ir::attr::AttrKind;
use crate::ir::entity::{Op, Type};
use crate::ir::op::OpKind;
use crate::ir::types::TypeKind;

impl<'m> Verifier<'m> {
    /// Y1: builds the symbol table, reporting missing and duplicate names.
    pub(super) fn collect_symbols(&mut self) {
        let m = self.m;
        for &op in &m.block(m.body()).ops {
            if !matches!(
                m.op(op).kind,
                OpKind::Func
                    | OpKind::GlobalVariable
                    | OpKind::SpecConstant
                    | OpKind::SpecConstantComposite
            ) {
                continue;
            }
            let Some(name) = self.string_attr(op, "sym_name") else {
                continue;
            };
            match self.symbols.entry(name) {
                Entry::Vacant(e) => {
                    e.insert(op);
                }
                Entry::Occupied(e) => {
                    let first = m.op(*e.get()).loc;
                    self.error(
                        op,
                        format!("redefines symbol '@{name}' (first defined at {first}); symbol names must be unique"),
                    );
                }
            }
        }
    }

    /// Resolves symbol attribute `attr_name` of `op` to a module-level op of
    /// one of `kinds`; `what` names those kinds in messages.
    fn resolve(&mut self, op: Op, attr_name: &str, kinds: &[OpKind], what: &str) -> Option<Op> {
        let name = self.symbol_attr(op, attr_name)?;
        self.resolve_name(op, name, kinds, what)
    }

    fn resolve_name(&mut self, op: Op, name: &str, kinds: &[OpKind], what: &str) -> Option<Op> {
        let Some(&target) = self.symbols.get(name) else {
            self.error(
                op,
                format!("references undefined symbol '@{name}'; expected {what}"),
            );
            return None;
        };
        if !kinds.contains(&self.m.op(target).kind) {
            let found = super::op_name(&self.m.op(target).kind);
            self.error(
                op,
                format!("references '@{name}', which is a {found}; expected {what}"),
            );
            return None;
        }
        Some(target)
    }

    /// The single result type of `op`, reporting a wrong result count.
    fn single_result(&mut self, op: Op) -> Option<Type> {
        let data = self.m.op(op);
        if data.results.len() != 1 {
            self.error(
                op,
                format!("expected exactly one result, found {}", data.results.len()),
            );
            return None;
        }
        Some(self.m.value_type(data.results[0]))
    }

    /// G1-G4.
    pub(crate) fn check_global_variable(&mut self, op: Op) {
        let m = self.m;
        let Some(ty) = self.type_attr(op, "type") else {
            return;
        };
        let Some((pointee, sc)) = m.types.pointer_parts(ty) else {
            self.error(
                op,
                format!(
                    "attribute 'type' must be a pointer type, found {}",
                    self.ty(ty)
                ),
            );
            return;
        };
        if sc == StorageClass::Function {
            self.error(
                op,
                "storage class cannot be 'Function'; function-level variables are spirv.Variable ops",
            );
        }
        // MLIR 19 checks only that the numbers are non-negative integers:
        // a `descriptor_set` without a `binding` (or the reverse) and a
        // binding on any storage class are accepted (spirv-val and the
        // descriptor-set reflection judge resources, `reflect`).
        self.int_attr(op, "descriptor_set", true);
        self.int_attr(op, "binding", true);
        if let Some(a) = m.attr(op, "built_in") {
            match m.attrs.kind(a) {
                AttrKind::String(name) => {
                    if BuiltIn::from_name(name).is_none() {
                        self.error(
                            op,
                            format!("attribute 'built_in' names '{name}', which is not a BuiltIn"),
                        );
                    }
                }
                AttrKind::Enum {
                    kind: OperandKind::BuiltIn,
                    ..
                } => {}
                other => {
                    let found = describe(other);
                    self.error(
                        op,
                        format!(
                            "attribute 'built_in' must be a string or BuiltIn enum, found {found}"
                        ),
                    );
                }
            }
            if !matches!(sc, StorageClass::Input | StorageClass::Output) {
                self.error(
                    op,
                    format!("is a built-in with storage class {sc:?}; expected Input or Output"),
                );
            }
        }
        if m.attr(op, "initializer").is_some() {
            let init = self.resolve(
                op,
                "initializer",
                &[
                    OpKind::GlobalVariable,
                    OpKind::SpecConstant,
                    OpKind::SpecConstantComposite,
                ],
                "a spirv.GlobalVariable or a specialization constant",
            );
            // A variable initialized by another variable's address: MLIR 19
            // does not compare the types (its Target tests serialize
            // `initializer(@v)` with @v of the same pointer type).
            let by_variable = init.is_some_and(|i| m.op(i).kind == OpKind::GlobalVariable);
            if let Some(init_ty) = init.and_then(|i| self.symbol_value_type(i)) {
                if init_ty != pointee && !by_variable {
                    self.error(
                        op,
                        format!(
                            "initializer has type {}, expected the pointee type {}",
                            self.ty(init_ty),
                            self.ty(pointee)
                        ),
                    );
                }
            }
        }
    }

    /// G5.
    pub(crate) fn check_spec_constant(&mut self, op: Op) {
        let m = self.m;
        if let Some(a) = self.require_attr(op, "default_value") {
            let ok = match m.attrs.kind(a) {
                AttrKind::Bool(_) => true,
                AttrKind::Int { ty, .. } => m.types.is_scalar(*ty) && !m.types.is_float(*ty),
                AttrKind::Float { ty, .. } => m.types.is_float(*ty),
                _ => false,
            };
            if !ok {
                let found = describe(m.attrs.kind(a));
                self.error(
                    op,
                    format!("attribute 'default_value' must be a scalar bool, integer or float, found {found}"),
                );
            }
        }
        self.int_attr(op, "spec_id", true);
    }

    /// G6.
    pub(crate) fn check_spec_constant_composite(&mut self, op: Op) {
        let m = self.m;
        let Some(ty) = self.type_attr(op, "type") else {
            return;
        };
        let Some(expected_len) = self.composite_len(ty) else {
            self.error(
                op,
                format!(
                    "attribute 'type' must be a composite type, found {}",
                    self.ty(ty)
                ),
            );
            return;
        };
        let Some(a) = self.require_attr(op, "constituents") else {
            return;
        };
        let Some(items) = m.attrs.as_array(a) else {
            let found = describe(m.attrs.kind(a));
            self.error(
                op,
                format!(
                    "attribute 'constituents' must be an array of symbol references, found {found}"
                ),
            );
            return;
        };
        // The count first: listing the parts of a huge array type would
        // allocate one entry per element.
        if items.len() != expected_len {
            self.error(
                op,
                format!(
                    "has {} constituent(s), expected {} for type {}",
                    items.len(),
                    expected_len,
                    self.ty(ty)
                ),
            );
            return;
        }
        let Some(expected) = self.composite_parts(ty) else {
            return;
        };
        for (i, (&item, &want)) in items.iter().zip(&expected).enumerate() {
            let Some(name) = m.attrs.as_symbol(item) else {
                self.error(op, format!("constituent #{i} is not a symbol reference"));
                continue;
            };
            let target = self.resolve_name(
                op,
                name,
                &[OpKind::SpecConstant, OpKind::SpecConstantComposite],
                "a specialization constant",
            );
            if let Some(have) = target.and_then(|t| self.symbol_value_type(t)) {
                if have != want {
                    self.error(
                        op,
                        format!(
                            "constituent #{i} (@{name}) has type {}, expected {}",
                            self.ty(have),
                            self.ty(want)
                        ),
                    );
                }
            }
        }
    }

    /// How many constituents a composite of type `ty` has, without listing
    /// them ([`Self::composite_parts`] would list 2^31 - 1 for a large
    /// array).
    pub(crate) fn composite_len(&self, ty: Type) -> Option<usize> {
        match self.m.types.kind(ty) {
            TypeKind::Vector { len, .. } | TypeKind::Array { len, .. } => Some(*len as usize),
            TypeKind::Matrix { columns, .. } => Some(*columns as usize),
            TypeKind::Struct(s) => Some(s.members.len()),
            _ => None,
        }
    }

    /// The types of the constituents of composite `ty`, or `None` when it is
    /// not a composite with a fixed number of constituents.
    pub(crate) fn composite_parts(&self, ty: Type) -> Option<Vec<Type>> {
        match self.m.types.kind(ty) {
            TypeKind::Vector { len, element } => Some(vec![*element; *len as usize]),
            TypeKind::Array { len, element, .. } => Some(vec![*element; *len as usize]),
            TypeKind::Matrix { columns, column } => Some(vec![*column; *columns as usize]),
            TypeKind::Struct(s) => Some(s.members.iter().map(|m| m.ty).collect()),
            _ => None,
        }
    }

    /// Y5.
    pub(crate) fn check_entry_point(&mut self, op: Op) {
        let m = self.m;
        self.enum_attr(op, "execution_model", OperandKind::ExecutionModel, true);
        // MLIR 19 does not restrict the entry function's signature
        // (spirv-val does: "function parameter count is not zero").
        self.resolve(op, "fn", &[OpKind::Func], "a spirv.func");
        let Some(a) = m.attr(op, "interface") else {
            return;
        };
        let Some(items) = m.attrs.as_array(a) else {
            let found = describe(m.attrs.kind(a));
            self.error(
                op,
                format!(
                    "attribute 'interface' must be an array of symbol references, found {found}"
                ),
            );
            return;
        };
        for (i, &item) in items.iter().enumerate() {
            match m.attrs.as_symbol(item) {
                Some(name) => {
                    self.resolve_name(
                        op,
                        name,
                        &[OpKind::GlobalVariable],
                        "a spirv.GlobalVariable",
                    );
                }
                None => self.error(
                    op,
                    format!("interface entry #{i} is not a symbol reference"),
                ),
            }
        }
    }

    /// Y6.
    pub(crate) fn check_execution_mode(&mut self, op: Op) {
        let m = self.m;
        self.enum_attr(op, "execution_mode", OperandKind::ExecutionMode, true);
        if let Some(func) = self.resolve(op, "fn", &[OpKind::Func], "a spirv.func") {
            let has_entry = m.module_ops().iter().any(|&e| {
                m.op(e).kind == OpKind::EntryPoint
                    && m.attr(e, "fn")
                        .and_then(|a| m.attrs.as_symbol(a))
                        .is_some_and(|n| self.symbols.get(n) == Some(&func))
            });
            if !has_entry {
                let name = m.symbol_name(func).unwrap_or("?");
                self.error(
                    op,
                    format!(
                        "applies to @{name}, which is not the function of any spirv.EntryPoint"
                    ),
                );
            }
        }
        if let Some(a) = m.attr(op, "values") {
            let ok = match m.attrs.kind(a) {
                AttrKind::Array(items) => items.iter().all(|&i| m.attrs.as_int(i).is_some()),
                AttrKind::DenseArray { .. } => true,
                _ => false,
            };
            if !ok {
                self.error(op, "attribute 'values' must be an array of integers");
            }
        }
    }

    /// Y2.
    pub(crate) fn check_address_of(&mut self, op: Op) {
        self.check_symbol_user(
            op,
            "variable",
            &[OpKind::GlobalVariable],
            "a spirv.GlobalVariable",
        );
    }

    /// Y3.
    pub(crate) fn check_reference_of(&mut self, op: Op) {
        self.check_symbol_user(
            op,
            "spec_const",
            &[OpKind::SpecConstant, OpKind::SpecConstantComposite],
            "a spirv.SpecConstant or spirv.SpecConstantComposite",
        );
    }

    fn check_symbol_user(&mut self, op: Op, attr: &str, kinds: &[OpKind], what: &str) {
        if !self.m.op(op).operands.is_empty() {
            self.error(op, "expected no operands");
        }
        let result = self.single_result(op);
        let target = self.resolve(op, attr, kinds, what);
        if let (Some(have), Some(t)) = (result, target) {
            if let Some(want) = self.symbol_value_type(t) {
                if have != want {
                    let name = self.m.symbol_name(t).unwrap_or("?");
                    self.error(
                        op,
                        format!(
                            "result type {} does not match the type {} of @{name}",
                            self.ty(have),
                            self.ty(want)
                        ),
                    );
                }
            }
        }
    }

    /// Y4: `spv.FunctionCall` against its callee.
    pub(crate) fn check_function_call(&mut self, op: Op) {
        let m = self.m;
        let Some(callee) = self.resolve(op, "callee", &[OpKind::Func], "a spirv.func") else {
            return;
        };
        let Some((inputs, results)) = self.func_signature(callee) else {
            return;
        };
        let name = m.symbol_name(callee).unwrap_or("?");
        let data = m.op(op);
        if data.operands.len() != inputs.len() {
            self.error(
                op,
                format!(
                    "passes {} argument(s), but @{name} takes {}",
                    data.operands.len(),
                    inputs.len()
                ),
            );
        } else {
            for (i, (&arg, &want)) in data.operands.iter().zip(inputs).enumerate() {
                let have = m.value_type(arg);
                if have != want {
                    self.error(
                        op,
                        format!(
                            "operand #{i} has type {}, expected {} (parameter #{i} of @{name})",
                            self.ty(have),
                            self.ty(want)
                        ),
                    );
                }
            }
        }
        let have: Vec<Type> = data.results.iter().map(|&r| m.value_type(r)).collect();
        if have.as_slice() != results {
            let show = |ts: &[Type]| -> String {
                if ts.is_empty() {
                    "no result".to_string()
                } else {
                    ts.iter()
                        .map(|&t| self.ty(t).to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            };
            let msg = format!(
                "has {}, but @{name} returns {}",
                if have.is_empty() {
                    "no result".to_string()
                } else {
                    format!("result type {}", show(&have))
                },
                show(results)
            );
            self.error(op, msg);
        }
    }
}
