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

/// `a * b`, or the error of a size that does not fit in 64 bits.
fn mul(a: u64, b: u64) -> Result<u64, String> {
    a.checked_mul(b).ok_or_else(too_large)
}

/// `a + b`, or the error of a size that does not fit in 64 bits.
fn add(a: u64, b: u64) -> Result<u64, String> {
    a.checked_add(b).ok_or_else(too_large)
}

/// `v` rounded up to a multiple of `a` (at least 1).
fn round(v: u64, a: u64) -> Result<u64, String> {
    v.checked_next_multiple_of(a.max(1)).ok_or_else(too_large)
}

fn too_large() -> String {
    "the type's size does not fit in 64 bits".to_owned()
}

/// The extent of struct `ty` from its members' offsets.
pub(crate) fn block_extent(types: &TypeStore, ty: Type) -> Result<BlockExtent, String> {
    let TypeKind::Struct(st) = types.kind(ty) else {
        return Err("the block type is not a struct".to_owned());
    };
    let count = st.members.len();
    let mut size = 0u64;
    let mut runtime_stride = None;
    for (i, member) in st.members.iter().enumerate() {
        let offset = u64::from(
            member
                .offset
                .ok_or_else(|| format!("struct member {i} has no Offset"))?,
        );
        if let TypeKind::RuntimeArray { stride, .. } = types.kind(member.ty) {
            if i + 1 != count {
                return Err(format!(
                    "struct member {i} is a runtime array but not the last member"
                ));
            }
            runtime_stride = Some(
                stride.ok_or_else(|| format!("runtime array of member {i} has no ArrayStride"))?,
            );
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
fn member_size(types: &TypeStore, member: &StructMember, index: usize) -> Result<u64, String> {
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
        .ok_or_else(|| format!("matrix member {index} has no MatrixStride"))?;
    let lines = if deco(Decoration::RowMajor).is_some() {
        types.component_count(*column)
    } else {
        *columns
    };
    mul(u64::from(lines), u64::from(stride))
}

/// The size of `ty` inside an explicitly laid out block.
pub(crate) fn explicit_size(types: &TypeStore, ty: Type) -> Result<u64, String> {
    match types.kind(ty) {
        TypeKind::Int { width: 1, .. } => {
            Err("a bool has no defined size in an externally visible block".to_owned())
        }
        TypeKind::Int { width, .. } => Ok(u64::from(*width) / 8),
        TypeKind::Float(f) => Ok(u64::from(f.width()) / 8),
        TypeKind::Vector { len, element } => mul(u64::from(*len), explicit_size(types, *element)?),
        TypeKind::Array { len, stride, .. } => {
            let stride = stride.ok_or_else(|| "an array has no ArrayStride".to_owned())?;
            mul(u64::from(*len), u64::from(stride))
        }
        TypeKind::Struct(_) => {
            let e = block_extent(types, ty)?;
            if e.runtime_stride.is_some() {
                return Err("a nested struct ends in a runtime array".to_owned());
            }
            Ok(e.size)
        }
        TypeKind::Pointer { .. } => Ok(8),
        TypeKind::Matrix { .. } => {
            Err("a matrix outside a struct member has no MatrixStride".to_owned())
        }
        other => Err(format!("{other:?} has no size in a block")),
    }
}

/// Size and alignment of `ty` under std430 rules, ignoring any explicit
/// layout (for `Workgroup` variables).
pub(crate) fn natural_size(types: &TypeStore, ty: Type) -> Result<(u64, u64), String> {
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
        TypeKind::RuntimeArray { .. } => {
            return Err("a runtime array has no size in workgroup memory".to_owned())
        }
        other => return Err(format!("{other:?} has no size in workgroup memory")),
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
