//! The type converter (MLIR's `SPIRVTypeConverter`), built from a target
//! env.
//!
//! * `index` -> `i32` ([`IndexBits::I32`], the default) or `i64`
//!   ([`IndexBits::I64`], needs `Int64`).
//! * `i1` -> `i1`; `i32`/`f32` as is; `i8`/`i16` native when the env has
//!   `Int8`/`Int16`, else represented in `i32` (sign-extended, as MLIR's
//!   emulation does); `i64`/`f64`/`f16` need `Int64`/`Float64`/`Float16`
//!   (an error naming the capability otherwise); `bf16` is not supported.
//! * `vector<1xT>` -> `T`; `vector<2..4xT>` -> `vector<NxT'>`.
//! * memrefs -> [`MemRefRepr`]: a pointer to
//!   `!spv.struct<(!spv.array<N x T, stride=S> [0])>` (or `!spv.rtarray`
//!   for a dynamic shape) in the storage class of its memory space, with
//!   layout decorations only in `StorageBuffer`/`Uniform`/`PushConstant`.
//!   An 8/16-bit element the env cannot store natively in that storage
//!   class is packed into 32-bit words; `i1` elements are stored as `i8`
//!   (one byte each, natively or packed like `i8`).
//!
//! Memory spaces map as MLIR's `map-memref-spirv-storage-class` Vulkan
//! mapping: none / `0` / `#gpu.address_space<global>` -> `StorageBuffer`,
//! `1` -> `Generic`, `3` / `workgroup` -> `Workgroup`, `4` -> `Uniform`,
//! `5` / `private` -> `Private`, `6` -> `Function`, `7` -> `PushConstant`,
//! `8` -> `UniformConstant`, `9` -> `Input`, `10` -> `Output`, `11` ->
//! `PhysicalStorageBuffer`.

use crate::availability::type_requirements;
use crate::grammar::{Capability, StorageClass};
use crate::ir::{FloatKind, Type, TypeStore};
use crate::kernel::print::type_to_string;
use crate::kernel::{FloatTy, GpuAddressSpace, KType, MemRefLayout, MemorySpace};
use crate::target::legality::ConversionTarget;
use crate::target::TargetEnv;

use super::error::TypeError;

/// The width `index` lowers to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IndexBits {
    /// `i32` (MLIR's default).
    #[default]
    I32,
    /// `i64` (needs `Int64`).
    I64,
}

/// How a memref is represented.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemRefRepr {
    /// The pointer type of the memref value.
    pub ptr: Type,
    /// Its storage class.
    pub storage_class: StorageClass,
    /// The array's element type in memory.
    pub stored: Type,
    /// The converted element type of values loaded and stored.
    pub value: Type,
    /// `Some(bits)` when `bits`-bit elements are packed into `i32` words.
    pub packed_bits: Option<u32>,
    /// Whether `i1` elements are stored as integers (`stored` is an int).
    pub bool_as_int: bool,
    /// Element strides per dimension.
    pub strides: Vec<i64>,
    /// Element offset of the first element.
    pub offset: i64,
    /// Number of elements of the array (`None`: runtime array).
    pub len: Option<u64>,
}

/// Converts kernel types to spv types for one target env.
#[derive(Clone, Debug)]
pub struct TypeConverter {
    target: ConversionTarget,
    index_bits: IndexBits,
}

impl TypeConverter {
    /// A converter for `env`.
    pub fn new(env: &TargetEnv, index_bits: IndexBits) -> TypeConverter {
        TypeConverter {
            target: ConversionTarget::new(env),
            index_bits,
        }
    }

    /// The conversion target (legality of ops and types in the env).
    pub fn target(&self) -> &ConversionTarget {
        &self.target
    }

    /// Whether the env allows `cap`.
    pub fn has(&self, cap: Capability) -> bool {
        self.target.allows_capability(cap)
    }

    fn need(&self, cap: Capability, ty: &KType, what: &'static str) -> Result<(), TypeError> {
        if self.has(cap) {
            Ok(())
        } else {
            Err(TypeError::MissingCapability {
                ty: type_to_string(ty),
                capability: cap,
                what,
            })
        }
    }

    /// The spv type of a scalar kernel type.
    pub fn scalar(&self, types: &mut TypeStore, ty: &KType) -> Result<Type, TypeError> {
        match ty {
            KType::Int(1) => Ok(types.bool()),
            KType::Int(32) => Ok(types.int(32)),
            KType::Int(w @ (8 | 16)) => {
                let cap = if *w == 8 {
                    Capability::Int8
                } else {
                    Capability::Int16
                };
                Ok(types.int(if self.has(cap) { *w } else { 32 }))
            }
            KType::Int(64) => {
                self.need(Capability::Int64, ty, "64-bit integers")?;
                Ok(types.int(64))
            }
            KType::Int(w) => Err(TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: format!("SPIR-V has no {w}-bit integers"),
            }),
            KType::Index => match self.index_bits {
                IndexBits::I32 => Ok(types.int(32)),
                IndexBits::I64 => {
                    self.need(Capability::Int64, ty, "64-bit index")?;
                    Ok(types.int(64))
                }
            },
            KType::Float(FloatTy::F32) => Ok(types.f32()),
            KType::Float(FloatTy::F16) => {
                self.need(Capability::Float16, ty, "16-bit floats")?;
                Ok(types.float(FloatKind::F16))
            }
            KType::Float(FloatTy::F64) => {
                self.need(Capability::Float64, ty, "64-bit floats")?;
                Ok(types.float(FloatKind::F64))
            }
            KType::Float(FloatTy::BF16) => Err(TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: "bf16 arithmetic is not supported by the lowering".into(),
            }),
            _ => Err(TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: "not a scalar type".into(),
            }),
        }
    }

    /// The width in bits of the narrow integer `ty` stands for when it is
    /// emulated in `i32` (`Some(8)` for `i8` without `Int8`), else `None`.
    pub fn emulated_bits(&self, ty: &KType) -> Option<u32> {
        match ty.scalar() {
            KType::Int(8) if !self.has(Capability::Int8) => Some(8),
            KType::Int(16) if !self.has(Capability::Int16) => Some(16),
            _ => None,
        }
    }

    /// The spv type of a value of kernel type `ty` (scalars, vectors,
    /// memrefs).
    pub fn value_type(&self, types: &mut TypeStore, ty: &KType) -> Result<Type, TypeError> {
        match ty {
            KType::Vector { shape, elem } => {
                let n: u64 = shape.iter().product();
                let e = self.scalar(types, elem)?;
                match n {
                    1 => Ok(e),
                    2..=4 => Ok(types.vector(n as u32, e)),
                    _ => Err(TypeError::Unsupported {
                        ty: type_to_string(ty),
                        reason: "only vectors of 1 to 4 elements are supported".into(),
                    }),
                }
            }
            KType::MemRef { .. } => Ok(self.memref(types, ty)?.ptr),
            KType::MmaMatrix {
                rows,
                cols,
                elem,
                operand,
            } => {
                // MLIR's GPU-to-SPIR-V mapping: a `Subgroup` cooperative
                // matrix whose use follows the operand.
                if self.emulated_bits(elem).is_some() {
                    return Err(TypeError::Unsupported {
                        ty: type_to_string(ty),
                        reason: "MMA matrix elements must be native (Int8 / Int16 missing)".into(),
                    });
                }
                let element = self.scalar(types, elem)?;
                let usage = match operand {
                    crate::kernel::MmaOperand::A => crate::ir::CoopMatrixUse::MatrixA,
                    crate::kernel::MmaOperand::B => crate::ir::CoopMatrixUse::MatrixB,
                    crate::kernel::MmaOperand::C => crate::ir::CoopMatrixUse::MatrixAcc,
                };
                Ok(
                    types.intern(crate::ir::TypeKind::CoopMatrix(crate::ir::CoopMatrixType {
                        element,
                        rows: *rows,
                        columns: *cols,
                        scope: crate::grammar::Scope::Subgroup,
                        usage,
                    })),
                )
            }
            _ => self.scalar(types, ty),
        }
    }

    /// The storage class of a memory space.
    pub fn storage_class(
        &self,
        space: &MemorySpace,
        ty: &KType,
    ) -> Result<StorageClass, TypeError> {
        Ok(match space {
            MemorySpace::Default | MemorySpace::Gpu(GpuAddressSpace::Global) => {
                StorageClass::StorageBuffer
            }
            MemorySpace::Gpu(GpuAddressSpace::Workgroup) => StorageClass::Workgroup,
            MemorySpace::Gpu(GpuAddressSpace::Private) => StorageClass::Private,
            MemorySpace::StorageClass(sc) => *sc,
            MemorySpace::Int(n) => match n {
                0 => StorageClass::StorageBuffer,
                1 => StorageClass::Generic,
                3 => StorageClass::Workgroup,
                4 => StorageClass::Uniform,
                5 => StorageClass::Private,
                6 => StorageClass::Function,
                7 => StorageClass::PushConstant,
                8 => StorageClass::UniformConstant,
                9 => StorageClass::Input,
                10 => StorageClass::Output,
                11 => StorageClass::PhysicalStorageBuffer,
                _ => {
                    return Err(TypeError::Unsupported {
                        ty: type_to_string(ty),
                        reason: format!("memory space {n} has no Vulkan storage class"),
                    })
                }
            },
        })
    }

    /// How memref type `ty` is represented.
    pub fn memref(&self, types: &mut TypeStore, ty: &KType) -> Result<MemRefRepr, TypeError> {
        let KType::MemRef {
            shape,
            elem,
            layout,
            space,
        } = ty
        else {
            return Err(TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: "not a ranked memref".into(),
            });
        };
        let sc = self.storage_class(space, ty)?;
        let explicit_layout = matches!(
            sc,
            StorageClass::StorageBuffer
                | StorageClass::Uniform
                | StorageClass::PushConstant
                | StorageClass::PhysicalStorageBuffer
        );
        let (strides, offset) =
            strides_of(shape, layout).ok_or_else(|| TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: "strides must be static (only the outermost dimension may be dynamic)"
                    .into(),
            })?;
        let len: Option<u64> = if shape.iter().all(Option::is_some) {
            let dims: u64 = shape.iter().map(|d| d.unwrap_or(0)).product();
            // The extent reached by the strided layout.
            let extent = if dims == 0 {
                0
            } else {
                shape
                    .iter()
                    .zip(&strides)
                    .map(|(d, s)| (d.unwrap_or(1) as i64 - 1) * s)
                    .sum::<i64>()
                    + offset
                    + 1
            };
            Some(extent.max(1) as u64)
        } else {
            None
        };
        let value = self.value_type(types, elem)?;
        let mut stored = value;
        let mut packed_bits = None;
        let mut bool_as_int = false;
        if matches!(**elem, KType::Int(1)) {
            bool_as_int = true;
            let i8t = types.int(8);
            if self.has(Capability::Int8) && self.legal_in(types, i8t, sc) {
                stored = i8t;
            } else {
                // One byte per bool, packed into 32-bit words, so the
                // buffer keeps the host's layout.
                stored = types.int(32);
                packed_bits = Some(8);
            }
        } else if let KType::Int(w @ (8 | 16)) = **elem {
            let narrow = types.int(w);
            let native = self.emulated_bits(elem).is_none() && self.legal_in(types, narrow, sc);
            if native {
                stored = narrow;
            } else {
                stored = types.int(32);
                packed_bits = Some(w);
            }
        } else if let KType::Vector { elem: e, .. } = &**elem {
            // Vectors of native 8/16-bit integers are stored as they are
            // (the storage-class check below asks for 8/16-bit storage);
            // emulated ones and bools would need packing.
            if matches!(**e, KType::Int(1)) || self.emulated_bits(e).is_some() {
                return Err(TypeError::Unsupported {
                    ty: type_to_string(ty),
                    reason: "memrefs of vectors of bool or of 8/16-bit integers without Int8/Int16 are not supported"
                        .into(),
                });
            }
        }
        if packed_bits.is_none() && !self.legal_in(types, stored, sc) {
            let reqs = type_requirements(types, stored, Some(sc));
            let why = self
                .target
                .check(&reqs)
                .err()
                .map(|u| u.to_string())
                .unwrap_or_default();
            return Err(TypeError::Unsupported {
                ty: type_to_string(ty),
                reason: format!("its elements cannot be stored in {}: {why}", sc.name()),
            });
        }
        let elem_bytes = byte_size(types, stored);
        let stride = if explicit_layout {
            Some(elem_bytes)
        } else {
            None
        };
        let array = match (len, packed_bits) {
            (Some(n), Some(bits)) => {
                let per_word = 32 / bits as u64;
                types.array(n.div_ceil(per_word).max(1) as u32, stored, stride)
            }
            (Some(n), None) => types.array(n as u32, stored, stride),
            (None, _) => {
                if !explicit_layout {
                    return Err(TypeError::Unsupported {
                        ty: type_to_string(ty),
                        reason: format!("a dynamically shaped memref cannot live in {}", sc.name()),
                    });
                }
                types.runtime_array(stored, stride)
            }
        };
        let member_offset = if explicit_layout { Some(0) } else { None };
        let block = types.struct_of(vec![(array, member_offset)]);
        let ptr = types.pointer(block, sc);
        Ok(MemRefRepr {
            ptr,
            storage_class: sc,
            stored,
            value,
            packed_bits,
            bool_as_int,
            strides,
            offset,
            len,
        })
    }

    fn legal_in(&self, types: &TypeStore, ty: Type, sc: StorageClass) -> bool {
        self.target.allows(&type_requirements(types, ty, Some(sc)))
    }
}

/// Size in bytes of a scalar or vector type (vectors of 3 take 4 slots).
fn byte_size(types: &TypeStore, ty: Type) -> u32 {
    let bits = types.bit_width(ty).unwrap_or(32).max(8);
    let n = match types.component_count(ty) {
        3 => 4,
        n => n,
    };
    bits / 8 * n
}

/// Element strides and offset of a memref layout; `None` when dynamic.
fn strides_of(shape: &[Option<u64>], layout: &MemRefLayout) -> Option<(Vec<i64>, i64)> {
    match layout {
        MemRefLayout::Identity => {
            let mut strides = vec![0i64; shape.len()];
            let mut acc: i64 = 1;
            for i in (0..shape.len()).rev() {
                strides[i] = acc;
                if i > 0 {
                    acc = acc.checked_mul(shape[i]? as i64)?;
                }
            }
            Some((strides, 0))
        }
        MemRefLayout::Strided { offset, strides } => {
            let s: Option<Vec<i64>> = strides.iter().copied().collect();
            Some((s?, (*offset)?))
        }
    }
}
