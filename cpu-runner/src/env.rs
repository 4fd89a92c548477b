//! The target env kernels are lowered for when they run on the CPU and
//! neither the program nor the caller gives one ([`cpu_target_env`]), and
//! the env for running a device's kernels on the CPU ([`cpu_env_like`]).

use kiln_core::codegen::target::bounded_env;
use kiln_core::grammar::{Capability, Extension, Scope, Version};
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

/// The env a device's kernels run on the CPU with: `device`'s env (its
/// limits, subgroup size and cooperative-matrix configurations, so the
/// tensor compiler chooses the kernels it would choose for that device)
/// restricted, as [`bounded_env`] restricts, to what the CPU runner
/// executes: [`cpu_target_env`]'s capabilities and extensions, plus
/// `CooperativeMatrixKHR` with the Vulkan memory model when `device` lists
/// it (`Subgroup` configurations only; their matrices are spread over the
/// subgroup as kiln_core's `llvm/convert/coop.rs` describes). Kernels
/// compiled for it must run with subgroups of its `subgroup_size`.
pub fn cpu_env_like(device: &TargetEnv) -> TargetEnv {
    let mut cpu = cpu_target_env(device.limits.subgroup_size);
    let coop = device
        .capability_closure()
        .contains(&Capability::CooperativeMatrixKHR);
    if coop {
        cpu.vce.capabilities.extend([
            Capability::CooperativeMatrixKHR,
            Capability::VulkanMemoryModel,
            Capability::VulkanMemoryModelDeviceScope,
        ]);
        cpu.vce.extensions.extend([
            Extension::SpvKhrCooperativeMatrix,
            Extension::SpvKhrVulkanMemoryModel,
        ]);
    }
    let mut env = bounded_env(device, &cpu);
    env.limits
        .cooperative_matrix_properties_khr
        .retain(|p| coop && p.scope == Scope::Subgroup);
    env.limits.cooperative_matrix_properties_nv.clear();
    env
}
