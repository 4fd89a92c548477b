//! Entry points and execution modes: `OpEntryPoint` /
//! `OpExecutionMode(Id)` -> `spv.EntryPoint` / `spv.ExecutionMode`, built
//! at the end of the module, when every function has its symbol.
//!
//! In the IR an entry point's name is its function's symbol, so the
//! function takes the entry point's name (a function that is two entry
//! points of different names, or two functions behind one name, cannot be
//! expressed). `OpExecutionModeId` operands must be integer constants and
//! become the mode's literal values (the serializer emits the `Id` form
//! again for modes whose parameters are ids). A constant decorated
//! `BuiltIn WorkgroupSize` becomes the compute entry points' `LocalSize`.

use super::error::{At, DeserializeError};
use super::reader::{Inst, Val};
use super::{invalid, Def, Deserializer, Result};
use crate::grammar::{ExecutionModel, OperandKind};
use crate::ir::{OpKind, OpSpec};

/// An `OpEntryPoint`, turned into `spv.EntryPoint` at the end.
pub(super) struct EntryPointInfo {
    pub at: At,
    pub model: u32,
    pub function: u32,
    pub interface: Vec<u32>,
}

/// An `OpExecutionMode(Id)`, turned into `spv.ExecutionMode` at the end.
pub(super) struct ExecModeInfo {
    pub at: At,
    pub function: u32,
    pub mode: u32,
    pub values: Vec<Val>,
}

impl Deserializer {
    pub(super) fn process_entry_point(&mut self, inst: &Inst) -> Result<()> {
        let model = inst.word(0).unwrap_or(0);
        let function = inst.id(1).unwrap_or(0);
        let name = inst.string(2).unwrap_or_default().to_string();
        let interface: Vec<u32> = inst.ids_from(3).collect();
        if name.is_empty() {
            return Err(invalid(inst, "entry point with an empty name"));
        }
        match self.entry_names.get(&function) {
            Some((n, _)) if *n != name => {
                return Err(DeserializeError::Unsupported {
                    at: inst.at,
                    what: format!(
                        "function %{function} is entry point '{n}' and '{name}': in the IR an entry point's name is its function's symbol"
                    ),
                })
            }
            _ => {}
        }
        if let Some((&other, _)) = self
            .entry_names
            .iter()
            .find(|(&f, (n, _))| f != function && *n == name)
        {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "entry point name '{name}' names functions %{other} and %{function}: in the IR an entry point's name is its function's symbol"
                ),
            });
        }
        self.entry_name_set.insert(name.clone());
        self.entry_names.insert(function, (name, inst.at));
        self.entry_points.push(EntryPointInfo {
            at: inst.at,
            model,
            function,
            interface,
        });
        Ok(())
    }

    pub(super) fn process_entry_point_op(&mut self, ep: &EntryPointInfo) -> Result<()> {
        let fn_name = match self.defs.get(&ep.function) {
            Some(Def::Function { name, .. }) => name.clone(),
            _ => {
                return Err(DeserializeError::WrongId {
                    at: ep.at,
                    id: ep.function,
                    expected: "a function",
                })
            }
        };
        let mut interface = Vec::with_capacity(ep.interface.len());
        for &id in &ep.interface {
            match self.defs.get(&id) {
                Some(Def::Global { name, .. }) => {
                    let a = self.m.attrs.symbol(name.clone());
                    interface.push(a);
                }
                _ => {
                    return Err(DeserializeError::WrongId {
                        at: ep.at,
                        id,
                        expected: "a global variable",
                    })
                }
            }
        }
        let model = self
            .m
            .attrs
            .enumerant(OperandKind::ExecutionModel, ep.model);
        let f = self.m.attrs.symbol(fn_name);
        let iface = self.m.attrs.array(interface);
        let op = self.m.create_op(
            OpSpec::new(OpKind::EntryPoint)
                .attr("execution_model", model)
                .attr("fn", f)
                .attr("interface", iface),
        );
        self.push_module_op(op);
        Ok(())
    }

    pub(super) fn process_execution_mode_op(&mut self, em: &ExecModeInfo) -> Result<()> {
        let fn_name = match self.defs.get(&em.function) {
            Some(Def::Function { name, .. }) => name.clone(),
            _ => {
                return Err(DeserializeError::WrongId {
                    at: em.at,
                    id: em.function,
                    expected: "a function",
                })
            }
        };
        let i32t = self.m.types.int(32);
        let mut values = Vec::with_capacity(em.values.len());
        for v in &em.values {
            let n = match v {
                Val::Word(w) => i128::from(*w as i32),
                Val::Id(id) => match self.defs.get(id) {
                    Some(Def::Constant { value, .. }) => {
                        self.m.attrs.as_int(*value).ok_or(DeserializeError::WrongId {
                            at: em.at,
                            id: *id,
                            expected: "an integer constant",
                        })?
                    }
                    _ => {
                        return Err(DeserializeError::Unsupported {
                            at: em.at,
                            what: format!(
                                "execution mode operand %{id} is not a normal integer constant (the IR keeps execution mode operands as literals)"
                            ),
                        })
                    }
                },
                _ => {
                    return Err(DeserializeError::Unsupported {
                        at: em.at,
                        what: "a string or 64-bit execution mode operand".into(),
                    })
                }
            };
            values.push(self.m.attrs.int(n, i32t));
        }
        let f = self.m.attrs.symbol(fn_name);
        let mode = self.m.attrs.enumerant(OperandKind::ExecutionMode, em.mode);
        let values = self.m.attrs.array(values);
        let op = self.m.create_op(
            OpSpec::new(OpKind::ExecutionMode)
                .attr("fn", f)
                .attr("execution_mode", mode)
                .attr("values", values),
        );
        self.push_module_op(op);
        Ok(())
    }

    /// A constant decorated `BuiltIn WorkgroupSize` sets the workgroup size
    /// of every compute entry point (it wins over `LocalSize`): it becomes
    /// their `LocalSize` execution mode, the one form the IR has.
    pub(super) fn process_workgroup_size_constant(&mut self) {
        let Some((at, sizes)) = self.workgroup_size_constant.take() else {
            return;
        };
        let local_size = crate::grammar::ExecutionMode::LocalSize as u32;
        let local_size_id = crate::grammar::ExecutionMode::LocalSizeId as u32;
        let mut compute: Vec<u32> = self
            .entry_points
            .iter()
            .filter(|e| e.model == ExecutionModel::GLCompute as u32)
            .map(|e| e.function)
            .collect();
        compute.dedup();
        self.execution_modes.retain(|e| {
            !(compute.contains(&e.function) && (e.mode == local_size || e.mode == local_size_id))
        });
        for function in compute {
            self.execution_modes.push(ExecModeInfo {
                at,
                function,
                mode: local_size,
                values: sizes.iter().map(|&s| Val::Word(s)).collect(),
            });
        }
    }
}
