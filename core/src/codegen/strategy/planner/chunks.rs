//! Buffers bound in chunks: a buffer of static size larger than the
//! target's `maxStorageBufferRange` is bound by every kernel that reads or
//! writes it as a storage buffer as an array of descriptors, one per chunk
//! of [`storage_chunk_bytes`](crate::target::ResourceLimits::storage_chunk_bytes)
//! (chunk `k` at byte `k * chunk`; the runtime binds them so, and the
//! lowering splits each access, `lower/helpers/memory.rs`). The planner
//! decides it here, once per dispatch, and every [`KernelPlan`] carries
//! it; the kernel stage only maps the buffers its kernel binds as storage
//! buffers (not those it reads through texel views, whose limit is their
//! own) to their bindings. A buffer sized at run time is not split: it is
//! refused past the range
//! ([`BufferSizeError::TooLarge`](super::super::super::exec::BufferSizeError::TooLarge)).
//!
//! Not done yet, run-time sizes (issue 32): a descriptor array's length is
//! static in SPIR-V, so a kernel for a run-time-sized buffer would be a
//! second variant of the dispatch's kernels, `_chunked`, binding it as
//! `N` descriptors with `N` from a bound the planner can prove (the
//! buffer's largest size under the function's `util.assume`s or
//! `i32::MAX` elements, capped by `maxPerStageDescriptorStorageBuffers`),
//! selected by a [`Guard`](super::super::super::guard::Guard) on the
//! buffer's byte size being past the range (the plain kernel taking the
//! other runs); the runtime would bind the chunks the buffer has and
//! repeat its last one for the rest (every descriptor a kernel statically
//! uses must be valid, and the per-chunk branches never reach them), and
//! `BufferSizeError::TooLarge` would remain only past `N` chunks.
//!
//! [`KernelPlan`]: super::KernelPlan

use crate::target::ResourceLimits;

use super::super::super::bufferize::{element_bytes, BufferId, BufferPlan};

/// Every buffer of `buffers` of static size larger than `limits`'
/// `maxStorageBufferRange`, with its number of chunks, by buffer id.
pub(crate) fn chunked_buffers(
    buffers: &BufferPlan,
    limits: &ResourceLimits,
) -> Vec<(BufferId, u32)> {
    let range = u64::from(limits.max_storage_buffer_range);
    let chunk = limits.storage_chunk_bytes();
    buffers
        .buffers
        .iter()
        .enumerate()
        .filter_map(|(b, info)| {
            let n = info
                .shape
                .iter()
                .map(|s| s.fixed())
                .try_fold(1u64, |acc, d| acc.checked_mul(d?))?;
            let bytes = n.checked_mul(element_bytes(info.elem) as u64)?;
            if bytes <= range {
                return None;
            }
            Some((b, u32::try_from(bytes.div_ceil(chunk)).ok()?))
        })
        .collect()
}
