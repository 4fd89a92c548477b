//! The target env kernels are lowered for when they run on the CPU and
//! neither the program nor the caller gives one.

use kiln_core::grammar::{Capability, Extension, Version};
use kiln_core::ir::Vce;
use kiln_core::target::{
    ClientApi, DeviceInfo, DeviceType, ResourceLimits, TargetEnv, FLOAT_CONTROL_WIDTHS,
};

/// What the CPU runner executes: SPIR-V 1.6 for Vulkan with the integer,
/// float, 8/16-bit storage, variable-pointer and every non-uniform
/// subgroup capability the LLVM conversion handles, `SignedZeroInfNanPreserve`
/// at every width (LLVM's arithmetic is IEEE's), and lavapipe's limits
/// (1024 invocations, 32 KiB of workgroup memory) with subgroups of
/// `subgroup_size`.
pub fn cpu_target_env(subgroup_size: u32) -> TargetEnv {
    use Capability as C;
    let capabilities = vec![
        C::Shader,
        C::Int8,
        C::Int16,
        C::Int64,
        C::Float16,
        C::Float64,
        C::StorageBuffer8BitAccess,
        C::UniformAndStorageBuffer8BitAccess,
        C::StorageBuffer16BitAccess,
        C::UniformAndStorageBuffer16BitAccess,
        C::VariablePointersStorageBuffer,
        C::VariablePointers,
        C::GroupNonUniform,
        C::GroupNonUniformVote,
        C::GroupNonUniformArithmetic,
        C::GroupNonUniformBallot,
        C::GroupNonUniformShuffle,
        C::GroupNonUniformShuffleRelative,
        C::GroupNonUniformClustered,
        C::GroupNonUniformQuad,
        C::SignedZeroInfNanPreserve,
    ];
    let extensions = vec![
        Extension::SpvKhrStorageBufferStorageClass,
        Extension::SpvKhr8bitStorage,
        Extension::SpvKhr16bitStorage,
        Extension::SpvKhrVariablePointers,
    ];
    TargetEnv {
        vce: Vce {
            version: Version::V1_6,
            capabilities,
            extensions,
        },
        device: DeviceInfo {
            client_api: ClientApi::Vulkan,
            device_type: DeviceType::Cpu,
            ..DeviceInfo::default()
        },
        limits: ResourceLimits {
            max_compute_shared_memory_size: 32768,
            max_compute_workgroup_invocations: 1024,
            max_compute_workgroup_size: [1024, 1024, 1024],
            subgroup_size,
            min_subgroup_size: Some(subgroup_size),
            max_subgroup_size: Some(subgroup_size),
            // LLVM's float arithmetic is IEEE's unless told otherwise.
            signed_zero_inf_nan_preserve_widths: FLOAT_CONTROL_WIDTHS.to_vec(),
            ..ResourceLimits::default()
        },
    }
}
