//! Functions: `OpFunction` -> `spv.func`, `OpFunctionParameter`s -> the
//! entry block's arguments (their decorations in `arg_attrs`), and the
//! blocks of the body collected until `OpFunctionEnd`, when [`super::emit`]
//! rebuilds them as regions.
//!
//! The function's symbol is its entry point name when it is one (an entry
//! point's name is its function's symbol in the IR), else its `OpName`
//! (unique), else `spirv_fn_N`. Its decorations become attributes of the
//! `spv.func`.

use super::cfg::SBlock;
use super::decorations::{self, Deco};
use super::error::{At, DeserializeError};
use super::reader::Inst;
use super::{invalid, Def, Deserializer, Result};
use crate::grammar::{Opcode, OperandKind};
use crate::ir::{AttrKind, Op, OpKind, OpSpec, Type, TypeKind};

/// A function being read.
pub(super) struct FnBuilder {
    /// Its `OpFunction`.
    pub at: At,
    /// Its id.
    pub id: u32,
    /// The `spv.func` op.
    pub op: Op,
    /// Parameter types, from the function type.
    pub inputs: Vec<Type>,
    /// `OpFunctionParameter`s so far: (id, type).
    pub params: Vec<(u32, Type)>,
    /// Finished blocks.
    pub blocks: Vec<SBlock>,
    /// The block being read.
    pub current: Option<SBlock>,
}

impl FnBuilder {
    /// The error for the parameters missing before the instruction `at`.
    fn missing_parameter(&self, at: At) -> DeserializeError {
        DeserializeError::MissingFunctionParameter {
            at,
            function: self.id,
            expected: self.inputs.len(),
            found: self.params.len(),
        }
    }
}

impl Deserializer {
    /// `OpFunction`: creates the `spv.func` op.
    pub(super) fn process_function(&mut self, inst: Inst) -> Result<()> {
        let id = inst.result.unwrap_or(0);
        let ret = self.result_type(&inst)?;
        let control = inst.word(0).unwrap_or(0);
        let fty_id = inst.id(1).unwrap_or(0);
        let fty = self.type_of_id(&inst, fty_id)?;
        let TypeKind::Function { inputs, results } = self.m.types.kind(fty).clone() else {
            return Err(DeserializeError::WrongId {
                at: inst.at,
                id: fty_id,
                expected: "a function type",
            });
        };
        let result = match self.m.types.kind(ret) {
            TypeKind::None => None,
            _ => Some(ret),
        };
        if results.first().copied() != result {
            return Err(invalid(
                &inst,
                "the result type differs from the function type's",
            ));
        }
        let name = self.symbol(id, "spirv_fn");
        let ds = self.decorations.take(id);
        let extra = decorations::as_attrs(&mut self.m.attrs, &mut self.m.types, &ds)?;
        let sym = self.m.attrs.string(name.clone());
        let ty_attr = self.m.attrs.ty(fty);
        let control_attr = self
            .m
            .attrs
            .enumerant(OperandKind::FunctionControl, control);
        let mut spec = OpSpec::new(OpKind::Func)
            .loc(self.loc())
            .regions(1)
            .attr("sym_name", sym)
            .attr("function_type", ty_attr)
            .attr("function_control", control_attr);
        spec.attrs.extend(extra);
        let op = self.m.create_op(spec);
        self.push_module_op(op);
        self.define(&inst, Def::Function { name })?;
        self.func = Some(FnBuilder {
            at: inst.at,
            id,
            op,
            inputs,
            params: Vec::new(),
            blocks: Vec::new(),
            current: None,
        });
        Ok(())
    }

    /// One instruction between `OpFunction` and `OpFunctionEnd`.
    pub(super) fn process_body_instruction(&mut self, f: &mut FnBuilder, inst: Inst) -> Result<()> {
        match inst.desc.op {
            Opcode::Function => Err(DeserializeError::MissingFunctionEnd {
                at: f.at,
                function: f.id,
            }),
            Opcode::FunctionParameter => {
                if f.current.is_some() || !f.blocks.is_empty() {
                    return Err(invalid(&inst, "OpFunctionParameter after the first block"));
                }
                let Some(&ty) = f.inputs.get(f.params.len()) else {
                    return Err(invalid(
                        &inst,
                        format!(
                            "more parameters than the function type's {} input(s)",
                            f.inputs.len()
                        ),
                    ));
                };
                if self.result_type(&inst)? != ty {
                    return Err(invalid(
                        &inst,
                        format!(
                            "parameter {} does not have the function type's input type",
                            f.params.len()
                        ),
                    ));
                }
                let id = inst.result.unwrap_or(0);
                if self.defs.contains_key(&id) {
                    return Err(DeserializeError::Redefined { at: inst.at, id });
                }
                let ds = self.decorations.take(id);
                self.param_decorations(f, &ds)?;
                f.params.push((id, ty));
                Ok(())
            }
            Opcode::Label => {
                if f.params.len() < f.inputs.len() {
                    return Err(f.missing_parameter(inst.at));
                }
                if let Some(open) = &f.current {
                    return Err(DeserializeError::Invalid {
                        at: inst.at,
                        reason: format!("block %{} has no terminator", open.label),
                    });
                }
                f.current = Some(SBlock {
                    label: inst.result.unwrap_or(0),
                    at: inst.at,
                    phis: Vec::new(),
                    body: Vec::new(),
                    merge: None,
                    term: None,
                });
                Ok(())
            }
            _ => {
                let Some(block) = f.current.as_mut() else {
                    if f.params.len() < f.inputs.len() && f.blocks.is_empty() {
                        return Err(f.missing_parameter(inst.at));
                    }
                    return Err(DeserializeError::MissingLabel {
                        at: inst.at,
                        function: f.id,
                    });
                };
                let op = inst.desc.op;
                if block.merge.is_some() && !OpKind::Core(inst.opcode()).is_terminator() {
                    return Err(invalid(
                        &inst,
                        "only a branch may follow OpSelectionMerge / OpLoopMerge",
                    ));
                }
                if op == Opcode::Phi {
                    if !block.body.is_empty() {
                        return Err(invalid(
                            &inst,
                            "OpPhi after other instructions of its block",
                        ));
                    }
                    block.phis.push(inst);
                } else if matches!(op, Opcode::SelectionMerge | Opcode::LoopMerge) {
                    block.merge = Some(inst);
                } else if OpKind::Core(inst.opcode()).is_terminator() {
                    block.term = Some((inst, self.loc()));
                    if let Some(done) = f.current.take() {
                        f.blocks.push(done);
                    }
                    // Line information ends with the block.
                    self.line = crate::ir::Location::UNKNOWN;
                } else if op.declares_type()
                    || op.creates_constant()
                    || matches!(
                        op,
                        Opcode::Capability
                            | Opcode::Extension
                            | Opcode::ExtInstImport
                            | Opcode::MemoryModel
                            | Opcode::EntryPoint
                            | Opcode::ExecutionMode
                            | Opcode::ExecutionModeId
                            | Opcode::Name
                            | Opcode::MemberName
                            | Opcode::Decorate
                            | Opcode::MemberDecorate
                            | Opcode::String
                            | Opcode::Source
                    )
                {
                    return Err(DeserializeError::Layout {
                        at: inst.at,
                        reason: format!("{} inside a function", inst.at.opname()),
                    });
                } else {
                    let loc = self.loc();
                    block.body.push((inst, loc));
                }
                Ok(())
            }
        }
    }

    /// Parameter decorations: entries `spirv.decoration = #spirv.decoration<X>`
    /// of the parameter's `arg_attrs` dictionary.
    fn param_decorations(&mut self, f: &FnBuilder, ds: &[Deco]) -> Result<()> {
        let index = f.params.len();
        let mut entries = Vec::new();
        for d in ds {
            if !d.params.is_empty() {
                return Err(DeserializeError::Unsupported {
                    at: d.at,
                    what: format!("parameter decoration {} with operands", d.decoration),
                });
            }
            let a = self
                .m
                .attrs
                .enumerant(OperandKind::Decoration, d.decoration as u32);
            entries.push(("spirv.decoration".to_string(), a));
        }
        if entries.is_empty() {
            return Ok(());
        }
        if entries.len() > 1 {
            return Err(DeserializeError::Unsupported {
                at: ds[1].at,
                what: "more than one decoration on a parameter".into(),
            });
        }
        let op = f.op;
        let mut dicts: Vec<_> = match self.m.attr(op, "arg_attrs") {
            Some(a) => self
                .m
                .attrs
                .as_array(a)
                .map(|v| v.to_vec())
                .unwrap_or_default(),
            None => Vec::new(),
        };
        let empty = self.m.attrs.intern(AttrKind::Dict(Vec::new()));
        dicts.resize(f.inputs.len(), empty);
        dicts[index] = self.m.attrs.intern(AttrKind::Dict(entries));
        let a = self.m.attrs.array(dicts);
        self.m.set_attr(op, "arg_attrs", a);
        Ok(())
    }

    /// `OpFunctionEnd`: rebuilds the body.
    pub(super) fn process_function_end(&mut self, f: FnBuilder, inst: &Inst) -> Result<()> {
        if let Some(open) = &f.current {
            return Err(DeserializeError::Invalid {
                at: inst.at,
                reason: format!("block %{} has no terminator", open.label),
            });
        }
        if f.blocks.is_empty() {
            if f.params.len() < f.inputs.len() {
                return Err(f.missing_parameter(inst.at));
            }
            // A declaration: no body.
            return Ok(());
        }
        self.emit_function(f)
    }
}
