//! Sizes of IR types for reflection: explicit (from `Offset`, `ArrayStride`
//! and `MatrixStride`) for blocks, std430-natural for workgroup variables.

use crate::grammar::Decoration;
use crate::ir::{StructMember, Type, TypeKind, TypeStore};

/// The extent of a block and the stride of its trailing runtime array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BlockExtent {
    /// Bytes up to the end of the last sized member (for a block ending in
    /// a runtime array: the array's offset at least).
    pub size: u64,
    /// The `ArrayStride` of the trailing runtime array, if there is one.
    pub runtime_stride: Option<u32>,
}

/// Why a type has no size here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SizeError {
    /// The size overflows `u64`.
    #[error("the type's size does not fit in 64 bits")]
    TooLarge,
    /// A block type that is not a struct.
    #[error("the block type is not a struct")]
    NotStruct,
    /// A struct member without `Offset`.
    #[error("struct member {0} has no Offset")]
    NoOffset(usize),
    /// A runtime array before the last member.
    #[error("struct member {0} is a runtime array but not the last member")]
    RuntimeArrayNotLast(usize),
    /// A trailing runtime array without `ArrayStride`.
    #[error("runtime array of member {0} has no ArrayStride")]
    RuntimeArrayNoStride(usize),
    /// A matrix member without `MatrixStride`.
    #[error("matrix member {0} has no MatrixStride")]
    NoMatrixStride(usize),
    /// A bool in an explicitly laid out block.
    #[error("a bool has no defined size in an externally visible block")]
    Bool,
    /// An array without `ArrayStride` in an explicit layout.
    #[error("an array has no ArrayStride")]
    NoArrayStride,
    /// A nested struct ending in a runtime array.
    #[error("a nested struct ends in a runtime array")]
    NestedRuntimeArray,
    /// A matrix outside a struct member (no `MatrixStride` to use).
    #[error("a matrix outside a struct member has no MatrixStride")]
    LooseMatrix,
    /// A type with no size in an explicitly laid out block.
    #[error("{0:?} has no size in a block")]
    NoBlockSize(TypeKind),
    /// A runtime array in workgroup memory.
    #[error("a runtime array has no size in workgroup memory")]
    WorkgroupRuntimeArray,
    /// A type with no size in workgroup memory.
    #[error("{0:?} has no size in workgroup memory")]
    NoWorkgroupSize(TypeKind),
}

/// `a * b`, or the error of a size that does not fit in 64 bits.
fn mul(a: u64, b: u64) -> Result<u64, SizeError> {
    a.checked_mul(b).ok_or_else(too_large)
}

/// `a + b`, or the error of a size that does not fit in 64 bits.
fn add(a: u64, b: u64) -> Result<u64, SizeError> {
    a.checked_add(b).ok_or_else(too_large)
}

/// `v` rounded up to a multiple of `a` (at least 1).
fn round(v: u64, a: u64) -> Result<u64, SizeError> {
    v.checked_next_multiple_of(a.max(1)).ok_or_else(too_large)
}

fn too_large() -> SizeError {
    SizeError::TooLarge
}

/// The extent of struct `ty` from its members' offsets.
pub(crate) fn block_extent(types: &TypeStore, ty: Type) -> Result<BlockExtent, SizeError> {
    let TypeKind::Struct(st) = types.kind(ty) else {
        return Err(SizeError::NotStruct);
    };
    let count = st.members.len();
    let mut size = 0u64;
    let mut runtime_stride = None;
    for (i, member) in st.members.iter().enumerate() {
        let offset = u64::from(member.offset.ok_or(SizeError::NoOffset(i))?);
        if let TypeKind::RuntimeArray { stride, .. } = types.kind(member.ty) {
            if i + 1 != count {
                return Err(SizeError::RuntimeArrayNotLast(i));
            }
            runtime_stride = Some(stride.ok_or(SizeError::RuntimeArrayNoStride(i))?);
            size = size.max(offset);
            continue;
        }
        size = size.max(add(offset, member_size(types, member, i)?)?);
    }
    Ok(BlockExtent {
        size,
        runtime_stride,
    })
}

/// The size of one struct member; matrices use the member's `MatrixStride`.
fn member_size(types: &TypeStore, member: &StructMember, index: usize) -> Result<u64, SizeError> {
    let TypeKind::Matrix { columns, column } = types.kind(member.ty) else {
        return explicit_size(types, member.ty);
    };
    let deco = |d: Decoration| {
        member
            .decorations
            .iter()
            .find(|m| m.decoration == d)
            .map(|m| m.value)
    };
    let stride = deco(Decoration::MatrixStride)
        .flatten()
        .ok_or(SizeError::NoMatrixStride(index))?;
    let lines = if deco(Decoration::RowMajor).is_some() {
        types.component_count(*column)
    } else {
        *columns
    };
    mul(u64::from(lines), u64::from(stride))
}

/// The size of `ty` inside an explicitly laid out block.
pub(crate) fn explicit_size(types: &TypeStore, ty: Type) -> Result<u64, SizeError> {
    match types.kind(ty) {
        TypeKind::Int { width: 1, .. } => Err(SizeError::Bool),
        TypeKind::Int { width, .. } => Ok(u64::from(*width) / 8),
        TypeKind::Float(f) => Ok(u64::from(f.width()) / 8),
        TypeKind::Vector { len, element } => mul(u64::from(*len), explicit_size(types, *element)?),
        TypeKind::Array { len, stride, .. } => {
            let stride = stride.ok_or(SizeError::NoArrayStride)?;
            mul(u64::from(*len), u64::from(stride))
        }
        TypeKind::Struct(_) => {
            let e = block_extent(types, ty)?;
            if e.runtime_stride.is_some() {
                return Err(SizeError::NestedRuntimeArray);
            }
            Ok(e.size)
        }
        TypeKind::Pointer { .. } => Ok(8),
        TypeKind::Matrix { .. } => Err(SizeError::LooseMatrix),
        other => Err(SizeError::NoBlockSize(other.clone())),
    }
}

/// Size and alignment of `ty` under std430 rules, ignoring any explicit
/// layout (for `Workgroup` variables).
pub(crate) fn natural_size(types: &TypeStore, ty: Type) -> Result<(u64, u64), SizeError> {
    Ok(match types.kind(ty) {
        TypeKind::Int { width: 1, .. } => (4, 4),
        TypeKind::Int { width, .. } => {
            let s = u64::from(*width) / 8;
            (s, s)
        }
        TypeKind::Float(f) => {
            let s = u64::from(f.width()) / 8;
            (s, s)
        }
        TypeKind::Vector { len, element } => {
            let (c, _) = natural_size(types, *element)?;
            let n = u64::from(*len);
            (mul(n, c)?, mul(c, if n == 3 { 4 } else { n })?)
        }
        TypeKind::Array { len, element, .. } => {
            let (s, a) = natural_size(types, *element)?;
            (mul(u64::from(*len), round(s, a)?)?, a)
        }
        TypeKind::Matrix { columns, column } => {
            let (s, a) = natural_size(types, *column)?;
            (mul(u64::from(*columns), round(s, a)?)?, a)
        }
        TypeKind::Struct(st) => {
            let mut offset = 0u64;
            let mut align = 1u64;
            for m in &st.members {
                let (s, a) = natural_size(types, m.ty)?;
                offset = add(round(offset, a)?, s)?;
                align = align.max(a);
            }
            (round(offset, align)?, align)
        }
        TypeKind::Pointer { .. } => (8, 8),
        TypeKind::RuntimeArray { .. } => return Err(SizeError::WorkgroupRuntimeArray),
        other => return Err(SizeError::NoWorkgroupSize(other.clone())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::FloatKind;

    #[test]
    fn sizes_past_64_bits_are_errors() {
        let mut t = TypeStore::default();
        let f32t = t.float(FloatKind::F32);
        let mut ty = f32t;
        for _ in 0..3 {
            ty = t.array(u32::MAX, ty, None);
        }
        assert_eq!(natural_size(&t, ty), Err(too_large()));
        // Explicit layouts: offsets add up past 2^64 through nested blocks.
        let big = t.array(u32::MAX, f32t, Some(u32::MAX));
        let nested = t.array(u32::MAX, big, Some(u32::MAX));
        let mut block = t.struct_of(vec![(nested, Some(u32::MAX))]);
        assert!(block_extent(&t, block).is_ok());
        block = t.struct_of(vec![(block, Some(u32::MAX))]);
        assert!(block_extent(&t, block).is_ok());
        block = t.struct_of(vec![(block, Some(1))]);
        assert_eq!(block_extent(&t, block), Err(too_large()));
    }

    #[test]
    fn extents_and_natural_sizes() {
        let mut t = TypeStore::default();
        let f32t = t.float(FloatKind::F32);
        let v3 = t.vector(3, f32t);
        let rt = t.runtime_array(f32t, Some(4));
        let block = t.struct_of(vec![(v3, Some(0)), (f32t, Some(12)), (rt, Some(16))]);
        assert_eq!(
            block_extent(&t, block),
            Ok(BlockExtent {
                size: 16,
                runtime_stride: Some(4)
            })
        );
        let arr = t.array(10, v3, Some(16));
        let block = t.struct_of(vec![(arr, Some(0)), (f32t, Some(160))]);
        assert_eq!(block_extent(&t, block).unwrap().size, 164);
        let unlaid = t.struct_of(vec![(f32t, None)]);
        assert!(block_extent(&t, unlaid).is_err());

        let arr = t.array(256, f32t, None);
        assert_eq!(natural_size(&t, arr), Ok((1024, 4)));
        let arr3 = t.array(4, v3, None);
        assert_eq!(natural_size(&t, arr3), Ok((64, 16)));
        let s = t.struct_of(vec![(f32t, None), (v3, None)]);
        assert_eq!(natural_size(&t, s), Ok((32, 16)));
    }
}
