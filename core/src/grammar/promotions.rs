//! Extensions folded into core SPIR-V versions.
//!
//! From the SPIR-V specification's change log (appendix "Changes"): each
//! listed extension's functionality is part of the core from that version
//! on, so a module of that version uses it without `OpExtension`.
//!
//! | version | extensions |
//! | --- | --- |
//! | 1.3 | `SPV_KHR_shader_draw_parameters`, `SPV_KHR_16bit_storage`, `SPV_KHR_device_group`, `SPV_KHR_multiview`, `SPV_KHR_storage_buffer_storage_class`, `SPV_KHR_variable_pointers` |
//! | 1.4 | `SPV_KHR_no_integer_wrap_decoration`, `SPV_KHR_float_controls`, `SPV_GOOGLE_decorate_string`, `SPV_GOOGLE_hlsl_functionality1` |
//! | 1.5 | `SPV_KHR_8bit_storage`, `SPV_KHR_vulkan_memory_model`, `SPV_EXT_descriptor_indexing`, `SPV_KHR_physical_storage_buffer`, `SPV_EXT_physical_storage_buffer`, `SPV_EXT_shader_viewport_index_layer` |
//! | 1.6 | `SPV_KHR_integer_dot_product`, `SPV_KHR_terminate_invocation`, `SPV_EXT_demote_to_helper_invocation` (and `SPV_KHR_non_semantic_info`, which the core grammar never names, so [`Extension`] has no variant for it) |
//!
//! The grammar agrees: every enumerant and instruction that lists one of
//! these extensions and has a core version has exactly the version above
//! (checked by `core/tests/core/availability.rs`).

use crate::grammar::{Extension, Version};

/// `(version, extensions folded into it)`, ascending by version.
pub const PROMOTIONS: &[(Version, &[Extension])] = &[
    (
        Version::V1_3,
        &[
            Extension::SpvKhrShaderDrawParameters,
            Extension::SpvKhr16bitStorage,
            Extension::SpvKhrDeviceGroup,
            Extension::SpvKhrMultiview,
            Extension::SpvKhrStorageBufferStorageClass,
            Extension::SpvKhrVariablePointers,
        ],
    ),
    (
        Version::V1_4,
        &[
            Extension::SpvKhrNoIntegerWrapDecoration,
            Extension::SpvKhrFloatControls,
            Extension::SpvGoogleDecorateString,
            Extension::SpvGoogleHlslFunctionality1,
        ],
    ),
    (
        Version::V1_5,
        &[
            Extension::SpvKhr8bitStorage,
            Extension::SpvKhrVulkanMemoryModel,
            Extension::SpvExtDescriptorIndexing,
            Extension::SpvKhrPhysicalStorageBuffer,
            Extension::SpvExtPhysicalStorageBuffer,
            Extension::SpvExtShaderViewportIndexLayer,
        ],
    ),
    (
        Version::V1_6,
        &[
            Extension::SpvKhrIntegerDotProduct,
            Extension::SpvKhrTerminateInvocation,
            Extension::SpvExtDemoteToHelperInvocation,
        ],
    ),
];

/// The core version `ext` was folded into, if any.
pub fn promoted_version(ext: Extension) -> Option<Version> {
    PROMOTIONS
        .iter()
        .find(|(_, exts)| exts.contains(&ext))
        .map(|(v, _)| *v)
}

/// Whether `ext`'s functionality is core in `version`.
pub fn is_core_in(ext: Extension, version: Version) -> bool {
    promoted_version(ext).is_some_and(|v| v <= version)
}
