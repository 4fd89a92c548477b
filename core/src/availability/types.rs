//! Requirements of types (MLIR's `SPIRVType::getExtensions` /
//! `getCapabilities`, plus the grammar's `OpType*` entries).
//!
//! * Integers: `i8` needs `Int8`, `i16` `Int16`, `i64` `Int64`; floats: `f16`
//!   needs `Float16`, `f64` `Float64`, `bf16` `BFloat16TypeKHR`.
//! * Except in interface storage classes (the storage class is that of the
//!   enclosing pointer): an 8-bit scalar in `StorageBuffer` / `Uniform` /
//!   `PushConstant` needs `StorageBuffer8BitAccess` /
//!   `UniformAndStorageBuffer8BitAccess` / `StoragePushConstant8` and
//!   `SPV_KHR_8bit_storage` (core in 1.5) instead; a 16-bit one in
//!   `StorageBuffer` / `Uniform` / `PushConstant` / `Input` / `Output` needs
//!   `StorageBuffer16BitAccess` / `StorageUniform16` /
//!   `StoragePushConstant16` / `StorageInputOutput16` and
//!   `SPV_KHR_16bit_storage` (core in 1.3). (`bf16` keeps its own capability
//!   there too.) 64-bit values need `Int64` / `Float64` everywhere.
//! * Vectors of 8 or 16 elements need `Vector16`; matrices `Matrix`;
//!   runtime arrays `Shader` (the grammar's `OpTypeRuntimeArray`).
//! * Pointers: the pointee's requirements in the pointer's storage class,
//!   then the storage class's own (`StorageBuffer`: core in 1.3, else
//!   `SPV_KHR_storage_buffer_storage_class`).
//! * Images: their `Dim` and `ImageFormat` enumerants and sampled type, and
//!   `ImageBuffer` for a `Buffer` image without a sampler (a storage texel
//!   buffer); sampled images: their image.
//! * Arrays, runtime arrays, structs and function types recurse into their
//!   elements, members, parameters and results.
//! * Integer widths other than 1, 8, 16, 32, 64 cannot be expressed:
//!   [`Requirement::unsatisfiable`].

use std::collections::HashMap;

use super::{enumerant_requirements, Origin, Requirement, Requirements};
use crate::grammar::{self, Capability, Extension, OperandKind, StorageClass, Version};
use crate::ir::{FloatKind, Type, TypeKind, TypeStore};
use crate::text::Prefix;

/// Deep enough for any type a module holds; guards against cycles.
const MAX_DEPTH: u32 = 64;

/// The requirements of `ty` when used in storage class `storage` (`None`
/// outside pointers).
pub fn type_requirements(
    types: &TypeStore,
    ty: Type,
    storage: Option<StorageClass>,
) -> Requirements {
    let mut out = Requirements::new();
    collect(types, ty, storage, &mut out, 0);
    out
}

/// Memoized [`type_requirements`] for passes that query many ops.
#[derive(Debug, Default)]
pub(crate) struct TypeCache {
    map: HashMap<(Type, Option<StorageClass>), Requirements>,
}

impl TypeCache {
    /// The requirements of `ty` used in `storage`, computed once.
    pub(crate) fn get(
        &mut self,
        types: &TypeStore,
        ty: Type,
        storage: Option<StorageClass>,
    ) -> &Requirements {
        self.map
            .entry((ty, storage))
            .or_insert_with(|| type_requirements(types, ty, storage))
    }
}

fn instruction(opname: &str) -> Option<Requirement> {
    grammar::core_inst_by_name(opname).map(Requirement::for_instruction)
}

fn cap_requirement(origin: Origin, cap: Capability) -> Requirement {
    Requirement {
        origin,
        min_version: Version::V1_0,
        last_version: None,
        capabilities: vec![cap],
        extensions: Vec::new(),
    }
}

fn collect(
    types: &TypeStore,
    ty: Type,
    storage: Option<StorageClass>,
    out: &mut Requirements,
    depth: u32,
) {
    if depth > MAX_DEPTH || ty.index() >= types.len() {
        return;
    }
    match types.kind(ty) {
        TypeKind::None | TypeKind::Index | TypeKind::Sampler => {}
        TypeKind::Int { width, .. } => scalar(types, ty, *width, false, storage, out),
        TypeKind::Float(kind) => {
            if *kind == FloatKind::BF16 {
                out.push(cap_requirement(
                    scalar_origin(types, ty, None),
                    Capability::BFloat16TypeKHR,
                ));
            }
            scalar(types, ty, kind.width(), true, storage, out)
        }
        TypeKind::Vector { len, element } => {
            if *len == 8 || *len == 16 {
                out.push(cap_requirement(
                    Origin::Type {
                        ty: crate::text::print_type(types, ty, Prefix::Spirv),
                        storage: None,
                    },
                    Capability::Vector16,
                ));
            }
            collect(types, *element, storage, out, depth + 1);
        }
        TypeKind::Array { element, .. } => collect(types, *element, storage, out, depth + 1),
        TypeKind::RuntimeArray { element, .. } => {
            if let Some(r) = instruction("TypeRuntimeArray") {
                out.push(r);
            }
            collect(types, *element, storage, out, depth + 1);
        }
        TypeKind::Pointer {
            pointee,
            storage_class,
        } => {
            collect(types, *pointee, Some(*storage_class), out, depth + 1);
            out.extend(enumerant_requirements(
                OperandKind::StorageClass,
                *storage_class as u32,
            ));
        }
        TypeKind::Struct(st) => {
            for member in &st.members {
                collect(types, member.ty, storage, out, depth + 1);
            }
        }
        TypeKind::Image(image) => {
            out.extend(enumerant_requirements(OperandKind::Dim, image.dim as u32));
            out.extend(enumerant_requirements(
                OperandKind::ImageFormat,
                image.format as u32,
            ));
            // A storage texel buffer: SPIRV-Tools requires `ImageBuffer`
            // to access a `Buffer` image without a sampler (the grammar
            // lists only `SampledBuffer` for the `Buffer` dim).
            if image.dim == grammar::Dim::Buffer
                && image.sampler_use == crate::ir::ImageSamplerUse::NoSampler
            {
                out.push(cap_requirement(
                    scalar_origin(types, ty, None),
                    Capability::ImageBuffer,
                ));
            }
            collect(types, image.element, None, out, depth + 1);
        }
        TypeKind::SampledImage(image) => collect(types, *image, storage, out, depth + 1),
        TypeKind::Matrix { column, .. } => {
            if let Some(r) = instruction("TypeMatrix") {
                out.push(r);
            }
            collect(types, *column, storage, out, depth + 1);
        }
        TypeKind::CoopMatrix(c) => {
            // `OpTypeCooperativeMatrixKHR` needs `CooperativeMatrixKHR`
            // (which needs `SPV_KHR_cooperative_matrix`); the element
            // type brings its own (`Float16`, `Int8`, ...).
            if let Some(r) = instruction("TypeCooperativeMatrixKHR") {
                out.push(r);
            }
            // SPIRV-Tools: "If the Shader and CooperativeMatrixKHR
            // capabilities are declared, the VulkanMemoryModel capability
            // must also be declared" (kiln's modules are all shaders).
            out.push(cap_requirement(
                scalar_origin(types, ty, None),
                Capability::VulkanMemoryModel,
            ));
            collect(types, c.element, storage, out, depth + 1);
        }
        TypeKind::Function { inputs, results } => {
            for &t in inputs.iter().chain(results) {
                collect(types, t, None, out, depth + 1);
            }
        }
    }
}

fn scalar_origin(types: &TypeStore, ty: Type, storage: Option<StorageClass>) -> Origin {
    Origin::Type {
        ty: crate::text::print_type(types, ty, Prefix::Spirv),
        storage,
    }
}

/// MLIR's `ScalarType::getExtensions` + `getCapabilities`.
fn scalar(
    types: &TypeStore,
    ty: Type,
    width: u32,
    is_float: bool,
    storage: Option<StorageClass>,
    out: &mut Requirements,
) {
    if let Some(sc) = storage {
        let access = match (width, sc) {
            (8, StorageClass::StorageBuffer) => Some(Capability::StorageBuffer8BitAccess),
            (8, StorageClass::Uniform) => Some(Capability::UniformAndStorageBuffer8BitAccess),
            (8, StorageClass::PushConstant) => Some(Capability::StoragePushConstant8),
            (16, StorageClass::StorageBuffer) => Some(Capability::StorageBuffer16BitAccess),
            (16, StorageClass::Uniform) => Some(Capability::UniformAndStorageBuffer16BitAccess),
            (16, StorageClass::PushConstant) => Some(Capability::StoragePushConstant16),
            (16, StorageClass::Input | StorageClass::Output) => {
                Some(Capability::StorageInputOutput16)
            }
            _ => None,
        };
        if let Some(cap) = access {
            let (min_version, ext) = if width == 8 {
                (Version::V1_5, Extension::SpvKhr8bitStorage)
            } else {
                (Version::V1_3, Extension::SpvKhr16bitStorage)
            };
            out.push(Requirement {
                origin: scalar_origin(types, ty, Some(sc)),
                min_version,
                last_version: None,
                capabilities: vec![cap],
                extensions: vec![ext],
            });
            return;
        }
    }
    let cap = match (is_float, width) {
        (false, 8) => Some(Capability::Int8),
        (false, 16) => Some(Capability::Int16),
        (false, 64) => Some(Capability::Int64),
        (false, 1 | 32) => None,
        (false, _) => {
            out.push(Requirement::unsatisfiable(scalar_origin(types, ty, None)));
            return;
        }
        (true, 16) => {
            // bf16 has its own capability (pushed by the caller).
            match types.kind(ty) {
                TypeKind::Float(FloatKind::BF16) => None,
                _ => Some(Capability::Float16),
            }
        }
        (true, 64) => Some(Capability::Float64),
        (true, _) => None,
    };
    if let Some(cap) = cap {
        out.push(cap_requirement(scalar_origin(types, ty, None), cap));
    }
}
