//! Module-level `OpVariable` -> `spv.GlobalVariable`, used in functions
//! through `spv.mlir.addressof`.
//!
//! The variable's symbol is its `OpName` (unique), else `spirv_var_N`; its
//! decorations become its attributes (`descriptor_set`, `binding`,
//! `built_in = "Name"`, ...). An initializer must name a global variable or
//! a specialization constant in the IR; a normal scalar constant is
//! carried by a specialization constant without `SpecId` (always its
//! default). The struct a `Block`-decorated variable points to gets
//! `Block` back from the serializer only for the storage classes of
//! buffers and push constants; elsewhere (`Input`/`Output` blocks) it
//! would be lost, so that is an error.

use super::error::DeserializeError;
use super::reader::{Inst, Val};
use super::{decorations, invalid, Def, Deserializer, Result};
use crate::grammar::StorageClass;
use crate::ir::{OpKind, OpSpec};

impl Deserializer {
    /// A module-level `OpVariable`.
    pub(super) fn process_global_variable(&mut self, inst: &Inst) -> Result<()> {
        let ty = self.result_type(inst)?;
        let id = inst.result.unwrap_or(0);
        let Some((pointee, storage_class)) = self.m.types.pointer_parts(ty) else {
            return Err(invalid(inst, "the variable's type is not a pointer"));
        };
        let declared = inst.word(0).unwrap_or(u32::MAX);
        let upgraded = storage_class == StorageClass::StorageBuffer
            && declared == StorageClass::Uniform as u32;
        if declared != storage_class as u32 && !upgraded {
            return Err(invalid(
                inst,
                "the storage class differs from the pointer type's",
            ));
        }
        if storage_class == StorageClass::Function {
            return Err(invalid(
                inst,
                "a module-level variable in the Function storage class",
            ));
        }
        if self.block_structs.contains(&pointee)
            && !matches!(
                storage_class,
                StorageClass::StorageBuffer
                    | StorageClass::Uniform
                    | StorageClass::PushConstant
                    | StorageClass::PhysicalStorageBuffer
            )
        {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "a Block struct in the {storage_class} storage class (the IR adds Block only to buffer and push-constant structs)"
                ),
            });
        }
        let name = self.symbol(id, "spirv_var");
        let mut spec = OpSpec::new(OpKind::GlobalVariable).loc(self.loc());
        if let Some(Val::Id(init)) = inst.operands.get(1).map(|o| &o.val) {
            let init_name = match self.defs.get(init).cloned() {
                Some(Def::Global { name, .. } | Def::Spec { name, .. }) => name,
                Some(Def::Constant { value, .. }) => self.spec_constant_for(inst, *init, value)?,
                _ => {
                    return Err(DeserializeError::WrongId {
                        at: inst.at,
                        id: *init,
                        expected: "a constant or global variable defined before this instruction",
                    })
                }
            };
            let a = self.m.attrs.symbol(init_name);
            spec = spec.attr("initializer", a);
        }
        let ds = self.decorations.take(id);
        let extra = decorations::as_attrs(&mut self.m.attrs, &mut self.m.types, &ds)?;
        spec.attrs.extend(extra);
        let sym = self.m.attrs.string(name.clone());
        let ty_attr = self.m.attrs.ty(ty);
        let op = self
            .m
            .create_op(spec.attr("sym_name", sym).attr("type", ty_attr));
        self.push_module_op(op);
        self.define(inst, Def::Global { name, ty })
    }
}
