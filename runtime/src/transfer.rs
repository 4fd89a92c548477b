//! Staged transfers in chunks: the host's copies overlap the device's.
//!
//! Where tensors are device-local, host data moves through host-visible
//! staging memory: a host `memcpy` and a copy on the device. Done whole,
//! the two run one after the other. A transfer larger than
//! [`DeviceOptions::staging_chunk_size`](crate::DeviceOptions::staging_chunk_size)
//! is split into chunks, each with a staging slice of its own and
//! **submitted as soon as its host copy is done**, so the device copies
//! chunk *i* while the host copies chunk *i + 1* (lavapipe, which runs
//! copies on the host's cores, copies on its queue thread):
//!
//! - **Upload** ([`upload_chunked`]): host copy into chunk *i*'s staging
//!   slice, record the device copy, submit; at most
//!   [`UPLOAD_CHUNKS_IN_FLIGHT`] chunks are queued — before the next, the
//!   host blocks on the timeline (a driver wait, never a spin) until the
//!   oldest completed, which gives its staging slice back to the pool, where
//!   the next chunk takes it: the pool is the staging ring.
//! - **Readback** ([`stage_out`]): one device copy per chunk, each its own
//!   submission (chunks grow so that a read has at most half of
//!   [`DeviceOptions::max_in_flight`](crate::DeviceOptions::max_in_flight)
//!   of them: staging it never waits for its own copies, and a `read()`
//!   future is returned at once); the reader waits for chunk *i*'s timeline
//!   value only, and
//!   copies it out while the device copies chunk *i + 1*
//!   ([`ReadSource::read`](crate::read::ReadSource::read)).
//!
//! A staging slice is reused only after the submission that used it
//! completed (batches hold their slices until then; see `kiln_vulkan::pool`).

use std::collections::VecDeque;

use crate::error::Result;
use crate::hazard::Use;
use crate::profile::AtomicCounters;
use crate::read::StagedChunk;
use crate::stream::StreamInner;
use crate::tensor::Tensor;

/// Chunks of one upload queued at once (bounds its staging memory to this
/// many chunks).
pub(crate) const UPLOAD_CHUNKS_IN_FLIGHT: usize = 4;

/// The chunk size of `device`'s staged transfers (at least 64 KiB, a
/// multiple of 4, at most one allocation: see [`most_staged`]).
pub(crate) fn chunk_size(device: &crate::inner::DeviceInner) -> u64 {
    let chunk = device.options.staging_chunk_size.max(1 << 16);
    chunk.next_multiple_of(4).min(most_staged(device))
}

/// The most bytes one staging slice may have: one allocation's limit
/// ([`Context::max_allocation_size`](kiln_vulkan::Context::max_allocation_size)),
/// in whole 4-byte words.
fn most_staged(device: &crate::inner::DeviceInner) -> u64 {
    (device.ctx.max_allocation_size() / 4 * 4).max(4)
}

/// Writes `bytes` at the start of the contiguous `dst` through staging, in
/// chunks of `chunk` bytes each submitted once its host copy is done.
pub(crate) fn upload_chunked(
    stream: &StreamInner,
    dst: &Tensor,
    bytes: &[u8],
    chunk: u64,
) -> Result<()> {
    let device = &stream.device;
    let base = dst.byte_range().0;
    let mut queued: VecDeque<u64> = VecDeque::with_capacity(UPLOAD_CHUNKS_IN_FLIGHT);
    for (i, part) in bytes.chunks(chunk as usize).enumerate() {
        if queued.len() >= UPLOAD_CHUNKS_IN_FLIGHT {
            if let Some(oldest) = queued.pop_front() {
                device.wait(oldest)?;
            }
        }
        let len = part.len() as u64;
        let mut staging = device.allocate(&device.upload, len)?;
        staging.write(0, part).map_err(|e| device.vk(e))?;
        AtomicCounters::add(&device.counters.bytes_staged, len);
        let at = base + i as u64 * chunk;
        let uses = [Use::write(&dst.storage, at, len)];
        let ticket = stream.record_ticket(None, len, &uses, |batch| {
            dst.storage.slice.copy_in(batch, &staging, 0, at, len)
        })?;
        queued.push_back(stream.flush_ticket(&ticket)?);
    }
    Ok(())
}

/// Copies the contiguous `src` into readback staging slices of `chunk`
/// bytes (more where that would make more than `max_in_flight / 2`
/// chunks), each copy its own submission; returns the chunks (their
/// timeline values ascending).
pub(crate) fn stage_out(
    stream: &StreamInner,
    src: &Tensor,
    chunk: u64,
) -> Result<Vec<StagedChunk>> {
    let device = &stream.device;
    let (offset, len) = src.byte_range();
    // At most half the submissions the device queues: staging a read never
    // waits for its own chunks (a `read()` future is returned at once).
    let most = (device.options.max_in_flight / 2).max(1) as u64;
    // ... but no chunk larger than one allocation (past `most` chunks of
    // that, staging may wait for the device to finish its earlier ones).
    let chunk = chunk
        .max(len.div_ceil(most).next_multiple_of(4))
        .min(most_staged(device));
    let mut chunks = Vec::with_capacity(len.div_ceil(chunk) as usize);
    let mut start = 0;
    while start < len {
        let n = chunk.min(len - start);
        let slice = device.allocate(&device.readback, n)?;
        let uses = [Use::read(&src.storage, offset + start, n)];
        let ticket = stream.record_ticket(None, n, &uses, |batch| {
            src.storage
                .slice
                .copy_out(batch, offset + start, &slice, 0, n)
        })?;
        let value = stream.flush_ticket(&ticket)?;
        AtomicCounters::add(&device.counters.bytes_staged, n);
        chunks.push(StagedChunk {
            start,
            value,
            slice,
        });
        start += n;
    }
    Ok(chunks)
}
