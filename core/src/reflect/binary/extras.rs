//! The parts of a binary's interface beyond its bindings, push constants and
//! workgroup size: specialization constants, which of them drive the
//! workgroup size, and the workgroup memory an entry point uses.

use std::collections::HashSet;

use kiln_abi::{SpecConstant, SpecType};
use rspirv::dr::{self, Instruction, Operand};
use spirv::{Decoration, Op, StorageClass, Word};

use super::ModuleIndex;
use crate::reflect::ReflectError;

/// What [`extras`] finds.
pub(super) struct Extras {
    /// Every `OpSpecConstant*` with a `SpecId`, sorted by id.
    pub spec_constants: Vec<SpecConstant>,
    /// Per dimension, the SpecId setting the workgroup size.
    pub workgroup_size_spec_ids: [Option<u32>; 3],
    /// Bytes of the statically used `Workgroup` variables (std430 sizes).
    pub workgroup_memory: u64,
}

/// Computes [`Extras`] for the entry function `entry_fn` whose statically
/// used ids are `used`.
pub(super) fn extras(
    index: &ModuleIndex<'_>,
    module: &dr::Module,
    used: &HashSet<Word>,
    entry_fn: Word,
    execution_mode_ids: &[Instruction],
) -> Result<Extras, ReflectError> {
    let mut spec_constants: Vec<SpecConstant> = module
        .types_global_values
        .iter()
        .filter_map(|inst| index.spec_constant(inst))
        .collect();
    spec_constants.sort_by_key(|c| c.id);
    spec_constants.dedup_by_key(|c| c.id);

    let mut workgroup_memory = 0u64;
    for inst in &module.types_global_values {
        let (Op::Variable, Some(var), Some(ptr)) =
            (inst.class.opcode, inst.result_id, inst.result_type)
        else {
            continue;
        };
        if !used.contains(&var)
            || !matches!(
                inst.operands.first(),
                Some(Operand::StorageClass(StorageClass::Workgroup))
            )
        {
            continue;
        }
        let pointee = match index.lookup(ptr).map(|d| d.operands.as_slice()) {
            Some([Operand::StorageClass(_), Operand::IdRef(p)]) => *p,
            _ => continue,
        };
        let resource = || index.describe(var);
        let (size, _) = index.natural_size(pointee, &resource)?;
        workgroup_memory =
            workgroup_memory
                .checked_add(size)
                .ok_or_else(|| ReflectError::Malformed {
                    resource: resource(),
                    reason: "the workgroup memory of the entry point does not fit in 64 bits"
                        .to_owned(),
                })?;
    }

    Ok(Extras {
        spec_constants,
        workgroup_size_spec_ids: index.workgroup_spec_ids(module, execution_mode_ids, entry_fn),
        workgroup_memory,
    })
}

/// The queries [`extras`] needs beyond the binding rules of
/// [`super`], on its module index.
impl ModuleIndex<'_> {
    /// Whether `id` is decorated `BuiltIn` (any built-in).
    pub(super) fn has_builtin(&self, id: Word) -> bool {
        self.decorations
            .get(&id)
            .is_some_and(|ds| ds.iter().any(|(d, _)| *d == Decoration::BuiltIn))
    }

    fn is_builtin(&self, id: Word, builtin: spirv::BuiltIn) -> bool {
        self.decorations.get(&id).is_some_and(|ds| {
            ds.iter().any(|(d, rest)| {
                *d == Decoration::BuiltIn && matches!(rest, [Operand::BuiltIn(b)] if *b == builtin)
            })
        })
    }

    /// A scalar specialization constant with a `SpecId`.
    fn spec_constant(&self, inst: &Instruction) -> Option<SpecConstant> {
        let id = inst.result_id?;
        let spec_id = self.decoration_literal(id, Decoration::SpecId)?;
        let ty = self.lookup(inst.result_type?)?;
        let (ty, default) = match (inst.class.opcode, ty.class.opcode, ty.operands.as_slice()) {
            (Op::SpecConstantTrue, _, _) => (SpecType::Bool, 1),
            (Op::SpecConstantFalse, _, _) => (SpecType::Bool, 0),
            (
                Op::SpecConstant,
                Op::TypeInt,
                [Operand::LiteralBit32(w), Operand::LiteralBit32(s)],
            ) => (
                SpecType::Int {
                    width: *w,
                    signed: *s == 1,
                },
                literal(&inst.operands)?,
            ),
            (Op::SpecConstant, Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => {
                (SpecType::Float { width: *w }, literal(&inst.operands)?)
            }
            _ => return None,
        };
        // Narrow signed literals are sign-extended to a word: keep `width` bits.
        let bits = ty.size() as u32 * 8;
        let default = if bits >= 64 {
            default
        } else {
            default & ((1u64 << bits) - 1)
        };
        Some(SpecConstant {
            id: spec_id,
            name: self.names.get(&id).map(|n| (*n).to_owned()),
            ty,
            default,
        })
    }

    /// Which spec ids set the workgroup size (through a `WorkgroupSize`
    /// composite, or `LocalSizeId` operands).
    fn workgroup_spec_ids(
        &self,
        module: &dr::Module,
        execution_mode_ids: &[Instruction],
        entry_fn: Word,
    ) -> [Option<u32>; 3] {
        let from_ids = |ids: &[Operand]| {
            let mut out = [None; 3];
            for (slot, op) in out.iter_mut().zip(ids) {
                if let Operand::IdRef(id) = op {
                    *slot = self
                        .lookup(*id)
                        .filter(|d| d.class.opcode == Op::SpecConstant)
                        .and_then(|_| self.decoration_literal(*id, Decoration::SpecId));
                }
            }
            out
        };
        for inst in &module.types_global_values {
            if let (Op::SpecConstantComposite | Op::ConstantComposite, Some(id)) =
                (inst.class.opcode, inst.result_id)
            {
                if self.is_builtin(id, spirv::BuiltIn::WorkgroupSize) {
                    return from_ids(&inst.operands);
                }
            }
        }
        let has_local_size = module.execution_modes.iter().any(|m| {
            matches!(
                m.operands.as_slice(),
                [Operand::IdRef(f), Operand::ExecutionMode(spirv::ExecutionMode::LocalSize), ..]
                    if *f == entry_fn
            )
        });
        if has_local_size {
            return [None; 3];
        }
        for m in execution_mode_ids {
            if let [Operand::IdRef(f), Operand::ExecutionMode(spirv::ExecutionMode::LocalSizeId), ids @ ..] =
                m.operands.as_slice()
            {
                if *f == entry_fn {
                    return from_ids(ids);
                }
            }
        }
        [None; 3]
    }

    /// std430 size and alignment of a type, ignoring explicit layout. A
    /// type containing one not defined before it, and a size beyond `u64`,
    /// are malformed; other problems are unsupported; both about `resource`.
    fn natural_size(
        &self,
        ty: Word,
        resource: &dyn Fn() -> String,
    ) -> Result<(u64, u64), ReflectError> {
        let unsupported = |what: String| ReflectError::Unsupported {
            resource: resource(),
            what,
        };
        let overflow = || self.size_overflow(ty, resource);
        let round = |v: u64, a: u64| v.checked_next_multiple_of(a.max(1)).ok_or_else(overflow);
        // The size of `part`, which `ty` contains. SPIR-V defines it first
        // (which ends the walk) unless it is a forward-declared pointer.
        let part = |part: Word| {
            if self
                .lookup(part)
                .is_none_or(|d| d.class.opcode != Op::TypePointer)
            {
                self.defined_before(part, ty, resource)?;
            }
            self.natural_size(part, resource)
        };
        let def = self
            .lookup(ty)
            .ok_or_else(|| unsupported(format!("type %{ty} is not defined at module scope")))?;
        Ok(match (def.class.opcode, def.operands.as_slice()) {
            (Op::TypeBool, _) => (4, 4),
            (Op::TypeInt | Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => {
                let s = u64::from(*w) / 8;
                (s, s)
            }
            (Op::TypeVector, [Operand::IdRef(c), Operand::LiteralBit32(n)]) => {
                let (cs, _) = part(*c)?;
                let n = u64::from(*n);
                let size = n.checked_mul(cs).ok_or_else(overflow)?;
                let align = cs
                    .checked_mul(if n == 3 { 4 } else { n })
                    .ok_or_else(overflow)?;
                (size, align)
            }
            (Op::TypeMatrix, [Operand::IdRef(c), Operand::LiteralBit32(n)]) => {
                let (s, a) = part(*c)?;
                let size = u64::from(*n)
                    .checked_mul(round(s, a)?)
                    .ok_or_else(overflow)?;
                (size, a)
            }
            (Op::TypeArray, [Operand::IdRef(e), Operand::IdRef(len)]) => {
                let (s, a) = part(*e)?;
                let len = self
                    .lookup(*len)
                    .and_then(|d| literal(&d.operands))
                    .ok_or_else(|| {
                        unsupported(format!("the length of array type %{ty} is not a constant"))
                    })?;
                (len.checked_mul(round(s, a)?).ok_or_else(overflow)?, a)
            }
            (Op::TypeStruct, members) => {
                let mut offset = 0u64;
                let mut align = 1u64;
                for m in members {
                    let Operand::IdRef(m) = m else {
                        return Err(unsupported(format!("struct %{ty} has a non-id member")));
                    };
                    let (s, a) = part(*m)?;
                    offset = round(offset, a)?.checked_add(s).ok_or_else(overflow)?;
                    align = align.max(a);
                }
                (round(offset, align)?, align)
            }
            (Op::TypePointer, _) => (8, 8),
            (op, _) => {
                return Err(unsupported(format!(
                    "the size of Op{op:?} in workgroup memory"
                )))
            }
        })
    }
}

/// The literal value of a constant's first operand(s).
fn literal(operands: &[Operand]) -> Option<u64> {
    match operands {
        [Operand::LiteralBit32(v)] => Some(u64::from(*v)),
        [Operand::LiteralBit64(v)] => Some(*v),
        [Operand::LiteralBit32(lo), Operand::LiteralBit32(hi)] => {
            Some(u64::from(*lo) | (u64::from(*hi) << 32))
        }
        _ => None,
    }
}
