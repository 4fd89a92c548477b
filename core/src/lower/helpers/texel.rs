//! Uniform texel buffers, kiln's extension of the memref lowering.
//!
//! A memref of 4-element vectors of a 32-bit float or integer in the
//! `UniformConstant` storage class,
//! `memref<?xvector<4xf32>, #spirv.storage_class<UniformConstant>>`, is a
//! read-only buffer bound as a *uniform texel buffer* through an RGBA32
//! view (`Rgba32f` for floats, `Rgba32ui` for integers, whose bits are the
//! signless integer's). One of 4-element `f16` vectors,
//! `memref<?xvector<4xf16>, #spirv.storage_class<UniformConstant>>`, is
//! bound through an `Rgba16f` view: its image's sampled type is `f32`, and
//! each fetched texel is converted (`spv.FConvert`, exact) back to
//! `vector<4xf16>`. As a kernel argument it becomes a
//! `!spv.ptr<!spv.image<T, Buffer, NoDepth, NonArrayed, SingleSampled,
//! NeedSampler, Rgba32f>, UniformConstant>` variable, and
//! `memref.load %m[%i]` becomes `spv.Load` of the image and
//! `spv.ImageFetch` of texel `%i`: the 4 elements `4i .. 4i + 3`.
//!
//! MLIR has no such lowering; kiln's tensor compiler emits these memrefs
//! for read-only tensors it reads 128 bits at a time where the driver
//! fetches texels faster than it loads storage buffers (llvmpipe compiles
//! a storage-buffer load to a loop over the SIMD lanes with a bounds check
//! per element, a texel fetch to one gather: DRIVERS.md).

use crate::grammar::{Dim, ImageFormat, Opcode, StorageClass};
use crate::ir::{
    ImageArrayed, ImageDepth, ImageSamplerUse, ImageSampling, ImageType, Type, TypeKind, Value,
};
use crate::kernel::{KType, KValue, MemRefLayout, MemorySpace};

use super::super::context::Lowerer;
use super::super::error::LowerError;

/// Whether `ty` is a memref in the `UniformConstant` storage class (a
/// texel buffer, or a mistake [`image_type`] reports).
pub(crate) fn is_texel_memref(ty: &KType) -> bool {
    matches!(
        ty,
        KType::MemRef {
            space: MemorySpace::StorageClass(StorageClass::UniformConstant),
            ..
        }
    )
}

/// The image type of texel-buffer memref type `ty`, or why it is not one.
pub(crate) fn image_type(l: &mut Lowerer, ty: &KType) -> Result<Type, LowerError> {
    let KType::MemRef {
        shape,
        elem,
        layout,
        ..
    } = ty
    else {
        return Err(l.malformed("a texel buffer must be a memref"));
    };
    let bad = |l: &Lowerer, why: &str| {
        l.unsupported(format!(
            "a UniformConstant memref is a uniform texel buffer: {why} (found {})",
            crate::kernel::print::type_to_string(ty)
        ))
    };
    if shape.len() != 1 || !matches!(layout, MemRefLayout::Identity) {
        return Err(bad(l, "it must be 1-D with the identity layout"));
    }
    let scalar = match elem.as_ref() {
        KType::Vector { shape, elem } if shape.as_slice() == [4] => elem.as_ref().clone(),
        _ => return Err(bad(l, "its elements must be vector<4xT>")),
    };
    let (format, sampled) = match scalar {
        KType::Float(f) if f.bits() == 32 => (ImageFormat::Rgba32f, scalar),
        KType::Float(f) if f.bits() == 16 => (ImageFormat::Rgba16f, KType::f32()),
        KType::Int(32) => (ImageFormat::Rgba32ui, scalar),
        _ => return Err(bad(l, "T must be f16 or a 32-bit float or integer")),
    };
    let element = l.convert_type(&sampled)?;
    Ok(l.module.types.intern(TypeKind::Image(ImageType {
        element,
        dim: Dim::Buffer,
        depth: ImageDepth::NoDepth,
        arrayed: ImageArrayed::NonArrayed,
        sampling: ImageSampling::SingleSampled,
        sampler_use: ImageSamplerUse::NeedSampler,
        format,
    })))
}

/// The pointer type a texel-buffer kernel argument of type `ty` lowers to.
pub(crate) fn argument_type(l: &mut Lowerer, ty: &KType) -> Result<Type, LowerError> {
    let image = image_type(l, ty)?;
    Ok(l.module.types.pointer(image, StorageClass::UniformConstant))
}

/// `memref.load %base[%index]` of a texel buffer: the 4-element texel
/// (the coordinate narrowed to 32 bits where `index` is 64-bit), fetched
/// as `vector<4xf32>` and converted to `vector<4xf16>` from an `Rgba16f`
/// view.
pub(crate) fn fetch(l: &mut Lowerer, base: KValue, index: Value) -> Result<Value, LowerError> {
    let kty = l.kernel_type(base).clone();
    let image = image_type(l, &kty)?;
    let Some(elem) = kty.memref_elem() else {
        return Err(l.malformed("a texel buffer must be a memref"));
    };
    let texel = l.convert_type(elem)?;
    let ptr = l.lowered(base)?;
    let coord = match l.module.types.kind(l.module.value_type(index)) {
        TypeKind::Int { width: 32, .. } => index,
        TypeKind::Int { .. } => {
            let i32t = l.i32_type();
            l.core_op(Opcode::SConvert, vec![index], i32t)
        }
        _ => return Err(l.malformed("a texel coordinate must be an integer")),
    };
    let img = l.core_op(Opcode::Load, vec![ptr], image);
    let element = match l.module.types.kind(image) {
        TypeKind::Image(img) => img.element,
        _ => return Err(l.malformed("a texel buffer's type must be an image")),
    };
    let fetched = l.module.types.vector(4, element);
    let value = l.core_op(Opcode::ImageFetch, vec![img, coord], fetched);
    if fetched == texel {
        return Ok(value);
    }
    Ok(l.core_op(Opcode::FConvert, vec![value], texel))
}
