//! Types: `OpType*` instructions in the types section, with their layout
//! decorations.
//!
//! Types are emitted on first use, after everything they refer to (element
//! types, array-length constants), so the types section is always in
//! dependency order. They are deduplicated by their *encoding*, not by IR
//! handle: `i32` and `ui32` both become the one `OpTypeInt 32 0`, as SPIR-V
//! forbids two non-aggregate types with equal operands. Structs are the
//! exception: each distinct struct type (members, layout, identifier) gets
//! its own `OpTypeStruct`, named after its identifier when it has one.
//! Arrays are keyed with their stride, since `ArrayStride` is a decoration of
//! the type id.

use rspirv::dr::Operand;
use rspirv::spirv;

use super::{inst, OpProblem, Result, Serializer};
use crate::grammar::Decoration;
use crate::ir::{FloatKind, Op, Signedness, Type, TypeKind, TypeStore};

/// The encoding a type is deduplicated by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum TypeKey {
    /// Opcode, operand words, and the stride of an array.
    Inst(u32, Vec<u32>, Option<u32>),
    /// A struct, by IR handle.
    Struct(Type),
}

/// Why a type cannot be encoded: the innermost offending type and a reason.
pub(super) struct TypeFailure {
    ty: Type,
    reason: String,
}

impl Serializer<'_> {
    /// The id of `ty`, emitting it (and what it depends on) on first use.
    /// Failures are reported on `op`, the op that needed the type.
    pub(super) fn prepare_type(&mut self, op: Op, ty: Type) -> Result<u32> {
        self.prepare_type_inner(ty).map_err(|f| {
            self.err(
                op,
                OpProblem::Type {
                    ty: describe_type(&self.m.types, f.ty),
                    reason: f.reason,
                },
            )
        })
    }

    /// `OpTypeVoid`.
    pub(super) fn prepare_void_type(&mut self) -> u32 {
        self.intern_type(
            TypeKey::Inst(spirv::Op::TypeVoid as u32, vec![], None),
            |_| (spirv::Op::TypeVoid, vec![]),
        )
    }

    /// `OpTypeInt 32 0`.
    pub(super) fn prepare_u32_type(&mut self) -> u32 {
        self.intern_type(
            TypeKey::Inst(spirv::Op::TypeInt as u32, vec![32, 0], None),
            |_| {
                (
                    spirv::Op::TypeInt,
                    vec![Operand::LiteralBit32(32), Operand::LiteralBit32(0)],
                )
            },
        )
    }

    /// `OpTypeFunction` for a function type with `inputs` and `results`.
    pub(super) fn prepare_function_type(
        &mut self,
        op: Op,
        inputs: &[Type],
        results: &[Type],
    ) -> Result<u32> {
        let ret = match results {
            [] => self.prepare_void_type(),
            [r] => self.prepare_type(op, *r)?,
            _ => {
                return Err(self.err(
                    op,
                    OpProblem::Unsupported("functions with more than one result".into()),
                ))
            }
        };
        let mut words = vec![ret];
        for &input in inputs {
            words.push(self.prepare_type(op, input)?);
        }
        Ok(self.intern_ids(spirv::Op::TypeFunction, words, None))
    }

    fn prepare_type_inner(&mut self, ty: Type) -> Result<u32, TypeFailure> {
        if let Some(id) = self.type_ids.get(ty) {
            return Ok(id);
        }
        let fail = |reason: &str| TypeFailure {
            ty,
            reason: reason.to_string(),
        };
        let m = self.m;
        let id = match m.types.kind(ty) {
            TypeKind::None => self.prepare_void_type(),
            TypeKind::Int { width: 1, .. } => {
                self.intern_literals(spirv::Op::TypeBool, vec![], None)
            }
            &TypeKind::Int { width, signedness } => {
                if !matches!(width, 8 | 16 | 32 | 64) {
                    return Err(fail("SPIR-V integers are 8, 16, 32 or 64 bits wide"));
                }
                let signed = u32::from(signedness == Signedness::Signed);
                self.intern_literals(spirv::Op::TypeInt, vec![width, signed], None)
            }
            &TypeKind::Float(kind) => {
                let mut words = vec![kind.width()];
                if kind == FloatKind::BF16 {
                    // FP Encoding `BFloat16KHR` (SPV_KHR_bfloat16).
                    words.push(0);
                }
                self.intern_literals(spirv::Op::TypeFloat, words, None)
            }
            TypeKind::Index => {
                return Err(fail(
                    "`index` has no SPIR-V encoding; convert it to a fixed-width integer",
                ))
            }
            &TypeKind::Vector { len, element } => {
                let e = self.prepare_type_inner(element)?;
                let key = TypeKey::Inst(spirv::Op::TypeVector as u32, vec![e, len], None);
                self.intern_type(key, |_| {
                    (
                        spirv::Op::TypeVector,
                        vec![Operand::IdRef(e), Operand::LiteralBit32(len)],
                    )
                })
            }
            &TypeKind::Matrix { columns, column } => {
                let c = self.prepare_type_inner(column)?;
                let key = TypeKey::Inst(spirv::Op::TypeMatrix as u32, vec![c, columns], None);
                self.intern_type(key, |_| {
                    (
                        spirv::Op::TypeMatrix,
                        vec![Operand::IdRef(c), Operand::LiteralBit32(columns)],
                    )
                })
            }
            &TypeKind::Array {
                len,
                element,
                stride,
            } => {
                if len == 0 {
                    return Err(fail("arrays must have at least one element"));
                }
                let e = self.prepare_type_inner(element)?;
                let n = self.prepare_u32_constant(len);
                self.intern_array(spirv::Op::TypeArray, vec![e, n], stride)
            }
            &TypeKind::RuntimeArray { element, stride } => {
                let e = self.prepare_type_inner(element)?;
                self.intern_array(spirv::Op::TypeRuntimeArray, vec![e], stride)
            }
            &TypeKind::Pointer {
                pointee,
                storage_class,
            } => {
                let p = self.prepare_type_inner(pointee)?;
                let key = TypeKey::Inst(
                    spirv::Op::TypePointer as u32,
                    vec![storage_class as u32, p],
                    None,
                );
                self.intern_type(key, |_| {
                    (
                        spirv::Op::TypePointer,
                        vec![
                            Operand::LiteralBit32(storage_class as u32),
                            Operand::IdRef(p),
                        ],
                    )
                })
            }
            TypeKind::Struct(st) => {
                let mut members = Vec::with_capacity(st.members.len());
                for m in &st.members {
                    members.push(self.prepare_type_inner(m.ty)?);
                }
                let key = TypeKey::Struct(ty);
                if let Some(&id) = self.type_keys.get(&key) {
                    id
                } else {
                    let id = self.next_id();
                    self.type_keys.insert(key, id);
                    self.types_global_values.push(inst(
                        spirv::Op::TypeStruct,
                        None,
                        Some(id),
                        members.iter().map(|&m| Operand::IdRef(m)).collect(),
                    ));
                    if let Some(name) = &st.identifier {
                        self.emit_name(id, name);
                    }
                    // Offsets first, then the other member decorations, as MLIR.
                    for (i, m) in st.members.iter().enumerate() {
                        if let Some(offset) = m.offset {
                            self.emit_member_decorate(
                                id,
                                i as u32,
                                Decoration::Offset,
                                Some(offset),
                            );
                        }
                    }
                    for (i, m) in st.members.iter().enumerate() {
                        for d in &m.decorations {
                            self.emit_member_decorate(id, i as u32, d.decoration, d.value);
                        }
                    }
                    id
                }
            }
            &TypeKind::Image(img) => {
                let sampled = self.prepare_type_inner(img.element)?;
                let words = vec![
                    sampled,
                    img.dim as u32,
                    img.depth as u32,
                    img.arrayed as u32,
                    img.sampling as u32,
                    img.sampler_use as u32,
                    img.format as u32,
                ];
                let key = TypeKey::Inst(spirv::Op::TypeImage as u32, words.clone(), None);
                self.intern_type(key, |_| {
                    let mut ops = vec![Operand::IdRef(words[0])];
                    ops.extend(words[1..].iter().map(|&w| Operand::LiteralBit32(w)));
                    (spirv::Op::TypeImage, ops)
                })
            }
            &TypeKind::SampledImage(image) => {
                let i = self.prepare_type_inner(image)?;
                self.intern_ids(spirv::Op::TypeSampledImage, vec![i], None)
            }
            TypeKind::Sampler => self.intern_literals(spirv::Op::TypeSampler, vec![], None),
            &TypeKind::CoopMatrix(c) => {
                // Element type, then Scope, Rows, Columns and Use as ids of
                // 32-bit integer constants.
                let e = self.prepare_type_inner(c.element)?;
                let scope = self.prepare_u32_constant(c.scope as u32);
                let rows = self.prepare_u32_constant(c.rows);
                let columns = self.prepare_u32_constant(c.columns);
                let usage = self.prepare_u32_constant(c.usage.to_u32());
                self.intern_ids(
                    spirv::Op::TypeCooperativeMatrixKHR,
                    vec![e, scope, rows, columns, usage],
                    None,
                )
            }
            TypeKind::Function { inputs, results } => {
                let ret = match results.as_slice() {
                    [] => self.prepare_void_type(),
                    [r] => self.prepare_type_inner(*r)?,
                    _ => return Err(fail("SPIR-V functions return at most one value")),
                };
                let mut words = vec![ret];
                for &input in inputs {
                    words.push(self.prepare_type_inner(input)?);
                }
                self.intern_ids(spirv::Op::TypeFunction, words, None)
            }
        };
        self.type_ids.insert(ty, id);
        Ok(id)
    }

    /// Looks `key` up, or emits the instruction `make` builds with a fresh
    /// result id.
    fn intern_type(
        &mut self,
        key: TypeKey,
        make: impl FnOnce(u32) -> (spirv::Op, Vec<Operand>),
    ) -> u32 {
        if let Some(&id) = self.type_keys.get(&key) {
            return id;
        }
        let id = self.next_id();
        let (opcode, operands) = make(id);
        self.types_global_values
            .push(inst(opcode, None, Some(id), operands));
        self.type_keys.insert(key, id);
        id
    }

    /// A type whose operands are all literals.
    fn intern_literals(&mut self, opcode: spirv::Op, words: Vec<u32>, extra: Option<u32>) -> u32 {
        let key = TypeKey::Inst(opcode as u32, words.clone(), extra);
        self.intern_type(key, |_| {
            (
                opcode,
                words.into_iter().map(Operand::LiteralBit32).collect(),
            )
        })
    }

    /// A type whose operands are all ids.
    fn intern_ids(&mut self, opcode: spirv::Op, words: Vec<u32>, extra: Option<u32>) -> u32 {
        let key = TypeKey::Inst(opcode as u32, words.clone(), extra);
        self.intern_type(key, |_| {
            (opcode, words.into_iter().map(Operand::IdRef).collect())
        })
    }

    /// An array type, with its `ArrayStride` decoration.
    fn intern_array(&mut self, opcode: spirv::Op, words: Vec<u32>, stride: Option<u32>) -> u32 {
        let key = TypeKey::Inst(opcode as u32, words.clone(), stride);
        if let Some(&id) = self.type_keys.get(&key) {
            return id;
        }
        let id = self.intern_ids(opcode, words, stride);
        if let Some(stride) = stride {
            self.emit_decorate(
                id,
                Decoration::ArrayStride,
                vec![Operand::LiteralBit32(stride)],
            );
        }
        id
    }

    /// `OpMemberDecorate %struct member decoration [value]`.
    fn emit_member_decorate(
        &mut self,
        struct_id: u32,
        member: u32,
        decoration: Decoration,
        value: Option<u32>,
    ) {
        let mut operands = vec![
            Operand::IdRef(struct_id),
            Operand::LiteralBit32(member),
            Operand::LiteralBit32(decoration as u32),
        ];
        operands.extend(value.map(Operand::LiteralBit32));
        self.annotations
            .push(inst(spirv::Op::MemberDecorate, None, None, operands));
    }
}

/// `ty` in MLIR syntax, for messages.
pub(super) fn describe_type(types: &TypeStore, ty: Type) -> String {
    let d = |t: Type| describe_type(types, t);
    match types.kind(ty) {
        TypeKind::None => "none".into(),
        TypeKind::Int { width, signedness } => match signedness {
            Signedness::Signless => format!("i{width}"),
            Signedness::Signed => format!("si{width}"),
            Signedness::Unsigned => format!("ui{width}"),
        },
        TypeKind::Float(kind) => match kind {
            FloatKind::F16 => "f16".into(),
            FloatKind::BF16 => "bf16".into(),
            FloatKind::F32 => "f32".into(),
            FloatKind::F64 => "f64".into(),
        },
        TypeKind::Index => "index".into(),
        TypeKind::Vector { len, element } => format!("vector<{len}x{}>", d(*element)),
        TypeKind::Array {
            len,
            element,
            stride,
        } => match stride {
            Some(s) => format!("!spv.array<{len} x {}, stride={s}>", d(*element)),
            None => format!("!spv.array<{len} x {}>", d(*element)),
        },
        TypeKind::RuntimeArray { element, stride } => match stride {
            Some(s) => format!("!spv.rtarray<{}, stride={s}>", d(*element)),
            None => format!("!spv.rtarray<{}>", d(*element)),
        },
        TypeKind::Pointer {
            pointee,
            storage_class,
        } => format!("!spv.ptr<{}, {}>", d(*pointee), storage_class),
        TypeKind::Struct(st) => {
            let members: Vec<String> = st.members.iter().map(|m| d(m.ty)).collect();
            match &st.identifier {
                Some(id) => format!("!spv.struct<{id}, ({})>", members.join(", ")),
                None => format!("!spv.struct<({})>", members.join(", ")),
            }
        }
        TypeKind::Image(img) => format!("!spv.image<{}, {}, ...>", d(img.element), img.dim),
        TypeKind::SampledImage(image) => format!("!spv.sampled_image<{}>", d(*image)),
        TypeKind::Sampler => "!spv.sampler".into(),
        TypeKind::Matrix { columns, column } => format!("!spv.matrix<{columns} x {}>", d(*column)),
        TypeKind::CoopMatrix(c) => format!(
            "!spv.coopmatrix<{}x{}x{}, {}, {}>",
            c.rows,
            c.columns,
            d(c.element),
            c.scope.name(),
            c.usage.name()
        ),
        TypeKind::Function { inputs, results } => {
            let ins: Vec<String> = inputs.iter().map(|&t| d(t)).collect();
            let outs: Vec<String> = results.iter().map(|&t| d(t)).collect();
            format!("({}) -> ({})", ins.join(", "), outs.join(", "))
        }
    }
}
