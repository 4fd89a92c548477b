//! Decorations: collected from the annotation section, then taken by the
//! entity they decorate when it is created.
//!
//! `OpDecorate` / `OpDecorateString` / `OpDecorateId` and their member
//! forms are kept per target id; decoration groups are expanded onto their
//! targets. Each entity takes its decorations once ([`Decorations::take`]),
//! so [`Decorations::check_all_used`] can report, at the end, decorations
//! of ids that were never defined and decorations nothing could represent.
//!
//! A decoration becomes an attribute named after it in snake case, as MLIR
//! names them (`DescriptorSet` -> `descriptor_set`, `NoSignedWrap` ->
//! `no_signed_wrap`); its value is `unit` without parameters, an `i32` for
//! one literal integer, a string for `BuiltIn` (`built_in =
//! "GlobalInvocationId"`, the form the text uses) and string literals, an
//! enum attribute for other enum parameters, and an array for several
//! parameters. This is the inverse of the serializer's
//! `prepare_decoration_operands`.

use super::error::{At, DeserializeError};
use super::reader::{Inst, Operand, Val};
use super::{Def, Result};
use crate::binary::serialize::tables::FxHashMap;
use crate::grammar::{BuiltIn, Decoration, Opcode, OperandCategory, OperandKind};
use crate::ir::{Attr, AttrStore, TypeStore};

/// One decoration with its parameters.
#[derive(Clone, Debug)]
pub(super) struct Deco {
    /// The annotation instruction.
    pub at: At,
    /// The decoration.
    pub decoration: Decoration,
    /// Its parameters, as decoded.
    pub params: Vec<Operand>,
}

/// The decorations of the module, by target.
#[derive(Default)]
pub(super) struct Decorations {
    /// On ids.
    on: FxHashMap<u32, Vec<Deco>>,
    /// On struct members: (struct id) -> (member, decoration).
    members: FxHashMap<u32, Vec<(u32, Deco)>>,
    /// Decoration groups (their own decorations go to their targets).
    groups: Vec<u32>,
}

impl Decorations {
    /// Takes the decorations of `id`.
    pub fn take(&mut self, id: u32) -> Vec<Deco> {
        self.on.remove(&id).unwrap_or_default()
    }

    /// Takes the member decorations of struct `id`.
    pub fn take_members(&mut self, id: u32) -> Vec<(u32, Deco)> {
        self.members.remove(&id).unwrap_or_default()
    }

    /// Errors on decorations nothing took: of ids never defined, or of
    /// entities that cannot carry them.
    pub fn check_all_used(&self, defs: &FxHashMap<u32, Def>) -> Result<()> {
        let first = self
            .on
            .iter()
            .filter(|(id, _)| !self.groups.contains(id))
            .flat_map(|(&id, ds)| ds.iter().map(move |d| (id, d)))
            .chain(
                self.members
                    .iter()
                    .flat_map(|(&id, ds)| ds.iter().map(move |(_, d)| (id, d))),
            )
            .min_by_key(|(_, d)| d.at.offset);
        let Some((id, d)) = first else {
            return Ok(());
        };
        if defs.contains_key(&id) {
            Err(DeserializeError::Unsupported {
                at: d.at,
                what: format!(
                    "decoration {} on %{id}: the IR has no place for it on that kind of entity",
                    d.decoration
                ),
            })
        } else {
            Err(DeserializeError::Undefined { at: d.at, id })
        }
    }

    /// Records `OpDecorate*`, `OpMemberDecorate*`, `OpDecorationGroup`,
    /// `OpGroupDecorate` and `OpGroupMemberDecorate`.
    pub fn process(&mut self, inst: &Inst) -> Result<()> {
        let deco = |i: usize| -> Result<Deco> {
            let value = inst.word(i).unwrap_or(u32::MAX);
            let decoration =
                Decoration::from_u32(value).ok_or(DeserializeError::UnknownEnumerant {
                    at: inst.at,
                    kind: OperandKind::Decoration.name(),
                    value,
                })?;
            Ok(Deco {
                at: inst.at,
                decoration,
                params: inst.operands[i + 1..].to_vec(),
            })
        };
        match inst.desc.op {
            Opcode::Decorate | Opcode::DecorateId | Opcode::DecorateString => {
                let target = inst.id(0).unwrap_or(0);
                let d = deco(1)?;
                self.on.entry(target).or_default().push(d);
            }
            Opcode::MemberDecorate | Opcode::MemberDecorateString => {
                let target = inst.id(0).unwrap_or(0);
                let member = inst.word(1).unwrap_or(0);
                let d = deco(2)?;
                self.members.entry(target).or_default().push((member, d));
            }
            Opcode::DecorationGroup => self.groups.extend(inst.result),
            Opcode::GroupDecorate => {
                let group = inst.id(0).unwrap_or(0);
                let ds = self.on.get(&group).cloned().unwrap_or_default();
                for target in inst.ids_from(1) {
                    self.on
                        .entry(target)
                        .or_default()
                        .extend(ds.iter().cloned());
                }
            }
            Opcode::GroupMemberDecorate => {
                let group = inst.id(0).unwrap_or(0);
                let ds = self.on.get(&group).cloned().unwrap_or_default();
                let rest = &inst.operands[1..];
                for pair in rest.chunks(2) {
                    let (Some(Val::Id(target)), Some(Val::Word(member))) =
                        (pair.first().map(|o| &o.val), pair.get(1).map(|o| &o.val))
                    else {
                        continue;
                    };
                    let list = self.members.entry(*target).or_default();
                    list.extend(ds.iter().map(|d| (*member, d.clone())));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The attribute name of a decoration (`descriptor_set`).
pub(super) fn attr_name(decoration: Decoration) -> String {
    crate::text::camel_to_snake(decoration.name())
}

/// The attribute value of a decoration's parameters (see the module
/// documentation).
pub(super) fn attr_value(attrs: &mut AttrStore, types: &mut TypeStore, d: &Deco) -> Result<Attr> {
    let mut items = Vec::with_capacity(d.params.len());
    for p in &d.params {
        let a = match (&p.val, p.kind.category(), p.kind) {
            (Val::Word(w), _, OperandKind::BuiltIn) => {
                let name = BuiltIn::from_u32(*w)
                    .map(|b| b.name().to_string())
                    .unwrap_or_default();
                attrs.string(name)
            }
            (Val::Word(w), OperandCategory::ValueEnum | OperandCategory::BitEnum, kind) => {
                attrs.enumerant(kind, *w)
            }
            (Val::Word(w), _, _) => {
                let i32t = types.int(32);
                attrs.int(i128::from(*w), i32t)
            }
            (Val::Str(s), _, _) => attrs.string(s.clone()),
            _ => {
                return Err(DeserializeError::Unsupported {
                    at: d.at,
                    what: format!("decoration {} with an <id> or 64-bit operand", d.decoration),
                })
            }
        };
        items.push(a);
    }
    Ok(match items.len() {
        0 => attrs.unit(),
        1 => items[0],
        _ => attrs.array(items),
    })
}

/// The decorations `ds` as `(name, value)` attributes of an op.
pub(super) fn as_attrs(
    attrs: &mut AttrStore,
    types: &mut TypeStore,
    ds: &[Deco],
) -> Result<Vec<(String, Attr)>> {
    let mut out: Vec<(String, Attr)> = Vec::with_capacity(ds.len());
    for d in ds {
        let name = attr_name(d.decoration);
        let value = attr_value(attrs, types, d)?;
        if let Some((_, prev)) = out.iter().find(|(n, _)| *n == name) {
            if *prev != value {
                return Err(DeserializeError::Unsupported {
                    at: d.at,
                    what: format!(
                        "decoration {} given twice with different values",
                        d.decoration
                    ),
                });
            }
            continue;
        }
        out.push((name, value));
    }
    Ok(out)
}
