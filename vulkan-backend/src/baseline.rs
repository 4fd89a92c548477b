//! A plain dispatch loop written directly against the driver: the baseline
//! the runtime's dispatch overhead is measured against (`cargo bench -p
//! kiln-runtime`).
//!
//! [`DirectDispatchLoop::run_ping_pong`] does what a hand-written Vulkan
//! program does, and nothing else: reset one command buffer, one descriptor
//! pool and one fence; per dispatch allocate a descriptor set, write its two
//! buffer descriptors, bind, dispatch, and put a compute→compute barrier
//! after it; one `vkQueueSubmit` with the fence; one blocking
//! `vkWaitForFences`. No checks beyond what keeps it safe, no tracking.

use std::sync::Arc;

use ash::vk;
use kiln_abi::DescriptorType;

use crate::context::{Context, DeviceShared};
use crate::error::{map_create, map_queue, Error, Result};
use crate::pipeline::ComputePipeline;
use crate::pool::Slice;

/// The baseline loop's objects (see the module docs).
pub struct DirectDispatchLoop {
    device: Arc<DeviceShared>,
    pool: vk::CommandPool,
    cb: vk::CommandBuffer,
    fence: vk::Fence,
    descriptors: vk::DescriptorPool,
    capacity: u32,
}

impl std::fmt::Debug for DirectDispatchLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DirectDispatchLoop")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

impl DirectDispatchLoop {
    /// The objects for runs of up to `capacity` dispatches.
    pub fn new(ctx: &Context, capacity: u32) -> Result<Self> {
        let device = Arc::clone(&ctx.shared);
        let capacity = capacity.max(1);
        let mut this = Self {
            device,
            pool: vk::CommandPool::null(),
            cb: vk::CommandBuffer::null(),
            fence: vk::Fence::null(),
            descriptors: vk::DescriptorPool::null(),
            capacity,
        };
        let d = &this.device.raw;
        let info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(this.device.queue_family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid create infos for the live device; each object is
        // destroyed by Drop (null handles are no-ops there).
        unsafe {
            this.pool = d
                .create_command_pool(&info, None)
                .map_err(|r| map_create("vkCreateCommandPool", r))?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(this.pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            this.cb = d
                .allocate_command_buffers(&alloc)
                .map_err(|r| map_create("vkAllocateCommandBuffers", r))?[0];
            this.fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(|r| map_create("vkCreateFence", r))?;
            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: 2 * capacity,
            }];
            let info = vk::DescriptorPoolCreateInfo::default()
                .max_sets(capacity)
                .pool_sizes(&sizes);
            this.descriptors = d
                .create_descriptor_pool(&info, None)
                .map_err(|r| map_create("vkCreateDescriptorPool", r))?;
        }
        Ok(this)
    }

    /// Runs `count` dispatches of `pipeline` over `groups` workgroups, the
    /// even ones with `(a, b)` at bindings 0:0 and 0:1, the odd ones with
    /// `(b, a)`, each followed by a barrier; submits once and waits. The
    /// pipeline must have exactly those two storage-buffer bindings and no
    /// push constants; the slices must fit its bindings (not checked: a
    /// mismatch is for the validation layer to report).
    pub fn run_ping_pong(
        &mut self,
        pipeline: &ComputePipeline,
        a: &Slice,
        b: &Slice,
        groups: [u32; 3],
        count: u32,
    ) -> Result<()> {
        let iface = &pipeline.interface;
        let shape_ok = iface.bindings.len() == 2
            && iface.bindings.iter().enumerate().all(|(i, x)| {
                x.key() == (0, i as u32) && x.descriptor_type == DescriptorType::StorageBuffer
            })
            && iface.push_constants.is_none()
            && pipeline.set_layouts.len() == 1;
        if !shape_ok || count > self.capacity {
            return Err(Error::Unsupported {
                what: "this pipeline or count in the baseline loop (two storage buffers at 0:0 \
                       and 0:1, no push constants, at most `capacity` dispatches)",
            });
        }
        for s in [a, b] {
            if !Arc::ptr_eq(&s.shared.block.device, &self.device) {
                return Err(Error::ForeignObject { what: "slice" });
            }
        }
        self.device.limits.check_group_count(groups)?;
        let d = &self.device.raw;
        let cb = self.cb;
        let layouts = vec![pipeline.set_layouts[0]; count as usize];
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
        let info = |s: &Slice| {
            [vk::DescriptorBufferInfo {
                buffer: s.raw_buffer(),
                offset: s.offset(),
                range: s.size(),
            }]
        };
        let (ia, ib) = (info(a), info(b));
        // SAFETY: the fence and command buffer are not in use (every run
        // waits for its fence before returning); the descriptor pool was
        // sized for `capacity >= count` sets of two storage buffers; the
        // layouts are the pipeline's own; the buffers are live slices of
        // this device and stay alive (borrowed) until the wait returns; the
        // group counts are within the limits (checked).
        unsafe {
            d.reset_descriptor_pool(self.descriptors, vk::DescriptorPoolResetFlags::empty())
                .map_err(|r| map_create("vkResetDescriptorPool", r))?;
            let sets = if count == 0 {
                Vec::new()
            } else {
                let alloc = vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(self.descriptors)
                    .set_layouts(&layouts);
                d.allocate_descriptor_sets(&alloc)
                    .map_err(|r| map_create("vkAllocateDescriptorSets", r))?
            };
            d.reset_command_buffer(cb, vk::CommandBufferResetFlags::empty())
                .map_err(|r| map_create("vkResetCommandBuffer", r))?;
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(cb, &begin)
                .map_err(|r| map_create("vkBeginCommandBuffer", r))?;
            d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline.raw);
            for (i, &set) in sets.iter().enumerate() {
                let (x, y) = if i % 2 == 0 { (&ia, &ib) } else { (&ib, &ia) };
                let writes = [
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(x),
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(1)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(y),
                ];
                d.update_descriptor_sets(&writes, &[]);
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.layout,
                    0,
                    &[set],
                    &[],
                );
                d.cmd_dispatch(cb, groups[0], groups[1], groups[2]);
                d.cmd_pipeline_barrier(
                    cb,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::DependencyFlags::empty(),
                    &barrier,
                    &[],
                    &[],
                );
            }
            d.end_command_buffer(cb)
                .map_err(|r| map_create("vkEndCommandBuffer", r))?;
            d.reset_fences(&[self.fence])
                .map_err(|r| map_create("vkResetFences", r))?;
            let cbs = [cb];
            let submit = [vk::SubmitInfo::default().command_buffers(&cbs)];
            {
                let queue = self.device.queue();
                d.queue_submit(*queue, &submit, self.fence)
                    .map_err(|r| map_queue("vkQueueSubmit", r))?;
            }
            d.wait_for_fences(&[self.fence], true, u64::MAX)
                .map_err(|r| map_queue("vkWaitForFences", r))?;
        }
        Ok(())
    }
}

impl Drop for DirectDispatchLoop {
    fn drop(&mut self) {
        let d = &self.device.raw;
        // SAFETY: every run waited for its work; if a run failed after its
        // submit, wait for the device before destroying what it uses.
        unsafe {
            if d.get_fence_status(self.fence) == Ok(false) {
                let _queue = self.device.queue();
                let _ = d.device_wait_idle();
            }
            d.destroy_descriptor_pool(self.descriptors, None);
            d.destroy_fence(self.fence, None);
            d.destroy_command_pool(self.pool, None);
        }
    }
}
