//! The compiler's side of the shader ABI: the [`PipelineInterface`](kiln_abi::PipelineInterface) of an
//! entry point reflected from the spv IR, and the device [`Limits`] a
//! target environment promises.
//!
//! * [`reflect_module`] reads a lowered module (after `lower-abi-attrs`):
//!   the `spv.EntryPoint` and its `spv.ExecutionMode`s, the global variables
//!   the entry function and its callees reach through `spv.mlir.addressof`,
//!   their types and decoration attributes, and the module's
//!   `spv.SpecConstant`s. It gives the same interface as
//!   [`crate::binary::reflect::reflect_binary`] on the module's binary; the
//!   rules are listed there and in [`reflect`].
//! * [`limits`] converts a [`TargetEnv`]'s resource limits to the
//!   [`Limits`] a pipeline interface is checked against
//!   ([`kiln_abi::PipelineInterface::check_limits`]).
//! * [`binary_entry_points`] lists the entry points of a SPIR-V binary.
//!
//! Sizes: a buffer's size comes from its explicit layout (`Offset`,
//! `ArrayStride`, `MatrixStride`: the decorations are the layout, as for a
//! binary). Workgroup variables carry no explicit layout; their size is
//! computed with the std430 rules (scalars and vectors aligned to their
//! size, three-component vectors to four components, arrays and structs to
//! their largest member), which is what drivers allocate for them in
//! practice. A bool takes 4 bytes.

pub(crate) mod binary;
pub(crate) mod common;
pub mod reflect;
mod size;

pub use binary::binary_entry_points;
pub use reflect::{entry_points, reflect_module, ReflectError};

use kiln_abi::Limits;

use crate::target::TargetEnv;

/// The [`Limits`] `env` promises: its resource limits where it has them,
/// the Vulkan 1.0 minimums ([`Limits::default`]) for the rest
/// (`maxPerStageDescriptorStorageImages`, `...SampledImages`, `...Samplers`,
/// `maxPerStageResources`, `minUniformBufferOffsetAlignment`).
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
