//! The device [`Limits`] a target environment promises, the ones a
//! reflected [`PipelineInterface`](kiln_abi::PipelineInterface) is checked
//! against ([`kiln_abi::PipelineInterface::check_limits`]).

use kiln_abi::Limits;

use crate::target::TargetEnv;

/// The [`Limits`] `env` promises: its resource limits where it has them,
/// the Vulkan 1.0 minimums ([`Limits::default`]) for the rest
/// (`maxPerStageDescriptorStorageImages`, `...SampledImages`, `...Samplers`,
/// `maxPerStageResources`, `minUniformBufferOffsetAlignment`,
/// `minTexelBufferOffsetAlignment`, `maxTexelBufferElements`).
pub fn limits(env: &TargetEnv) -> Limits {
    let r = &env.limits;
    Limits {
        max_compute_work_group_count: r.max_compute_workgroup_count,
        max_compute_work_group_size: r.max_compute_workgroup_size,
        max_compute_work_group_invocations: r.max_compute_workgroup_invocations,
        max_compute_shared_memory_size: r.max_compute_shared_memory_size,
        max_push_constants_size: r.max_push_constants_size,
        max_bound_descriptor_sets: r.max_bound_descriptor_sets,
        max_per_stage_descriptor_storage_buffers: r.max_per_stage_descriptor_storage_buffers,
        max_per_stage_descriptor_uniform_buffers: r.max_per_stage_descriptor_uniform_buffers,
        max_storage_buffer_range: r.max_storage_buffer_range,
        max_uniform_buffer_range: r.max_uniform_buffer_range,
        min_storage_buffer_offset_alignment: r.min_storage_buffer_offset_alignment,
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_env_gives_vulkan_minimums() {
        let l = limits(&TargetEnv::default());
        assert_eq!(l.max_compute_work_group_invocations, 128);
        assert_eq!(l.max_compute_work_group_size, [128, 128, 64]);
        assert_eq!(l.max_push_constants_size, 128);
        assert_eq!(l.max_per_stage_descriptor_storage_buffers, 4);
        let mut env = TargetEnv::default();
        env.limits.max_compute_shared_memory_size = 4096;
        assert_eq!(limits(&env).max_compute_shared_memory_size, 4096);
    }
}
