//! Pooled device memory: blocks suballocated into slices.
//!
//! A [`BlockPool`] owns blocks of one [`MemoryKind`]; a block is one
//! `VkBuffer` bound to its own (dedicated) gpu-allocator allocation, so
//! destroying an empty block gives its memory back to the driver. A
//! [`Slice`] is an aligned range of a block, handed out first-fit from the
//! block's free list; requests larger than the pool's block size get a block
//! of their own. No block is larger than the context's
//! [`max_allocation_size`](Context::max_allocation_size) (its
//! `maxMemoryAllocationSize`, or a lower limit a test forced): a larger
//! request is refused with [`Error::AllocationTooLarge`] before Vulkan is
//! called (kiln-runtime makes such a tensor of several slices). Blocks are
//! gpu-allocator's dedicated allocations, so its own block sizes play no
//! part.
//!
//! Invariants:
//! - **A range is free only when nothing can use it.** A slice's range goes
//!   back to its block's free list when the last reference to the slice is
//!   dropped. [`CommandBatch`](crate::CommandBatch) takes a reference to
//!   every slice it records a command on and keeps it until its submission
//!   has completed on the [`Timeline`](crate::Timeline) (or until it is
//!   dropped unsubmitted), so a slice dropped by its owner while queued work
//!   still uses it is not handed out again before that work is done.
//! - **A block is destroyed only when empty**, by [`BlockPool::trim`] (or
//!   when the pool itself goes): an empty block has no slices, hence no
//!   pending work uses it.
//! - Slice offsets are multiples of the pool's alignment (at least the
//!   device's `minStorageBufferOffsetAlignment`,
//!   `minUniformBufferOffsetAlignment`, `minTexelBufferOffsetAlignment` and
//!   16 bytes, so a slice binds as any buffer descriptor) and slice
//!   reservations multiples of 4 bytes (fills and updates work in words).
//! - Host access ([`Slice::write`], [`Slice::read`]) is only for
//!   host-visible kinds and copies bytes through the persistent mapping;
//!   writing needs `&mut Slice`, so two host threads never write one slice
//!   at once. What the GPU sees of host writes made while queued work uses
//!   the slice is unspecified (never memory-unsafe): write fresh slices, or
//!   order host access after the work with the timeline.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

use crate::context::{lock, Context, DeviceShared};
use crate::error::{map_allocator, Error, Result};
use crate::fault::CallFamily;

/// What memory a pool's blocks live in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryKind {
    /// Device-local memory the host cannot see: tensors on a discrete GPU,
    /// filled and read through staging copies.
    DeviceLocal,
    /// Device-local memory that is also host-visible and coherent
    /// ([`Context::has_unified_memory`]): tensors on integrated GPUs and
    /// lavapipe, written and read by the host directly.
    Unified,
    /// Host-visible memory for host → device staging (write-combined where
    /// the device has it).
    Upload,
    /// Host-visible, host-cached where available, for device → host
    /// staging.
    Readback,
}

impl MemoryKind {
    /// Whether the host can map it ([`Slice::write`], [`Slice::read`]).
    pub fn host_visible(self) -> bool {
        !matches!(self, Self::DeviceLocal)
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::DeviceLocal => "device-local",
            Self::Unified => "unified",
            Self::Upload => "upload",
            Self::Readback => "readback",
        }
    }

    fn location(self) -> MemoryLocation {
        match self {
            Self::DeviceLocal => MemoryLocation::GpuOnly,
            Self::Unified | Self::Upload => MemoryLocation::CpuToGpu,
            Self::Readback => MemoryLocation::GpuToCpu,
        }
    }
}

/// How much a pool holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Bytes of the blocks the pool holds (what the driver gave it).
    pub reserved: u64,
    /// Bytes of the live slices' reservations.
    pub in_use: u64,
    /// The highest `in_use` so far.
    pub peak_in_use: u64,
    /// Number of blocks.
    pub blocks: usize,
    /// Number of live slices.
    pub slices: usize,
}

/// One `VkBuffer` with its own memory: what slices are carved from.
pub(crate) struct Block {
    pub(crate) device: Arc<DeviceShared>,
    pub(crate) raw: vk::Buffer,
    pub(crate) allocation: Mutex<Option<Allocation>>,
    pub(crate) size: u64,
    pub(crate) mapped: Option<MappedPtr>,
    /// Unique among the blocks of a process (for hazard tracking).
    pub(crate) id: u64,
    /// The kind of memory.
    pub(crate) kind: MemoryKind,
    /// Where the memory comes from.
    pub(crate) memory: BlockMemory,
}

/// Where a block's memory comes from.
pub(crate) enum BlockMemory {
    /// gpu-allocator's (the block's `allocation`).
    Allocated,
    /// Host memory imported by [`Context::import_host`] (`memory` is null
    /// until the import succeeded); `_owner` lends it and is dropped after
    /// the block's buffer and memory are destroyed.
    Imported {
        memory: vk::DeviceMemory,
        read_only: bool,
        _owner: Box<dyn crate::host_import::HostMemory>,
    },
    /// Memory of its own shared as a file descriptor (see
    /// `external_fd`): allocated exportable by
    /// [`Context::allocate_exportable`], or imported by
    /// [`Context::import_fd`] (`memory` is null until set).
    External {
        memory: vk::DeviceMemory,
        exportable: bool,
        memory_type_index: u32,
        allocation_size: u64,
        dedicated: bool,
    },
}

/// The persistent mapping of a block (for an imported one: the host
/// pointer of its first page).
#[derive(Clone, Copy)]
pub(crate) struct MappedPtr(pub(crate) NonNull<u8>);

// SAFETY: the pointer is the base of a persistent mapping owned by the
// block's allocation, valid until the block is dropped; it is only used for
// bounds-checked byte copies (`Slice::write` needs `&mut Slice`, so host
// writes to one slice never race), which any thread may make.
unsafe impl Send for MappedPtr {}
// SAFETY: as above.
unsafe impl Sync for MappedPtr {}

pub(crate) static NEXT_BLOCK_ID: AtomicU64 = AtomicU64::new(1);

/// The most bytes one allocation of `physical` may have:
/// `maxMemoryAllocationSize` (Vulkan 1.1) and `maxBufferSize` (1.3), the
/// least of them; before 1.1, the largest memory heap.
pub(crate) fn max_allocation_size(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    version: u32,
    memory: &vk::PhysicalDeviceMemoryProperties,
) -> u64 {
    let heaps = memory.memory_heaps[..memory.memory_heap_count as usize]
        .iter()
        .map(|h| h.size)
        .max()
        .unwrap_or(u64::MAX);
    if version < vk::API_VERSION_1_1 {
        return heaps;
    }
    let mut m3 = vk::PhysicalDeviceMaintenance3Properties::default();
    let mut m4 = vk::PhysicalDeviceMaintenance4Properties::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut m3);
    if version >= vk::API_VERSION_1_3 {
        props = props.push_next(&mut m4);
    }
    // SAFETY: `physical` belongs to the live instance, whose version (as
    // the device's) is at least 1.1; the chained structs are core in the
    // versions checked above and live across the call.
    unsafe { instance.get_physical_device_properties2(physical, &mut props) };
    let mut most = m3.max_memory_allocation_size;
    if version >= vk::API_VERSION_1_3 && m4.max_buffer_size > 0 {
        most = most.min(m4.max_buffer_size);
    }
    if most == 0 {
        heaps
    } else {
        most
    }
}

impl Block {
    /// A block of `size` bytes of `kind` memory.
    fn new(device: &Arc<DeviceShared>, kind: MemoryKind, size: u64) -> Result<Self> {
        if size > device.max_allocation_size {
            return Err(Error::AllocationTooLarge {
                what: format!("a {} block", kind.name()),
                bytes: size,
                limit: device.max_allocation_size,
            });
        }
        let info = crate::conv::buffer_info(size);
        // SAFETY: valid create info (non-zero size, supported usage) for the
        // live device.
        let raw = device.call(CallFamily::Create, "vkCreateBuffer", || unsafe {
            device.raw.create_buffer(&info, None)
        })?;
        let mut block = Self {
            device: Arc::clone(device),
            raw,
            allocation: Mutex::new(None),
            size,
            mapped: None,
            id: NEXT_BLOCK_ID.fetch_add(1, Ordering::Relaxed),
            kind,
            memory: BlockMemory::Allocated,
        };
        // The allocation is the Memory family's call: an armed fault
        // replaces it.
        if let Some(code) = device.faults.take(CallFamily::Memory) {
            return Err(device.failed(CallFamily::Memory, "vkAllocateMemory", code));
        }
        // SAFETY: `raw` is a live buffer of this device.
        let requirements = unsafe { device.raw.get_buffer_memory_requirements(raw) };
        device.note_call();
        let allocation = device
            .allocator()
            .allocate(&AllocationCreateDesc {
                name: "kiln pool block",
                requirements,
                location: kind.location(),
                linear: true,
                allocation_scheme: AllocationScheme::DedicatedBuffer(raw),
            })
            .map_err(|e| map_allocator(|| format!("a {} block of {size} bytes", kind.name()), e))?;
        if kind.host_visible() {
            match allocation.mapped_ptr() {
                Some(p) => block.mapped = Some(MappedPtr(p.cast())),
                None => {
                    let _ = device.allocator().free(allocation);
                    return Err(Error::Allocation {
                        what: format!("a {} block of {size} bytes", kind.name()),
                        source: gpu_allocator::AllocationError::FailedToMap(
                            "the memory type is not host-visible".to_owned(),
                        ),
                    });
                }
            }
        }
        // SAFETY: the memory handle is only bound to the buffer below, while
        // the allocation (kept in the block) owns it.
        let (memory, offset) = (unsafe { allocation.memory() }, allocation.offset());
        *lock(&block.allocation) = Some(allocation);
        // SAFETY: the allocation was made from the buffer's requirements for
        // it alone (dedicated) and the buffer is not bound yet.
        device.call(CallFamily::Create, "vkBindBufferMemory", || unsafe {
            device.raw.bind_buffer_memory(raw, memory, offset)
        })?;
        Ok(block)
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: a block is dropped only when no slice of it is alive, and
        // batches keep the slices they use alive until their work completed,
        // so the GPU no longer uses the buffer. Memory goes after the buffer.
        unsafe { self.device.raw.destroy_buffer(self.raw, None) };
        if let Some(allocation) = lock(&self.allocation).take() {
            // A failure only means the allocator's bookkeeping is off; the
            // device frees all memory when it is destroyed.
            let _ = self.device.allocator().free(allocation);
        }
        if let BlockMemory::Imported { memory, .. } | BlockMemory::External { memory, .. } =
            self.memory
        {
            // SAFETY: the buffer bound to the memory is gone (above) and
            // no work uses it; freeing a null handle (an import that
            // failed) is a no-op; freeing unmaps a mapped one. The host
            // memory's owner is dropped after this (fields drop after
            // `drop`).
            unsafe { self.device.raw.free_memory(memory, None) };
        }
    }
}

/// A block and its free ranges.
struct Entry {
    block: Arc<Block>,
    /// Free `(offset, size)` ranges, sorted by offset, never adjacent.
    free: Vec<(u64, u64)>,
    /// Live slices in the block.
    live: usize,
}

impl Entry {
    fn take(&mut self, size: u64, align: u64) -> Option<u64> {
        list_take(&mut self.free, &mut self.live, size, align)
    }

    fn give(&mut self, offset: u64, size: u64) {
        list_give(&mut self.free, &mut self.live, offset, size);
    }
}

/// First fit of `size` bytes at `align` in the sorted free list `free`;
/// carves it out and counts one more live slice.
fn list_take(free: &mut Vec<(u64, u64)>, live: &mut usize, size: u64, align: u64) -> Option<u64> {
    for i in 0..free.len() {
        let (start, len) = free[i];
        let at = start.next_multiple_of(align);
        let pad = at - start;
        if pad + size > len {
            continue;
        }
        let tail = (at + size, len - pad - size);
        match (pad > 0, tail.1 > 0) {
            (false, false) => {
                free.remove(i);
            }
            (true, false) => free[i] = (start, pad),
            (false, true) => free[i] = tail,
            (true, true) => {
                free[i] = (start, pad);
                free.insert(i + 1, tail);
            }
        }
        *live += 1;
        return Some(at);
    }
    None
}

/// Gives `(offset, size)` back to the sorted free list, merging it with its
/// neighbours, and counts one live slice less.
fn list_give(free: &mut Vec<(u64, u64)>, live: &mut usize, offset: u64, size: u64) {
    let i = free.partition_point(|&(o, _)| o < offset);
    let mut range = (offset, size);
    let mut at = i;
    if i > 0 && free[i - 1].0 + free[i - 1].1 == offset {
        at = i - 1;
        range = (free[at].0, free[at].1 + size);
        free.remove(at);
    }
    if at < free.len() && range.0 + range.1 == free[at].0 {
        range.1 += free[at].1;
        free.remove(at);
    }
    free.insert(at, range);
    *live -= 1;
}

struct PoolState {
    entries: Vec<Entry>,
    stats: PoolStats,
}

pub(crate) struct PoolShared {
    device: Arc<DeviceShared>,
    kind: MemoryKind,
    block_size: u64,
    align: u64,
    state: Mutex<PoolState>,
}

impl PoolShared {
    fn release(&self, block: u64, offset: u64, reserved: u64) {
        let mut state = lock(&self.state);
        if let Some(e) = state.entries.iter_mut().find(|e| e.block.id == block) {
            e.give(offset, reserved);
        }
        state.stats.in_use -= reserved;
        state.stats.slices -= 1;
    }
}

/// A pool of blocks of one memory kind, handing out [`Slice`]s. Cloning
/// gives another handle on the same pool.
#[derive(Clone)]
pub struct BlockPool {
    shared: Arc<PoolShared>,
}

impl std::fmt::Debug for BlockPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockPool")
            .field("kind", &self.shared.kind)
            .field("block_size", &self.shared.block_size)
            .field("stats", &self.stats())
            .finish()
    }
}

impl BlockPool {
    /// A pool of `kind` memory on `ctx`'s device whose blocks are
    /// `block_size` bytes (rounded up to 64 KiB). Allocates nothing yet.
    /// [`MemoryKind::Unified`] on a device without unified memory is
    /// [`Error::Unsupported`].
    pub fn new(ctx: &Context, kind: MemoryKind, block_size: u64) -> Result<Self> {
        if kind == MemoryKind::Unified && !ctx.has_unified_memory() {
            return Err(Error::Unsupported {
                what: "unified (device-local and host-visible) memory",
            });
        }
        let align = ctx.slice_alignment();
        Ok(Self {
            shared: Arc::new(PoolShared {
                device: Arc::clone(&ctx.shared),
                kind,
                block_size: block_size.max(1).next_multiple_of(1 << 16),
                align,
                state: Mutex::new(PoolState {
                    entries: Vec::new(),
                    stats: PoolStats::default(),
                }),
            }),
        })
    }

    /// The pool's memory kind.
    pub fn kind(&self) -> MemoryKind {
        self.shared.kind
    }

    /// The alignment of every slice's offset.
    pub fn alignment(&self) -> u64 {
        self.shared.align
    }

    /// What the pool holds now.
    pub fn stats(&self) -> PoolStats {
        lock(&self.shared.state).stats
    }

    /// A slice of `size` bytes (not zeroed): from a free range of an
    /// existing block, else from a new block. Errors are typed: out of
    /// device memory ([`Error::OutOfDeviceMemory`], the device still
    /// usable: [`trim`](Self::trim) and retry), a zero size
    /// ([`Error::ZeroSizedBuffer`]), more than one allocation may have
    /// ([`Error::AllocationTooLarge`]).
    pub fn allocate(&self, size: u64) -> Result<Slice> {
        if size == 0 {
            return Err(Error::ZeroSizedBuffer);
        }
        let p = &self.shared;
        let reserved = size.next_multiple_of(4);
        let mut state = lock(&p.state);
        let found = state.entries.iter_mut().find_map(|e| {
            e.take(reserved, p.align)
                .map(|at| (Arc::clone(&e.block), at))
        });
        let (block, offset) = match found {
            Some(found) => found,
            None => {
                // At most one allocation's limit (a request past it is
                // refused by `Block::new`).
                let most = p.device.max_allocation_size / p.align * p.align;
                let block_size = reserved
                    .next_multiple_of(p.align)
                    .max(p.block_size.min(most));
                let block = Arc::new(Block::new(&p.device, p.kind, block_size)?);
                let mut entry = Entry {
                    block: Arc::clone(&block),
                    free: vec![(0, block_size)],
                    live: 0,
                };
                let at = entry
                    .take(reserved, p.align)
                    .expect("a fresh block holds the request it was sized for");
                state.entries.push(entry);
                state.stats.reserved += block_size;
                state.stats.blocks += 1;
                (block, at)
            }
        };
        state.stats.in_use += reserved;
        state.stats.slices += 1;
        state.stats.peak_in_use = state.stats.peak_in_use.max(state.stats.in_use);
        drop(state);
        Ok(Slice {
            shared: Arc::new(SliceShared {
                pool: Some(Arc::clone(p)),
                block,
                offset,
                size,
                reserved,
            }),
        })
    }

    /// Destroys the blocks that hold no slice, giving their memory back to
    /// the driver; returns the bytes released.
    pub fn trim(&self) -> u64 {
        let mut state = lock(&self.shared.state);
        let mut freed = 0;
        state.entries.retain(|e| {
            let empty = e.live == 0;
            if empty {
                freed += e.block.size;
            }
            !empty
        });
        state.stats.reserved -= freed;
        state.stats.blocks = state.entries.len();
        freed
    }
}

impl Context {
    /// The alignment of every pool slice's offset (and of imported host
    /// memory's address and length): the device's storage, uniform and
    /// texel buffer offset alignments and 16 bytes, whichever is largest,
    /// as a power of two.
    pub fn slice_alignment(&self) -> u64 {
        let limits = self.limits();
        limits
            .min_storage_buffer_offset_alignment
            .max(limits.min_uniform_buffer_offset_alignment)
            .max(limits.min_texel_buffer_offset_alignment)
            .max(16)
            .next_power_of_two()
    }
}

/// What a slice shares with the batches that use it.
pub(crate) struct SliceShared {
    /// The pool it came from; `None` for imported host memory (its block
    /// is its own and goes with it).
    pub(crate) pool: Option<Arc<PoolShared>>,
    pub(crate) block: Arc<Block>,
    pub(crate) offset: u64,
    pub(crate) size: u64,
    pub(crate) reserved: u64,
}

impl SliceShared {
    /// The bytes reserved for the slice (its size rounded up to 4).
    pub(crate) fn reserved_size(&self) -> u64 {
        self.reserved
    }
}

impl Drop for SliceShared {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            pool.release(self.block.id, self.offset, self.reserved);
        }
    }
}

/// An aligned range of a pooled block: what tensors live in and what
/// [`CommandBatch`](crate::CommandBatch) commands bind, copy and fill. Its
/// range returns to the pool when the slice and every batch that used it
/// are done with it (see the module docs).
pub struct Slice {
    pub(crate) shared: Arc<SliceShared>,
}

impl std::fmt::Debug for Slice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slice")
            .field("block", &self.block_id())
            .field("offset", &self.offset())
            .field("size", &self.size())
            .finish()
    }
}

impl Slice {
    /// The size asked for, in bytes.
    pub fn size(&self) -> u64 {
        self.shared.size
    }

    /// The slice's offset in its block's `VkBuffer`.
    pub fn offset(&self) -> u64 {
        self.shared.offset
    }

    /// An id of the block the slice is in, unique in the process (tests use
    /// it to tell whether two slices share memory).
    pub fn block_id(&self) -> u64 {
        self.shared.block.id
    }

    /// The memory kind of its pool (imported host memory is
    /// [`MemoryKind::Unified`]).
    pub fn kind(&self) -> MemoryKind {
        self.shared.block.kind
    }

    /// The address at which the host sees the slice's first byte
    /// (host-visible kinds; for imported host memory, the caller's
    /// pointer).
    pub fn host_address(&self) -> Option<usize> {
        let s = &self.shared;
        s.block
            .mapped
            .map(|m| m.0.as_ptr() as usize + s.offset as usize)
    }

    /// Whether the slice is over host memory imported by
    /// [`Context::import_host`].
    pub fn is_imported(&self) -> bool {
        matches!(self.shared.block.memory, BlockMemory::Imported { .. })
    }

    /// Whether the slice refuses writes (imported read-only host memory).
    pub fn is_read_only(&self) -> bool {
        matches!(
            self.shared.block.memory,
            BlockMemory::Imported {
                read_only: true,
                ..
            }
        )
    }

    /// [`Error::ReadOnlyMemory`] naming `what` if the slice is read-only.
    pub(crate) fn check_writable(&self, what: impl FnOnce() -> String) -> Result<()> {
        if self.is_read_only() {
            return Err(Error::ReadOnlyMemory { what: what() });
        }
        Ok(())
    }

    /// The raw buffer the slice is a range of.
    pub fn raw_buffer(&self) -> vk::Buffer {
        self.shared.block.raw
    }

    /// Whether two slices overlap in memory.
    pub fn overlaps(&self, other: &Slice) -> bool {
        let (a, b) = (&self.shared, &other.shared);
        a.block.id == b.block.id
            && a.offset < b.offset + b.reserved
            && b.offset < a.offset + a.reserved
    }

    fn host_range(&self, offset: u64, len: usize) -> Result<(NonNull<u8>, usize)> {
        let s = &self.shared;
        let Some(base) = s.block.mapped else {
            return Err(Error::Unsupported {
                what: "host access to device-local memory (use a staging copy)",
            });
        };
        let len64 = len as u64;
        match offset.checked_add(len64) {
            Some(end) if end <= s.size => {
                // In bounds of the mapping: the block is `block.size` bytes
                // and the slice lies inside it.
                let at = (s.offset + offset) as usize;
                // SAFETY: `at` is inside the mapped block (checked above).
                Ok((unsafe { base.0.add(at) }, len))
            }
            _ => Err(Error::OutOfRange {
                offset,
                len: len64,
                size: s.size,
            }),
        }
    }

    /// Copies `data` into the slice at byte `offset` through the mapping
    /// (host-visible kinds only).
    pub fn write(&mut self, offset: u64, data: &[u8]) -> Result<()> {
        self.check_writable(|| "a host write".to_owned())?;
        let (ptr, len) = self.host_range(offset, data.len())?;
        // SAFETY: `ptr..ptr+len` lies in the slice's mapped range (checked);
        // `&mut self` excludes other host access to the slice; `data` is a
        // separate host allocation, so the ranges do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), ptr.as_ptr(), len) };
        Ok(())
    }

    /// Calls `fill` on the `len` bytes at byte `offset` of the slice, seen
    /// through the mapping (host-visible kinds only): the caller writes
    /// them in place, without a copy of its own (a Python buffer's bytes
    /// copied straight into a tensor).
    pub fn write_with<R>(
        &mut self,
        offset: u64,
        len: usize,
        fill: impl FnOnce(&mut [u8]) -> R,
    ) -> Result<R> {
        self.check_writable(|| "a host write".to_owned())?;
        let (ptr, len) = self.host_range(offset, len)?;
        // SAFETY: `ptr..ptr+len` lies in the slice's mapped range (checked),
        // which stays mapped while the slice lives; `&mut self` excludes
        // other host access to the slice for the borrow's lifetime, which
        // ends when `fill` returns. Mapped memory is plain bytes (any value
        // is a valid `u8`).
        let bytes = unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr(), len) };
        Ok(fill(bytes))
    }

    /// Calls `f` on the `len` bytes at byte `offset` of the slice, seen
    /// through the mapping (host-visible kinds only): the caller reads them
    /// in place (copies them straight into memory of its own).
    pub fn read_with<R>(&self, offset: u64, len: usize, f: impl FnOnce(&[u8]) -> R) -> Result<R> {
        let (ptr, len) = self.host_range(offset, len)?;
        // SAFETY: as in `read`: the range lies in the slice's mapping (checked)
        // and host writes need `&mut Slice`, which cannot coexist with this
        // `&self` while `f` borrows the bytes; device writes are ordered by
        // the caller (kiln-runtime's hazard tracking holds the read's
        // snapshot lock, which a later device write waits on).
        let bytes = unsafe { std::slice::from_raw_parts(ptr.as_ptr().cast_const(), len) };
        Ok(f(bytes))
    }

    /// Copies `out.len()` bytes at byte `offset` out of the slice through
    /// the mapping (host-visible kinds only).
    pub fn read(&self, offset: u64, out: &mut [u8]) -> Result<()> {
        let (ptr, len) = self.host_range(offset, out.len())?;
        // SAFETY: as in `write`; host writes need `&mut Slice`, which cannot
        // coexist with this `&self`.
        unsafe { std::ptr::copy_nonoverlapping(ptr.as_ptr(), out.as_mut_ptr(), len) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_fit_and_coalescing() {
        let mut free = vec![(0, 1024)];
        let mut live = 0;
        assert_eq!(list_take(&mut free, &mut live, 100, 64), Some(0));
        assert_eq!(list_take(&mut free, &mut live, 100, 64), Some(128));
        assert_eq!(list_take(&mut free, &mut live, 100, 64), Some(256));
        assert_eq!(free, vec![(100, 28), (228, 28), (356, 668)]);
        assert_eq!(list_take(&mut free, &mut live, 1000, 64), None);
        list_give(&mut free, &mut live, 128, 100);
        assert_eq!(free, vec![(100, 156), (356, 668)]);
        list_give(&mut free, &mut live, 0, 100);
        assert_eq!(free, vec![(0, 256), (356, 668)]);
        list_give(&mut free, &mut live, 256, 100);
        assert_eq!(free, vec![(0, 1024)]);
        assert_eq!(live, 0);
    }
}
