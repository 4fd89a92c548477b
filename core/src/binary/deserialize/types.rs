//! Types: `OpType*` -> interned [`Type`]s.
//!
//! Every type id maps to one interned type; ids whose encodings the IR
//! treats as one type (two `OpTypeInt 32 0`, or two unnamed structs with
//! the same members and layout) share it. Signedness 1 gives `siN`, 0 the
//! signless `iN` (as MLIR reads it) — except that when a module declaring
//! both signednesses for one width does not verify read that way, both
//! read as `iN` (a second pass): producers such as glslang mix `int` and
//! `uint` operands in one instruction (`OpIAdd %uint %u %int_1`), which
//! the dialect's same-type rules reject, while for SPIR-V's integer
//! instructions signedness is only a hint. A bitcast between the two then
//! converts a type to itself and is dropped. Layout decorations become part of the
//! type: `ArrayStride` of arrays, `Offset` and the other member decorations
//! (with at most one literal operand) of struct members. A named struct is
//! an identified struct (`!spv.struct<Name, (...)>`), its identifier made
//! unique among the module's structs. `Block` is dropped (the serializer
//! adds it back from the variables' storage classes); a `BufferBlock`
//! struct's `Uniform` pointers become `StorageBuffer` pointers (the
//! SPIR-V 1.3 form of the same storage buffer); `GLSLShared`,
//! `GLSLPacked` and `CPacked` carry no information for Vulkan and are
//! dropped. Any other decoration of a type is an error.
//!
//! `OpTypeCooperativeMatrixKHR` becomes `!spv.coopmatrix<RxCxT, Scope, Use>`;
//! its scope, rows, columns and use must be (non-specialization) 32-bit
//! integer constants, as the IR keeps them as numbers.
//!
//! `OpTypeForwardPointer` may announce a pointer that is defined later;
//! using it before its `OpTypePointer` would make a recursive type, which
//! the IR's structural types cannot express (an error naming the pointer).

use super::decorations::Deco;
use super::error::DeserializeError;
use super::reader::Inst;
use super::{invalid, Def, Deserializer, Result};
use crate::grammar::{Decoration, Dim, ImageFormat, Opcode, Scope, StorageClass};
use crate::ir::{
    CoopMatrixType, CoopMatrixUse, FloatKind, ImageArrayed, ImageDepth, ImageSamplerUse,
    ImageSampling, ImageType, MemberDecoration, Signedness, StructMember, StructType, Type,
    TypeKind,
};

impl Deserializer {
    /// One `OpType*` instruction.
    pub(super) fn process_type(&mut self, inst: &Inst) -> Result<()> {
        if inst.desc.op == Opcode::TypeForwardPointer {
            let id = inst.id(0).unwrap_or(0);
            let sc = inst.word(1).unwrap_or(0);
            if self.defs.contains_key(&id) {
                return Err(DeserializeError::Redefined { at: inst.at, id });
            }
            self.forward_pointers.insert(id, (sc, inst.at));
            return Ok(());
        }
        let Some(id) = inst.result else {
            return Err(invalid(inst, "type without a result id"));
        };
        let decorations = self.decorations.take(id);
        let ty = self.type_of_inst(inst, id, &decorations)?;
        self.check_type_depth(inst, ty)?;
        self.define(inst, Def::Type(ty))
    }

    fn type_of_inst(&mut self, inst: &Inst, id: u32, decorations: &[Deco]) -> Result<Type> {
        let op = inst.desc.op;
        let no_decorations = |ds: &[Deco]| -> Result<()> {
            match ds.first() {
                Some(d) => Err(unsupported_decoration(d, op)),
                None => Ok(()),
            }
        };
        let types = &mut self.m.types;
        let ty = match op {
            Opcode::TypeVoid => {
                no_decorations(decorations)?;
                types.none()
            }
            Opcode::TypeBool => {
                no_decorations(decorations)?;
                types.bool()
            }
            Opcode::TypeInt => {
                no_decorations(decorations)?;
                let width = inst.word(0).unwrap_or(0);
                if !matches!(width, 8 | 16 | 32 | 64) {
                    return Err(DeserializeError::Unsupported {
                        at: inst.at,
                        what: format!("{width}-bit integers"),
                    });
                }
                let mixed = self.mixed_signedness.contains(&width);
                let signedness = match inst.word(1) {
                    Some(0) => Signedness::Signless,
                    Some(1) if mixed => Signedness::Signless,
                    Some(1) => Signedness::Signed,
                    other => {
                        return Err(invalid(
                            inst,
                            format!("signedness {} is neither 0 nor 1", other.unwrap_or(0)),
                        ))
                    }
                };
                types.int_with(width, signedness)
            }
            Opcode::TypeFloat => {
                no_decorations(decorations)?;
                let width = inst.word(0).unwrap_or(0);
                let kind = match (width, inst.word(1)) {
                    (16, None) => FloatKind::F16,
                    (32, None) => FloatKind::F32,
                    (64, None) => FloatKind::F64,
                    // FP Encoding BFloat16KHR.
                    (16, Some(0)) => FloatKind::BF16,
                    _ => {
                        return Err(DeserializeError::Unsupported {
                            at: inst.at,
                            what: format!("{width}-bit floats of this encoding"),
                        })
                    }
                };
                types.float(kind)
            }
            Opcode::TypeVector => {
                no_decorations(decorations)?;
                let element = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                let len = inst.word(1).unwrap_or(0);
                // SPIR-V's vectors (and MLIR's): 2, 3 or 4 components, 8 or
                // 16 with `Vector16`.
                if !self.m.types.is_scalar(element) || !matches!(len, 2 | 3 | 4 | 8 | 16) {
                    return Err(invalid(
                        inst,
                        "a vector needs a scalar type and 2, 3, 4, 8 or 16 components",
                    ));
                }
                self.m.types.vector(len, element)
            }
            Opcode::TypeMatrix => {
                no_decorations(decorations)?;
                let column = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                let columns = inst.word(1).unwrap_or(0);
                if !matches!(self.m.types.kind(column), TypeKind::Vector { .. }) || columns < 2 {
                    return Err(invalid(
                        inst,
                        "a matrix needs a vector column type and at least 2 columns",
                    ));
                }
                self.m.types.intern(TypeKind::Matrix { columns, column })
            }
            Opcode::TypeArray => {
                let element = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                let len_id = inst.id(1).unwrap_or(0);
                let len = self.array_length(inst, len_id)?;
                let stride = self.array_stride(decorations, op)?;
                self.m.types.array(len, element, stride)
            }
            Opcode::TypeRuntimeArray => {
                let element = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                let stride = self.array_stride(decorations, op)?;
                self.m.types.runtime_array(element, stride)
            }
            Opcode::TypePointer => {
                no_decorations(decorations)?;
                let sc_word = inst.word(0).unwrap_or(0);
                let mut storage_class = StorageClass::from_u32(sc_word)
                    .ok_or_else(|| invalid(inst, format!("unknown storage class {sc_word}")))?;
                if let Some((declared, _)) = self.forward_pointers.remove(&id) {
                    if declared != sc_word {
                        return Err(invalid(
                            inst,
                            "storage class differs from its OpTypeForwardPointer",
                        ));
                    }
                }
                let pointee = self.type_of_id(inst, inst.id(1).unwrap_or(0))?;
                if storage_class == StorageClass::Uniform && self.buffer_blocks.contains(&pointee) {
                    storage_class = StorageClass::StorageBuffer;
                    self.upgraded_buffer_block = true;
                }
                self.m.types.pointer(pointee, storage_class)
            }
            Opcode::TypeFunction => {
                no_decorations(decorations)?;
                let ret = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                let mut inputs = Vec::with_capacity(inst.operands.len().saturating_sub(1));
                for i in 1..inst.operands.len() {
                    inputs.push(self.type_of_id(inst, inst.id(i).unwrap_or(0))?);
                }
                let results = if matches!(self.m.types.kind(ret), TypeKind::None) {
                    Vec::new()
                } else {
                    vec![ret]
                };
                self.m.types.function(inputs, results)
            }
            Opcode::TypeStruct => self.struct_type(inst, id, decorations)?,
            Opcode::TypeImage => {
                no_decorations(decorations)?;
                self.image_type(inst)?
            }
            Opcode::TypeSampler => {
                no_decorations(decorations)?;
                types.intern(TypeKind::Sampler)
            }
            Opcode::TypeSampledImage => {
                no_decorations(decorations)?;
                let image = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
                if !matches!(self.m.types.kind(image), TypeKind::Image(_)) {
                    return Err(invalid(inst, "the sampled image's type is not an image"));
                }
                self.m.types.intern(TypeKind::SampledImage(image))
            }
            Opcode::TypeCooperativeMatrixKHR => {
                no_decorations(decorations)?;
                self.coop_matrix_type(inst)?
            }
            _ => {
                return Err(DeserializeError::Unsupported {
                    at: inst.at,
                    what: format!("{} has no IR type", inst.at.opname()),
                })
            }
        };
        Ok(ty)
    }

    /// Records the nesting depth of `ty` (1 for scalars), an error beyond
    /// [`super::DeserializeOptions::max_nesting`].
    fn check_type_depth(&mut self, inst: &Inst, ty: Type) -> Result<()> {
        if self.type_depth.contains_key(&ty) {
            return Ok(());
        }
        let depth_of = |d: &Self, t: Type| d.type_depth.get(&t).copied().unwrap_or(1);
        let parts: Vec<Type> = match self.m.types.kind(ty) {
            TypeKind::Vector { element, .. }
            | TypeKind::Array { element, .. }
            | TypeKind::RuntimeArray { element, .. } => vec![*element],
            TypeKind::Matrix { column, .. } => vec![*column],
            TypeKind::CoopMatrix(c) => vec![c.element],
            TypeKind::Pointer { pointee, .. } => vec![*pointee],
            TypeKind::SampledImage(image) => vec![*image],
            TypeKind::Image(img) => vec![img.element],
            TypeKind::Struct(s) => s.members.iter().map(|m| m.ty).collect(),
            TypeKind::Function { inputs, results } => {
                inputs.iter().chain(results).copied().collect()
            }
            _ => Vec::new(),
        };
        let depth = 1 + parts.iter().map(|&p| depth_of(self, p)).max().unwrap_or(0);
        if depth > self.opts.max_nesting {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!(
                    "a type nested {depth} deep (the IR's tools handle at most {})",
                    self.opts.max_nesting
                ),
            });
        }
        self.type_depth.insert(ty, depth);
        Ok(())
    }

    /// The length of an array from its constant id.
    fn array_length(&self, inst: &Inst, id: u32) -> Result<u32> {
        match self.defs.get(&id) {
            Some(Def::Constant { value, .. }) => self
                .m
                .attrs
                .as_int(*value)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|&v| v > 0)
                .ok_or_else(|| {
                    invalid(
                        inst,
                        format!("array length %{id} is not a positive 32-bit integer constant"),
                    )
                }),
            Some(Def::Spec { .. }) => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("array length %{id} is a specialization constant"),
            }),
            _ => Err(DeserializeError::WrongId {
                at: inst.at,
                id,
                expected: "an integer constant defined before this instruction",
            }),
        }
    }

    /// `OpTypeCooperativeMatrixKHR %element %scope %rows %columns %use`.
    fn coop_matrix_type(&mut self, inst: &Inst) -> Result<Type> {
        let element = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
        if !self.m.types.is_scalar(element) || self.m.types.is_bool(element) {
            return Err(invalid(
                inst,
                "a cooperative matrix needs an integer or float component type",
            ));
        }
        let scope_word = self.type_param(inst, inst.id(1).unwrap_or(0), "scope")?;
        let scope = Scope::from_u32(scope_word)
            .ok_or_else(|| invalid(inst, format!("unknown scope {scope_word}")))?;
        let rows = self.type_param(inst, inst.id(2).unwrap_or(0), "row count")?;
        let columns = self.type_param(inst, inst.id(3).unwrap_or(0), "column count")?;
        if rows == 0 || columns == 0 {
            return Err(invalid(
                inst,
                "a cooperative matrix needs at least one row and column",
            ));
        }
        let use_word = self.type_param(inst, inst.id(4).unwrap_or(0), "use")?;
        let usage = CoopMatrixUse::from_u32(use_word)
            .ok_or_else(|| invalid(inst, format!("unknown cooperative matrix use {use_word}")))?;
        Ok(self.m.types.intern(TypeKind::CoopMatrix(CoopMatrixType {
            element,
            rows,
            columns,
            scope,
            usage,
        })))
    }

    /// A type parameter given as the id of a 32-bit integer constant.
    fn type_param(&self, inst: &Inst, id: u32, what: &str) -> Result<u32> {
        match self.defs.get(&id) {
            Some(Def::Constant { value, .. }) => self
                .m
                .attrs
                .as_int(*value)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| {
                    invalid(
                        inst,
                        format!("{what} %{id} is not a non-negative 32-bit integer constant"),
                    )
                }),
            Some(Def::Spec { .. }) => Err(DeserializeError::Unsupported {
                at: inst.at,
                what: format!("{what} %{id} is a specialization constant"),
            }),
            _ => Err(DeserializeError::WrongId {
                at: inst.at,
                id,
                expected: "an integer constant defined before this instruction",
            }),
        }
    }

    fn array_stride(&self, decorations: &[Deco], op: Opcode) -> Result<Option<u32>> {
        let mut stride = None;
        for d in decorations {
            match (d.decoration, d.params.first().map(|p| &p.val)) {
                (Decoration::ArrayStride, Some(super::reader::Val::Word(s))) => stride = Some(*s),
                _ => return Err(unsupported_decoration(d, op)),
            }
        }
        Ok(stride)
    }

    fn struct_type(&mut self, inst: &Inst, id: u32, decorations: &[Deco]) -> Result<Type> {
        let mut members = Vec::with_capacity(inst.operands.len());
        for i in 0..inst.operands.len() {
            let ty = self.type_of_id(inst, inst.id(i).unwrap_or(0))?;
            members.push(StructMember {
                ty,
                offset: None,
                decorations: Vec::new(),
            });
        }
        for (member, d) in self.decorations.take_members(id) {
            let Some(m) = members.get_mut(member as usize) else {
                return Err(DeserializeError::Invalid {
                    at: d.at,
                    reason: format!(
                        "member {member} of a struct with {} member(s)",
                        inst.operands.len()
                    ),
                });
            };
            let value = match d.params.as_slice() {
                [] => None,
                [p] => match p.val {
                    super::reader::Val::Word(w) => Some(w),
                    _ => return Err(unsupported_member_decoration(&d)),
                },
                _ => return Err(unsupported_member_decoration(&d)),
            };
            if d.decoration == Decoration::Offset {
                m.offset = value;
            } else {
                m.decorations.push(MemberDecoration {
                    decoration: d.decoration,
                    value,
                });
            }
        }
        let mut block = false;
        let mut buffer_block = false;
        for d in decorations {
            match d.decoration {
                Decoration::Block => block = true,
                Decoration::BufferBlock => buffer_block = true,
                Decoration::GLSLShared | Decoration::GLSLPacked | Decoration::CPacked => {}
                _ => return Err(unsupported_decoration(d, inst.desc.op)),
            }
        }
        let identifier = match self.names.get(&id) {
            Some(name) if !name.is_empty() => {
                let mut candidate = name.clone();
                let mut n = self.suffixes.get(name).copied().unwrap_or(0);
                while self.struct_names.contains(&candidate) {
                    n += 1;
                    candidate = format!("{name}_{n}");
                }
                self.suffixes.insert(name.clone(), n);
                self.struct_names.insert(candidate.clone());
                Some(candidate)
            }
            _ => None,
        };
        let ty = self.m.types.intern(TypeKind::Struct(StructType {
            identifier,
            members,
        }));
        if block {
            self.block_structs.insert(ty);
        }
        if buffer_block {
            self.buffer_blocks.insert(ty);
        }
        Ok(ty)
    }

    fn image_type(&mut self, inst: &Inst) -> Result<Type> {
        let element = self.type_of_id(inst, inst.id(0).unwrap_or(0))?;
        let w = |i: usize| inst.word(i).unwrap_or(u32::MAX);
        let bad = |what: &str| invalid(inst, format!("bad image {what}"));
        let dim = Dim::from_u32(w(1)).ok_or_else(|| bad("dimension"))?;
        let depth = match w(2) {
            0 => ImageDepth::NoDepth,
            1 => ImageDepth::IsDepth,
            2 => ImageDepth::DepthUnknown,
            _ => return Err(bad("depth")),
        };
        let arrayed = match w(3) {
            0 => ImageArrayed::NonArrayed,
            1 => ImageArrayed::Arrayed,
            _ => return Err(bad("arrayed flag")),
        };
        let sampling = match w(4) {
            0 => ImageSampling::SingleSampled,
            1 => ImageSampling::MultiSampled,
            _ => return Err(bad("multisampling flag")),
        };
        let sampler_use = match w(5) {
            0 => ImageSamplerUse::SamplerUnknown,
            1 => ImageSamplerUse::NeedSampler,
            2 => ImageSamplerUse::NoSampler,
            _ => return Err(bad("sampled flag")),
        };
        let format = ImageFormat::from_u32(w(6)).ok_or_else(|| bad("format"))?;
        if inst.operands.len() > 7 {
            return Err(DeserializeError::Unsupported {
                at: inst.at,
                what: "image access qualifiers (kernel images)".into(),
            });
        }
        Ok(self.m.types.intern(TypeKind::Image(ImageType {
            element,
            dim,
            depth,
            arrayed,
            sampling,
            sampler_use,
            format,
        })))
    }
}

fn unsupported_decoration(d: &Deco, op: Opcode) -> DeserializeError {
    DeserializeError::Unsupported {
        at: d.at,
        what: format!("decoration {} on an Op{op}", d.decoration),
    }
}

fn unsupported_member_decoration(d: &Deco) -> DeserializeError {
    DeserializeError::Unsupported {
        at: d.at,
        what: format!(
            "member decoration {} with an operand other than one literal",
            d.decoration
        ),
    }
}
