//! Command batches: many dispatches, copies and fills recorded into one
//! command buffer, submitted once, tracked on a [`Timeline`].
//!
//! A [`CommandBatch`] owns a command pool with one primary command buffer,
//! descriptor pools it carves one set per set number per dispatch from,
//! the buffer views of its dispatches' texel bindings (destroyed when the
//! batch is reset after its submission completed, or dropped), and, when
//! timing is on, timestamp query pools (two queries per
//! dispatch). Recording checks everything the one-shot dispatch checks
//! ([`Context::check_dispatch`](crate::Context::check_dispatch): bindings
//! against the interface, alignment, ranges, sizes, limits, push constants,
//! group counts) before any `vkCmd*` call.
//!
//! **Barriers come from the bindings' access.** Each command declares the
//! byte ranges it reads and writes: a dispatch from its interface's
//! [`Access`](kiln_abi::Access) per binding (read-only, write-only,
//! read-write, reflected from the SPIR-V), a copy reads its source and
//! writes its destination, a fill or update writes. Before a command whose
//! ranges conflict with those of commands recorded since the last barrier
//! (read after write, write after read, write after write on overlapping
//! bytes of one block) the batch records one memory barrier (compute and
//! transfer writes → compute and transfer reads and writes); independent
//! commands get none and may overlap on the GPU. The batch ends with a
//! barrier making every write visible to the host.
//!
//! [`CommandBatch::submit`] signals the next value of a [`Timeline`] after
//! waiting for the previous one (so submissions complete in order and see
//! each other's writes) and returns a [`Submission`]. Until that value has
//! completed the submission keeps every slice and pipeline the batch used
//! alive (so a slice dropped by its owner meanwhile is not reused); dropping
//! a submission whose work is still running blocks until it completes (or
//! the device is lost). [`Submission::recycle`] gives back the batch, reset,
//! for the next recording.
//!
//! **Reusable batches** ([`CommandBatch::reusable`]) record the same
//! commands into a secondary command buffer (simultaneous use, no
//! timestamps) that is never submitted itself: [`CommandBatch::finish`]
//! ends it as a [`Recorded`], which any number of primary batches then run
//! with [`CommandBatch::execute`] (`vkCmdExecuteCommands`: one command,
//! however many dispatches it holds), as CUDA graphs and IREE's reusable
//! command buffers replay work recorded once. Its bindings, push constants
//! and group counts are fixed at recording. An executing batch declares
//! every byte range the recorded commands access (a barrier first where
//! they conflict with its earlier commands, as for its own commands) and
//! keeps the [`Recorded`] alive until its submission completed.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use kiln_abi::TexelFormat;

use crate::context::{Context, DeviceShared, TimestampClock};
use crate::dispatch::{check_bindings, BindingView};
use crate::error::{Error, Result};
use crate::fault::CallFamily;
use crate::pipeline::ComputePipeline;
use crate::pool::{Slice, SliceShared};
use crate::sync::Timeline;

mod commands;
use std::borrow::Cow;

use commands::Cmd;

/// Descriptor sets per descriptor pool of a batch.
const POOL_SETS: u32 = 256;
/// Storage-buffer descriptors per descriptor pool.
const POOL_STORAGE: u32 = 2048;
/// Uniform-buffer descriptors per descriptor pool.
const POOL_UNIFORM: u32 = 512;
/// Uniform-texel-buffer descriptors per descriptor pool.
const POOL_UNIFORM_TEXEL: u32 = 1024;
/// Storage-texel-buffer descriptors per descriptor pool.
const POOL_STORAGE_TEXEL: u32 = 256;
/// Timestamp queries per query pool (two per dispatch).
const QUERY_CHUNK: u32 = 256;

/// A pool slice (or a range of it) bound to one binding of a pipeline's
/// interface, for [`CommandBatch::dispatch`].
#[derive(Clone, Copy, Debug)]
pub struct SliceBinding<'a> {
    /// The descriptor set.
    pub set: u32,
    /// The binding in the set.
    pub binding: u32,
    /// The slice.
    pub slice: &'a Slice,
    /// Where the bound range starts in the slice, in bytes.
    pub offset: u64,
    /// How many bytes are bound; `None`: to the end of the slice.
    pub size: Option<u64>,
    /// The element of a descriptor array the range is bound to (0 for a
    /// binding of one descriptor).
    pub element: u32,
}

impl<'a> SliceBinding<'a> {
    /// The whole of `slice` at `set`/`binding`.
    pub fn new(set: u32, binding: u32, slice: &'a Slice) -> Self {
        Self {
            set,
            binding,
            slice,
            offset: 0,
            size: None,
            element: 0,
        }
    }

    /// The same range bound to element `element` of a descriptor array.
    pub fn element(self, element: u32) -> Self {
        Self { element, ..self }
    }

    /// The same binding restricted to `size` bytes (`None`: to the end of
    /// the slice) from `offset`.
    pub fn range(self, offset: u64, size: Option<u64>) -> Self {
        Self {
            offset,
            size,
            ..self
        }
    }

    fn bound_size(&self) -> u64 {
        self.size
            .unwrap_or_else(|| self.slice.size().saturating_sub(self.offset))
    }
}

/// One region of [`CommandBatch::copy_regions`], offsets relative to the
/// slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyRegion {
    /// Offset in the source slice.
    pub src_offset: u64,
    /// Offset in the destination slice.
    pub dst_offset: u64,
    /// Bytes to copy.
    pub size: u64,
}

/// What a batch recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchCounts {
    /// Dispatches.
    pub dispatches: u32,
    /// Copy commands.
    pub copies: u32,
    /// Fill and update commands.
    pub fills: u32,
    /// Memory barriers the access tracking inserted.
    pub barriers: u32,
    /// Bytes moved by copies, fills and updates.
    pub transfer_bytes: u64,
}

/// A byte range a recorded command reads or writes.
#[derive(Clone, Copy, Debug)]
struct Access {
    block: u64,
    start: u64,
    end: u64,
    write: bool,
}

impl Access {
    fn conflicts(&self, other: &Access) -> bool {
        (self.write || other.write)
            && self.block == other.block
            && self.start < other.end
            && other.start < self.end
    }
}

/// Descriptors left in the current descriptor pool.
#[derive(Clone, Copy, Debug, Default)]
struct PoolLeft {
    sets: u32,
    storage: u32,
    uniform: u32,
    uniform_texel: u32,
    storage_texel: u32,
}

impl PoolLeft {
    /// Whether `self` has room for `need`.
    fn fits(self, need: PoolLeft) -> bool {
        self.sets >= need.sets
            && self.storage >= need.storage
            && self.uniform >= need.uniform
            && self.uniform_texel >= need.uniform_texel
            && self.storage_texel >= need.storage_texel
    }

    /// What is left after `used` was taken (which fits).
    fn take(&mut self, used: PoolLeft) {
        self.sets -= used.sets;
        self.storage -= used.storage;
        self.uniform -= used.uniform;
        self.uniform_texel -= used.uniform_texel;
        self.storage_texel -= used.storage_texel;
    }

    /// Counts one descriptor of type `ty`.
    fn count(&mut self, ty: kiln_abi::DescriptorType) {
        use kiln_abi::DescriptorType as D;
        match ty {
            D::UniformBuffer => self.uniform += 1,
            D::UniformTexelBuffer => self.uniform_texel += 1,
            D::StorageTexelBuffer => self.storage_texel += 1,
            // `check_bindings` let through buffers and texel buffers only.
            _ => self.storage += 1,
        }
    }
}

/// A command buffer being recorded, with everything its commands use.
pub struct CommandBatch {
    device: Arc<DeviceShared>,
    command_pool: vk::CommandPool,
    cb: vk::CommandBuffer,
    recording: bool,
    descriptor_pools: Vec<vk::DescriptorPool>,
    /// The buffer views of the texel bindings of the recorded dispatches.
    views: Vec<vk::BufferView>,
    /// The views by what they view (buffer, offset, bound size, format):
    /// dispatches of one batch binding the same range share one view.
    view_index: HashMap<(vk::Buffer, u64, u64, TexelFormat), vk::BufferView>,
    /// Index of the pool sets come from; `left` is what it has left.
    pool_index: usize,
    left: PoolLeft,
    slices: Vec<Arc<SliceShared>>,
    pipelines: Vec<Arc<ComputePipeline>>,
    bound: vk::Pipeline,
    /// Accesses since the last barrier.
    pending: Vec<Access>,
    clock: Option<TimestampClock>,
    timing: bool,
    query_pools: Vec<vk::QueryPool>,
    queries: u32,
    /// Per dispatch: its first timestamp query, when timed.
    dispatch_queries: Vec<Option<u32>>,
    counts: BatchCounts,
    /// A secondary command buffer recorded for [`execute`](Self::execute).
    reusable: bool,
    /// Every access recorded (reusable batches only).
    all: Vec<Access>,
    /// Every command recorded, as issued (reusable batches only): what a
    /// timed [`execute`](Self::execute) issues again.
    log: Vec<Cmd<'static>>,
    /// The recorded batches executed, kept until the work completed.
    executed: Vec<Arc<Recorded>>,
}

impl std::fmt::Debug for CommandBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandBatch")
            .field("counts", &self.counts)
            .field("timing", &self.timing)
            .finish_non_exhaustive()
    }
}

impl CommandBatch {
    /// An empty batch on `ctx`'s device: a command pool and its command
    /// buffer (descriptor and query pools are made as recording needs them).
    pub fn new(ctx: &Context) -> Result<Self> {
        Self::with_level(ctx, false)
    }

    /// An empty reusable batch (see the module docs): recorded like any
    /// batch, then [`finish`](Self::finish)ed and run by other batches'
    /// [`execute`](Self::execute), never submitted itself.
    pub fn reusable(ctx: &Context) -> Result<Self> {
        Self::with_level(ctx, true)
    }

    fn with_level(ctx: &Context, reusable: bool) -> Result<Self> {
        let device = Arc::clone(&ctx.shared);
        let flags = if reusable {
            vk::CommandPoolCreateFlags::empty()
        } else {
            vk::CommandPoolCreateFlags::TRANSIENT
        };
        let info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(device.queue_family)
            .flags(flags);
        // SAFETY: valid create info for the live device.
        let command_pool = device.call(CallFamily::Create, "vkCreateCommandPool", || unsafe {
            device.raw.create_command_pool(&info, None)
        })?;
        let mut batch = Self {
            device,
            command_pool,
            cb: vk::CommandBuffer::null(),
            recording: false,
            descriptor_pools: Vec::new(),
            views: Vec::new(),
            view_index: HashMap::new(),
            pool_index: 0,
            left: PoolLeft::default(),
            slices: Vec::new(),
            pipelines: Vec::new(),
            bound: vk::Pipeline::null(),
            pending: Vec::new(),
            clock: None,
            timing: false,
            query_pools: Vec::new(),
            queries: 0,
            dispatch_queries: Vec::new(),
            counts: BatchCounts::default(),
            reusable,
            all: Vec::new(),
            log: Vec::new(),
            executed: Vec::new(),
        };
        // A reusable batch writes no timestamps: its queries would be
        // shared by every execution.
        batch.clock = if reusable {
            None
        } else {
            batch.device.timestamps
        };
        let level = if reusable {
            vk::CommandBufferLevel::SECONDARY
        } else {
            vk::CommandBufferLevel::PRIMARY
        };
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(command_pool)
            .level(level)
            .command_buffer_count(1);
        let d = &batch.device;
        // SAFETY: the pool is this batch's own, used by no other thread.
        let cbs = d.call(CallFamily::Create, "vkAllocateCommandBuffers", || unsafe {
            d.raw.allocate_command_buffers(&alloc)
        })?;
        batch.cb = cbs[0];
        Ok(batch)
    }

    /// Times every dispatch recorded from now on with two timestamps
    /// ([`Submission::timestamps`]); a no-op where the compute queue writes
    /// no timestamps ([`timing_available`](Self::timing_available)).
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on && self.clock.is_some();
    }

    /// Whether the compute queue writes timestamps.
    pub fn timing_available(&self) -> bool {
        self.clock.is_some()
    }

    /// What has been recorded.
    pub fn counts(&self) -> BatchCounts {
        self.counts
    }

    /// Whether nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        !self.recording
    }

    fn begin(&mut self) -> Result<()> {
        if self.recording {
            return Ok(());
        }
        // A secondary buffer inherits nothing (no render pass, no
        // queries) and may be pending in several primaries at once.
        let inheritance = vk::CommandBufferInheritanceInfo::default();
        let begin = if self.reusable {
            vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::SIMULTANEOUS_USE)
                .inheritance_info(&inheritance)
        } else {
            vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)
        };
        let (d, cb) = (&self.device, self.cb);
        // SAFETY: the command buffer is in the initial state (fresh or its
        // pool was reset) and its pool is this batch's own.
        d.call(CallFamily::Create, "vkBeginCommandBuffer", || unsafe {
            d.raw.begin_command_buffer(cb, &begin)
        })?;
        self.recording = true;
        Ok(())
    }

    fn check_slice(&self, slice: &Slice, what: &'static str) -> Result<()> {
        if Arc::ptr_eq(&slice.shared.block.device, &self.device) {
            Ok(())
        } else {
            Err(Error::ForeignBatchObject { what })
        }
    }

    /// Records a barrier first if any of `accesses` conflicts with an
    /// access since the last barrier; then notes them.
    fn track(&mut self, accesses: &[Access]) {
        let conflict = accesses
            .iter()
            .any(|a| self.pending.iter().any(|p| a.conflicts(p)));
        if conflict {
            self.issue(&Cmd::Barrier);
            self.pending.clear();
            self.counts.barriers += 1;
        }
        self.pending.extend_from_slice(accesses);
        if self.reusable {
            self.all.extend_from_slice(accesses);
        }
    }

    fn keep_slice(&mut self, slice: &Slice) {
        if !self
            .slices
            .last()
            .is_some_and(|s| Arc::ptr_eq(s, &slice.shared))
        {
            self.slices.push(Arc::clone(&slice.shared));
        }
    }

    /// Makes sure the current descriptor pool has room for `need`: the
    /// current pool, else the next one (reused after a reset), else a new
    /// one (larger than the default if one dispatch needs more).
    fn descriptor_room(&mut self, need: PoolLeft) -> Result<()> {
        let fits = |l: PoolLeft| l.fits(need);
        let pools = self.descriptor_pools.len();
        if self.pool_index < pools && fits(self.left) {
            return Ok(());
        }
        if self.pool_index < pools {
            self.pool_index += 1;
        }
        if self.pool_index < pools && fits(POOL_DEFAULT) {
            self.left = POOL_DEFAULT;
            return Ok(());
        }
        let size = PoolLeft {
            sets: POOL_SETS.max(need.sets),
            storage: POOL_STORAGE.max(need.storage),
            uniform: POOL_UNIFORM.max(need.uniform),
            uniform_texel: POOL_UNIFORM_TEXEL.max(need.uniform_texel),
            storage_texel: POOL_STORAGE_TEXEL.max(need.storage_texel),
        };
        let sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: size.storage,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: size.uniform,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                descriptor_count: size.uniform_texel,
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_TEXEL_BUFFER,
                descriptor_count: size.storage_texel,
            },
        ];
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(size.sets)
            .pool_sizes(&sizes);
        let d = &self.device;
        // SAFETY: valid create info for the live device.
        let pool = d.call(CallFamily::Create, "vkCreateDescriptorPool", || unsafe {
            d.raw.create_descriptor_pool(&info, None)
        })?;
        self.descriptor_pools.insert(self.pool_index, pool);
        self.left = size;
        Ok(())
    }

    /// Records one dispatch of `pipeline` with `bindings`, `push_constants`
    /// and `groups` workgroups; returns its index in the batch. Everything
    /// is checked before any Vulkan call (see the module docs); a barrier
    /// is recorded first when the bindings' access conflicts with earlier
    /// commands of the batch.
    pub fn dispatch(
        &mut self,
        pipeline: &Arc<ComputePipeline>,
        bindings: &[SliceBinding<'_>],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<u32> {
        if !Arc::ptr_eq(&pipeline.device, &self.device) {
            return Err(Error::ForeignBatchObject { what: "a pipeline" });
        }
        if let Some(&(set, binding)) = pipeline.dynamic.first() {
            return Err(Error::DynamicDescriptor {
                set,
                binding,
                reason: "command batches do not bind dynamic descriptors; dispatch the \
                         pipeline with Context::dispatch_bindings"
                    .to_owned(),
            });
        }
        let mut views = Vec::with_capacity(bindings.len());
        for b in bindings {
            self.check_slice(b.slice, "a slice bound at a binding")?;
            views.push(BindingView {
                set: b.set,
                binding: b.binding,
                element: b.element,
                base: b.slice.offset(),
                offset: b.offset,
                size: b.bound_size(),
                extent: b.slice.size(),
            });
        }
        let iface = &pipeline.interface;
        check_bindings(iface, &self.device.limits, &views, push_constants, groups)?;

        let mut need = PoolLeft {
            sets: pipeline.set_layouts.len() as u32,
            ..PoolLeft::default()
        };
        let mut accesses = Vec::with_capacity(bindings.len());
        for b in bindings {
            // Present: `check_bindings` found every binding in the interface.
            let Some(decl) = iface.binding(b.set, b.binding) else {
                continue;
            };
            need.count(decl.descriptor_type);
            if decl.access.writes() {
                b.slice.check_writable(|| {
                    format!("a dispatch's writable binding {}:{}", b.set, b.binding)
                })?;
            }
            // A write conflicts with any access, so a read-write binding
            // needs only its write noted.
            let start = b.slice.offset() + b.offset;
            accesses.push(Access {
                block: b.slice.block_id(),
                start,
                end: start + b.bound_size(),
                write: decl.access.writes(),
            });
        }
        self.begin()?;
        let sets = if pipeline.set_layouts.is_empty() {
            Vec::new()
        } else {
            self.descriptor_room(need)?;
            let alloc = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(self.descriptor_pools[self.pool_index])
                .set_layouts(&pipeline.set_layouts);
            let d = &self.device;
            // SAFETY: the pool has room for these sets (tracked in `left`)
            // and is this batch's own.
            let sets = d.call(
                CallFamily::DescriptorSets,
                "vkAllocateDescriptorSets",
                || unsafe { d.raw.allocate_descriptor_sets(&alloc) },
            )?;
            self.left.take(need);
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bindings
                .iter()
                .map(|b| {
                    [vk::DescriptorBufferInfo {
                        buffer: b.slice.raw_buffer(),
                        offset: b.slice.offset() + b.offset,
                        range: b.bound_size(),
                    }]
                })
                .collect();
            // One view per texel binding (null for the others; reused when
            // an earlier dispatch of the batch viewed the same range), each
            // kept in `self.views` as soon as it exists: destroyed when the
            // batch is reset after its work completed, or dropped.
            let mut views: Vec<[vk::BufferView; 1]> = Vec::with_capacity(bindings.len());
            for b in bindings {
                let format = iface
                    .binding(b.set, b.binding)
                    .and_then(|decl| decl.texel_format);
                let view = match format {
                    Some(format) => {
                        let (buffer, offset, size) = (
                            b.slice.raw_buffer(),
                            b.slice.offset() + b.offset,
                            b.bound_size(),
                        );
                        match self.view_index.get(&(buffer, offset, size, format)) {
                            Some(&view) => view,
                            None => {
                                let view = crate::texel::create_view(
                                    &self.device,
                                    buffer,
                                    format,
                                    offset,
                                    size,
                                )?;
                                self.views.push(view);
                                self.view_index.insert((buffer, offset, size, format), view);
                                view
                            }
                        }
                    }
                    None => vk::BufferView::null(),
                };
                views.push([view]);
            }
            let writes: Vec<vk::WriteDescriptorSet<'_>> = bindings
                .iter()
                .zip(infos.iter().zip(&views))
                .filter_map(|(b, (info, view))| {
                    let decl = iface.binding(b.set, b.binding)?;
                    let write = vk::WriteDescriptorSet::default()
                        .dst_set(sets[b.set as usize])
                        .dst_binding(b.binding)
                        .dst_array_element(b.element)
                        .descriptor_type(crate::conv::descriptor_type(decl.descriptor_type));
                    Some(if decl.descriptor_type.is_texel_buffer() {
                        write.texel_buffer_view(view)
                    } else {
                        write.buffer_info(info)
                    })
                })
                .collect();
            self.device.note_call();
            // SAFETY: the sets are fresh and unused; each write matches its
            // binding's type and names a live buffer range inside the
            // slice, within the range limits, or a live view of one
            // (checked).
            unsafe { self.device.raw.update_descriptor_sets(&writes, &[]) };
            sets
        };
        self.track(&accesses);
        let query = self.dispatch_query()?;
        self.stamp(query, 0);
        self.issue(&Cmd::Dispatch {
            pipeline: pipeline.raw,
            layout: pipeline.layout,
            sets: Cow::Borrowed(&sets),
            push: iface
                .push_constants
                .map(|pc| (pc.offset, Cow::Borrowed(push_constants))),
            groups,
        });
        self.stamp(query, 1);
        if !self
            .pipelines
            .last()
            .is_some_and(|p| Arc::ptr_eq(p, pipeline))
        {
            self.pipelines.push(Arc::clone(pipeline));
        }
        for b in bindings {
            self.keep_slice(b.slice);
        }
        let index = self.counts.dispatches;
        self.counts.dispatches += 1;
        Ok(index)
    }

    /// The next two timestamp queries (pool, first index) when timing is
    /// on; resets a new chunk in the command buffer before its first use.
    fn timestamp_query(&mut self) -> Result<Option<(vk::QueryPool, u32)>> {
        if !self.timing {
            return Ok(None);
        }
        let chunk = (self.queries / QUERY_CHUNK) as usize;
        let at = self.queries % QUERY_CHUNK;
        if at == 0 {
            if chunk >= self.query_pools.len() {
                let info = vk::QueryPoolCreateInfo::default()
                    .query_type(vk::QueryType::TIMESTAMP)
                    .query_count(QUERY_CHUNK);
                let d = &self.device;
                // SAFETY: valid create info for the live device.
                let pool = d.call(CallFamily::Create, "vkCreateQueryPool", || unsafe {
                    d.raw.create_query_pool(&info, None)
                })?;
                self.query_pools.push(pool);
            }
            self.device.note_call();
            // SAFETY: recording; the pool is the batch's own and no query
            // of it is in use by this command buffer yet.
            unsafe {
                self.device.raw.cmd_reset_query_pool(
                    self.cb,
                    self.query_pools[chunk],
                    0,
                    QUERY_CHUNK,
                )
            };
        }
        self.queries += 2;
        Ok(Some((self.query_pools[chunk], at)))
    }

    /// The timestamp pair of the next dispatch (`None` when timing is
    /// off), noted as that dispatch's in `dispatch_queries`.
    fn dispatch_query(&mut self) -> Result<Option<(vk::QueryPool, u32)>> {
        let query = self.timestamp_query()?;
        self.dispatch_queries.push(query.map(|_| self.queries - 2));
        Ok(query)
    }

    fn check_range(command: &'static str, slice: &Slice, offset: u64, size: u64) -> Result<()> {
        if size == 0 {
            return Err(Error::InvalidTransfer {
                command,
                reason: "the size is 0".to_owned(),
            });
        }
        if offset
            .checked_add(size)
            .is_none_or(|end| end > slice.shared.reserved_size())
        {
            return Err(Error::InvalidTransfer {
                command,
                reason: format!(
                    "{size} bytes at offset {offset} end beyond the slice's {} bytes",
                    slice.size()
                ),
            });
        }
        Ok(())
    }

    /// Records a copy of `size` bytes from `src` at `src_offset` to `dst`
    /// at `dst_offset`.
    pub fn copy(
        &mut self,
        src: &Slice,
        src_offset: u64,
        dst: &Slice,
        dst_offset: u64,
        size: u64,
    ) -> Result<()> {
        self.copy_regions(
            src,
            dst,
            &[CopyRegion {
                src_offset,
                dst_offset,
                size,
            }],
        )
    }

    /// Records one copy command with several regions from `src` to `dst`
    /// (e.g. the rows of a strided view). Regions must lie inside the
    /// slices, and must not overlap when both are one slice of memory.
    pub fn copy_regions(&mut self, src: &Slice, dst: &Slice, regions: &[CopyRegion]) -> Result<()> {
        const CMD: &str = "vkCmdCopyBuffer";
        self.check_slice(src, "a copy source")?;
        self.check_slice(dst, "a copy destination")?;
        dst.check_writable(|| format!("{CMD} (its destination)"))?;
        if regions.is_empty() {
            return Ok(());
        }
        let same = src.block_id() == dst.block_id();
        let mut read = (u64::MAX, 0);
        let mut write = (u64::MAX, 0);
        let mut bytes = 0;
        for r in regions {
            Self::check_range(CMD, src, r.src_offset, r.size)?;
            Self::check_range(CMD, dst, r.dst_offset, r.size)?;
            let (s, t) = (src.offset() + r.src_offset, dst.offset() + r.dst_offset);
            if same && s < t + r.size && t < s + r.size {
                return Err(Error::InvalidTransfer {
                    command: CMD,
                    reason: format!(
                        "the source range at {s} and the destination range at {t} ({} bytes) overlap",
                        r.size
                    ),
                });
            }
            read = (read.0.min(s), read.1.max(s + r.size));
            write = (write.0.min(t), write.1.max(t + r.size));
            bytes += r.size;
        }
        self.begin()?;
        self.track(&[
            Access {
                block: src.block_id(),
                start: read.0,
                end: read.1,
                write: false,
            },
            Access {
                block: dst.block_id(),
                start: write.0,
                end: write.1,
                write: true,
            },
        ]);
        let region = |r: &CopyRegion| vk::BufferCopy {
            src_offset: src.offset() + r.src_offset,
            dst_offset: dst.offset() + r.dst_offset,
            size: r.size,
        };
        // One region (a contiguous tensor, each copy of a replay) on the
        // stack; several in a vector.
        let one: [vk::BufferCopy; 1];
        let many: Vec<vk::BufferCopy>;
        let vk_regions: &[vk::BufferCopy] = if let [r] = regions {
            one = [region(r)];
            &one
        } else {
            many = regions.iter().map(region).collect();
            &many
        };
        self.issue(&Cmd::Copy {
            src: src.raw_buffer(),
            dst: dst.raw_buffer(),
            regions: Cow::Borrowed(vk_regions),
        });
        self.keep_slice(src);
        self.keep_slice(dst);
        self.counts.copies += 1;
        self.counts.transfer_bytes += bytes;
        Ok(())
    }

    /// Records a fill of `size` bytes of `dst` from `offset` with the
    /// 32-bit pattern `word`. `offset` must be a multiple of 4; `size` is
    /// rounded up to one (slices reserve whole words).
    pub fn fill(&mut self, dst: &Slice, offset: u64, size: u64, word: u32) -> Result<()> {
        const CMD: &str = "vkCmdFillBuffer";
        self.check_slice(dst, "a fill destination")?;
        dst.check_writable(|| CMD.to_owned())?;
        if offset % 4 != 0 {
            return Err(Error::InvalidTransfer {
                command: CMD,
                reason: format!("offset {offset} is not a multiple of 4"),
            });
        }
        let size = size.next_multiple_of(4);
        Self::check_range(CMD, dst, offset, size)?;
        self.begin()?;
        let start = dst.offset() + offset;
        self.track(&[Access {
            block: dst.block_id(),
            start,
            end: start + size,
            write: true,
        }]);
        self.issue(&Cmd::Fill {
            dst: dst.raw_buffer(),
            start,
            size,
            word,
        });
        self.keep_slice(dst);
        self.counts.fills += 1;
        self.counts.transfer_bytes += size;
        Ok(())
    }

    /// Records an update of `dst` at `offset` with `data` carried in the
    /// command buffer itself (no staging): `offset` and `data.len()`
    /// multiples of 4, at most 65,536 bytes.
    pub fn update(&mut self, dst: &Slice, offset: u64, data: &[u8]) -> Result<()> {
        const CMD: &str = "vkCmdUpdateBuffer";
        self.check_slice(dst, "an update destination")?;
        dst.check_writable(|| CMD.to_owned())?;
        if offset % 4 != 0 || data.len() % 4 != 0 || data.len() > 65536 {
            return Err(Error::InvalidTransfer {
                command: CMD,
                reason: format!(
                    "offset {offset} and size {} must be multiples of 4 and the size at most 65536",
                    data.len()
                ),
            });
        }
        Self::check_range(CMD, dst, offset, data.len() as u64)?;
        self.begin()?;
        let start = dst.offset() + offset;
        self.track(&[Access {
            block: dst.block_id(),
            start,
            end: start + data.len() as u64,
            write: true,
        }]);
        self.issue(&Cmd::Update {
            dst: dst.raw_buffer(),
            start,
            data: Cow::Borrowed(data),
        });
        self.keep_slice(dst);
        self.counts.fills += 1;
        self.counts.transfer_bytes += data.len() as u64;
        Ok(())
    }

    /// Ends the batch and submits it: waits for the timeline's previous
    /// value, signals the next. On failure nothing was submitted (Vulkan
    /// guarantees a failed submit leaves its resources untouched) and the
    /// batch is dropped.
    pub fn submit(mut self, timeline: &Arc<Timeline>) -> Result<Submission> {
        if !Arc::ptr_eq(&timeline.device, &self.device) {
            return Err(Error::ForeignBatchObject { what: "a timeline" });
        }
        if self.reusable {
            return Err(Error::BatchKind {
                call: "vkQueueSubmit",
                reason: "a reusable batch is finished and executed by other batches, not submitted",
            });
        }
        self.begin()?;
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        let (d, cb) = (&self.device, self.cb);
        d.note_call();
        // SAFETY: recording; a global barrier to the host stage.
        unsafe {
            d.raw.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            )
        };
        // SAFETY: the command buffer is recording.
        d.call(CallFamily::Create, "vkEndCommandBuffer", || unsafe {
            d.raw.end_command_buffer(cb)
        })?;
        self.recording = false;
        let value = {
            let queue = d.queue();
            let value = timeline.submitted() + 1;
            let wait_values = [value - 1];
            let signal_values = [value];
            let semaphores = [timeline.raw];
            let stages = [vk::PipelineStageFlags::ALL_COMMANDS];
            let mut timeline_info = vk::TimelineSemaphoreSubmitInfo::default()
                .wait_semaphore_values(&wait_values)
                .signal_semaphore_values(&signal_values);
            let cbs = [cb];
            let submit = [vk::SubmitInfo::default()
                .wait_semaphores(&semaphores)
                .wait_dst_stage_mask(&stages)
                .command_buffers(&cbs)
                .signal_semaphores(&semaphores)
                .push_next(&mut timeline_info)];
            // SAFETY: the queue is locked; the command buffer is executable
            // and not pending; the signal value is above every value
            // submitted before (assigned under the queue lock) and the
            // wait value was submitted (or is 0).
            d.call(CallFamily::Submit, "vkQueueSubmit", || unsafe {
                d.raw.queue_submit(*queue, &submit, vk::Fence::null())
            })?;
            timeline
                .submitted
                .store(value, std::sync::atomic::Ordering::Release);
            value
        };
        Ok(Submission {
            timeline: Arc::clone(timeline),
            value,
            batch: Some(self),
        })
    }

    /// Back to an empty batch (after its submission completed): resets the
    /// command and descriptor pools, releases what the work used.
    fn reset(&mut self) -> Result<()> {
        let d = &self.device;
        let pool = self.command_pool;
        // SAFETY: the batch's work completed (callers wait first); the pool
        // is the batch's own.
        d.call(CallFamily::Create, "vkResetCommandPool", || unsafe {
            d.raw
                .reset_command_pool(pool, vk::CommandPoolResetFlags::empty())
        })?;
        for &p in &self.descriptor_pools {
            // SAFETY: no set of the pool is in use (the work completed).
            d.call(CallFamily::Create, "vkResetDescriptorPool", || unsafe {
                d.raw
                    .reset_descriptor_pool(p, vk::DescriptorPoolResetFlags::empty())
            })?;
        }
        self.view_index.clear();
        crate::texel::destroy_views(d, &mut self.views);
        self.recording = false;
        self.pool_index = 0;
        self.left = if self.descriptor_pools.is_empty() {
            PoolLeft::default()
        } else {
            POOL_DEFAULT
        };
        self.slices.clear();
        self.pipelines.clear();
        self.bound = vk::Pipeline::null();
        self.pending.clear();
        self.queries = 0;
        self.dispatch_queries.clear();
        self.counts = BatchCounts::default();
        self.all.clear();
        self.log.clear();
        self.executed.clear();
        Ok(())
    }

    /// Ends a reusable batch ([`reusable`](Self::reusable)) as a
    /// [`Recorded`] for [`execute`](Self::execute).
    pub fn finish(mut self) -> Result<Recorded> {
        if !self.reusable {
            return Err(Error::BatchKind {
                call: "vkEndCommandBuffer",
                reason: "only a reusable batch is finished; submit this one",
            });
        }
        self.begin()?;
        let (d, cb) = (&self.device, self.cb);
        // SAFETY: the command buffer is recording.
        d.call(CallFamily::Create, "vkEndCommandBuffer", || unsafe {
            d.raw.end_command_buffer(cb)
        })?;
        self.recording = false;
        // One range per block (their union): what an execution declares.
        let mut accesses: Vec<Access> = Vec::new();
        for a in std::mem::take(&mut self.all) {
            match accesses.iter_mut().find(|b| b.block == a.block) {
                Some(b) => {
                    b.start = b.start.min(a.start);
                    b.end = b.end.max(a.end);
                    b.write |= a.write;
                }
                None => accesses.push(a),
            }
        }
        Ok(Recorded {
            accesses,
            dispatches: self.counts.dispatches,
            batch: self,
        })
    }

    /// Records the commands of `recorded` (`vkCmdExecuteCommands`), after
    /// a barrier where their accesses conflict with the batch's earlier
    /// commands; the batch keeps `recorded` until its work completed.
    /// Returns the index in the batch of the first of its dispatches.
    pub fn execute(&mut self, recorded: &Arc<Recorded>) -> Result<u32> {
        if !Arc::ptr_eq(&recorded.batch.device, &self.device) {
            return Err(Error::ForeignBatchObject {
                what: "a recorded batch",
            });
        }
        if self.reusable {
            return Err(Error::BatchKind {
                call: "vkCmdExecuteCommands",
                reason: "a reusable batch cannot execute another",
            });
        }
        self.begin()?;
        self.track(&recorded.accesses);
        let first = self.counts.dispatches;
        let n = recorded.dispatches;
        if self.timing {
            // Timed: the recorded commands issued again into this buffer,
            // a timestamp pair around each dispatch (a secondary buffer's
            // queries would be shared by all its executions). The sets,
            // views, pipelines and buffers are the recording's, alive while
            // it is (kept in `executed` below).
            for cmd in &recorded.batch.log {
                let query = match cmd {
                    Cmd::Dispatch { .. } => self.dispatch_query()?,
                    _ => None,
                };
                self.stamp(query, 0);
                self.issue(cmd);
                self.stamp(query, 1);
            }
        } else {
            let cbs = [recorded.batch.cb];
            self.device.note_call();
            // SAFETY: recording a primary; the secondary buffer is
            // executable (ended by `finish`), was begun with
            // SIMULTANEOUS_USE (it may be pending elsewhere or executed
            // twice here), inherits nothing, and stays alive with
            // everything it uses until this batch's work completed (kept
            // in `executed`).
            unsafe { self.device.raw.cmd_execute_commands(self.cb, &cbs) };
            // The primary's bound state is undefined after a secondary ran.
            self.bound = vk::Pipeline::null();
            self.dispatch_queries
                .extend(std::iter::repeat_n(None, n as usize));
        }
        if !self
            .executed
            .last()
            .is_some_and(|r| Arc::ptr_eq(r, recorded))
        {
            self.executed.push(Arc::clone(recorded));
        }
        self.counts.dispatches += n;
        Ok(first)
    }
}

/// The commands of a finished reusable batch (see the module docs), for
/// [`CommandBatch::execute`]: its command buffer, descriptor sets and
/// buffer views, the slices and pipelines they use, and the byte ranges
/// they access (one per block).
pub struct Recorded {
    batch: CommandBatch,
    accesses: Vec<Access>,
    dispatches: u32,
}

impl std::fmt::Debug for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorded")
            .field("dispatches", &self.dispatches)
            .field("blocks", &self.accesses.len())
            .finish_non_exhaustive()
    }
}

impl Recorded {
    /// What the batch recorded.
    pub fn counts(&self) -> BatchCounts {
        self.batch.counts
    }
}

/// What a descriptor pool made with the default sizes holds.
const POOL_DEFAULT: PoolLeft = PoolLeft {
    sets: POOL_SETS,
    storage: POOL_STORAGE,
    uniform: POOL_UNIFORM,
    uniform_texel: POOL_UNIFORM_TEXEL,
    storage_texel: POOL_STORAGE_TEXEL,
};

impl Drop for CommandBatch {
    fn drop(&mut self) {
        let d = &self.device.raw;
        // SAFETY: an unsubmitted batch has no pending work, and a submitted
        // one is dropped by its `Submission` only after the work completed
        // (or the device was lost); destroying the command pool frees its
        // command buffer; null handles are no-ops.
        unsafe {
            d.destroy_command_pool(self.command_pool, None);
            for &p in &self.descriptor_pools {
                d.destroy_descriptor_pool(p, None);
            }
            for &q in &self.query_pools {
                d.destroy_query_pool(q, None);
            }
        }
        crate::texel::destroy_views(&self.device, &mut self.views);
    }
}

/// A submitted batch: its timeline value, and everything its work uses,
/// kept until the value has completed.
pub struct Submission {
    timeline: Arc<Timeline>,
    value: u64,
    /// `Some` until recycled.
    batch: Option<CommandBatch>,
}

impl std::fmt::Debug for Submission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Submission")
            .field("value", &self.value)
            .field("batch", &self.batch)
            .finish()
    }
}

impl Submission {
    /// The timeline value that signals its completion.
    pub fn value(&self) -> u64 {
        self.value
    }

    /// The timeline it was submitted on.
    pub fn timeline(&self) -> &Arc<Timeline> {
        &self.timeline
    }

    /// What the batch recorded.
    pub fn counts(&self) -> BatchCounts {
        self.batch.as_ref().map(|b| b.counts).unwrap_or_default()
    }

    /// Whether the work completed (asks the driver only when the timeline's
    /// cached value is behind).
    pub fn is_complete(&self) -> Result<bool> {
        self.timeline.is_complete(self.value)
    }

    /// Blocks until the work completes (a driver wait, never a spin).
    pub fn wait(&self) -> Result<()> {
        self.timeline.wait(self.value, None).map(|_| ())
    }

    /// GPU time of each dispatch of the batch, in recording order (`None`
    /// for dispatches recorded while timing was off). Waits for the work
    /// first.
    pub fn timestamps(&self) -> Result<Vec<Option<Duration>>> {
        Ok(self
            .timestamp_spans()?
            .into_iter()
            .map(|s| s.map(|(a, b)| Duration::from_nanos(b.saturating_sub(a))))
            .collect())
    }

    /// When each dispatch of the batch started and ended, in nanoseconds
    /// of the queue's timestamp clock (an arbitrary origin, the same for
    /// every submission of the device), in recording order (`None` for
    /// dispatches recorded while timing was off). Waits for the work first.
    pub fn timestamp_spans(&self) -> Result<Vec<Option<(u64, u64)>>> {
        self.wait()?;
        let Some(batch) = &self.batch else {
            return Ok(Vec::new());
        };
        let Some(clock) = batch.clock else {
            return Ok(vec![None; batch.dispatch_queries.len()]);
        };
        let mut ticks = vec![0u64; batch.queries as usize];
        for (chunk, &pool) in batch.query_pools.iter().enumerate() {
            let first = chunk * QUERY_CHUNK as usize;
            if first >= ticks.len() {
                break;
            }
            let end = (first + QUERY_CHUNK as usize).min(ticks.len());
            let out = &mut ticks[first..end];
            let d = &batch.device;
            // SAFETY: the work that wrote these queries completed; `out`
            // holds exactly the queries written in this chunk.
            d.call(CallFamily::Wait, "vkGetQueryPoolResults", || unsafe {
                d.raw.get_query_pool_results(
                    pool,
                    0,
                    out,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
            })?;
        }
        let ns = |ticks: u64| (ticks as f64 * clock.period_ns).round() as u64;
        Ok(batch
            .dispatch_queries
            .iter()
            .map(|q| {
                q.map(|q| {
                    let a = ticks[q as usize] & clock.mask;
                    let delta = (ticks[q as usize + 1] & clock.mask).wrapping_sub(a) & clock.mask;
                    let start = ns(a);
                    (start, start + ns(delta))
                })
            })
            .collect())
    }

    /// Waits for the work, then gives the batch back empty for the next
    /// recording (its pools reset; the slices and pipelines it kept are
    /// released).
    pub fn recycle(mut self) -> Result<CommandBatch> {
        self.wait()?;
        let mut batch = self
            .batch
            .take()
            .expect("a submission holds its batch until recycled");
        batch.reset()?;
        Ok(batch)
    }
}

impl Drop for Submission {
    fn drop(&mut self) {
        if self.batch.is_some() {
            // Really wait (no fault injection) before the batch frees what
            // the work uses; a lost device returns at once.
            self.timeline.wait_for_drop(self.value);
        }
    }
}
