//! The device limits kiln checks before calling Vulkan.

use ash::vk;

/// The subset of `VkPhysicalDeviceLimits` that compute dispatch depends on.
/// Field names follow Vulkan's (`maxComputeWorkGroupCount` →
/// `max_compute_work_group_count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeviceLimits {
    /// `maxComputeWorkGroupCount`: workgroups per dispatch, per dimension.
    pub max_compute_work_group_count: [u32; 3],
    /// `maxComputeWorkGroupSize`: invocations per workgroup, per dimension.
    pub max_compute_work_group_size: [u32; 3],
    /// `maxComputeWorkGroupInvocations`: invocations per workgroup in total.
    pub max_compute_work_group_invocations: u32,
    /// `maxComputeSharedMemorySize`: bytes of workgroup memory.
    pub max_compute_shared_memory_size: u32,
    /// `maxPushConstantsSize`: bytes of push constants.
    pub max_push_constants_size: u32,
    /// `maxBoundDescriptorSets`: descriptor sets in a pipeline layout.
    pub max_bound_descriptor_sets: u32,
    /// `maxPerStageDescriptorStorageBuffers`.
    pub max_per_stage_descriptor_storage_buffers: u32,
    /// `maxPerStageDescriptorUniformBuffers`.
    pub max_per_stage_descriptor_uniform_buffers: u32,
    /// `maxPerStageDescriptorStorageImages`.
    pub max_per_stage_descriptor_storage_images: u32,
    /// `maxPerStageDescriptorSampledImages` (sampled and combined).
    pub max_per_stage_descriptor_sampled_images: u32,
    /// `maxPerStageDescriptorSamplers` (samplers and combined).
    pub max_per_stage_descriptor_samplers: u32,
    /// `maxPerStageResources`.
    pub max_per_stage_resources: u32,
    /// `maxStorageBufferRange`: bytes one storage-buffer descriptor spans.
    pub max_storage_buffer_range: u32,
    /// `maxUniformBufferRange`: bytes one uniform-buffer descriptor spans.
    pub max_uniform_buffer_range: u32,
    /// `minStorageBufferOffsetAlignment`.
    pub min_storage_buffer_offset_alignment: u64,
    /// `minUniformBufferOffsetAlignment`.
    pub min_uniform_buffer_offset_alignment: u64,
}

impl DeviceLimits {
    /// The same limits as the ABI crate's [`kiln_abi::Limits`], which
    /// [`kiln_abi::PipelineInterface::check_limits`] checks against.
    pub fn to_abi(&self) -> kiln_abi::Limits {
        kiln_abi::Limits {
            max_compute_work_group_count: self.max_compute_work_group_count,
            max_compute_work_group_size: self.max_compute_work_group_size,
            max_compute_work_group_invocations: self.max_compute_work_group_invocations,
            max_compute_shared_memory_size: self.max_compute_shared_memory_size,
            max_push_constants_size: self.max_push_constants_size,
            max_bound_descriptor_sets: self.max_bound_descriptor_sets,
            max_per_stage_descriptor_storage_buffers: self.max_per_stage_descriptor_storage_buffers,
            max_per_stage_descriptor_uniform_buffers: self.max_per_stage_descriptor_uniform_buffers,
            max_per_stage_descriptor_storage_images: self.max_per_stage_descriptor_storage_images,
            max_per_stage_descriptor_sampled_images: self.max_per_stage_descriptor_sampled_images,
            max_per_stage_descriptor_samplers: self.max_per_stage_descriptor_samplers,
            max_per_stage_resources: self.max_per_stage_resources,
            max_storage_buffer_range: self.max_storage_buffer_range,
            max_uniform_buffer_range: self.max_uniform_buffer_range,
            min_storage_buffer_offset_alignment: self.min_storage_buffer_offset_alignment,
            min_uniform_buffer_offset_alignment: self.min_uniform_buffer_offset_alignment,
        }
    }
}

impl From<&vk::PhysicalDeviceLimits> for DeviceLimits {
    fn from(l: &vk::PhysicalDeviceLimits) -> Self {
        Self {
            max_compute_work_group_count: l.max_compute_work_group_count,
            max_compute_work_group_size: l.max_compute_work_group_size,
            max_compute_work_group_invocations: l.max_compute_work_group_invocations,
            max_compute_shared_memory_size: l.max_compute_shared_memory_size,
            max_push_constants_size: l.max_push_constants_size,
            max_bound_descriptor_sets: l.max_bound_descriptor_sets,
            max_per_stage_descriptor_storage_buffers: l.max_per_stage_descriptor_storage_buffers,
            max_per_stage_descriptor_uniform_buffers: l.max_per_stage_descriptor_uniform_buffers,
            max_per_stage_descriptor_storage_images: l.max_per_stage_descriptor_storage_images,
            max_per_stage_descriptor_sampled_images: l.max_per_stage_descriptor_sampled_images,
            max_per_stage_descriptor_samplers: l.max_per_stage_descriptor_samplers,
            max_per_stage_resources: l.max_per_stage_resources,
            max_storage_buffer_range: l.max_storage_buffer_range,
            max_uniform_buffer_range: l.max_uniform_buffer_range,
            min_storage_buffer_offset_alignment: l.min_storage_buffer_offset_alignment,
            min_uniform_buffer_offset_alignment: l.min_uniform_buffer_offset_alignment,
        }
    }
}
