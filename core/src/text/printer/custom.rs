//! Prints an op in its custom form from the `asm_forms` table, after
//! checking that the op fits the form exactly.

use super::attrs::write_string;
use super::Printer;
use crate::grammar::{self, OperandKind};
use crate::ir::{AttrKind, Op, OpKind, Signedness, TypeKind};
use crate::text::asm_forms::{self, AsmForm, Elem, LookupTypes, Sig, TypeRef};
use crate::text::enums::{enum_text, parse_enum_text};

impl Printer<'_> {
    /// Whether `value` of enum `kind` prints as text that parses back to it.
    fn enum_round_trips(kind: OperandKind, value: u32) -> bool {
        parse_enum_text(kind, &enum_text(kind, value)) == Some(value)
    }

    /// Whether `op` fits `form` exactly (see the module docs of `asm_forms`).
    fn fits_form(&self, op: Op, form: &AsmForm) -> bool {
        let d = self.m.op(op);
        let items = &form.syntax;
        if !d.regions.is_empty() || !d.successors.is_empty() {
            return false;
        }
        let has_result = asm_forms::has_result(&d.kind);
        if d.results.len() != usize::from(has_result) {
            return false;
        }
        let (fixed, variadic, optional) = asm_forms::operand_shape(items);
        let n = d.operands.len();
        let count_ok = match (variadic, optional) {
            (Some(from), _) => n >= fixed.max(from),
            (None, Some(i)) => n == fixed || n == i + 1,
            (None, None) => n == fixed,
        };
        if !count_ok {
            return false;
        }
        let mut sig = Sig::new(n, has_result);
        let actual: Vec<_> = d.operands.iter().map(|&v| self.m.value_type(v)).collect();
        let actual_result = d.results.first().map(|&r| self.m.value_type(r));
        for item in items {
            match &item.elem {
                Elem::EnumAngle(a) | Elem::EnumStr(a) => {
                    let Some(kind) = asm_forms::attr_operand_kind(&d.kind, a) else {
                        return false;
                    };
                    match self.m.attr_kind(op, a) {
                        Some(AttrKind::Enum { kind: k, value })
                            if *k == kind && Self::enum_round_trips(kind, *value) => {}
                        _ => return false,
                    }
                }
                Elem::OptEnum(a) => {
                    let Some(kind) = asm_forms::attr_operand_kind(&d.kind, a) else {
                        return false;
                    };
                    match self.m.attr_kind(op, a) {
                        None => {}
                        Some(AttrKind::Enum { kind: k, value })
                            if *k == kind && Self::enum_round_trips(kind, *value) => {}
                        _ => return false,
                    }
                }
                Elem::MemAccess(source) => {
                    let (access, alignment) = crate::text::asm_forms::mem_access_names(*source);
                    match self.m.attr_kind(op, access) {
                        None => {
                            if self.m.attr(op, alignment).is_some() {
                                return false;
                            }
                        }
                        Some(AttrKind::Enum {
                            kind: OperandKind::MemoryAccess,
                            value,
                        }) if Self::enum_round_trips(OperandKind::MemoryAccess, *value) => {}
                        _ => return false,
                    }
                    match self.m.attr_kind(op, alignment) {
                        None => {}
                        Some(AttrKind::Int { ty, .. })
                            if matches!(
                                self.m.types.kind(*ty),
                                TypeKind::Int {
                                    width: 32,
                                    signedness: Signedness::Signless
                                }
                            ) => {}
                        _ => return false,
                    }
                }
                Elem::Attr(a) if self.m.attr(op, a).is_none() => return false,
                Elem::PtrSc(i) => match actual.get(*i).and_then(|&t| self.m.types.pointer_parts(t))
                {
                    Some((_, sc)) => sig.storage[*i] = Some(sc),
                    None => return false,
                },
                Elem::Type(TypeRef::Operand(i)) => match actual.get(*i) {
                    Some(&t) => sig.operands[*i] = Some(t),
                    None => return false,
                },
                Elem::Type(TypeRef::Pointee(i)) => {
                    match actual.get(*i).and_then(|&t| self.m.types.pointer_parts(t)) {
                        Some((p, _)) => sig.pointee[*i] = Some(p),
                        None => return false,
                    }
                }
                Elem::Type(TypeRef::Result) => sig.result = actual_result,
                Elem::Types { from, .. } => {
                    for (slot, &ty) in sig.operands.iter_mut().zip(&actual).skip(*from) {
                        *slot = Some(ty);
                    }
                }
                _ => {}
            }
        }
        for (i, &v) in d.operands.iter().enumerate() {
            sig.consts[i] = self.const_int(v);
        }
        let mut types = LookupTypes(&self.m.types);
        if asm_forms::infer(form.infer, &mut sig, &d.attrs, &self.m.attrs, &mut types).is_err() {
            return false;
        }
        sig.operands
            .iter()
            .zip(&actual)
            .all(|(s, a)| *s == Some(*a))
            && sig.result == actual_result
    }

    /// The integer a `spirv.Constant` value holds.
    fn const_int(&self, v: crate::ir::Value) -> Option<i128> {
        let op = self.m.defining_op(v)?;
        if self.m.op(op).kind != OpKind::Constant {
            return None;
        }
        self.m.attrs.as_int(self.m.attr(op, "value")?)
    }

    /// Prints `op` in `form`; false when it does not fit.
    pub(super) fn print_form(&mut self, op: Op, form: &AsmForm) -> bool {
        if !self.fits_form(op, form) {
            return false;
        }
        let d = self.m.op(op).clone();
        let name = self.op_name(&d.kind);
        self.out.push_str(&name);
        let consumed = asm_forms::consumed_attrs(&form.syntax);
        let mut open = false; // the last token was `(` or `[`
        for item in &form.syntax {
            let space = |p: &mut Self, open: bool| {
                if !item.glued && !open {
                    p.out.push(' ');
                }
            };
            match &item.elem {
                Elem::Operand(i) => {
                    space(self, open);
                    let v = self.value_name(d.operands[*i]).to_string();
                    self.out.push_str(&v);
                }
                Elem::Operands(from) => {
                    if d.operands.len() > *from {
                        space(self, open);
                        self.write_values(&d.operands[*from..]);
                    } else {
                        continue;
                    }
                }
                Elem::OptOperand(kw, i) => match d.operands.get(*i) {
                    Some(&v) => {
                        space(self, open);
                        self.out.push_str(kw);
                        self.out.push('(');
                        let v = self.value_name(v).to_string();
                        self.out.push_str(&v);
                        self.out.push(')');
                    }
                    None => continue,
                },
                Elem::EnumAngle(a) | Elem::EnumStr(a) => {
                    let Some(AttrKind::Enum { kind, value }) = self.m.attr_kind(op, a).cloned()
                    else {
                        return false;
                    };
                    space(self, open);
                    let text = enum_text(kind, value);
                    if matches!(item.elem, Elem::EnumAngle(_)) {
                        self.out.push('<');
                        self.out.push_str(&text);
                        self.out.push('>');
                    } else {
                        write_string(&mut self.out, &text);
                    }
                }
                Elem::OptEnum(a) => {
                    let Some(AttrKind::Enum { kind, value }) = self.m.attr_kind(op, a).cloned()
                    else {
                        continue;
                    };
                    self.out.push_str(", <");
                    self.out.push_str(&enum_text(kind, value));
                    self.out.push('>');
                }
                Elem::PtrSc(i) => {
                    let Some((_, sc)) = self
                        .m
                        .types
                        .pointer_parts(self.m.value_type(d.operands[*i]))
                    else {
                        return false;
                    };
                    space(self, open);
                    write_string(&mut self.out, sc.name());
                }
                Elem::MemAccess(source) => {
                    let (access, alignment) = crate::text::asm_forms::mem_access_names(*source);
                    let Some(AttrKind::Enum { value, .. }) = self.m.attr_kind(op, access).cloned()
                    else {
                        continue;
                    };
                    if *source {
                        self.out.push(',');
                    }
                    space(self, open);
                    self.out.push('[');
                    write_string(
                        &mut self.out,
                        &grammar::format_bits(OperandKind::MemoryAccess, value),
                    );
                    if let Some(AttrKind::Int { value, .. }) = self.m.attr_kind(op, alignment) {
                        self.out.push_str(&format!(", {value}"));
                    }
                    self.out.push(']');
                }
                Elem::Attr(a) => {
                    let Some(attr) = self.m.attr(op, a) else {
                        return false;
                    };
                    space(self, open);
                    self.write_attr(attr);
                }
                Elem::AttrDict => {
                    let before = self.out.len();
                    self.write_opt_attr_dict(op, &consumed);
                    if self.out.len() == before {
                        continue;
                    }
                }
                Elem::Type(r) => {
                    let t = match r {
                        TypeRef::Operand(i) => self.m.value_type(d.operands[*i]),
                        TypeRef::Result => match d.results.first() {
                            Some(&r) => self.m.value_type(r),
                            None => return false,
                        },
                        TypeRef::Pointee(i) => match self
                            .m
                            .types
                            .pointer_parts(self.m.value_type(d.operands[*i]))
                        {
                            Some((p, _)) => p,
                            None => return false,
                        },
                    };
                    space(self, open);
                    self.write_type(t);
                }
                Elem::Types { from, comma_led } => {
                    if d.operands.len() <= *from {
                        continue;
                    }
                    if !*comma_led {
                        space(self, open);
                    }
                    for (k, &v) in d.operands[*from..].iter().enumerate() {
                        if *comma_led || k > 0 {
                            self.out.push_str(", ");
                        }
                        let t = self.m.value_type(v);
                        self.write_type(t);
                    }
                }
                Elem::OptComma => continue,
                Elem::Lit(s) => {
                    space(self, open);
                    self.out.push_str(s);
                    open = matches!(*s, "(" | "[");
                    continue;
                }
            }
            open = false;
        }
        true
    }
}
