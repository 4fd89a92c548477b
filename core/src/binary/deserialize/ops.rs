//! Per-instruction decoding: a function-body instruction -> one op, driven
//! by [`crate::ir::schema`], the contract the serializer encodes with.
//!
//! Grammar operands map back as the schema says: ids to SSA operands (an
//! enumerant's id parameters too, in binary order), literals and enums to
//! attributes named after the operand (`storage_class`, `memory_access`,
//! `indices`, ...: integers as `i32`, variadic ones as arrays, strings as
//! strings, enums as enum attributes), an enumerant's literal parameters
//! to `alignment` / `source_alignment` (memory access) or
//! `<attr>_literals`, the ids of `IdScope` / `IdMemorySemantics` operands
//! (which must name integer constants) to `Scope` / `MemorySemantics`
//! enum attributes, `OpFunctionCall`'s function to `callee`. An
//! `OpExtInst` of `GLSL.std.450` becomes a `GL.*` op; of a `NonSemantic.*`
//! set it is dropped. Decorations of the result become attributes.
//!
//! A function's result of `OpTypeVoid` (a call of a void function) has no
//! result in the IR.

use super::decorations;
use super::emit::{FnEmitter, Sink};
use super::error::DeserializeError;
use super::reader::{Inst, Operand, Val};
use super::{invalid, Def, ExtSet, Result};
use crate::grammar::{Opcode, OperandCategory, OperandKind, Quantifier, StorageClass};
use crate::ir::schema::{self, Role};
use crate::ir::{Attr, Location, OpKind, OpSpec, Type, TypeKind, Value};

impl FnEmitter<'_> {
    /// Decodes a body instruction into an op spec and the result id it
    /// defines; `None` when the instruction is dropped.
    pub(super) fn decode_op(
        &mut self,
        inst: &Inst,
        loc: Location,
        sink: Sink,
    ) -> Result<Option<(OpSpec, Option<u32>)>> {
        if inst.desc.op == Opcode::ExtInst {
            return self.decode_ext_inst(inst, loc, sink);
        }
        // Other instructions of an extended instruction set (the IR models
        // only `OpExtInst`'s, as `GL.*` ops).
        if matches!(
            inst.desc.op,
            Opcode::ExtInstImport | Opcode::ExtInstWithForwardRefsKHR
        ) {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("{} (only OpExtInst is modelled)", inst.at.opname()),
            });
        }
        let Some(schema) = schema::core_schema(inst.opcode()) else {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("{} has no schema", inst.at.opname()),
            });
        };
        let mut spec = OpSpec::new(OpKind::Core(inst.opcode())).loc(loc);
        let skip = usize::from(schema.has_result_type) + usize::from(schema.has_result);
        // Literal parameters of enum attributes, by attribute name.
        let mut params: Vec<(String, OperandKind, Vec<i128>)> = Vec::new();
        // Variadic literal attributes, by name.
        let mut lists: Vec<(String, Vec<Attr>)> = Vec::new();
        let mut current_enum: Option<(String, OperandKind)> = None;
        for o in &inst.operands {
            let role_index = usize::from(o.slot).checked_sub(skip);
            let Some(role) = role_index.and_then(|i| schema.roles.get(i)) else {
                return Err(invalid(inst, "operand outside the instruction's schema"));
            };
            if o.param {
                match &o.val {
                    Val::Id(id) => {
                        let v = self.use_value(*id, inst.at, sink)?;
                        spec.operands.push(v);
                    }
                    Val::Word(w) => {
                        let Some((name, kind)) = current_enum.clone() else {
                            return Err(invalid(inst, "an enum parameter without its enum"));
                        };
                        match params.iter_mut().find(|(n, _, _)| *n == name) {
                            Some((_, _, v)) => v.push(i128::from(*w)),
                            None => params.push((name, kind, vec![i128::from(*w)])),
                        }
                    }
                    _ => {
                        return Err(DeserializeError::Unsupported {
                            at: inst.at,
                            what: "a string or 64-bit enum parameter".into(),
                        })
                    }
                }
                continue;
            }
            match role {
                Role::Value { .. } => {
                    let Val::Id(id) = o.val else {
                        return Err(invalid(inst, "expected an id"));
                    };
                    let v = self.use_value(id, inst.at, sink)?;
                    spec.operands.push(v);
                }
                Role::Callee => {
                    let Val::Id(id) = o.val else {
                        return Err(invalid(inst, "expected a function id"));
                    };
                    // The callee may be defined later: its symbol is known
                    // now, its definition is checked at the end.
                    let name = match self.d.defs.get(&id) {
                        Some(Def::Function { name, .. }) => name.clone(),
                        Some(_) => {
                            return Err(DeserializeError::WrongId {
                                at: inst.at,
                                id,
                                expected: "a function",
                            })
                        }
                        None => {
                            self.d.forward_calls.push((inst.at, id));
                            self.d.symbol(id, "spirv_fn")
                        }
                    };
                    let a = self.d.m.attrs.symbol(name);
                    spec.attrs.push(("callee".into(), a));
                }
                Role::Successor { .. } | Role::SwitchTargets => {
                    return Err(invalid(inst, "a branch target outside a terminator"));
                }
                Role::TypeAttr { name } => {
                    let Val::Id(id) = o.val else {
                        return Err(invalid(inst, "expected a type id"));
                    };
                    let ty = self.d.type_of_id(inst, id)?;
                    let a = self.d.m.attrs.ty(ty);
                    spec.attrs.push((name.to_string(), a));
                }
                Role::Attr {
                    name,
                    kind,
                    quantifier,
                    id_constant,
                } => {
                    let name = name.to_string();
                    let a = if *id_constant {
                        let Val::Id(id) = o.val else {
                            return Err(invalid(inst, "expected an id"));
                        };
                        let value = self.constant_u32(inst, id)?;
                        self.d.m.attrs.enumerant(*kind, value)
                    } else {
                        self.literal_attr(inst, o, *kind)?
                    };
                    if matches!(
                        kind.category(),
                        OperandCategory::ValueEnum | OperandCategory::BitEnum
                    ) {
                        current_enum = Some((name.clone(), *kind));
                    }
                    if *quantifier == Quantifier::Variadic {
                        match lists.iter_mut().find(|(n, _)| *n == name) {
                            Some((_, v)) => v.push(a),
                            None => lists.push((name, vec![a])),
                        }
                    } else {
                        spec.attrs.push((name, a));
                    }
                }
            }
        }
        for (name, items) in lists {
            let a = self.d.m.attrs.array(items);
            spec.attrs.push((name, a));
        }
        let i32t = self.d.m.types.int(32);
        for (name, kind, values) in params {
            let attr_name = schema::enum_literal_params_attr(kind, &name).into_owned();
            let a = if kind == OperandKind::MemoryAccess && values.len() == 1 {
                self.d.m.attrs.int(values[0], i32t)
            } else {
                let items = values
                    .iter()
                    .map(|&v| self.d.m.attrs.int(v, i32t))
                    .collect();
                self.d.m.attrs.array(items)
            };
            spec.attrs.push((attr_name, a));
        }
        // The result.
        let mut result = None;
        if schema.has_result {
            let ty = self.d.result_type(inst)?;
            let void = matches!(self.d.m.types.kind(ty), TypeKind::None);
            if void && inst.desc.op != Opcode::FunctionCall {
                return Err(invalid(inst, "a result of type void"));
            }
            if !void {
                let ty = self.storage_buffer_pointer(ty, &spec.operands);
                spec.result_types.push(ty);
            }
            result = inst.result;
        }
        if let Some(id) = inst.result {
            let ds = self.d.decorations.take(id);
            let extra = decorations::as_attrs(&mut self.d.m.attrs, &mut self.d.m.types, &ds)?;
            for (name, a) in extra {
                if spec.attrs.iter().any(|(n, _)| *n == name) {
                    return Err(DeserializeError::Unsupported {
                        at: inst.at,
                        what: format!("decoration attribute '{name}' clashes with an operand of the instruction"),
                    });
                }
                spec.attrs.push((name, a));
            }
        }
        Ok(Some((spec, result)))
    }

    /// The attribute of one literal or enum operand.
    fn literal_attr(&mut self, inst: &Inst, o: &Operand, kind: OperandKind) -> Result<Attr> {
        match (&o.val, kind.category()) {
            (Val::Word(w), OperandCategory::ValueEnum | OperandCategory::BitEnum) => {
                Ok(self.d.m.attrs.enumerant(kind, *w))
            }
            (Val::Word(w), _) => {
                let i32t = self.d.m.types.int(32);
                Ok(self.d.m.attrs.int(i128::from(*w as i32), i32t))
            }
            (Val::Str(s), _) => Ok(self.d.m.attrs.string(s.clone())),
            _ => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("a {} operand of this form", kind.name()),
            }),
        }
    }

    /// The value of the integer constant `id` (scope and memory-semantics
    /// operands).
    pub(super) fn constant_u32(&self, inst: &Inst, id: u32) -> Result<u32> {
        match self.d.defs.get(&id) {
            Some(Def::Constant { value, .. }) => self
                .d
                .m
                .attrs
                .as_int(*value)
                .map(|v| v as u32)
                .ok_or(DeserializeError::WrongId {
                    at: inst.at,
                    id,
                    expected: "an integer constant",
                }),
            Some(Def::Spec { .. }) => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "scope or memory semantics %{id} is a specialization constant (the IR keeps them as attributes)"
                ),
            }),
            _ => Err(DeserializeError::WrongId {
                at: inst.at,
                id,
                expected: "an integer constant",
            }),
        }
    }

    /// A `Uniform` pointer type derived from a `StorageBuffer` pointer
    /// operand becomes a `StorageBuffer` pointer: the access chains into a
    /// `BufferBlock` storage buffer that the deserializer upgraded.
    fn storage_buffer_pointer(&mut self, ty: Type, operands: &[Value]) -> Type {
        if !self.d.upgraded_buffer_block {
            return ty;
        }
        let Some((pointee, StorageClass::Uniform)) = self.d.m.types.pointer_parts(ty) else {
            return ty;
        };
        let from_buffer = operands.iter().any(|&v| {
            let t = self.d.m.value_type(v);
            matches!(
                self.d.m.types.pointer_parts(t),
                Some((_, StorageClass::StorageBuffer))
            )
        });
        if from_buffer {
            self.d.m.types.pointer(pointee, StorageClass::StorageBuffer)
        } else {
            ty
        }
    }

    /// `OpExtInst`: `GL.*` ops; non-semantic instructions are dropped.
    fn decode_ext_inst(
        &mut self,
        inst: &Inst,
        loc: Location,
        sink: Sink,
    ) -> Result<Option<(OpSpec, Option<u32>)>> {
        let set = inst.id(0).unwrap_or(0);
        match self.d.defs.get(&set) {
            Some(Def::ExtSet(ExtSet::Glsl)) => {}
            Some(Def::ExtSet(ExtSet::NonSemantic)) => return Ok(None),
            Some(Def::ExtSet(ExtSet::Other)) => {
                return Err(DeserializeError::Unsupported {
                    at: inst.at,
                    what: "instructions of an extended instruction set other than GLSL.std.450"
                        .into(),
                })
            }
            _ => {
                return Err(DeserializeError::WrongId {
                    at: inst.at,
                    id: set,
                    expected: "an extended instruction set",
                })
            }
        }
        let number = inst.word(1).unwrap_or(u32::MAX);
        let known = u16::try_from(number)
            .ok()
            .and_then(crate::grammar::glsl_inst);
        let Some(desc) = known else {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("GLSL.std.450 instruction {number}"),
            });
        };
        let mut spec = OpSpec::new(OpKind::Glsl(desc.opcode)).loc(loc);
        for o in &inst.operands[2..] {
            let Val::Id(id) = o.val else {
                return Err(invalid(inst, "expected an id operand"));
            };
            let v = self.use_value(id, inst.at, sink)?;
            spec.operands.push(v);
        }
        let ty = self.d.result_type(inst)?;
        spec.result_types.push(ty);
        if let Some(id) = inst.result {
            let ds = self.d.decorations.take(id);
            let extra = decorations::as_attrs(&mut self.d.m.attrs, &mut self.d.m.types, &ds)?;
            spec.attrs.extend(extra);
        }
        Ok(Some((spec, inst.result)))
    }
}
