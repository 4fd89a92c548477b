//! Helpers to read attributes while reporting what is missing or malformed.

use super::Verifier;
use crate::grammar::OperandKind;
use crate::ir::attr::AttrKind;
use crate::ir::entity::{Attr, Op, Type};
use crate::ir::types::TypeKind;

/// A short description of an attribute's kind, for messages.
pub(crate) fn describe(kind: &AttrKind) -> String {
    match kind {
        AttrKind::Unit => "a unit attribute".into(),
        AttrKind::Bool(b) => format!("the boolean {b}"),
        AttrKind::Int { value, .. } => format!("the integer {value}"),
        AttrKind::Float { .. } => "a float".into(),
        AttrKind::String(s) => format!("the string \"{s}\""),
        AttrKind::Type(_) => "a type".into(),
        AttrKind::Array(_) => "an array".into(),
        AttrKind::Dict(_) => "a dictionary".into(),
        AttrKind::SymbolRef(path) => format!("the symbol reference @{}", path.join("::@")),
        AttrKind::Dense { .. } => "a dense elements attribute".into(),
        AttrKind::DenseArray { .. } => "a dense array".into(),
        AttrKind::Enum { kind, .. } => format!("an enum of kind {}", kind.name()),
        AttrKind::Vce(_) => "a VCE triple".into(),
        AttrKind::Dialect { name, .. } => format!("a #spirv.{name} attribute"),
        AttrKind::Opaque(s) => format!("the attribute {s}"),
    }
}

impl<'m> Verifier<'m> {
    /// The attribute `name` of `op`; reports its absence.
    pub(crate) fn require_attr(&mut self, op: Op, name: &str) -> Option<Attr> {
        let attr = self.m.attr(op, name);
        if attr.is_none() {
            self.error(op, format!("requires attribute '{name}'"));
        }
        attr
    }

    /// The value of enum attribute `name` of the given operand kind; reports
    /// its absence when `required`, and a wrong kind always.
    pub(crate) fn enum_attr(
        &mut self,
        op: Op,
        name: &str,
        kind: OperandKind,
        required: bool,
    ) -> Option<u32> {
        let attr = if required {
            self.require_attr(op, name)?
        } else {
            self.m.attr(op, name)?
        };
        match self.m.attrs.kind(attr) {
            AttrKind::Enum { kind: k, value } if *k == kind => Some(*value),
            other => {
                let found = describe(other);
                self.error(
                    op,
                    format!(
                        "attribute '{name}' must be an enum attribute of kind {}, found {found}",
                        kind.name()
                    ),
                );
                None
            }
        }
    }

    /// The leaf name of the required symbol-reference attribute `name`.
    pub(crate) fn symbol_attr(&mut self, op: Op, name: &str) -> Option<&'m str> {
        let attr = self.require_attr(op, name)?;
        let m = self.m;
        match m.attrs.kind(attr) {
            AttrKind::SymbolRef(path) if path.len() == 1 => Some(path[0].as_str()),
            other => {
                let found = describe(other);
                self.error(
                    op,
                    format!(
                        "attribute '{name}' must be a flat symbol reference (@name), found {found}"
                    ),
                );
                None
            }
        }
    }

    /// The value of integer attribute `name`, when present; reports a wrong
    /// kind or a negative value when `non_negative`.
    pub(crate) fn int_attr(&mut self, op: Op, name: &str, non_negative: bool) -> Option<i128> {
        let attr = self.m.attr(op, name)?;
        match self.m.attrs.kind(attr) {
            AttrKind::Int { value, .. } => {
                if non_negative && *value < 0 {
                    self.error(
                        op,
                        format!("attribute '{name}' must be non-negative, found {value}"),
                    );
                    return None;
                }
                Some(*value)
            }
            other => {
                let found = describe(other);
                self.error(
                    op,
                    format!("attribute '{name}' must be an integer, found {found}"),
                );
                None
            }
        }
    }

    /// The type held by the required type attribute `name`.
    pub(crate) fn type_attr(&mut self, op: Op, name: &str) -> Option<Type> {
        let attr = self.require_attr(op, name)?;
        match self.m.attrs.kind(attr) {
            AttrKind::Type(t) => Some(*t),
            other => {
                let found = describe(other);
                self.error(
                    op,
                    format!("attribute '{name}' must be a type, found {found}"),
                );
                None
            }
        }
    }

    /// The string of the required string attribute `name`.
    pub(crate) fn string_attr(&mut self, op: Op, name: &str) -> Option<&'m str> {
        let attr = self.require_attr(op, name)?;
        let m = self.m;
        match m.attrs.kind(attr) {
            AttrKind::String(s) => Some(s.as_str()),
            other => {
                let found = describe(other);
                self.error(
                    op,
                    format!("attribute '{name}' must be a string, found {found}"),
                );
                None
            }
        }
    }

    /// The inputs and results of a `spv.func`'s `function_type`, if valid.
    pub(crate) fn func_signature(&self, func: Op) -> Option<(&'m [Type], &'m [Type])> {
        let m = self.m;
        let attr = m.attr(func, "function_type")?;
        let AttrKind::Type(t) = m.attrs.kind(attr) else {
            return None;
        };
        match m.types.kind(*t) {
            TypeKind::Function { inputs, results } => Some((inputs, results)),
            _ => None,
        }
    }

    /// The type a module-level symbol gives its users: a global variable's
    /// pointer type, a specialization constant's value type.
    pub(crate) fn symbol_value_type(&self, op: Op) -> Option<Type> {
        let m = self.m;
        let data = m.op(op);
        match data.kind {
            crate::ir::OpKind::GlobalVariable | crate::ir::OpKind::SpecConstantComposite => {
                m.attr(op, "type").and_then(|a| m.attrs.as_type(a))
            }
            crate::ir::OpKind::SpecConstant => m
                .attr(op, "default_value")
                .and_then(|a| self.attr_value_type(a)),
            _ => None,
        }
    }

    /// The type of a typed scalar/shaped attribute (`i1` for booleans; `None`
    /// when `i1` is not interned, which means no value in the module has it).
    pub(crate) fn attr_value_type(&self, attr: Attr) -> Option<Type> {
        match self.m.attrs.kind(attr) {
            AttrKind::Int { ty, .. } | AttrKind::Float { ty, .. } | AttrKind::Dense { ty, .. } => {
                Some(*ty)
            }
            AttrKind::Bool(_) => self.m.types.lookup(&TypeKind::Int {
                width: 1,
                signedness: crate::ir::Signedness::Signless,
            }),
            _ => None,
        }
    }
}
