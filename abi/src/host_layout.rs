//! Does a host struct match the shader block it is bound to?
//!
//! A caller binding typed data (a `#[repr(C)]`, `bytemuck::Pod` struct) to a
//! buffer describes the struct with [`host_struct!`](crate::host_struct!), which records
//! `size_of`, `align_of` and, for each listed field, its `offset_of!` and
//! size. The compiler describes the block the buffer is bound to as a
//! [`BlockLayout`] (`kiln_core::layout::host::block_layout`). Then
//! [`check_host_layout`] compares them:
//!
//! * the listed fields pair up with the block's members in order (list
//!   only the fields that stand for block members: explicit padding fields,
//!   which a `Pod` struct needs wherever the block has gaps, are left out),
//!   so their number must match;
//! * each field must sit at its member's offset, and be at least as large as
//!   the member's extent (the bytes the shader may read: a std140
//!   `float[4]` spans 52 bytes, so a `[f32; 4]` field is too small);
//! * the struct must cover the block's data (its size at least the end of
//!   the last member).
//!
//! The first mismatch is reported, naming the host field. The check compares
//! top-level fields only: the inner layout of a field (the element stride of
//! an array field, the members of a nested struct) is the caller's to check
//! with a nested description. A block ending in a runtime array is bound as
//! a header struct plus a slice of elements; [`check_host_element`] checks
//! the element type's size against the array stride.

use std::fmt;

/// One field of a host struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostMember {
    /// The field name.
    pub name: &'static str,
    /// `offset_of!` the field.
    pub offset: usize,
    /// `size_of` the field's type.
    pub size: usize,
}

/// A host (`#[repr(C)]`) struct as [`host_struct!`](crate::host_struct!) describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostStruct {
    /// The type's name as written in the macro.
    pub name: &'static str,
    /// `size_of` the struct.
    pub size: usize,
    /// `align_of` the struct.
    pub align: usize,
    /// The fields that stand for block members, in block order.
    pub members: Vec<HostMember>,
}

/// One member of a shader block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMember {
    /// The member name, when the compiler knows one.
    pub name: Option<String>,
    /// `Offset` of the member.
    pub offset: u64,
    /// Bytes from the offset to the end of the member's last data byte.
    pub size: u64,
}

/// A trailing runtime array of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeArrayLayout {
    /// Offset of its first element.
    pub offset: u64,
    /// `ArrayStride`.
    pub stride: u64,
}

/// A shader block's layout, as the host must reproduce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockLayout {
    /// The block's (struct's) name, when known.
    pub name: Option<String>,
    /// The block's size under its layout rules (for a block ending in a
    /// runtime array: the offset of that array).
    pub size: u64,
    /// The block's alignment under its layout rules.
    pub align: u64,
    /// The members, in order, without a trailing runtime array.
    pub members: Vec<BlockMember>,
    /// The trailing runtime array, if any.
    pub runtime_array: Option<RuntimeArrayLayout>,
}

impl BlockLayout {
    /// The end of the last byte of member data.
    pub fn data_end(&self) -> u64 {
        self.members
            .iter()
            .map(|m| m.offset.saturating_add(m.size))
            .max()
            .unwrap_or(0)
    }

    fn display_name(&self) -> String {
        match &self.name {
            Some(n) => format!("block '{n}'"),
            None => "the block".to_string(),
        }
    }
}

/// Names a block member in messages: `member 2` or `member 2 ('x')`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRef {
    /// Index in the block.
    pub index: usize,
    /// Name, when known.
    pub name: Option<String>,
}

impl fmt::Display for MemberRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "member {}", self.index)?;
        if let Some(n) = &self.name {
            write!(f, " ('{n}')")?;
        }
        Ok(())
    }
}

/// The first difference between a host struct and a block.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HostLayoutError {
    /// The host lists a different number of fields than the block has
    /// members.
    #[error(
        "host struct {host} lists {host_members} fields but {block} has {block_members} members"
    )]
    MemberCount {
        /// Host type name.
        host: &'static str,
        /// The block, for messages.
        block: String,
        /// Number of listed host fields.
        host_members: usize,
        /// Number of block members (without a runtime array).
        block_members: usize,
    },
    /// A field at another offset than its member.
    #[error(
        "{host}.{field} is at offset {host_offset}, but block {member} is at offset {block_offset}"
    )]
    Offset {
        /// Host type name.
        host: &'static str,
        /// Host field name.
        field: &'static str,
        /// The block member.
        member: MemberRef,
        /// The field's offset.
        host_offset: u64,
        /// The member's offset.
        block_offset: u64,
    },
    /// A field smaller than its member's extent.
    #[error("{host}.{field} is {host_size} bytes, but block {member} spans {block_size} bytes")]
    MemberSize {
        /// Host type name.
        host: &'static str,
        /// Host field name.
        field: &'static str,
        /// The block member.
        member: MemberRef,
        /// The field's size.
        host_size: u64,
        /// The member's extent.
        block_size: u64,
    },
    /// A struct that does not cover the block's data.
    #[error("host struct {host} is {host_size} bytes, but {block} has data up to byte {needed}")]
    StructSize {
        /// Host type name.
        host: &'static str,
        /// The block, for messages.
        block: String,
        /// `size_of` the host struct.
        host_size: u64,
        /// The end of the block's data.
        needed: u64,
    },
    /// An element type whose size differs from the runtime array's stride.
    #[error(
        "host element {host} is {host_size} bytes, but the runtime array's stride is {stride}"
    )]
    ElementStride {
        /// Host type name.
        host: &'static str,
        /// `size_of` the host element.
        host_size: u64,
        /// The array stride.
        stride: u64,
    },
}

/// Checks that `host` reproduces `block` (see the module docs).
pub fn check_host_layout(host: &HostStruct, block: &BlockLayout) -> Result<(), HostLayoutError> {
    if host.members.len() != block.members.len() {
        return Err(HostLayoutError::MemberCount {
            host: host.name,
            block: block.display_name(),
            host_members: host.members.len(),
            block_members: block.members.len(),
        });
    }
    for (index, (h, b)) in host.members.iter().zip(&block.members).enumerate() {
        let member = || MemberRef {
            index,
            name: b.name.clone(),
        };
        let host_offset = h.offset as u64;
        if host_offset != b.offset {
            return Err(HostLayoutError::Offset {
                host: host.name,
                field: h.name,
                member: member(),
                host_offset,
                block_offset: b.offset,
            });
        }
        if (h.size as u64) < b.size {
            return Err(HostLayoutError::MemberSize {
                host: host.name,
                field: h.name,
                member: member(),
                host_size: h.size as u64,
                block_size: b.size,
            });
        }
    }
    let needed = block.data_end();
    if (host.size as u64) < needed {
        return Err(HostLayoutError::StructSize {
            host: host.name,
            block: block.display_name(),
            host_size: host.size as u64,
            needed,
        });
    }
    Ok(())
}

/// Checks that a slice of `element` values has the stride of `array`.
pub fn check_host_element(
    element: &HostStruct,
    array: &RuntimeArrayLayout,
) -> Result<(), HostLayoutError> {
    if element.size as u64 != array.stride {
        return Err(HostLayoutError::ElementStride {
            host: element.name,
            host_size: element.size as u64,
            stride: array.stride,
        });
    }
    Ok(())
}

/// The size of a field's type, given an accessor (used by [`host_struct!`](crate::host_struct!)).
#[doc(hidden)]
pub fn field_size<T, F>(_field: impl Fn(&T) -> &F) -> usize {
    std::mem::size_of::<F>()
}

/// Describes a `#[repr(C)]` struct for [`check_host_layout`]:
/// `host_struct!(Params { scale, offset, count })` lists the fields that
/// stand for the block's members, in block order.
#[macro_export]
macro_rules! host_struct {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        $crate::host_layout::HostStruct {
            name: ::core::stringify!($ty),
            size: ::core::mem::size_of::<$ty>(),
            align: ::core::mem::align_of::<$ty>(),
            members: ::std::vec![$(
                $crate::host_layout::HostMember {
                    name: ::core::stringify!($field),
                    offset: ::core::mem::offset_of!($ty, $field),
                    size: $crate::host_layout::field_size(|v: &$ty| &v.$field),
                }
            ),*],
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// std140 `{ vec3 a; float b; vec4 c; float d[2]; }` as the compiler
    /// describes it: a at 0 (12 bytes), b at 12, c at 16, d at 32 (stride
    /// 16: 20 bytes of data), block size 64.
    fn block() -> BlockLayout {
        let m = |offset, size| BlockMember {
            name: None,
            offset,
            size,
        };
        BlockLayout {
            name: Some("Params".into()),
            size: 64,
            align: 16,
            members: vec![m(0, 12), m(12, 4), m(16, 16), m(32, 20)],
            runtime_array: None,
        }
    }

    #[repr(C)]
    #[allow(dead_code, reason = "fields are only measured")]
    struct Good {
        a: [f32; 3],
        b: f32,
        c: [f32; 4],
        d: [[f32; 4]; 2],
    }

    #[repr(C)]
    #[allow(dead_code, reason = "fields are only measured")]
    struct Packed {
        a: [f32; 3],
        b: f32,
        c: [f32; 4],
        d: [f32; 2],
    }

    #[repr(C)]
    #[allow(dead_code, reason = "fields are only measured")]
    struct Shifted {
        a: [f32; 4],
        b: f32,
        _pad: [f32; 3],
        c: [f32; 4],
        d: [[f32; 4]; 2],
    }

    #[test]
    fn matching_struct_passes() {
        let host = host_struct!(Good { a, b, c, d });
        assert_eq!(host.size, 64);
        assert_eq!(host.members[3].offset, 32);
        assert_eq!(host.members[3].size, 32);
        assert_eq!(check_host_layout(&host, &block()), Ok(()));
    }

    #[test]
    fn too_small_array_field_is_named() {
        let host = host_struct!(Packed { a, b, c, d });
        let err = check_host_layout(&host, &block()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Packed.d is 8 bytes, but block member 3 spans 20 bytes"
        );
    }

    #[test]
    fn first_differing_offset_is_named() {
        let host = host_struct!(Shifted { a, b, c, d });
        let err = check_host_layout(&host, &block()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Shifted.b is at offset 16, but block member 1 is at offset 12"
        );
    }

    #[test]
    fn member_count_and_struct_size() {
        let host = host_struct!(Good { a, b, c });
        let err = check_host_layout(&host, &block()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "host struct Good lists 3 fields but block 'Params' has 4 members"
        );
        let mut host = host_struct!(Good { a, b, c, d });
        host.size = 40;
        host.members[3].size = 20;
        let err = check_host_layout(&host, &block()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "host struct Good is 40 bytes, but block 'Params' has data up to byte 52"
        );
    }

    #[test]
    fn element_stride() {
        let rt = RuntimeArrayLayout {
            offset: 16,
            stride: 16,
        };
        assert_eq!(
            check_host_element(&host_struct!(Good { a, b }), &rt)
                .unwrap_err()
                .to_string(),
            "host element Good is 64 bytes, but the runtime array's stride is 16"
        );
        #[repr(C)]
        #[allow(dead_code, reason = "fields are only measured")]
        struct V4 {
            v: [f32; 4],
        }
        assert_eq!(check_host_element(&host_struct!(V4 { v }), &rt), Ok(()));
    }
}
