//! The device limits kiln checks before calling Vulkan: [`kiln_abi::Limits`],
//! filled from `VkPhysicalDeviceLimits`.

use ash::vk;
use kiln_abi::Limits;

/// The subset of `VkPhysicalDeviceLimits` that compute dispatch depends on,
/// as the [`kiln_abi::Limits`] that
/// [`kiln_abi::PipelineInterface::check_limits`] checks against.
pub fn limits_from_vk(l: &vk::PhysicalDeviceLimits) -> Limits {
    Limits {
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
        min_texel_buffer_offset_alignment: l.min_texel_buffer_offset_alignment,
        max_texel_buffer_elements: l.max_texel_buffer_elements,
    }
}
