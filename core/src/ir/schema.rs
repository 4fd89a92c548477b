//! How the operands of a grammar instruction map onto an op.
//!
//! This is the contract shared by the printer, the parser, the serializer
//! and the verifier for every [`OpKind::Core`](super::OpKind::Core) op. The
//! grammar lists an instruction's operands in binary order; the dialect
//! keeps them as follows:
//!
//! * `IdResultType` / `IdResult` -> the op's single result and its type;
//! * `IdRef` operands -> SSA operands, in order (optional and variadic ones
//!   simply contribute zero or more operands);
//! * label operands (`Target Label`, `True Label`, `Default`, ...) ->
//!   successors;
//! * `OpFunctionCall`'s function id -> the `callee` symbol attribute;
//! * `OpSwitch`'s (literal, label) pairs -> the `literals` array attribute
//!   plus one successor per pair after the default;
//! * literal and enum operands -> named attributes (MLIR's names:
//!   `storage_class`, `memory_access`, `indices`, `group_operation`, ...);
//!   variadic literals become an array attribute;
//! * `IdScope` / `IdMemorySemantics` operands are ids in the binary but enum
//!   attributes in the dialect (`execution_scope = #spv.scope<Workgroup>`);
//!   the serializer materializes them as 32-bit integer constants;
//! * literal parameters of an enumerant (`Aligned 4` of `MemoryAccess`) ->
//!   the attribute `alignment` for `MemoryAccess` (`source_alignment` for
//!   the second, source, memory operand of `OpCopyMemory`), `<attr>_literals` (array)
//!   otherwise; id parameters (`ImageOperands Bias %b`) -> trailing SSA
//!   operands after those of the enum's own position.
//!
//! The cooperative-matrix instructions follow MLIR's op definitions: the
//! `MemoryLayout` id of `OpCooperativeMatrixLoadKHR` / `StoreKHR` is the
//! enum attribute `matrix_layout` (an id constant in the binary, like a
//! scope) and their memory operand is `memory_operand`; the operands of
//! `OpCooperativeMatrixMulAddKHR` are `matrix_operands`; the `Type` id of
//! `OpCooperativeMatrixLengthKHR` is the type attribute
//! `cooperative_matrix_type`.
//!
//! GLSL.std.450 instructions take only ids: every operand is an SSA operand.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::grammar::{self, Opcode, OperandCategory, OperandKind, Quantifier};

/// The role of one grammar operand in the dialect's op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// SSA operand(s).
    Value {
        /// How many.
        quantifier: Quantifier,
    },
    /// A successor block (label operand).
    Successor {
        /// How many.
        quantifier: Quantifier,
    },
    /// A literal or enum operand stored as attribute `name`.
    Attr {
        /// Attribute name.
        name: Cow<'static, str>,
        /// Operand kind of the grammar (for enums: which enum).
        kind: OperandKind,
        /// How many (variadic -> array attribute).
        quantifier: Quantifier,
        /// Whether the binary encodes it as the id of an `OpConstant`
        /// (`IdScope`, `IdMemorySemantics`).
        id_constant: bool,
    },
    /// `OpFunctionCall`'s callee, stored as the `callee` symbol attribute.
    Callee,
    /// A type id operand, stored as the type attribute `name`
    /// (`OpCooperativeMatrixLengthKHR`'s `cooperative_matrix_type`).
    TypeAttr {
        /// Attribute name.
        name: Cow<'static, str>,
    },
    /// `OpSwitch` targets: `literals` attribute + successors.
    SwitchTargets,
}

/// The dialect's view of one core instruction.
#[derive(Clone, Debug)]
pub struct OpSchema {
    /// Whether the instruction has a result type operand.
    pub has_result_type: bool,
    /// Whether the instruction produces a result.
    pub has_result: bool,
    /// Roles of the remaining operands, in binary order.
    pub roles: Vec<Role>,
}

impl OpSchema {
    /// Names of all attributes the schema defines.
    pub fn attr_names(&self) -> impl Iterator<Item = &str> {
        self.roles.iter().filter_map(|r| match r {
            Role::Attr { name, .. } => Some(name.as_ref()),
            Role::Callee => Some("callee"),
            Role::TypeAttr { name } => Some(name.as_ref()),
            Role::SwitchTargets => Some("literals"),
            _ => None,
        })
    }
}

/// The schema of the core instruction with `opcode`, if the grammar has it.
pub fn core_schema(opcode: u16) -> Option<&'static OpSchema> {
    static SCHEMAS: OnceLock<Vec<(u16, OpSchema)>> = OnceLock::new();
    let table = SCHEMAS.get_or_init(|| {
        let mut v: Vec<(u16, OpSchema)> = grammar::core_instructions()
            .iter()
            .map(|d| (d.opcode, build(d)))
            .collect();
        v.sort_by_key(|(op, _)| *op);
        v.dedup_by_key(|(op, _)| *op);
        v
    });
    table
        .binary_search_by_key(&opcode, |(op, _)| *op)
        .ok()
        .map(|i| &table[i].1)
}

fn build(desc: &grammar::InstDesc) -> OpSchema {
    let mut schema = OpSchema {
        has_result_type: false,
        has_result: false,
        roles: Vec::new(),
    };
    for operand in desc.operands {
        let role = match operand.kind {
            OperandKind::IdResultType => {
                schema.has_result_type = true;
                continue;
            }
            OperandKind::IdResult => {
                schema.has_result = true;
                continue;
            }
            OperandKind::PairLiteralIntegerIdRef if desc.op == Opcode::Switch => {
                Role::SwitchTargets
            }
            OperandKind::IdRef if desc.op == Opcode::FunctionCall && operand.name == "Function" => {
                Role::Callee
            }
            OperandKind::IdRef
                if operand.name == "MemoryLayout"
                    && matches!(
                        desc.op,
                        Opcode::CooperativeMatrixLoadKHR | Opcode::CooperativeMatrixStoreKHR
                    ) =>
            {
                Role::Attr {
                    name: "matrix_layout".into(),
                    kind: OperandKind::CooperativeMatrixLayout,
                    quantifier: operand.quantifier,
                    id_constant: true,
                }
            }
            OperandKind::IdRef
                if operand.name == "Type" && desc.op == Opcode::CooperativeMatrixLengthKHR =>
            {
                Role::TypeAttr {
                    name: "cooperative_matrix_type".into(),
                }
            }
            OperandKind::IdRef if is_label(operand.name) => Role::Successor {
                quantifier: operand.quantifier,
            },
            OperandKind::IdScope | OperandKind::IdMemorySemantics => Role::Attr {
                name: id_constant_attr_name(desc.op, operand.kind, operand.name),
                kind: if operand.kind == OperandKind::IdScope {
                    OperandKind::Scope
                } else {
                    OperandKind::MemorySemantics
                },
                quantifier: operand.quantifier,
                id_constant: true,
            },
            kind if kind.category() == OperandCategory::Id => Role::Value {
                quantifier: operand.quantifier,
            },
            kind => {
                let mut name = attr_name(kind, operand.name);
                if matches!(
                    desc.op,
                    Opcode::CooperativeMatrixLoadKHR
                        | Opcode::CooperativeMatrixStoreKHR
                        | Opcode::CooperativeMatrixMulAddKHR
                        | Opcode::CooperativeMatrixLengthKHR
                ) {
                    match kind {
                        OperandKind::MemoryAccess => name = "memory_operand".into(),
                        OperandKind::CooperativeMatrixOperands => name = "matrix_operands".into(),
                        _ => {}
                    }
                }
                // OpCopyMemory(Sized) has two memory operands: the second
                // describes the source (MLIR's `source_memory_access`).
                if schema.attr_names().any(|n| n == name) {
                    name = format!("source_{name}").into();
                }
                Role::Attr {
                    name,
                    kind,
                    quantifier: operand.quantifier,
                    id_constant: false,
                }
            }
        };
        schema.roles.push(role);
    }
    schema
}

fn is_label(name: &str) -> bool {
    name.contains("Label") || name == "Default"
}

/// MLIR's attribute names for scope / memory-semantics operands.
fn id_constant_attr_name(op: Opcode, kind: OperandKind, name: &str) -> Cow<'static, str> {
    match (kind, name) {
        (OperandKind::IdScope, "Execution") => "execution_scope".into(),
        (OperandKind::IdScope, "Memory") => "memory_scope".into(),
        (OperandKind::IdScope, "Scope") => "scope".into(),
        (OperandKind::IdMemorySemantics, "Semantics")
            if matches!(op, Opcode::ControlBarrier | Opcode::MemoryBarrier) =>
        {
            "memory_semantics".into()
        }
        (OperandKind::IdMemorySemantics, "Semantics") => "semantics".into(),
        (OperandKind::IdMemorySemantics, "Equal") => "equal_semantics".into(),
        (OperandKind::IdMemorySemantics, "Unequal") => "unequal_semantics".into(),
        (_, n) => snake_case(n).into(),
    }
}

/// The attribute name for a literal or enum operand.
fn attr_name(kind: OperandKind, name: &str) -> Cow<'static, str> {
    match (kind, name) {
        (_, "Indexes") => "indices".into(),
        (OperandKind::LiteralInteger, "Branch weights") => "branch_weights".into(),
        (OperandKind::StorageClass, _) => "storage_class".into(),
        (OperandKind::MemoryAccess, _) => "memory_access".into(),
        (OperandKind::ImageOperands, _) => "image_operands".into(),
        (OperandKind::GroupOperation, _) => "group_operation".into(),
        (_, "") => snake_case(kind.name()).into(),
        (_, n) => snake_case(n).into(),
    }
}

/// The attribute holding literal parameters of enum attribute `attr`.
pub fn enum_literal_params_attr(kind: OperandKind, attr: &str) -> Cow<'static, str> {
    if kind == OperandKind::MemoryAccess && attr == "source_memory_access" {
        "source_alignment".into()
    } else if kind == OperandKind::MemoryAccess {
        "alignment".into()
    } else {
        format!("{attr}_literals").into()
    }
}

/// `'Memory Access'` / `MemoryAccess` / `Branch weights` -> `memory_access`,
/// `branch_weights`.
pub fn snake_case(s: &str) -> String {
    let s = s.trim_matches('\'');
    let mut out = String::with_capacity(s.len() + 4);
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() {
                if prev_lower {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase());
                prev_lower = false;
            } else {
                out.push(c);
                prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            }
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
            prev_lower = false;
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_names() {
        assert_eq!(snake_case("'Memory Access'"), "memory_access");
        assert_eq!(snake_case("MemoryAccess"), "memory_access");
        assert_eq!(snake_case("Branch weights"), "branch_weights");
        assert_eq!(snake_case("GroupOperation"), "group_operation");
    }

    #[test]
    fn load_schema() {
        let load = grammar::core_inst_by_name("Load").unwrap();
        let s = core_schema(load.opcode).unwrap();
        assert!(s.has_result && s.has_result_type);
        assert_eq!(s.roles.len(), 2);
        assert!(matches!(&s.roles[1], Role::Attr { name, .. } if name == "memory_access"));
    }

    #[test]
    fn barrier_schema_uses_mlir_names() {
        let b = grammar::core_inst_by_name("ControlBarrier").unwrap();
        let s = core_schema(b.opcode).unwrap();
        let names: Vec<&str> = s.attr_names().collect();
        assert_eq!(
            names,
            ["execution_scope", "memory_scope", "memory_semantics"]
        );
    }

    #[test]
    fn cooperative_matrix_schemas_use_mlir_names() {
        let names = |op: &str| -> Vec<String> {
            let d = grammar::core_inst_by_name(op).unwrap();
            core_schema(d.opcode)
                .unwrap()
                .attr_names()
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            names("CooperativeMatrixLoadKHR"),
            ["matrix_layout", "memory_operand"]
        );
        assert_eq!(
            names("CooperativeMatrixStoreKHR"),
            ["matrix_layout", "memory_operand"]
        );
        assert_eq!(names("CooperativeMatrixMulAddKHR"), ["matrix_operands"]);
        assert_eq!(
            names("CooperativeMatrixLengthKHR"),
            ["cooperative_matrix_type"]
        );
        let load = grammar::core_inst_by_name("CooperativeMatrixLoadKHR").unwrap();
        let roles = &core_schema(load.opcode).unwrap().roles;
        // Pointer, layout (an id constant), stride, memory operand.
        assert!(matches!(
            roles[1],
            Role::Attr {
                id_constant: true,
                ..
            }
        ));
        assert!(matches!(
            roles[2],
            Role::Value {
                quantifier: Quantifier::Optional
            }
        ));
    }

    #[test]
    fn branch_conditional_schema() {
        let b = grammar::core_inst_by_name("BranchConditional").unwrap();
        let s = core_schema(b.opcode).unwrap();
        assert_eq!(
            s.roles[0],
            Role::Value {
                quantifier: Quantifier::One
            }
        );
        assert!(matches!(s.roles[1], Role::Successor { .. }));
        assert!(matches!(s.roles[2], Role::Successor { .. }));
        assert!(matches!(&s.roles[3], Role::Attr { name, .. } if name == "branch_weights"));
    }
}
