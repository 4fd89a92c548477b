//! Per-op encoding: core-grammar ops driven by [`crate::ir::schema`],
//! `GLSL.std.450` ops, and the SSA values that stand for constants,
//! variables and specialization constants.
//!
//! A core op's instruction is built by walking its schema roles in binary
//! order: SSA operands become ids (with the ids of an enum's id parameters
//! taken from the operands at the enum's position, `ImageOperands Bias %b`),
//! attributes become literals or enum words followed by the enumerant's
//! literal parameters (`alignment` for `MemoryAccess`, `<attr>_literals`
//! otherwise), scope and memory-semantics attributes become the ids of
//! `i32` constants, successors become labels (recording the values they
//! pass for the target's phis), the callee becomes a function id. An
//! attribute the schema does not define and whose name is a decoration is
//! emitted as a decoration of the result.

use rspirv::dr::{Instruction, Operand};
use rspirv::spirv;

use super::{grammar_class, inst, OpProblem, Result, Serializer, SymbolKind};
use crate::grammar::{self, OperandCategory, OperandKind, Quantifier};
use crate::ir::schema::{self, Role};
use crate::ir::{AttrKind, Op, OpKind, Successor, Value, ValueDef};

/// The most words one instruction holds (its word count has 16 bits).
const MAX_WORDS: usize = 0xffff;

impl Serializer<'_> {
    // ---- values -----------------------------------------------------------

    /// The id of `v` as used by `user`. Values defined by `spv.Constant`,
    /// `spv.mlir.addressof` and `spv.mlir.referenceof` resolve to the
    /// constant / variable / specialization constant; any other value not
    /// yet defined gets an id now and must be defined later in the function.
    pub(super) fn prepare_value(&mut self, user: Op, v: Value) -> Result<u32> {
        if let Some(id) = self.value_ids.get(v) {
            return Ok(id);
        }
        if let ValueDef::Result(def, _) = self.m.value(v).def {
            match self.m.op(def).kind {
                OpKind::Constant => return self.prepare_constant(def),
                OpKind::AddressOf => {
                    let id =
                        self.prepare_symbol_ref(def, "variable", SymbolKind::GlobalVariable)?;
                    self.value_ids.insert(v, id);
                    return Ok(id);
                }
                OpKind::ReferenceOf => {
                    let id =
                        self.prepare_symbol_ref(def, "spec_const", SymbolKind::SpecConstant)?;
                    self.value_ids.insert(v, id);
                    return Ok(id);
                }
                _ => {}
            }
        }
        let id = self.next_id();
        self.value_ids.insert(v, id);
        self.func.locals.push(v);
        self.func.pending.entry(v).or_insert(user);
        Ok(id)
    }

    /// The id a definition of `v` (result, phi, parameter) gives it.
    pub(super) fn define_value(&mut self, v: Value) -> u32 {
        self.func.pending.remove(&v);
        if let Some(id) = self.value_ids.get(v) {
            return id;
        }
        let id = self.next_id();
        self.value_ids.insert(v, id);
        self.func.locals.push(v);
        id
    }

    /// The type id of `v`.
    pub(super) fn prepare_value_type(&mut self, user: Op, v: Value) -> Result<u32> {
        let ty = self.m.value_type(v);
        self.prepare_type(user, ty)
    }

    // ---- core ops -----------------------------------------------------------

    /// The instruction of the core op `op` (`opcode`). Branches record the
    /// values they pass to their targets' block arguments.
    pub(super) fn prepare_core_op(&mut self, op: Op, opcode: u16) -> Result<Instruction> {
        let unsupported = |s: &Self, what: String| s.err(op, OpProblem::Unsupported(what));
        let Some(schema) = schema::core_schema(opcode) else {
            return Err(unsupported(
                self,
                format!("opcode {opcode} is not in the grammar"),
            ));
        };
        let Some(class) = grammar_class(u32::from(opcode)) else {
            return Err(unsupported(
                self,
                format!("opcode {opcode} is unknown to the rspirv encoder"),
            ));
        };
        let m = self.m;
        let data = m.op(op);
        let is_call = opcode == spirv::Op::FunctionCall as u16;

        // Result and result type.
        if data.results.len() > usize::from(schema.has_result) {
            return Err(self.err(
                op,
                OpProblem::ResultCount {
                    expected: usize::from(schema.has_result),
                    found: data.results.len(),
                },
            ));
        }
        let (result_type, result_id) = match (schema.has_result, data.result()) {
            (true, Some(v)) => {
                let ty = if schema.has_result_type {
                    Some(self.prepare_value_type(op, v)?)
                } else {
                    None
                };
                (ty, Some(self.define_value(v)))
            }
            // A call of a function returning nothing: `OpTypeVoid` result.
            (true, None) if is_call => (Some(self.prepare_void_type()), Some(self.next_id())),
            (true, None) => {
                return Err(self.err(
                    op,
                    OpProblem::ResultCount {
                        expected: 1,
                        found: 0,
                    },
                ))
            }
            (false, _) => (None, None),
        };

        // (role index, ids its enum parameters take from the operand list),
        // for the enum attributes that have id parameters (usually none).
        let mut id_params: Vec<(usize, usize)> = Vec::new();
        for (i, role) in schema.roles.iter().enumerate() {
            if let Role::Attr {
                name,
                kind,
                id_constant: false,
                ..
            } = role
            {
                if let Some(value) = self.enum_attr_value(op, name, *kind)? {
                    let n = enum_params(*kind, value)
                        .filter(|k| k.category() == OperandCategory::Id)
                        .count();
                    if n > 0 {
                        id_params.push((i, n));
                    }
                }
            }
        }
        let reserved_after = |i: usize| -> usize {
            id_params
                .iter()
                .filter(|&&(j, _)| j > i)
                .map(|&(_, n)| n)
                .sum()
        };

        let mut operands = Vec::new();
        let mut next_operand = 0usize;
        let mut next_successor = 0usize;
        let expected_operands = |s: &Self, what: &str| {
            s.err(
                op,
                OpProblem::OperandCount {
                    expected: what.to_string(),
                    found: data.operands.len(),
                },
            )
        };
        for (i, role) in schema.roles.iter().enumerate() {
            let available = data.operands.len().saturating_sub(next_operand);
            let free = available.saturating_sub(reserved_after(i));
            match role {
                Role::Value { quantifier } => {
                    let take = match quantifier {
                        Quantifier::One if free == 0 => {
                            return Err(expected_operands(self, "more"));
                        }
                        Quantifier::One => 1,
                        Quantifier::Optional => free.min(1),
                        Quantifier::Variadic => free,
                    };
                    for &v in &data.operands[next_operand..next_operand + take] {
                        operands.push(Operand::IdRef(self.prepare_value(op, v)?));
                    }
                    next_operand += take;
                }
                Role::Successor { quantifier } => {
                    let left = data.successors.len() - next_successor;
                    let take = match quantifier {
                        Quantifier::One if left == 0 => {
                            return Err(self.err(
                                op,
                                OpProblem::SuccessorCount {
                                    expected: "more".into(),
                                    found: data.successors.len(),
                                },
                            ))
                        }
                        Quantifier::One => 1,
                        Quantifier::Optional => left.min(1),
                        Quantifier::Variadic => left,
                    };
                    for s in &data.successors[next_successor..next_successor + take] {
                        operands.push(Operand::IdRef(self.prepare_successor(op, s)?));
                    }
                    next_successor += take;
                }
                Role::Callee => {
                    let id = self.prepare_symbol_ref(op, "callee", SymbolKind::Function)?;
                    operands.push(Operand::IdRef(id));
                }
                Role::TypeAttr { name } => {
                    let ty = match self.m.attr(op, name).map(|a| self.m.attrs.kind(a)) {
                        Some(AttrKind::Type(t)) => *t,
                        Some(_) => return Err(self.bad_attr(op, name, "a type")),
                        None => return Err(self.err(op, OpProblem::MissingAttr(name.to_string()))),
                    };
                    operands.push(Operand::IdRef(self.prepare_type(op, ty)?));
                }
                Role::SwitchTargets => {
                    let targets = &data.successors[next_successor..];
                    let literals = match self.m.attr(op, "literals") {
                        Some(a) => self
                            .int_list(a)
                            .ok_or_else(|| self.bad_attr(op, "literals", "an array of integers"))?,
                        None => Vec::new(),
                    };
                    if literals.len() != targets.len() {
                        return Err(self.err(
                            op,
                            OpProblem::SuccessorCount {
                                expected: format!("{} (one per case literal) + 1", literals.len()),
                                found: data.successors.len(),
                            },
                        ));
                    }
                    let wide = data
                        .operands
                        .first()
                        .and_then(|&sel| self.m.types.bit_width(self.m.value_type(sel)))
                        .is_some_and(|w| w > 32);
                    for (lit, s) in literals.iter().zip(targets) {
                        let bits = *lit as u64;
                        operands.push(if wide {
                            Operand::LiteralBit64(bits)
                        } else {
                            Operand::LiteralBit32(bits as u32)
                        });
                        operands.push(Operand::IdRef(self.prepare_successor(op, s)?));
                    }
                    next_successor = data.successors.len();
                }
                Role::Attr {
                    name,
                    kind,
                    quantifier,
                    id_constant,
                } => {
                    // The schema may name two operands alike (CopyMemory's two
                    // memory operands); the attribute encodes the first.
                    let earlier = schema.roles[..i]
                        .iter()
                        .any(|r| matches!(r, Role::Attr { name: n, .. } if n == name));
                    if earlier {
                        continue;
                    }
                    let present = self.m.attr(op, name).is_some();
                    if !present {
                        if *quantifier == Quantifier::One {
                            // `spv.Variable`'s storage class follows from its type.
                            if *kind == OperandKind::StorageClass {
                                if let Some(sc) = data
                                    .result()
                                    .and_then(|v| self.m.types.pointer_parts(self.m.value_type(v)))
                                    .map(|(_, sc)| sc)
                                {
                                    operands.push(Operand::LiteralBit32(sc as u32));
                                    continue;
                                }
                            }
                            return Err(self.err(op, OpProblem::MissingAttr(name.to_string())));
                        }
                        continue;
                    }
                    if *id_constant {
                        let value = self.enum_attr_value(op, name, *kind)?.unwrap_or_default();
                        operands.push(Operand::IdRef(self.prepare_u32_constant(value)));
                        continue;
                    }
                    match kind.category() {
                        OperandCategory::ValueEnum | OperandCategory::BitEnum => {
                            let value = self.enum_attr_value(op, name, *kind)?.unwrap_or_default();
                            operands.push(Operand::LiteralBit32(value));
                            let params = self.prepare_enum_params(
                                op,
                                name,
                                *kind,
                                value,
                                &data.operands,
                                &mut next_operand,
                            )?;
                            operands.extend(params);
                        }
                        _ => operands.extend(self.prepare_literal_attr(op, name, *kind)?),
                    }
                }
            }
        }
        if next_operand != data.operands.len() {
            return Err(expected_operands(self, &next_operand.to_string()));
        }
        if next_successor != data.successors.len() {
            return Err(self.err(
                op,
                OpProblem::SuccessorCount {
                    expected: next_successor.to_string(),
                    found: data.successors.len(),
                },
            ));
        }

        let is_own = |n: &str| is_schema_attr(schema, n);
        if data.attrs.is_empty() {
            // Nothing to decorate.
        } else if let Some(id) = result_id {
            self.process_decorations(op, id, &is_own)?;
        } else {
            if self.has_decorations(op, &is_own) {
                return Err(self.err(
                    op,
                    OpProblem::Structure("decoration attribute on an op without result".into()),
                ));
            }
        }

        Ok(Instruction {
            class,
            result_type,
            result_id,
            operands,
        })
    }

    /// The label of successor `s`, recording the values it passes.
    fn prepare_successor(&mut self, op: Op, s: &Successor) -> Result<u32> {
        self.record_incoming(op, s.block, &s.args)?;
        Ok(self.block_id(s.block))
    }

    /// The value of the enum attribute `name` (of operand kind `kind`).
    fn enum_attr_value(&self, op: Op, name: &str, kind: OperandKind) -> Result<Option<u32>> {
        if !matches!(
            kind.category(),
            OperandCategory::ValueEnum | OperandCategory::BitEnum
        ) {
            return Ok(None);
        }
        self.enum_attr(op, name, kind)
    }

    /// The parameters following enum attribute `name` = `value`: literals
    /// from `alignment` (MemoryAccess) or `<name>_literals`, ids from the
    /// operand list at `next_operand`.
    pub(super) fn prepare_enum_params(
        &mut self,
        op: Op,
        name: &str,
        kind: OperandKind,
        value: u32,
        ssa: &[Value],
        next_operand: &mut usize,
    ) -> Result<Vec<Operand>> {
        let params: Vec<OperandKind> = enum_params(kind, value).collect();
        if params.is_empty() {
            return Ok(Vec::new());
        }
        let lit_attr = schema::enum_literal_params_attr(kind, name);
        let literals = match self.m.attr(op, &lit_attr) {
            Some(a) => match self.m.attrs.kind(a) {
                AttrKind::Int { value, .. } => vec![*value],
                _ => self
                    .int_list(a)
                    .ok_or_else(|| self.bad_attr(op, &lit_attr, "integers"))?,
            },
            None => Vec::new(),
        };
        let mut literals = literals.into_iter();
        let mut out = Vec::with_capacity(params.len());
        for p in params {
            if p.category() == OperandCategory::Id {
                let Some(&v) = ssa.get(*next_operand) else {
                    return Err(self.err(
                        op,
                        OpProblem::OperandCount {
                            expected: format!("an id operand for a parameter of '{name}'"),
                            found: ssa.len(),
                        },
                    ));
                };
                *next_operand += 1;
                out.push(Operand::IdRef(self.prepare_value(op, v)?));
            } else {
                let Some(lit) = literals.next() else {
                    return Err(self.err(op, OpProblem::MissingAttr(lit_attr.to_string())));
                };
                out.push(Operand::LiteralBit32(lit as u32));
            }
        }
        Ok(out)
    }

    /// The operands of literal attribute `name` (absent ones were handled).
    fn prepare_literal_attr(&self, op: Op, name: &str, kind: OperandKind) -> Result<Vec<Operand>> {
        let Some(attr) = self.m.attr(op, name) else {
            return Ok(Vec::new());
        };
        match (kind, self.m.attrs.kind(attr)) {
            (OperandKind::LiteralString, AttrKind::String(s)) => {
                Ok(vec![Operand::LiteralString(s.clone())])
            }
            (OperandKind::LiteralInteger, AttrKind::Int { value, .. }) => {
                Ok(vec![Operand::LiteralBit32(*value as u32)])
            }
            (OperandKind::LiteralInteger, _) => match self.int_list(attr) {
                Some(v) => Ok(v
                    .into_iter()
                    .map(|x| Operand::LiteralBit32(x as u32))
                    .collect()),
                None => Err(self.bad_attr(op, name, "an integer or array of integers")),
            },
            (OperandKind::LiteralString, _) => Err(self.bad_attr(op, name, "a string")),
            _ => Err(self.err(
                op,
                OpProblem::Unsupported(format!("{} operand '{name}'", kind.name())),
            )),
        }
    }

    /// Fails when `i` (made for `op`) needs more words than an
    /// instruction's 16-bit word count holds: the assembler would write a
    /// truncated count (a `spv.CompositeConstruct` of a 70,000-element
    /// array, say).
    pub(super) fn check_word_count(&self, op: Op, i: &Instruction) -> Result<()> {
        let words = 1
            + usize::from(i.result_type.is_some())
            + usize::from(i.result_id.is_some())
            + i.operands
                .iter()
                .map(|o| match o {
                    Operand::LiteralBit64(_) => 2,
                    Operand::LiteralString(s) => s.len() / 4 + 1,
                    _ => 1,
                })
                .sum::<usize>();
        if words > MAX_WORDS {
            return Err(self.err(op, OpProblem::TooManyWords(words)));
        }
        Ok(())
    }

    // ---- GLSL.std.450 -------------------------------------------------------

    /// `OpExtInst %type %glsl <number> operands...`.
    pub(super) fn prepare_glsl_op(&mut self, op: Op, number: u16) -> Result<Instruction> {
        let Some(desc) = grammar::glsl_inst(number) else {
            return Err(self.err(
                op,
                OpProblem::Unsupported(format!("GLSL.std.450 instruction {number}")),
            ));
        };
        let m = self.m;
        let data = m.op(op);
        let fixed = desc
            .operands
            .iter()
            .all(|o| o.quantifier == Quantifier::One);
        if fixed && data.operands.len() != desc.operands.len() {
            return Err(self.err(
                op,
                OpProblem::OperandCount {
                    expected: desc.operands.len().to_string(),
                    found: data.operands.len(),
                },
            ));
        }
        let Some(result) = data.result() else {
            return Err(self.err(
                op,
                OpProblem::ResultCount {
                    expected: 1,
                    found: 0,
                },
            ));
        };
        let Some(set) = self.glsl_import else {
            return Err(self.err(op, OpProblem::Structure("no GLSL.std.450 import".into())));
        };
        let ty = self.prepare_value_type(op, result)?;
        let id = self.define_value(result);
        let mut operands = vec![
            Operand::IdRef(set),
            Operand::LiteralExtInstInteger(u32::from(number)),
        ];
        for &v in &data.operands {
            operands.push(Operand::IdRef(self.prepare_value(op, v)?));
        }
        self.process_decorations(op, id, &|_| false)?;
        Ok(inst(spirv::Op::ExtInst, Some(ty), Some(id), operands))
    }
}

/// The operand kinds of the parameters that follow enum `value` of `kind`:
/// for a bit enum, those of every set bit in ascending order.
fn enum_params(kind: OperandKind, value: u32) -> impl Iterator<Item = OperandKind> {
    let bits = kind.category() == OperandCategory::BitEnum;
    let descs: &'static [grammar::EnumerantDesc] = match kind.category() {
        OperandCategory::BitEnum => kind.enumerants(),
        OperandCategory::ValueEnum => grammar::enumerant(kind, value)
            .map(std::slice::from_ref)
            .unwrap_or_default(),
        _ => &[],
    };
    descs
        .iter()
        .filter(move |e| !bits || (e.value != 0 && value & e.value == e.value))
        .flat_map(|e| e.parameters.iter().map(|p| p.kind))
}

/// Whether the schema defines attribute `name`: an operand's attribute, or
/// the parameter attribute of an enum operand (`alignment` for
/// `MemoryAccess`, `<attr>_literals` otherwise).
fn is_schema_attr(schema: &schema::OpSchema, name: &str) -> bool {
    if name == "operandSegmentSizes" || schema.attr_names().any(|n| n == name) {
        return true;
    }
    schema.roles.iter().any(|role| match role {
        Role::Attr {
            name: attr, kind, ..
        } => {
            if *kind == OperandKind::MemoryAccess {
                name == "alignment"
            } else {
                name.strip_suffix("_literals") == Some(attr.as_ref())
            }
        }
        _ => false,
    })
}
