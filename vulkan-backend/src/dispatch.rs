//! Dispatch: bind buffers, push constants, run one grid of workgroups and
//! wait for it.
//!
//! [`Context::dispatch_bindings`] checks everything it can before calling
//! Vulkan ([`Context::check_dispatch`]): the pipeline and buffers belong to
//! this context; every binding of the interface gets exactly one buffer
//! range and every range names a binding of the interface; bindings are
//! buffers or texel buffers; each range's offset is a multiple of
//! `minStorageBufferOffsetAlignment` (`minUniformBufferOffsetAlignment`,
//! `minTexelBufferOffsetAlignment`) and the range lies inside its buffer; a
//! texel binding has a known format and binds between one texel and
//! `maxTexelBufferElements` texels (see `texel`); a buffer range is at least the binding's
//! `min_size`, and for a runtime array the bytes past `min_size` are a whole
//! number of elements; it is within `maxStorageBufferRange`
//! (`maxUniformBufferRange`); descriptor arrays get every element and
//! dynamic offsets fit (see `descriptors`); the push-constant bytes match
//! the range; the grid is within `maxComputeWorkGroupCount`. (The interface itself was
//! checked against the device limits when the pipeline was made.)
//!
//! Then, per call: one descriptor pool with one set per set number (empty
//! sets included), a buffer view per texel binding, descriptor writes, one
//! one-time command buffer (bind,
//! push, dispatch, then a shader-write → host-read barrier), one submit with
//! a fence, and a **blocking** `vkWaitForFences` (never a spin: on lavapipe
//! the shader runs on the host's cores). Everything transient is freed on
//! every path, errors included.
//!
//! [`Context::dispatch_timed`] also measures the dispatch as
//! mlir-vulkan-runner does: GPU time from two timestamps around the
//! dispatch (when the compute queue family has timestamps), host time in
//! `vkQueueSubmit`, and host time waiting for the fence.

use std::time::{Duration, Instant};

use ash::vk;
use kiln_abi::{DescriptorType, Limits, PipelineInterface, ResourceBinding, TexelFormat};

use crate::context::{Context, DeviceShared, TimestampClock};
use crate::error::{map_allocate_descriptor_sets, map_create, map_queue, Error, Result};
use crate::fault::CallFamily;
use crate::memory::Buffer;
use crate::pipeline::ComputePipeline;

/// One buffer (or a range of it) bound to one binding of a pipeline's
/// interface.
#[derive(Clone, Copy, Debug)]
pub struct BufferBinding<'a> {
    /// The descriptor set.
    pub set: u32,
    /// The binding in the set.
    pub binding: u32,
    /// The buffer.
    pub buffer: &'a Buffer,
    /// Where the bound range starts, in bytes; a multiple of
    /// `minStorageBufferOffsetAlignment` (`minUniformBufferOffsetAlignment`
    /// for uniform buffers).
    pub offset: u64,
    /// How many bytes are bound; `None`: from `offset` to the end of the
    /// buffer.
    pub size: Option<u64>,
    /// The element of a descriptor array the range is bound to (0 for a
    /// binding of one descriptor).
    pub element: u32,
    /// Bytes added to `offset` at dispatch time; non-zero only for a
    /// binding the pipeline made dynamic
    /// ([`ComputePipeline::with_dynamic_bindings`]).
    pub dynamic_offset: u32,
}

impl<'a> BufferBinding<'a> {
    /// The whole of `buffer` at `set`/`binding`.
    pub fn new(set: u32, binding: u32, buffer: &'a Buffer) -> Self {
        Self {
            set,
            binding,
            buffer,
            offset: 0,
            size: None,
            element: 0,
            dynamic_offset: 0,
        }
    }

    /// The same binding restricted to `size` bytes (`None`: to the end)
    /// from `offset`.
    pub fn range(self, offset: u64, size: Option<u64>) -> Self {
        Self {
            offset,
            size,
            ..self
        }
    }

    /// The same binding for element `element` of a descriptor array.
    pub fn element(self, element: u32) -> Self {
        Self { element, ..self }
    }

    /// The same binding moved by `dynamic_offset` bytes at dispatch time
    /// (the binding must be dynamic in the pipeline).
    pub fn dynamic_offset(self, dynamic_offset: u32) -> Self {
        Self {
            dynamic_offset,
            ..self
        }
    }

    /// The number of bytes bound (saturating when the offset is past the
    /// end, which the dispatch checks reject).
    pub fn bound_size(&self) -> u64 {
        self.size
            .unwrap_or_else(|| self.buffer.size().saturating_sub(self.offset))
    }
}

/// What one dispatch took ([`Context::dispatch_timed`]): GPU time between
/// timestamps around the dispatch, host time in `vkQueueSubmit`, and host
/// time waiting for the fence. (The runtime's MLIR-runner launcher turns it
/// into the host interpreter's `LaunchTiming`; this crate does not depend
/// on the interpreter.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchTiming {
    /// GPU time of the dispatch; `None` when the compute queue family
    /// writes no timestamps.
    pub device: Option<Duration>,
    /// Host time spent in `vkQueueSubmit`.
    pub submit: Duration,
    /// Host time spent waiting for the fence.
    pub wait: Duration,
}

impl Context {
    /// Runs `groups` workgroups of `pipeline` with `bindings` (each
    /// `(set, binding, buffer)`, the whole buffer bound) and
    /// `push_constants` (exactly the pipeline's push-constant range size, or
    /// empty when it has none), and waits until the GPU is done. Shader
    /// writes are visible to the host when this returns.
    pub fn dispatch(
        &self,
        pipeline: &ComputePipeline,
        bindings: &[(u32, u32, &Buffer)],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<()> {
        let bindings: Vec<BufferBinding<'_>> = bindings
            .iter()
            .map(|&(set, binding, buffer)| BufferBinding::new(set, binding, buffer))
            .collect();
        self.dispatch_bindings(pipeline, &bindings, push_constants, groups)
    }

    /// [`dispatch`](Self::dispatch) with buffer ranges. Everything listed
    /// in the module docs is checked before any Vulkan call; a failure
    /// names the binding or the limit and the offending value.
    pub fn dispatch_bindings(
        &self,
        pipeline: &ComputePipeline,
        bindings: &[BufferBinding<'_>],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<()> {
        self.run_dispatch(pipeline, bindings, push_constants, groups, false)
            .map(|_| ())
    }

    /// [`dispatch_bindings`](Self::dispatch_bindings), measuring the
    /// dispatch: GPU time from timestamps where the queue has them, host
    /// time in the submit and in the wait.
    pub fn dispatch_timed(
        &self,
        pipeline: &ComputePipeline,
        bindings: &[BufferBinding<'_>],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<DispatchTiming> {
        self.run_dispatch(pipeline, bindings, push_constants, groups, true)
    }

    fn run_dispatch(
        &self,
        pipeline: &ComputePipeline,
        bindings: &[BufferBinding<'_>],
        push_constants: &[u8],
        groups: [u32; 3],
        timed: bool,
    ) -> Result<DispatchTiming> {
        self.check_dispatch(pipeline, bindings, push_constants, groups)?;
        let device = &*self.shared;
        let mut t = Transient {
            device,
            pool: vk::DescriptorPool::null(),
            command_buffer: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            query_pool: vk::QueryPool::null(),
            views: Vec::new(),
        };
        let sets = t.descriptor_sets(pipeline, bindings)?;
        let clock = device.timestamps.filter(|_| timed);
        if clock.is_some() {
            t.timestamp_pool()?;
        }
        let dynamic_offsets = crate::descriptors::dynamic_offsets(pipeline, bindings);
        t.record(pipeline, &sets, &dynamic_offsets, push_constants, groups)?;
        let (submit, wait) = t.submit_and_wait()?;
        let gpu = clock.map(|clock| t.elapsed(clock)).transpose()?;
        Ok(DispatchTiming {
            device: gpu,
            submit,
            wait,
        })
    }

    /// Checks a dispatch without calling Vulkan: what
    /// [`dispatch_bindings`](Self::dispatch_bindings) checks first.
    pub fn check_dispatch(
        &self,
        pipeline: &ComputePipeline,
        bindings: &[BufferBinding<'_>],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<()> {
        if !self.owns(&pipeline.device) {
            return Err(Error::ForeignObject { what: "pipeline" });
        }
        let mut views = Vec::with_capacity(bindings.len());
        for b in bindings {
            if !self.owns(&b.buffer.device) {
                return Err(Error::ForeignObject {
                    what: "buffer bound at a binding",
                });
            }
            views.push(BindingView {
                set: b.set,
                binding: b.binding,
                element: b.element,
                base: 0,
                offset: b.offset,
                size: b.bound_size(),
                extent: b.buffer.size(),
            });
        }
        check_bindings(
            &pipeline.interface,
            &self.shared.limits,
            &views,
            push_constants,
            groups,
        )?;
        crate::descriptors::check_dynamic_offsets(pipeline, &self.shared.limits, bindings)
    }
}

/// What the dispatch checks need to know of one bound range: where it is
/// bound, the range (`offset` and `size` relative to the start of the
/// bindable extent: a whole buffer, or a pool slice), the extent's size, and
/// where the extent starts in its `VkBuffer` (`base`, for the alignment
/// check).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BindingView {
    pub(crate) set: u32,
    pub(crate) binding: u32,
    /// The element of a descriptor array (0 for a single descriptor).
    pub(crate) element: u32,
    pub(crate) base: u64,
    pub(crate) offset: u64,
    pub(crate) size: u64,
    pub(crate) extent: u64,
}

/// Every check of the module docs after ownership: bindings against the
/// interface and the limits, push-constant size, group counts.
pub(crate) fn check_bindings(
    iface: &PipelineInterface,
    limits: &Limits,
    bindings: &[BindingView],
    push_constants: &[u8],
    groups: [u32; 3],
) -> Result<()> {
    for (i, b) in bindings.iter().enumerate() {
        let (set, binding) = (b.set, b.binding);
        if bindings[..i]
            .iter()
            .any(|p| (p.set, p.binding, p.element) == (set, binding, b.element))
        {
            return Err(Error::DuplicateBinding { set, binding });
        }
        let Some(decl) = iface.binding(set, binding) else {
            return Err(Error::UnexpectedBinding {
                set,
                binding,
                entry_point: iface.entry_point.clone(),
                declared: iface
                    .bindings
                    .iter()
                    .map(|b| format!("{}:{}", b.set, b.binding))
                    .collect(),
            });
        };
        if decl.descriptor_type.is_texel_buffer() {
            check_texel_binding(decl, limits, b)?;
            continue;
        }
        let (range_limit, limit_name, alignment, alignment_name) = match decl.descriptor_type {
            DescriptorType::StorageBuffer => (
                limits.max_storage_buffer_range,
                "maxStorageBufferRange",
                limits.min_storage_buffer_offset_alignment,
                "minStorageBufferOffsetAlignment",
            ),
            DescriptorType::UniformBuffer => (
                limits.max_uniform_buffer_range,
                "maxUniformBufferRange",
                limits.min_uniform_buffer_offset_alignment,
                "minUniformBufferOffsetAlignment",
            ),
            other => {
                return Err(Error::UnsupportedDescriptor {
                    set,
                    binding,
                    descriptor_type: other,
                })
            }
        };
        check_offset(b, alignment, alignment_name)?;
        let size = b.size;
        // A descriptor range is never empty (VUID-VkDescriptorBufferInfo-range-00341).
        let required = decl.min_size.max(1);
        if size < required {
            return Err(Error::BufferTooSmall {
                set,
                binding,
                required,
                size,
            });
        }
        if let Some(stride) = decl.element_stride {
            if stride > 0 && (size - decl.min_size) % u64::from(stride) != 0 {
                return Err(Error::PartialElement {
                    set,
                    binding,
                    size,
                    min_size: decl.min_size,
                    stride,
                });
            }
        }
        if size > u64::from(range_limit) {
            return Err(Error::LimitExceeded {
                what: format!("the size of the range bound at {set}:{binding}"),
                requested: size,
                limit_name,
                limit: range_limit.into(),
            });
        }
    }
    for decl in &iface.bindings {
        if !bindings
            .iter()
            .any(|b| (b.set, b.binding) == (decl.set, decl.binding))
        {
            return Err(Error::MissingBinding {
                set: decl.set,
                binding: decl.binding,
                descriptor_type: decl.descriptor_type,
                entry_point: iface.entry_point.clone(),
            });
        }
    }
    crate::descriptors::check_array_elements(iface, bindings)?;
    let expected = iface.push_constants.map_or(0, |pc| pc.size);
    if push_constants.len() != expected as usize {
        return Err(Error::PushConstantSize {
            entry_point: iface.entry_point.clone(),
            expected,
            got: push_constants.len(),
        });
    }
    limits.check_group_count(groups)?;
    Ok(())
}

/// The alignment and extent checks every bound range gets: its start in
/// the `VkBuffer` (`base + offset`) is a multiple of `alignment` (the limit
/// `alignment_name`), and the range lies inside its extent.
fn check_offset(b: &BindingView, alignment: u64, alignment_name: &'static str) -> Result<()> {
    let (set, binding) = (b.set, b.binding);
    if alignment > 0 && b.base.wrapping_add(b.offset) % alignment != 0 {
        return Err(Error::MisalignedOffset {
            set,
            binding,
            offset: b.offset,
            limit_name: alignment_name,
            alignment,
        });
    }
    if b.offset
        .checked_add(b.size)
        .is_none_or(|end| end > b.extent)
        || b.offset >= b.extent
    {
        return Err(Error::RangeOutsideBuffer {
            set,
            binding,
            offset: b.offset,
            size: b.size,
            buffer_size: b.extent,
        });
    }
    Ok(())
}

/// The checks of a texel-buffer binding (`decl` is one): a known texel
/// format; the view's offset a multiple of `minTexelBufferOffsetAlignment`
/// and its range inside the extent; at least one texel bound; at most
/// `maxTexelBufferElements` texels in the view (whose range is the bound
/// size rounded down to whole texels, `texel::view_range`).
fn check_texel_binding(decl: &ResourceBinding, limits: &Limits, b: &BindingView) -> Result<()> {
    let (set, binding) = (b.set, b.binding);
    let Some(texel) = decl.texel_format.and_then(TexelFormat::texel_size) else {
        return Err(Error::UnknownTexelFormat {
            set,
            binding,
            descriptor_type: decl.descriptor_type,
        });
    };
    check_offset(
        b,
        limits.min_texel_buffer_offset_alignment,
        "minTexelBufferOffsetAlignment",
    )?;
    let texel = u64::from(texel);
    if b.size < texel {
        return Err(Error::BufferTooSmall {
            set,
            binding,
            required: texel,
            size: b.size,
        });
    }
    let texels = b.size / texel;
    if texels > u64::from(limits.max_texel_buffer_elements) {
        return Err(Error::LimitExceeded {
            what: format!(
                "the number of {texel}-byte texels in the range bound at {set}:{binding}"
            ),
            requested: texels,
            limit_name: "maxTexelBufferElements",
            limit: limits.max_texel_buffer_elements.into(),
        });
    }
    Ok(())
}

/// The per-dispatch objects; Drop frees whichever exist.
struct Transient<'a> {
    device: &'a DeviceShared,
    pool: vk::DescriptorPool,
    command_buffer: vk::CommandBuffer,
    fence: vk::Fence,
    /// Two timestamp queries around the dispatch, when timed.
    query_pool: vk::QueryPool,
    /// The buffer views of the texel bindings.
    views: Vec<vk::BufferView>,
}

impl Transient<'_> {
    /// Creates the pool, allocates one set per set number and writes the
    /// buffer descriptors.
    fn descriptor_sets(
        &mut self,
        pipeline: &ComputePipeline,
        bindings: &[BufferBinding<'_>],
    ) -> Result<Vec<vk::DescriptorSet>> {
        if pipeline.set_layouts.is_empty() {
            return Ok(Vec::new());
        }
        let d = &self.device.raw;
        let info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(pipeline.set_layouts.len() as u32)
            .pool_sizes(&pipeline.pool_sizes);
        self.device.note_call();
        // SAFETY: valid create info (non-empty pool sizes: at least one
        // binding exists when there are set layouts) for the live device.
        self.pool = unsafe { d.create_descriptor_pool(&info, None) }
            .map_err(|r| map_create("vkCreateDescriptorPool", r))?;
        let alloc = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(self.pool)
            .set_layouts(&pipeline.set_layouts);
        self.device.note_call();
        // SAFETY: the pool was sized for exactly these layouts.
        let sets =
            unsafe { d.allocate_descriptor_sets(&alloc) }.map_err(map_allocate_descriptor_sets)?;

        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bindings
            .iter()
            .map(|b| {
                [vk::DescriptorBufferInfo {
                    buffer: b.buffer.raw,
                    offset: b.offset,
                    range: b.size.unwrap_or(vk::WHOLE_SIZE),
                }]
            })
            .collect();
        // One view per texel binding (null for the others), each kept in
        // `self.views` as soon as it exists so Drop destroys it.
        let mut views: Vec<[vk::BufferView; 1]> = Vec::with_capacity(bindings.len());
        for b in bindings {
            let format = pipeline
                .interface
                .binding(b.set, b.binding)
                .and_then(|decl| decl.texel_format);
            let view = match format {
                Some(format) => {
                    let view = crate::texel::create_view(
                        self.device,
                        b.buffer.raw,
                        format,
                        b.offset,
                        b.bound_size(),
                    )?;
                    self.views.push(view);
                    view
                }
                None => vk::BufferView::null(),
            };
            views.push([view]);
        }
        let writes: Vec<vk::WriteDescriptorSet<'_>> = bindings
            .iter()
            .zip(infos.iter().zip(&views))
            .filter_map(|(b, (info, view))| {
                let (set, binding) = (b.set, b.binding);
                let decl = pipeline.interface.binding(set, binding)?;
                let ty = crate::descriptors::vk_type(decl, &pipeline.dynamic);
                let write = vk::WriteDescriptorSet::default()
                    .dst_set(sets[set as usize])
                    .dst_binding(binding)
                    .dst_array_element(b.element)
                    .descriptor_type(ty);
                Some(if decl.descriptor_type.is_texel_buffer() {
                    write.texel_buffer_view(view)
                } else {
                    write.buffer_info(info)
                })
            })
            .collect();
        self.device.note_call();
        // SAFETY: the sets are not in use; each write matches its binding's
        // type (from the interface the layouts were made from) and names a
        // live buffer whose whole size is within the range limits, or a
        // live view of one (checked).
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        Ok(sets)
    }

    /// Creates the pool of the two timestamps of a timed dispatch.
    fn timestamp_pool(&mut self) -> Result<()> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(2);
        self.device.note_call();
        // SAFETY: valid create info for the live device.
        self.query_pool = unsafe { self.device.raw.create_query_pool(&info, None) }
            .map_err(|r| map_create("vkCreateQueryPool", r))?;
        Ok(())
    }

    /// The GPU time between the two timestamps (after the fence signalled).
    fn elapsed(&self, clock: TimestampClock) -> Result<Duration> {
        let mut ticks = [0u64; 2];
        // SAFETY: both queries were written by the command buffer whose
        // fence has signalled; the pool holds exactly two 64-bit results.
        unsafe {
            self.device.raw.get_query_pool_results(
                self.query_pool,
                0,
                &mut ticks,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(|r| map_queue("vkGetQueryPoolResults", r))?;
        let delta = (ticks[1] & clock.mask).wrapping_sub(ticks[0] & clock.mask) & clock.mask;
        let nanos = delta as f64 * clock.period_ns;
        Ok(Duration::from_nanos(nanos.round() as u64))
    }

    /// Allocates and records the command buffer.
    fn record(
        &mut self,
        pipeline: &ComputePipeline,
        sets: &[vk::DescriptorSet],
        dynamic_offsets: &[u32],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<()> {
        let d = &self.device.raw;
        let pool = self.device.command_pool();
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(*pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        self.device.note_call();
        // SAFETY: the pool is locked for the allocation and the recording.
        self.command_buffer = unsafe { d.allocate_command_buffers(&alloc) }
            .map_err(|r| map_create("vkAllocateCommandBuffers", r))?[0];
        let cb = self.command_buffer;
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: `cb` is a fresh primary command buffer of the locked
        // pool; the pipeline, layout and sets are live and compatible (the
        // sets were allocated from the pipeline's own layouts); there is one
        // dynamic offset per dynamic descriptor, in set/binding/element
        // order, each aligned and keeping its range inside its buffer
        // (checked); the push bytes match the layout's range (checked); the group counts are
        // within the device limits (checked); a query pool exists only when
        // the queue family has timestamps (`timestampValidBits > 0`), and its
        // two queries are reset before they are written.
        unsafe {
            self.device.note_call();
            d.begin_command_buffer(cb, &begin)
                .map_err(|r| map_create("vkBeginCommandBuffer", r))?;
            if self.query_pool != vk::QueryPool::null() {
                self.device.note_call();
                d.cmd_reset_query_pool(cb, self.query_pool, 0, 2);
                self.device.note_call();
                d.cmd_write_timestamp(cb, vk::PipelineStageFlags::TOP_OF_PIPE, self.query_pool, 0);
            }
            self.device.note_call();
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline.raw);
            if !sets.is_empty() {
                self.device.note_call();
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.layout,
                    0,
                    sets,
                    dynamic_offsets,
                );
            }
            if let Some(pc) = pipeline.interface.push_constants {
                self.device.note_call();
                d.cmd_push_constants(
                    cb,
                    pipeline.layout,
                    vk::ShaderStageFlags::COMPUTE,
                    pc.offset,
                    push_constants,
                );
            }
            self.device.note_call();
            d.cmd_dispatch(cb, groups[0], groups[1], groups[2]);
            if self.query_pool != vk::QueryPool::null() {
                self.device.note_call();
                d.cmd_write_timestamp(
                    cb,
                    vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                    self.query_pool,
                    1,
                );
            }
            self.device.note_call();
            d.cmd_pipeline_barrier(
                cb,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            d.end_command_buffer(cb)
                .map_err(|r| map_create("vkEndCommandBuffer", r))?;
        }
        Ok(())
    }

    /// Submits with a fence and blocks until it signals; returns the host
    /// time spent submitting and waiting.
    fn submit_and_wait(&mut self) -> Result<(Duration, Duration)> {
        let d = &self.device.raw;
        self.device.note_call();
        // SAFETY: valid create info for the live device.
        self.fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }
            .map_err(|r| map_create("vkCreateFence", r))?;
        let cbs = [self.command_buffer];
        let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
        let start = Instant::now();
        {
            let queue = self.device.queue();
            // Through `call`: a device loss is remembered by the context
            // (`Context::is_lost`), and a fault can be injected.
            self.device.call(CallFamily::Submit, "vkQueueSubmit", || {
                // SAFETY: the queue is locked; the command buffer is
                // recorded and not pending; the fence is unsignaled and
                // unused.
                unsafe { d.queue_submit(*queue, &submit, self.fence) }
            })?;
        }
        let submitted = Instant::now();
        self.device.call(CallFamily::Wait, "vkWaitForFences", || {
            // SAFETY: the fence was submitted above; an infinite timeout
            // makes this a blocking wait in the driver (no spinning
            // here).
            unsafe { d.wait_for_fences(&[self.fence], true, u64::MAX) }
        })?;
        Ok((submitted - start, submitted.elapsed()))
    }
}

impl Drop for Transient<'_> {
    fn drop(&mut self) {
        let d = &self.device.raw;
        if self.fence != vk::Fence::null() {
            // SAFETY: the fence belongs to the device. If it is not
            // signaled (a failed or injected wait), wait for the device
            // before freeing what the pending work uses; a lost device
            // returns at once, and the spec then counts the work as
            // complete (its Lost Device section: `VK_ERROR_DEVICE_LOST`
            // is as `VK_SUCCESS` for whether a command buffer is pending
            // or an object in use), though validation layer 1.3.239 still
            // reports the command buffer and fence freed here as in use
            // (the H200 run of 2026-11-30, after a shader that never
            // ended).
            unsafe {
                if d.get_fence_status(self.fence) != Ok(true) {
                    let _queue = self.device.queue();
                    let _ = d.device_wait_idle();
                }
            }
        }
        // SAFETY: the work using these objects completed (or the device
        // is lost); null handles are no-ops; the pool lock guards freeing.
        unsafe {
            if self.command_buffer != vk::CommandBuffer::null() {
                let pool = self.device.command_pool();
                d.free_command_buffers(*pool, &[self.command_buffer]);
            }
            d.destroy_fence(self.fence, None);
            d.destroy_query_pool(self.query_pool, None);
            d.destroy_descriptor_pool(self.pool, None);
        }
        crate::texel::destroy_views(self.device, &mut self.views);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_abi::Access;

    fn iface(format: TexelFormat) -> PipelineInterface {
        PipelineInterface {
            entry_point: "main".into(),
            bindings: vec![ResourceBinding {
                set: 0,
                binding: 1,
                descriptor_type: DescriptorType::UniformTexelBuffer,
                access: Access::ReadOnly,
                min_size: 0,
                element_stride: None,
                count: 1,
                texel_format: Some(format),
            }],
            ..PipelineInterface::default()
        }
    }

    fn view(base: u64, offset: u64, size: u64, extent: u64) -> BindingView {
        BindingView {
            set: 0,
            binding: 1,
            element: 0,
            base,
            offset,
            size,
            extent,
        }
    }

    fn check(format: TexelFormat, limits: &Limits, v: BindingView) -> Result<()> {
        check_bindings(&iface(format), limits, &[v], &[], [1, 1, 1])
    }

    #[test]
    fn texel_bindings_check_format_alignment_and_texel_count() {
        let limits = Limits {
            min_texel_buffer_offset_alignment: 16,
            max_texel_buffer_elements: 1000,
            ..Limits::default()
        };
        let rgba = TexelFormat::Rgba32f;
        check(rgba, &limits, view(0, 0, 16 * 1000, 16 * 1000)).unwrap();
        // A slice at base 256 bound from offset 32: aligned in the buffer.
        check(rgba, &limits, view(256, 32, 100, 4096)).unwrap();
        // Offsets are checked in the VkBuffer (base + offset).
        assert_eq!(
            check(rgba, &limits, view(8, 0, 64, 4096))
                .unwrap_err()
                .to_string(),
            "binding 0:1: offset 0 is not a multiple of the device limit \
             minTexelBufferOffsetAlignment = 16"
        );
        assert!(matches!(
            check(rgba, &limits, view(0, 4, 64, 4096)),
            Err(Error::MisalignedOffset {
                limit_name: "minTexelBufferOffsetAlignment",
                ..
            })
        ));
        assert_eq!(
            check(rgba, &limits, view(0, 0, 15, 4096))
                .unwrap_err()
                .to_string(),
            "binding 0:1 needs at least 16 bytes, but its buffer has 15"
        );
        assert_eq!(
            check(rgba, &limits, view(0, 0, 16 * 1001, 1 << 20))
                .unwrap_err()
                .to_string(),
            "the number of 16-byte texels in the range bound at 0:1 is 1001, above the device \
             limit maxTexelBufferElements = 1000"
        );
        // R32 texels: 4 bytes each.
        check(TexelFormat::R32ui, &limits, view(0, 0, 4000, 4000)).unwrap();
        assert!(check(TexelFormat::R32ui, &limits, view(0, 0, 4004, 4004)).is_err());
        assert!(matches!(
            check(rgba, &limits, view(0, 64, 4096, 4096)),
            Err(Error::RangeOutsideBuffer { .. })
        ));
        assert_eq!(
            check(TexelFormat::Unknown, &limits, view(0, 0, 64, 64))
                .unwrap_err()
                .to_string(),
            "binding 0:1 is a uniform texel buffer of texel format Unknown; kiln needs an \
             explicit format in the module (Rgba32f, Rgba32i, Rgba32ui, Rgba16f, R32f, R32i or R32ui) to \
             create its buffer view"
        );
    }
}
