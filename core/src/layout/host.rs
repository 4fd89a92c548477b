//! From a shader block to the description the host-side check compares a
//! `#[repr(C)]` struct with ([`kiln_abi::host_layout`]).
//!
//! [`block_layout`] takes a struct type: when its members carry offsets they
//! are checked against the rules ([`super::block::check`]) and used as they
//! are; otherwise the rules lay it out ([`super::block::layout`]). Each
//! member is reported with its offset and its *extent* (the bytes a shader
//! may touch: an array up to the end of its last element, a struct up to
//! the end of its last member); a trailing runtime array is reported
//! separately with its offset and stride, since the host binds it as a
//! slice of elements.

use kiln_abi::host_layout::{BlockLayout, BlockMember, RuntimeArrayLayout};

use super::block::{self, BlockDetail, BlockLayoutError, BlockRules};
use crate::ir::{Type, TypeKind, TypeStore};
use crate::text::{self, Prefix};

/// The host-visible layout of the struct type `ty` under `rules`.
pub fn block_layout(
    types: &TypeStore,
    ty: Type,
    rules: BlockRules,
) -> Result<BlockLayout, BlockLayoutError> {
    let not_struct = || BlockLayoutError::Unsupported {
        ty: text::print_type(types, ty, Prefix::Spirv),
        at: "the type".to_string(),
        rules,
        why: "a block is a struct",
    };
    let TypeKind::Struct(s) = types.kind(ty) else {
        return Err(not_struct());
    };
    let explicit = s.members.iter().any(|m| m.offset.is_some());
    let l = if explicit {
        block::check(types, ty, rules)?
    } else {
        block::layout(types, ty, rules)?
    };
    let BlockDetail::Struct { members } = &l.detail else {
        return Err(not_struct());
    };
    let mut out = Vec::with_capacity(members.len());
    let mut runtime_array = None;
    for m in members {
        match &m.layout.detail {
            BlockDetail::Array {
                len: None, stride, ..
            } => {
                runtime_array = Some(RuntimeArrayLayout {
                    offset: m.offset,
                    stride: *stride,
                });
            }
            _ => out.push(BlockMember {
                name: None,
                offset: m.offset,
                size: m.layout.extent(),
            }),
        }
    }
    Ok(BlockLayout {
        name: s.identifier.clone(),
        size: l.size,
        align: l.align,
        members: out,
        runtime_array,
    })
}
