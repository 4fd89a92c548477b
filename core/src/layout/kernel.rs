//! Data layout of the memref-level kernel IR's types ([`KType`]).
//!
//! Integers, floats, `index` and vectors answer exactly as their spv
//! counterparts (MLIR's built-in rules, see [`super`]); a multi-dimensional
//! `vector<AxBxT>` is MLIR's `A * next_pow2(B) * size(T)` bytes (`size(i1)` is 1).
//!
//! MLIR 19's data layout has **no** answer for `memref` (the query pass
//! aborts: "neither the scoping op nor the type class provide data layout
//! information"). What a memref occupies in memory is its descriptor, the
//! struct the memref-to-LLVM conversion passes around, and that is what kiln
//! answers (the tests derive the descriptor with `mlir-opt-19
//! --convert-func-to-llvm` and ask the oracle for its layout):
//!
//! * ranked `memref<d0x...xd(r-1)xT, space>`:
//!   `!llvm.struct<(ptr, ptr, index, array<r x index>, array<r x index>)>`
//!   (allocated pointer, aligned pointer, offset, sizes, strides; rank 0
//!   drops the two arrays) — independent of shape, element type and layout;
//! * unranked `memref<*xT, space>`: `!llvm.struct<(index, ptr)>`.
//!
//! `index` is the scope's index width. The pointers take the spec entry of
//! the memref's storage class — its memory space mapped as MLIR's
//! `map-memref-spirv-storage-class` Vulkan mapping does (no space:
//! `StorageBuffer`, `3`: `Workgroup`, `#gpu.address_space<private>`:
//! `Private`, ...) — falling back to the `Function` entry like any spv
//! pointer; an integer space outside the Vulkan mapping takes the `Function`
//! entry. Function types have no layout.

use super::{bytes_layout, vector_layout, DataLayout, LayoutError, TypeLayout};
use crate::grammar::StorageClass;
use crate::kernel::{GpuAddressSpace, KType, MemorySpace};

impl DataLayout {
    /// Size, ABI alignment and preferred alignment of a kernel type
    /// (cached per type).
    pub fn kernel_layout(&self, ty: &KType) -> Result<TypeLayout, LayoutError> {
        if let Some(l) = self.kernel_cache.borrow().get(ty) {
            return Ok(*l);
        }
        let l = self.compute_kernel(ty)?;
        self.kernel_cache.borrow_mut().insert(ty.clone(), l);
        Ok(l)
    }

    /// How many kernel types have their layout cached.
    pub fn cached_kernel_types(&self) -> usize {
        self.kernel_cache.borrow().len()
    }

    fn compute_kernel(&self, ty: &KType) -> Result<TypeLayout, LayoutError> {
        let overflow = || LayoutError::Overflow {
            ty: crate::kernel::print::type_to_string(ty),
        };
        let unsupported = |why| LayoutError::Unsupported {
            ty: crate::kernel::print::type_to_string(ty),
            why,
        };
        match ty {
            KType::Int(width) => Ok(self.int_layout(*width)),
            KType::Float(f) => Ok(self.float_layout(f.kind())),
            KType::Index => Ok(self.int_layout(self.index_bits())),
            KType::Vector { shape, elem } => {
                let e = self.kernel_layout(elem)?;
                let Some((last, outer)) = shape.split_last() else {
                    return Err(unsupported("a vector needs at least one dimension"));
                };
                if *last == 0 || outer.contains(&0) {
                    return Err(unsupported("vector dimensions must be positive"));
                }
                let outer = outer
                    .iter()
                    .try_fold(1u64, |acc, d| acc.checked_mul(*d))
                    .ok_or_else(overflow)?;
                vector_layout(outer, *last, e.size()).ok_or_else(overflow)
            }
            KType::MemRef { shape, space, .. } => {
                let ptr = self.memref_pointer(*space);
                let index = self.int_layout(self.index_bits());
                let rank = u64::try_from(shape.len()).map_err(|_| overflow())?;
                let mut fields = vec![ptr, ptr, index];
                if rank > 0 {
                    let array = array_of(rank, index).ok_or_else(overflow)?;
                    fields.push(array);
                    fields.push(array);
                }
                natural_struct(&fields).ok_or_else(overflow)
            }
            KType::UnrankedMemRef { space, .. } => {
                let ptr = self.memref_pointer(*space);
                let index = self.int_layout(self.index_bits());
                natural_struct(&[index, ptr]).ok_or_else(overflow)
            }
            KType::Function { .. } => Err(unsupported("function types have no values")),
            KType::MmaMatrix { .. } => Err(unsupported(
                "an MMA matrix is spread over a subgroup's invocations and has no size",
            )),
        }
    }

    /// The layout of a pointer into a memref's memory space.
    fn memref_pointer(&self, space: MemorySpace) -> TypeLayout {
        let sc = storage_class(space).unwrap_or(StorageClass::Function);
        self.pointer_layout(sc)
    }
}

/// The storage class MLIR's Vulkan memory-space mapping gives a memref
/// memory space; `None` for integer spaces outside that mapping.
pub fn storage_class(space: MemorySpace) -> Option<StorageClass> {
    Some(match space {
        MemorySpace::Default | MemorySpace::Int(0) => StorageClass::StorageBuffer,
        MemorySpace::Int(1) => StorageClass::Generic,
        MemorySpace::Int(3) => StorageClass::Workgroup,
        MemorySpace::Int(4) => StorageClass::Uniform,
        MemorySpace::Int(5) => StorageClass::Private,
        MemorySpace::Int(6) => StorageClass::Function,
        MemorySpace::Int(7) => StorageClass::PushConstant,
        MemorySpace::Int(8) => StorageClass::UniformConstant,
        MemorySpace::Int(9) => StorageClass::Input,
        MemorySpace::Int(10) => StorageClass::Output,
        MemorySpace::Int(11) => StorageClass::PhysicalStorageBuffer,
        MemorySpace::Int(_) => return None,
        MemorySpace::Gpu(GpuAddressSpace::Global) => StorageClass::StorageBuffer,
        MemorySpace::Gpu(GpuAddressSpace::Workgroup) => StorageClass::Workgroup,
        MemorySpace::Gpu(GpuAddressSpace::Private) => StorageClass::Private,
        MemorySpace::StorageClass(sc) => sc,
    })
}

/// `!llvm.array<n x T>`: `n` elements at a stride of `T`'s size rounded up
/// to its ABI alignment.
fn array_of(n: u64, e: TypeLayout) -> Option<TypeLayout> {
    let stride = super::align_to(e.size(), e.abi_align)?;
    bytes_layout(stride.checked_mul(n)?, e.abi_align, e.preferred_align)
}

/// A non-packed `!llvm.struct<(...)>` of `fields`: each at the next multiple
/// of its ABI alignment, ABI and preferred alignment the largest field ABI
/// alignment, size rounded up to it.
fn natural_struct(fields: &[TypeLayout]) -> Option<TypeLayout> {
    let mut end = 0u64;
    let mut align = 1u64;
    for f in fields {
        align = align.max(f.abi_align);
        end = super::align_to(end, f.abi_align)?.checked_add(f.size())?;
    }
    bytes_layout(super::align_to(end, align)?, align, align)
}
