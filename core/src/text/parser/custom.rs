//! Reads an op in a custom form of the `asm_forms` table by walking its
//! template.

use super::ops::Use;
use super::{PResult, Parser};
use crate::grammar::{OperandKind, StorageClass};
use crate::ir::{Attr, Location, Op, OpKind, OpSpec, Type, Value};
use crate::text::asm_forms::{self, AsmForm, Elem, Item, Sig, TypeRef};
use crate::text::lexer::TokKind;

impl Parser<'_> {
    /// Whether the lookahead can start `items`.
    fn form_starts(&mut self, items: &[Item]) -> PResult<bool> {
        Ok(match items.first().map(|i| &i.elem) {
            Some(Elem::EnumStr(_)) | Some(Elem::PtrSc(_)) => {
                matches!(self.peek()?.kind, TokKind::Str(_))
            }
            Some(Elem::EnumAngle(_)) => self.at("<")?,
            Some(Elem::Operand(_)) => matches!(self.peek()?.kind, TokKind::Value(_)),
            _ => true,
        })
    }

    /// Whether the token after the lookahead is an SSA value.
    fn second_is_value(&mut self) -> PResult<bool> {
        let t = self.peek()?.clone();
        let saved = self.tok.take();
        let pos = self.lex.pos();
        self.lex.reset(t.end);
        let next = self.lex.next_token();
        self.lex.reset(pos);
        self.tok = saved;
        Ok(matches!(next, Ok(n) if matches!(n.kind, TokKind::Value(_))))
    }

    /// Parses the rest of an op in `form` after its name.
    pub(crate) fn parse_form(
        &mut self,
        kind: OpKind,
        form: &AsmForm,
        loc: Location,
    ) -> PResult<Op> {
        let mut items: &[Item] = &form.syntax;
        if !self.form_starts(items)? {
            for alt in &form.alternatives {
                if self.form_starts(alt)? {
                    items = alt;
                    break;
                }
            }
        }
        let mut uses: Vec<Option<Use>> = Vec::new();
        let mut types: Vec<Option<Type>> = Vec::new();
        let mut storage: Vec<Option<StorageClass>> = Vec::new();
        let mut pointee: Vec<Option<Type>> = Vec::new();
        let mut result: Option<Type> = None;
        let mut attrs: Vec<(String, Attr)> = Vec::new();
        let grow = |v: &mut Vec<Option<_>>, i: usize| {
            if v.len() <= i {
                v.resize(i + 1, None);
            }
        };
        fn slot<T: Clone>(v: &mut Vec<Option<T>>, i: usize) -> &mut Option<T> {
            if v.len() <= i {
                v.resize(i + 1, None);
            }
            &mut v[i]
        }
        let attr_kind = |p: &mut Self, name: &str| -> PResult<OperandKind> {
            asm_forms::attr_operand_kind(&kind, name).ok_or_else(|| {
                p.err_at(loc, format!("internal error: no schema attribute '{name}'"))
            })
        };
        for item in items {
            match &item.elem {
                Elem::Operand(i) => {
                    let u = self.value_name("SSA operand")?;
                    *slot(&mut uses, *i) = Some(u);
                }
                Elem::Operands(from) => {
                    grow(&mut uses, from.saturating_sub(1));
                    uses.truncate(*from);
                    if matches!(self.peek()?.kind, TokKind::Value(_)) {
                        loop {
                            let u = self.value_name("SSA operand")?;
                            uses.push(Some(u));
                            if self.at(",")? && self.second_is_value()? {
                                self.bump()?;
                            } else {
                                break;
                            }
                        }
                    }
                }
                Elem::OptOperand(kw, i) => {
                    if self.eat_kw(kw)? {
                        self.expect("(", &format!("after '{kw}'"))?;
                        let u = self.value_name("SSA operand")?;
                        self.expect(")", &format!("to end '{kw}'"))?;
                        *slot(&mut uses, *i) = Some(u);
                    }
                }
                Elem::EnumAngle(name) => {
                    let k = attr_kind(self, name)?;
                    self.expect("<", &format!("to begin {}", k.name()))?;
                    let bits = self.enum_bits(k)?;
                    self.expect(">", &format!("to end {}", k.name()))?;
                    attrs.push((name.to_string(), self.m.attrs.enumerant(k, bits)));
                }
                Elem::EnumStr(name) => {
                    let k = attr_kind(self, name)?;
                    let bits = self.enum_string(k, &format!("{} string", k.name()))?;
                    attrs.push((name.to_string(), self.m.attrs.enumerant(k, bits)));
                }
                Elem::OptEnum(name) => {
                    if self.eat(",")? {
                        let k = attr_kind(self, name)?;
                        self.expect("<", &format!("to begin {}", k.name()))?;
                        let bits = self.enum_bits(k)?;
                        self.expect(">", &format!("to end {}", k.name()))?;
                        attrs.push((name.to_string(), self.m.attrs.enumerant(k, bits)));
                    }
                }
                Elem::PtrSc(i) => {
                    let sloc = self.loc()?;
                    let s = self.string("storage class string like \"StorageBuffer\"")?;
                    let sc = StorageClass::from_name(&s)
                        .ok_or_else(|| self.err_at(sloc, format!("unknown storage class '{s}'")))?;
                    *slot(&mut storage, *i) = Some(sc);
                }
                Elem::MemAccess(source) => {
                    let (access, alignment) = crate::text::asm_forms::mem_access_names(*source);
                    let open = if *source {
                        self.eat(",")? && {
                            self.expect("[", "to begin the source memory access")?;
                            true
                        }
                    } else {
                        self.eat("[")?
                    };
                    if open {
                        let bits =
                            self.enum_string(OperandKind::MemoryAccess, "memory access string")?;
                        attrs.push((
                            access.into(),
                            self.m.attrs.enumerant(OperandKind::MemoryAccess, bits),
                        ));
                        if self.eat(",")? {
                            let a = self.integer("alignment")?;
                            let i32t = self.m.types.int(32);
                            attrs.push((alignment.into(), self.m.attrs.int(a, i32t)));
                        }
                        self.expect("]", "to end memory access")?;
                    }
                }
                Elem::Attr(name) => {
                    let a = self.parse_attr()?;
                    attrs.push((name.to_string(), a));
                }
                Elem::AttrDict => {
                    for (k, v) in self.parse_opt_attr_dict()? {
                        attrs.push((k, v));
                    }
                }
                Elem::Type(TypeRef::Operand(i)) => {
                    let t = self.parse_type()?;
                    *slot(&mut types, *i) = Some(t);
                }
                Elem::Type(TypeRef::Result) => result = Some(self.parse_type()?),
                Elem::Type(TypeRef::Pointee(i)) => {
                    let t = self.parse_type()?;
                    *slot(&mut pointee, *i) = Some(t);
                }
                Elem::Types { from, comma_led } => {
                    let n = uses.len().saturating_sub(*from);
                    for k in 0..n {
                        if *comma_led || k > 0 {
                            self.expect(",", "between types")?;
                        }
                        let t = self.parse_type()?;
                        *slot(&mut types, from + k) = Some(t);
                    }
                }
                Elem::OptComma => {
                    self.eat(",")?;
                }
                Elem::Lit(s) => {
                    if s.chars().all(|c| c.is_ascii_alphabetic()) {
                        self.expect_kw(s, "")?;
                    } else {
                        self.expect(s, "")?;
                    }
                }
            }
        }
        // Trailing optional operands that were not written are absent.
        while uses.last().is_some_and(Option::is_none) {
            uses.pop();
        }
        let n = uses.len();
        if uses.iter().any(Option::is_none) {
            return Err(self.err_at(loc, "internal error: form left an operand unset"));
        }
        let has_result = asm_forms::has_result(&kind);
        let mut sig = Sig::new(n, has_result);
        for i in 0..n {
            sig.operands[i] = types.get(i).copied().flatten();
            sig.storage[i] = storage.get(i).copied().flatten();
            sig.pointee[i] = pointee.get(i).copied().flatten();
        }
        sig.result = result.filter(|_| has_result);
        // Resolve operands whose types are written now: their constant
        // values may be needed to infer the rest (struct indices).
        let mut values: Vec<Option<Value>> = vec![None; n];
        for i in 0..n {
            if let (Some(ty), Some((name, uloc))) = (sig.operands[i], uses[i].clone()) {
                values[i] = Some(self.resolve_value(&name, ty, uloc)?);
                sig.consts[i] = self.const_int_of(&name);
            }
        }
        asm_forms::infer(
            form.infer,
            &mut sig,
            &attrs,
            &self.m.attrs,
            &mut self.m.types,
        )
        .map_err(|e| self.err_at(loc, e.to_string()))?;
        let mut operands = Vec::with_capacity(n);
        for i in 0..n {
            let v = match values[i] {
                Some(v) => v,
                None => {
                    let (name, uloc) = uses[i].clone().unwrap_or_default();
                    let ty = sig.operands[i]
                        .ok_or_else(|| self.err_at(loc, "cannot infer operand type"))?;
                    self.resolve_value(&name, ty, uloc)?
                }
            };
            operands.push(v);
        }
        let result_types = if has_result {
            sig.result.into_iter().collect()
        } else {
            Vec::new()
        };
        Ok(self.m.create_op(OpSpec {
            attrs,
            operands,
            result_types,
            loc,
            ..OpSpec::new(kind)
        }))
    }
}
