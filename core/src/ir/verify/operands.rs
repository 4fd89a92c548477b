//! Core and GLSL ops against the grammar (O1-O4): operand, successor and
//! result counts, and the presence and kind of schema attributes.

use super::attrs::describe;
use super::Verifier;
use crate::grammar::{self, Opcode, OperandCategory, OperandKind, Quantifier};
use crate::ir::attr::AttrKind;
use crate::ir::entity::{Attr, Op};
use crate::ir::op::OpKind;
use crate::ir::schema::{self, enum_literal_params_attr, Role};

/// An inclusive count range; `max == None` is unbounded.
#[derive(Clone, Copy)]
struct Bounds {
    min: usize,
    max: Option<usize>,
}

impl Bounds {
    /// Exactly zero.
    const ZERO: Bounds = Bounds {
        min: 0,
        max: Some(0),
    };

    fn add(&mut self, q: Quantifier) {
        match q {
            Quantifier::One => {
                self.min += 1;
                self.max = self.max.map(|m| m + 1);
            }
            Quantifier::Optional => self.max = self.max.map(|m| m + 1),
            Quantifier::Variadic => self.max = None,
        }
    }

    fn add_exact(&mut self, n: usize) {
        self.min += n;
        self.max = self.max.map(|m| m + n);
    }

    fn contains(self, n: usize) -> bool {
        n >= self.min && self.max.is_none_or(|m| n <= m)
    }

    /// `2`, `at least 1`, `0 to 1`.
    fn describe(self) -> String {
        match self.max {
            Some(max) if max == self.min => format!("{max}"),
            Some(max) => format!("{} to {max}", self.min),
            None => format!("at least {}", self.min),
        }
    }
}

/// The number of elements of a list-like attribute.
fn list_len(kind: &AttrKind) -> Option<usize> {
    match kind {
        AttrKind::Array(items) => Some(items.len()),
        AttrKind::DenseArray { values, .. } => Some(values.len()),
        AttrKind::Dense { values, .. } => Some(values.len()),
        _ => None,
    }
}

impl Verifier<'_> {
    /// O1-O4 for a `Core` op. Returns whether the op's shape (operands,
    /// results) is sound enough for the type rules to run.
    pub(crate) fn check_core_schema(&mut self, op: Op) -> bool {
        let m = self.m;
        let data = m.op(op);
        let OpKind::Core(opcode) = data.kind else {
            return false;
        };
        let (Some(desc), Some(schema)) = (grammar::core_inst(opcode), schema::core_schema(opcode))
        else {
            self.error(
                op,
                format!("has opcode {opcode}, which the SPIR-V grammar does not define"),
            );
            return false;
        };
        let mut sound = true;
        let mut values = Bounds::ZERO;
        let mut successors = Bounds::ZERO;
        for role in &schema.roles {
            match role {
                Role::Value { quantifier } => values.add(*quantifier),
                Role::Successor { quantifier } => successors.add(*quantifier),
                Role::SwitchTargets => {
                    let cases = m
                        .attr(op, "literals")
                        .and_then(|a| list_len(m.attrs.kind(a)));
                    match (m.attr(op, "literals"), cases) {
                        (None, _) => {}
                        (Some(_), Some(n)) => successors.add_exact(n),
                        (Some(a), None) => {
                            let found = describe(m.attrs.kind(a));
                            self.error(
                                op,
                                format!("attribute 'literals' must be a list of integers, found {found}"),
                            );
                            successors.add(Quantifier::Variadic);
                        }
                    }
                }
                Role::Callee => {}
                Role::TypeAttr { name } => {
                    let ty = m.attr(op, name).map(|a| m.attrs.kind(a));
                    if !matches!(ty, Some(crate::ir::AttrKind::Type(_))) {
                        self.error(op, format!("requires type attribute '{name}'"));
                        sound = false;
                    }
                }
                Role::Attr {
                    name,
                    kind,
                    quantifier,
                    ..
                } => match m.attr(op, name) {
                    None => {
                        if *quantifier == Quantifier::One {
                            self.error(
                                op,
                                format!("requires attribute '{name}' (an operand of kind {kind})"),
                            );
                            sound = false;
                        }
                    }
                    Some(a) => {
                        let extra = self.check_schema_attr(op, name, *kind, *quantifier, a);
                        // Id parameters of enumerants become trailing operands.
                        values.add_exact(extra);
                    }
                },
            }
        }
        if !values.contains(data.operands.len()) {
            self.error(
                op,
                format!(
                    "expected {} operand(s), found {}",
                    values.describe(),
                    data.operands.len()
                ),
            );
            sound = false;
        }
        if !successors.contains(data.successors.len()) {
            self.error(
                op,
                format!(
                    "expected {} successor(s), found {}",
                    successors.describe(),
                    data.successors.len()
                ),
            );
            sound = false;
        }
        // O3; FunctionCall's result follows its callee (Y4).
        if desc.op != Opcode::FunctionCall {
            let want = usize::from(schema.has_result);
            if data.results.len() != want {
                self.error(
                    op,
                    format!(
                        "expected {want} result(s) (the grammar's Op{} {} result id), found {}",
                        desc.opname,
                        if want == 1 { "defines a" } else { "defines no" },
                        data.results.len()
                    ),
                );
                sound = false;
            }
        }
        sound
    }

    /// O4 for one schema attribute that is present. Returns the number of
    /// trailing SSA operands its enumerants' id parameters add.
    fn check_schema_attr(
        &mut self,
        op: Op,
        name: &str,
        kind: OperandKind,
        quantifier: Quantifier,
        attr: Attr,
    ) -> usize {
        let m = self.m;
        let ak = m.attrs.kind(attr);
        match kind.category() {
            OperandCategory::ValueEnum | OperandCategory::BitEnum => {
                let AttrKind::Enum { kind: k, value } = ak else {
                    self.error(
                        op,
                        format!(
                            "attribute '{name}' must be an enum attribute of kind {kind}, found {}",
                            describe(ak)
                        ),
                    );
                    return 0;
                };
                if *k != kind {
                    self.error(
                        op,
                        format!(
                            "attribute '{name}' must be an enum attribute of kind {kind}, found one of kind {k}"
                        ),
                    );
                    return 0;
                }
                self.check_enum_value(op, name, kind, *value)
            }
            OperandCategory::Literal => {
                let ok = match (kind, quantifier) {
                    (OperandKind::LiteralString, _) => matches!(ak, AttrKind::String(_)),
                    (OperandKind::LiteralFloat | OperandKind::LiteralContextDependentNumber, _) => {
                        matches!(ak, AttrKind::Int { .. } | AttrKind::Float { .. })
                    }
                    (_, Quantifier::Variadic) => match ak {
                        AttrKind::Array(items) => {
                            items.iter().all(|&i| m.attrs.as_int(i).is_some())
                        }
                        AttrKind::DenseArray { .. } | AttrKind::Dense { .. } => true,
                        _ => false,
                    },
                    _ => matches!(ak, AttrKind::Int { .. }),
                };
                if !ok {
                    let want = match (kind, quantifier) {
                        (OperandKind::LiteralString, _) => "a string",
                        (_, Quantifier::Variadic) => "an array of integers",
                        _ => "an integer",
                    };
                    self.error(
                        op,
                        format!(
                            "attribute '{name}' must be {want} (an operand of kind {kind}), found {}",
                            describe(ak)
                        ),
                    );
                }
                0
            }
            OperandCategory::Id | OperandCategory::Composite => 0,
        }
    }

    /// Checks an enum attribute's value against the grammar; returns the
    /// number of id parameters of its enumerants.
    fn check_enum_value(&mut self, op: Op, name: &str, kind: OperandKind, value: u32) -> usize {
        let m = self.m;
        let ids = |e: &grammar::EnumerantDesc| {
            e.parameters
                .iter()
                .filter(|p| p.kind.category() == OperandCategory::Id)
                .count()
        };
        let has_literal = |e: &grammar::EnumerantDesc| {
            e.parameters
                .iter()
                .any(|p| p.kind.category() == OperandCategory::Literal)
        };
        let mut set: Vec<&'static grammar::EnumerantDesc> = Vec::new();
        if kind.category() == OperandCategory::ValueEnum {
            match grammar::enumerant(kind, value) {
                Some(e) => set.push(e),
                None => {
                    self.error(
                        op,
                        format!(
                            "attribute '{name}' has value {value}, which is not a {kind} enumerant"
                        ),
                    );
                    return 0;
                }
            }
        } else {
            set.extend(
                kind.enumerants()
                    .iter()
                    .filter(|e| e.value != 0 && value & e.value == e.value),
            );
        }
        // Literal parameters live in a companion attribute (`alignment`).
        if set.iter().any(|e| has_literal(e)) {
            let params = enum_literal_params_attr(kind, name);
            if m.attr(op, &params).is_none() {
                let which: Vec<&str> = set
                    .iter()
                    .filter(|e| has_literal(e))
                    .map(|e| e.name)
                    .collect();
                self.error(
                    op,
                    format!(
                        "attribute '{name}' sets {} but attribute '{params}' holding its literal operand is missing",
                        which.join("|")
                    ),
                );
            }
        }
        set.iter().map(|e| ids(e)).sum()
    }

    /// O1-O3 for a GLSL.std.450 op.
    pub(crate) fn check_glsl_schema(&mut self, op: Op) -> bool {
        let m = self.m;
        let data = m.op(op);
        let OpKind::Glsl(opcode) = data.kind else {
            return false;
        };
        let Some(desc) = grammar::glsl_inst(opcode) else {
            self.error(
                op,
                format!("has GLSL.std.450 number {opcode}, which the grammar does not define"),
            );
            return false;
        };
        let mut values = Bounds::ZERO;
        for o in desc.operands {
            values.add(o.quantifier);
        }
        let mut sound = true;
        if !values.contains(data.operands.len()) {
            self.error(
                op,
                format!(
                    "expected {} operand(s), found {}",
                    values.describe(),
                    data.operands.len()
                ),
            );
            sound = false;
        }
        if data.results.len() != 1 {
            self.error(
                op,
                format!("expected 1 result, found {}", data.results.len()),
            );
            sound = false;
        }
        if !data.successors.is_empty() {
            self.error(op, "expected no successors");
            sound = false;
        }
        sound
    }
}
