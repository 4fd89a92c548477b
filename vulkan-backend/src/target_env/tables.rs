//! Pure mapping tables from what a Vulkan device reports to what a SPIR-V
//! target env says. No calls, no state: every function here is a lookup
//! over a table below, so the tables are the documentation.
//!
//! | table | maps | to |
//! | --- | --- | --- |
//! | [`SPIRV_VERSIONS`] | Vulkan API version (+ `VK_KHR_spirv_1_4`) | SPIR-V version |
//! | [`EXTENSIONS`] | device extension | `SPV_*` extensions, and the Vulkan version that promoted it |
//! | [`Feature`] (`feature_table!`) | feature bit | its Vulkan name, the extension it came from, the Vulkan version that promoted it |
//! | [`CORE_CAPABILITIES`] | — | the capabilities every implementation has |
//! | [`CAPABILITY_FEATURES`] | feature bits | capability |
//! | [`SUBGROUP_OPERATIONS`] | subgroup operation bit | `GroupNonUniform*` capability |
//! | [`FLOAT_CONTROLS`], [`float_controls`] | float-controls property | capability |
//! | [`VENDORS`] | vendor id | vendor name and MLIR's [`Vendor`] |
//! | [`device_type`] | the runtime's device type (`VkPhysicalDeviceType`) | MLIR's [`DeviceType`] |
//! | [`component_type`], [`scope`] | cooperative-matrix component type / scope | [`ScalarType`] / [`Scope`] |
//!
//! Sources: the Vulkan specification's appendix "SPIR-V Environment"
//! (tables "List of SPIR-V Extensions" and "List of SPIR-V Capabilities and
//! corresponding Vulkan features, extensions, or core version"), its
//! "Promotions" of each extension, and `VkVendorId`.

use ash::vk;
use kiln_core::grammar::{Capability, Extension, Scope, Version};
use kiln_core::ir::{FloatKind, Signedness};
use kiln_core::target::{DeviceType, ScalarType, Vendor};

use super::FloatControls;
use crate::device::DeviceType as RuntimeDeviceType;

/// A Vulkan version as `(major, minor)` (the patch never matters here).
pub(crate) type VkVersion = (u32, u32);

/// The `(major, minor)` of a packed `VK_MAKE_API_VERSION` number.
pub(crate) fn vk_version(packed: u32) -> VkVersion {
    (vk::api_version_major(packed), vk::api_version_minor(packed))
}

/// The SPIR-V version each Vulkan version consumes (Vulkan specification,
/// "Versions": 1.0 → 1.0, 1.1 → 1.3, 1.2 → 1.5, 1.3 → 1.6), ascending.
pub(crate) const SPIRV_VERSIONS: &[(VkVersion, Version)] = &[
    ((1, 0), Version::V1_0),
    ((1, 1), Version::V1_3),
    ((1, 2), Version::V1_5),
    ((1, 3), Version::V1_6),
];

/// The SPIR-V version a device of Vulkan version `api` accepts: the
/// highest row of [`SPIRV_VERSIONS`] not above `api` (so a newer Vulkan
/// gets 1.6), raised to 1.4 on a Vulkan 1.1 device that may use
/// `VK_KHR_spirv_1_4` (`spirv_1_4`).
pub(crate) fn spirv_version(api: VkVersion, spirv_1_4: bool) -> Version {
    let base = SPIRV_VERSIONS
        .iter()
        .rev()
        .find(|(vk, _)| *vk <= api)
        .map_or(Version::V1_0, |(_, v)| *v);
    if spirv_1_4 && api >= (1, 1) && base < Version::V1_4 {
        Version::V1_4
    } else {
        base
    }
}

/// One device extension and what it allows in SPIR-V.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExtensionRow {
    /// The device extension (`VK_KHR_16bit_storage`).
    pub(crate) vk: &'static str,
    /// The SPIR-V extensions it allows (empty when it only changes the
    /// version or its SPIR-V extension has no [`Extension`] variant).
    pub(crate) spv: &'static [Extension],
    /// The Vulkan version whose core includes it, if any.
    pub(crate) core_in: Option<VkVersion>,
}

/// The device extensions kiln maps (Vulkan specification, "List of SPIR-V
/// Extensions", and each extension's "Promotion" section). A device of a
/// version at or above `core_in` has the extension's functionality without
/// enabling it.
///
/// Not here: graphics-only extensions (draw parameters, demote, terminate
/// invocation), and extensions whose capabilities kiln does not map yet
/// (`VK_EXT_shader_atomic_float2`, `VK_NV_cooperative_matrix`,
/// `VK_KHR_shader_clock`, `VK_KHR_shader_subgroup_rotate`, ...).
/// Rows with no SPIR-V extension matter otherwise: `VK_KHR_spirv_1_4`
/// raises the version, `VK_EXT_subgroup_size_control` makes the
/// min/max subgroup sizes usable. `VK_KHR_shader_non_semantic_info` allows `SPV_KHR_non_semantic_info`,
/// which the core grammar never names, so [`Extension`] has no variant for
/// it and the row lists none.
pub(crate) const EXTENSIONS: &[ExtensionRow] = &[
    ExtensionRow {
        vk: "VK_KHR_16bit_storage",
        spv: &[Extension::SpvKhr16bitStorage],
        core_in: Some((1, 1)),
    },
    ExtensionRow {
        vk: "VK_KHR_storage_buffer_storage_class",
        spv: &[Extension::SpvKhrStorageBufferStorageClass],
        core_in: Some((1, 1)),
    },
    ExtensionRow {
        vk: "VK_KHR_variable_pointers",
        spv: &[Extension::SpvKhrVariablePointers],
        core_in: Some((1, 1)),
    },
    ExtensionRow {
        vk: "VK_KHR_8bit_storage",
        spv: &[Extension::SpvKhr8bitStorage],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_KHR_vulkan_memory_model",
        spv: &[Extension::SpvKhrVulkanMemoryModel],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_KHR_shader_float_controls",
        spv: &[Extension::SpvKhrFloatControls],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_KHR_buffer_device_address",
        spv: &[Extension::SpvKhrPhysicalStorageBuffer],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_EXT_descriptor_indexing",
        spv: &[Extension::SpvExtDescriptorIndexing],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_KHR_spirv_1_4",
        spv: &[],
        core_in: Some((1, 2)),
    },
    ExtensionRow {
        vk: "VK_EXT_subgroup_size_control",
        spv: &[],
        core_in: Some((1, 3)),
    },
    ExtensionRow {
        vk: "VK_KHR_shader_integer_dot_product",
        spv: &[Extension::SpvKhrIntegerDotProduct],
        core_in: Some((1, 3)),
    },
    ExtensionRow {
        vk: "VK_KHR_shader_non_semantic_info",
        spv: &[],
        core_in: Some((1, 3)),
    },
    ExtensionRow {
        vk: "VK_EXT_shader_atomic_float",
        spv: &[Extension::SpvExtShaderAtomicFloatAdd],
        core_in: None,
    },
    ExtensionRow {
        vk: "VK_KHR_cooperative_matrix",
        spv: &[Extension::SpvKhrCooperativeMatrix],
        core_in: None,
    },
];

/// The row of [`EXTENSIONS`] for device extension `vk`.
pub(crate) fn extension_row(vk: &str) -> Option<&'static ExtensionRow> {
    EXTENSIONS.iter().find(|r| r.vk == vk)
}

/// Declares [`Feature`] with its table: variant, Vulkan member name, the
/// extension whose feature struct holds it (`None` for
/// `VkPhysicalDeviceFeatures`) and the Vulkan version that promoted it.
macro_rules! feature_table {
    ($($(#[$doc:meta])* $variant:ident = $vk:literal, $ext:expr, $core:expr;)*) => {
        /// An optional device feature the target env is derived from: one
        /// member of a Vulkan feature struct (`shaderInt64` of
        /// `VkPhysicalDeviceFeatures`, `scalarBlockLayout` of
        /// `VkPhysicalDeviceVulkan12Features` or of
        /// `VkPhysicalDeviceScalarBlockLayoutFeatures`, ...).
        ///
        /// Some have no SPIR-V capability but change what the compiler may
        /// emit (`ScalarBlockLayout` for the layout code,
        /// `ShaderSubgroupExtendedTypes` for subgroup ops on 8/16/64-bit
        /// types, `ShaderZeroInitializeWorkgroupMemory` for workgroup
        /// initializers, `SubgroupSizeControl` for required subgroup sizes).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Feature {
            $($(#[$doc])* $variant,)*
        }

        impl Feature {
            /// Every feature, in table order.
            pub const ALL: &'static [Feature] = &[$(Feature::$variant),*];

            /// The member's name in the Vulkan feature struct (and in
            /// `vulkaninfo`'s output): `shaderInt64`.
            pub fn vk_name(self) -> &'static str {
                match self {
                    $(Feature::$variant => $vk,)*
                }
            }

            /// The feature named `name` by Vulkan ([`Feature::vk_name`]).
            pub fn from_vk_name(name: &str) -> Option<Feature> {
                match name {
                    $($vk => Some(Feature::$variant),)*
                    _ => None,
                }
            }

            /// The device extension whose feature struct reports it before
            /// it was promoted; `None` for `VkPhysicalDeviceFeatures` members.
            pub fn extension(self) -> Option<&'static str> {
                match self {
                    $(Feature::$variant => $ext,)*
                }
            }

            /// The Vulkan version (`(major, minor)`) whose core feature
            /// struct reports it; `None` when only its extension does.
            pub fn core_in(self) -> Option<(u32, u32)> {
                match self {
                    $(Feature::$variant => $core,)*
                }
            }
        }
    };
}

feature_table! {
    // VkPhysicalDeviceFeatures (Vulkan 1.0).
    /// `shaderFloat64` → `Float64`.
    ShaderFloat64 = "shaderFloat64", None, Some((1, 0));
    /// `shaderInt64` → `Int64`.
    ShaderInt64 = "shaderInt64", None, Some((1, 0));
    /// `shaderInt16` → `Int16`.
    ShaderInt16 = "shaderInt16", None, Some((1, 0));
    // VK_KHR_16bit_storage, core in 1.1.
    /// `storageBuffer16BitAccess` → `StorageBuffer16BitAccess`.
    StorageBuffer16BitAccess = "storageBuffer16BitAccess", Some("VK_KHR_16bit_storage"), Some((1, 1));
    /// `uniformAndStorageBuffer16BitAccess` → `UniformAndStorageBuffer16BitAccess`.
    UniformAndStorageBuffer16BitAccess = "uniformAndStorageBuffer16BitAccess", Some("VK_KHR_16bit_storage"), Some((1, 1));
    /// `storagePushConstant16` → `StoragePushConstant16`.
    StoragePushConstant16 = "storagePushConstant16", Some("VK_KHR_16bit_storage"), Some((1, 1));
    // VK_KHR_variable_pointers, core in 1.1.
    /// `variablePointersStorageBuffer` → `VariablePointersStorageBuffer`.
    VariablePointersStorageBuffer = "variablePointersStorageBuffer", Some("VK_KHR_variable_pointers"), Some((1, 1));
    /// `variablePointers` → `VariablePointers`.
    VariablePointers = "variablePointers", Some("VK_KHR_variable_pointers"), Some((1, 1));
    // VK_KHR_8bit_storage, core in 1.2.
    /// `storageBuffer8BitAccess` → `StorageBuffer8BitAccess`.
    StorageBuffer8BitAccess = "storageBuffer8BitAccess", Some("VK_KHR_8bit_storage"), Some((1, 2));
    /// `uniformAndStorageBuffer8BitAccess` → `UniformAndStorageBuffer8BitAccess`.
    UniformAndStorageBuffer8BitAccess = "uniformAndStorageBuffer8BitAccess", Some("VK_KHR_8bit_storage"), Some((1, 2));
    /// `storagePushConstant8` → `StoragePushConstant8`.
    StoragePushConstant8 = "storagePushConstant8", Some("VK_KHR_8bit_storage"), Some((1, 2));
    // VK_KHR_shader_float16_int8, core in 1.2.
    /// `shaderFloat16` → `Float16`.
    ShaderFloat16 = "shaderFloat16", Some("VK_KHR_shader_float16_int8"), Some((1, 2));
    /// `shaderInt8` → `Int8`.
    ShaderInt8 = "shaderInt8", Some("VK_KHR_shader_float16_int8"), Some((1, 2));
    // VK_EXT_scalar_block_layout, core in 1.2.
    /// `scalarBlockLayout`: scalar (C-like) block layout; no capability.
    ScalarBlockLayout = "scalarBlockLayout", Some("VK_EXT_scalar_block_layout"), Some((1, 2));
    // VK_KHR_uniform_buffer_standard_layout, core in 1.2.
    /// `uniformBufferStandardLayout`: std430-like uniform blocks; no capability.
    UniformBufferStandardLayout = "uniformBufferStandardLayout", Some("VK_KHR_uniform_buffer_standard_layout"), Some((1, 2));
    // VK_KHR_vulkan_memory_model, core in 1.2.
    /// `vulkanMemoryModel` → `VulkanMemoryModel`.
    VulkanMemoryModel = "vulkanMemoryModel", Some("VK_KHR_vulkan_memory_model"), Some((1, 2));
    /// `vulkanMemoryModelDeviceScope` → `VulkanMemoryModelDeviceScope`.
    VulkanMemoryModelDeviceScope = "vulkanMemoryModelDeviceScope", Some("VK_KHR_vulkan_memory_model"), Some((1, 2));
    /// `vulkanMemoryModelAvailabilityVisibilityChains`; no capability.
    VulkanMemoryModelAvailabilityVisibilityChains = "vulkanMemoryModelAvailabilityVisibilityChains", Some("VK_KHR_vulkan_memory_model"), Some((1, 2));
    // VK_KHR_buffer_device_address, core in 1.2.
    /// `bufferDeviceAddress` → `PhysicalStorageBufferAddresses`.
    BufferDeviceAddress = "bufferDeviceAddress", Some("VK_KHR_buffer_device_address"), Some((1, 2));
    // VK_KHR_shader_atomic_int64, core in 1.2.
    /// `shaderBufferInt64Atomics` → `Int64Atomics`.
    ShaderBufferInt64Atomics = "shaderBufferInt64Atomics", Some("VK_KHR_shader_atomic_int64"), Some((1, 2));
    /// `shaderSharedInt64Atomics` → `Int64Atomics`.
    ShaderSharedInt64Atomics = "shaderSharedInt64Atomics", Some("VK_KHR_shader_atomic_int64"), Some((1, 2));
    // VK_KHR_shader_subgroup_extended_types, core in 1.2.
    /// `shaderSubgroupExtendedTypes`: subgroup ops on 8/16/64-bit types; no capability.
    ShaderSubgroupExtendedTypes = "shaderSubgroupExtendedTypes", Some("VK_KHR_shader_subgroup_extended_types"), Some((1, 2));
    // VK_EXT_subgroup_size_control, core in 1.3.
    /// `subgroupSizeControl`: required subgroup sizes; no capability.
    SubgroupSizeControl = "subgroupSizeControl", Some("VK_EXT_subgroup_size_control"), Some((1, 3));
    /// `computeFullSubgroups`: full subgroups in compute; no capability.
    ComputeFullSubgroups = "computeFullSubgroups", Some("VK_EXT_subgroup_size_control"), Some((1, 3));
    // VK_KHR_shader_integer_dot_product, core in 1.3.
    /// `shaderIntegerDotProduct` → `DotProduct`, `DotProductInputAll`,
    /// `DotProductInput4x8Bit` (with `shaderInt8`), `DotProductInput4x8BitPacked`.
    ShaderIntegerDotProduct = "shaderIntegerDotProduct", Some("VK_KHR_shader_integer_dot_product"), Some((1, 3));
    // VK_KHR_zero_initialize_workgroup_memory, core in 1.3.
    /// `shaderZeroInitializeWorkgroupMemory`: initializers on workgroup
    /// variables; no capability.
    ShaderZeroInitializeWorkgroupMemory = "shaderZeroInitializeWorkgroupMemory", Some("VK_KHR_zero_initialize_workgroup_memory"), Some((1, 3));
    // VK_EXT_shader_atomic_float (not promoted).
    /// `shaderBufferFloat32Atomics`: load/store/exchange; no capability.
    ShaderBufferFloat32Atomics = "shaderBufferFloat32Atomics", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderBufferFloat32AtomicAdd` → `AtomicFloat32AddEXT`.
    ShaderBufferFloat32AtomicAdd = "shaderBufferFloat32AtomicAdd", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderBufferFloat64Atomics`: load/store/exchange; no capability.
    ShaderBufferFloat64Atomics = "shaderBufferFloat64Atomics", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderBufferFloat64AtomicAdd` → `AtomicFloat64AddEXT`.
    ShaderBufferFloat64AtomicAdd = "shaderBufferFloat64AtomicAdd", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderSharedFloat32Atomics`: load/store/exchange; no capability.
    ShaderSharedFloat32Atomics = "shaderSharedFloat32Atomics", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderSharedFloat32AtomicAdd` → `AtomicFloat32AddEXT`.
    ShaderSharedFloat32AtomicAdd = "shaderSharedFloat32AtomicAdd", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderSharedFloat64Atomics`: load/store/exchange; no capability.
    ShaderSharedFloat64Atomics = "shaderSharedFloat64Atomics", Some("VK_EXT_shader_atomic_float"), None;
    /// `shaderSharedFloat64AtomicAdd` → `AtomicFloat64AddEXT`.
    ShaderSharedFloat64AtomicAdd = "shaderSharedFloat64AtomicAdd", Some("VK_EXT_shader_atomic_float"), None;
    // VK_KHR_cooperative_matrix (not promoted).
    /// `cooperativeMatrix` → `CooperativeMatrixKHR`.
    CooperativeMatrix = "cooperativeMatrix", Some("VK_KHR_cooperative_matrix"), None;
}

/// Capabilities every Vulkan implementation supports, with no feature or
/// extension: the Vulkan specification's "List of SPIR-V Capabilities and
/// corresponding Vulkan features" lists them as core in Vulkan 1.0. kiln
/// lists the ones its kernels use: `Shader`, and `SampledBuffer` /
/// `ImageBuffer` for uniform / storage texel buffers (`OpTypeImage` with
/// `Dim = Buffer`), which kiln binds for fast vec4 reads on lavapipe.
pub(crate) const CORE_CAPABILITIES: &[Capability] = &[
    Capability::Shader,
    Capability::SampledBuffer,
    Capability::ImageBuffer,
];

/// Capabilities that need features: a capability is available when every
/// feature of one of its rows is (several rows for one capability mean
/// "any of"). From the Vulkan specification's "List of SPIR-V
/// Capabilities and corresponding Vulkan features"; `DotProductInput4x8Bit`
/// also needs `shaderInt8` because it implicitly declares `Int8`.
/// `Shader` needs nothing and is always available ([`CORE_CAPABILITIES`]).
pub(crate) const CAPABILITY_FEATURES: &[(Capability, &[Feature])] = &[
    (Capability::Float64, &[Feature::ShaderFloat64]),
    (Capability::Int64, &[Feature::ShaderInt64]),
    (Capability::Int16, &[Feature::ShaderInt16]),
    (Capability::Int8, &[Feature::ShaderInt8]),
    (Capability::Float16, &[Feature::ShaderFloat16]),
    (
        Capability::StorageBuffer16BitAccess,
        &[Feature::StorageBuffer16BitAccess],
    ),
    (
        Capability::UniformAndStorageBuffer16BitAccess,
        &[Feature::UniformAndStorageBuffer16BitAccess],
    ),
    (
        Capability::StoragePushConstant16,
        &[Feature::StoragePushConstant16],
    ),
    (
        Capability::StorageBuffer8BitAccess,
        &[Feature::StorageBuffer8BitAccess],
    ),
    (
        Capability::UniformAndStorageBuffer8BitAccess,
        &[Feature::UniformAndStorageBuffer8BitAccess],
    ),
    (
        Capability::StoragePushConstant8,
        &[Feature::StoragePushConstant8],
    ),
    (
        Capability::VariablePointersStorageBuffer,
        &[Feature::VariablePointersStorageBuffer],
    ),
    (Capability::VariablePointers, &[Feature::VariablePointers]),
    (Capability::VulkanMemoryModel, &[Feature::VulkanMemoryModel]),
    (
        Capability::VulkanMemoryModelDeviceScope,
        &[Feature::VulkanMemoryModelDeviceScope],
    ),
    (
        Capability::PhysicalStorageBufferAddresses,
        &[Feature::BufferDeviceAddress],
    ),
    (
        Capability::Int64Atomics,
        &[Feature::ShaderBufferInt64Atomics],
    ),
    (
        Capability::Int64Atomics,
        &[Feature::ShaderSharedInt64Atomics],
    ),
    (Capability::DotProduct, &[Feature::ShaderIntegerDotProduct]),
    (
        Capability::DotProductInputAll,
        &[Feature::ShaderIntegerDotProduct],
    ),
    (
        Capability::DotProductInput4x8Bit,
        &[Feature::ShaderIntegerDotProduct, Feature::ShaderInt8],
    ),
    (
        Capability::DotProductInput4x8BitPacked,
        &[Feature::ShaderIntegerDotProduct],
    ),
    (
        Capability::AtomicFloat32AddEXT,
        &[Feature::ShaderBufferFloat32AtomicAdd],
    ),
    (
        Capability::AtomicFloat32AddEXT,
        &[Feature::ShaderSharedFloat32AtomicAdd],
    ),
    (
        Capability::AtomicFloat64AddEXT,
        &[Feature::ShaderBufferFloat64AtomicAdd],
    ),
    (
        Capability::AtomicFloat64AddEXT,
        &[Feature::ShaderSharedFloat64AtomicAdd],
    ),
    (
        Capability::CooperativeMatrixKHR,
        &[Feature::CooperativeMatrix],
    ),
];

/// Subgroup operations (`VkPhysicalDeviceSubgroupProperties::supportedOperations`)
/// and the capability each allows, when the compute stage is among the
/// supported stages. `PARTITIONED_NV` and `ROTATE_KHR` also need device
/// extensions kiln does not enable, so they are not mapped.
pub(crate) const SUBGROUP_OPERATIONS: &[(vk::SubgroupFeatureFlags, Capability)] = &[
    (vk::SubgroupFeatureFlags::BASIC, Capability::GroupNonUniform),
    (
        vk::SubgroupFeatureFlags::VOTE,
        Capability::GroupNonUniformVote,
    ),
    (
        vk::SubgroupFeatureFlags::ARITHMETIC,
        Capability::GroupNonUniformArithmetic,
    ),
    (
        vk::SubgroupFeatureFlags::BALLOT,
        Capability::GroupNonUniformBallot,
    ),
    (
        vk::SubgroupFeatureFlags::SHUFFLE,
        Capability::GroupNonUniformShuffle,
    ),
    (
        vk::SubgroupFeatureFlags::SHUFFLE_RELATIVE,
        Capability::GroupNonUniformShuffleRelative,
    ),
    (
        vk::SubgroupFeatureFlags::CLUSTERED,
        Capability::GroupNonUniformClustered,
    ),
    (
        vk::SubgroupFeatureFlags::QUAD,
        Capability::GroupNonUniformQuad,
    ),
];

/// Reads one float-controls property, `[f16, f32, f64]`.
pub(crate) type FloatControlWidths = fn(&FloatControls) -> [bool; 3];

/// Float-controls properties and the capability each allows (Vulkan 1.2 or
/// `VK_KHR_shader_float_controls`). The capability is listed when the
/// property holds for at least one usable width (32-bit, or 16/64-bit with
/// `Float16`/`Float64`); the execution mode names the width. Which widths
/// hold is kept in [`FloatControls`]; for `SignedZeroInfNanPreserve` the
/// target env lists them too (`signed_zero_inf_nan_preserve_widths`), as
/// kernels declare that mode.
pub(crate) const FLOAT_CONTROLS: &[(FloatControlWidths, Capability)] = &[
    (|f| f.denorm_preserve, Capability::DenormPreserve),
    (|f| f.denorm_flush_to_zero, Capability::DenormFlushToZero),
    (
        |f| f.signed_zero_inf_nan_preserve,
        Capability::SignedZeroInfNanPreserve,
    ),
    (|f| f.rounding_mode_rte, Capability::RoundingModeRTE),
    (|f| f.rounding_mode_rtz, Capability::RoundingModeRTZ),
];

/// kiln's copy of `VkPhysicalDeviceFloatControlsProperties` (per width).
pub(crate) fn float_controls(p: &vk::PhysicalDeviceFloatControlsProperties<'_>) -> FloatControls {
    let b = |v: vk::Bool32| v == vk::TRUE;
    FloatControls {
        denorm_preserve: [
            b(p.shader_denorm_preserve_float16),
            b(p.shader_denorm_preserve_float32),
            b(p.shader_denorm_preserve_float64),
        ],
        denorm_flush_to_zero: [
            b(p.shader_denorm_flush_to_zero_float16),
            b(p.shader_denorm_flush_to_zero_float32),
            b(p.shader_denorm_flush_to_zero_float64),
        ],
        signed_zero_inf_nan_preserve: [
            b(p.shader_signed_zero_inf_nan_preserve_float16),
            b(p.shader_signed_zero_inf_nan_preserve_float32),
            b(p.shader_signed_zero_inf_nan_preserve_float64),
        ],
        rounding_mode_rte: [
            b(p.shader_rounding_mode_rte_float16),
            b(p.shader_rounding_mode_rte_float32),
            b(p.shader_rounding_mode_rte_float64),
        ],
        rounding_mode_rtz: [
            b(p.shader_rounding_mode_rtz_float16),
            b(p.shader_rounding_mode_rtz_float32),
            b(p.shader_rounding_mode_rtz_float64),
        ],
    }
}

/// Vendor ids (PCI ids, and Khronos' `VkVendorId` above `0x10000`), a
/// display name and MLIR's vendor. Ids MLIR has no name for map to
/// [`Vendor::Unknown`] (Mesa's lavapipe reports `VK_VENDOR_ID_MESA`).
/// Agrees with [`Vendor::from_pci_vendor_id`] (checked by a test).
pub(crate) const VENDORS: &[(u32, &str, Vendor)] = &[
    (0x1002, "AMD", Vendor::Amd),
    (0x1022, "AMD", Vendor::Amd),
    (0x10DE, "NVIDIA", Vendor::Nvidia),
    (0x8086, "Intel", Vendor::Intel),
    (0x13B5, "ARM", Vendor::Arm),
    (0x5143, "Qualcomm", Vendor::Qualcomm),
    (0x1010, "Imagination", Vendor::Imagination),
    (0x106B, "Apple", Vendor::Apple),
    (0x1AE0, "Google (SwiftShader)", Vendor::SwiftShader),
    (0x10001, "Vivante", Vendor::Unknown),
    (0x10002, "VeriSilicon", Vendor::Unknown),
    (0x10003, "Kazan", Vendor::Unknown),
    (0x10004, "Codeplay", Vendor::Unknown),
    (0x10005, "Mesa", Vendor::Unknown),
    (0x10006, "PoCL", Vendor::Unknown),
    (0x10007, "Mobileye", Vendor::Unknown),
];

/// MLIR's vendor for vendor id `id` ([`Vendor::Unknown`] when unlisted).
pub(crate) fn vendor(id: u32) -> Vendor {
    VENDORS
        .iter()
        .find(|(v, _, _)| *v == id)
        .map_or(Vendor::Unknown, |(_, _, vendor)| *vendor)
}

/// The display name of vendor id `id`, if known.
pub(crate) fn vendor_name(id: u32) -> Option<&'static str> {
    VENDORS
        .iter()
        .find(|(v, _, _)| *v == id)
        .map(|(_, name, _)| *name)
}

/// MLIR's device type for the runtime's device type (from
/// `VkPhysicalDeviceType`; a virtual GPU is `Other`: MLIR has no such type).
pub(crate) fn device_type(ty: RuntimeDeviceType) -> DeviceType {
    match ty {
        RuntimeDeviceType::DiscreteGpu => DeviceType::DiscreteGpu,
        RuntimeDeviceType::IntegratedGpu => DeviceType::IntegratedGpu,
        RuntimeDeviceType::Cpu => DeviceType::Cpu,
        RuntimeDeviceType::VirtualGpu | RuntimeDeviceType::Other => DeviceType::Other,
    }
}

/// The element type of a cooperative-matrix component type: `SINTn` →
/// `siN`, `UINTn` → `uiN` (the signedness is part of the configuration),
/// `FLOATn` → `fN`; `None` for types kiln has no spelling for.
pub(crate) fn component_type(ty: vk::ComponentTypeKHR) -> Option<ScalarType> {
    let int = |width, signedness| Some(ScalarType::Int { width, signedness });
    match ty {
        vk::ComponentTypeKHR::FLOAT16 => Some(ScalarType::Float(FloatKind::F16)),
        vk::ComponentTypeKHR::FLOAT32 => Some(ScalarType::Float(FloatKind::F32)),
        vk::ComponentTypeKHR::FLOAT64 => Some(ScalarType::Float(FloatKind::F64)),
        vk::ComponentTypeKHR::SINT8 => int(8, Signedness::Signed),
        vk::ComponentTypeKHR::SINT16 => int(16, Signedness::Signed),
        vk::ComponentTypeKHR::SINT32 => int(32, Signedness::Signed),
        vk::ComponentTypeKHR::SINT64 => int(64, Signedness::Signed),
        vk::ComponentTypeKHR::UINT8 => int(8, Signedness::Unsigned),
        vk::ComponentTypeKHR::UINT16 => int(16, Signedness::Unsigned),
        vk::ComponentTypeKHR::UINT32 => int(32, Signedness::Unsigned),
        vk::ComponentTypeKHR::UINT64 => int(64, Signedness::Unsigned),
        _ => None,
    }
}

/// The SPIR-V scope of a cooperative-matrix scope.
pub(crate) fn scope(s: vk::ScopeKHR) -> Option<Scope> {
    match s {
        vk::ScopeKHR::DEVICE => Some(Scope::Device),
        vk::ScopeKHR::WORKGROUP => Some(Scope::Workgroup),
        vk::ScopeKHR::SUBGROUP => Some(Scope::Subgroup),
        vk::ScopeKHR::QUEUE_FAMILY => Some(Scope::QueueFamily),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::grammar::promotions;

    #[test]
    fn spirv_versions() {
        assert_eq!(spirv_version((1, 0), false), Version::V1_0);
        assert_eq!(spirv_version((1, 0), true), Version::V1_0);
        assert_eq!(spirv_version((1, 1), false), Version::V1_3);
        assert_eq!(spirv_version((1, 1), true), Version::V1_4);
        assert_eq!(spirv_version((1, 2), false), Version::V1_5);
        assert_eq!(spirv_version((1, 2), true), Version::V1_5);
        assert_eq!(spirv_version((1, 3), false), Version::V1_6);
        assert_eq!(spirv_version((1, 4), false), Version::V1_6);
    }

    /// Every SPIR-V extension a promoted device extension allows is in the
    /// core of the SPIR-V version of the Vulkan version that promoted it,
    /// or at least not later than kiln's promotions table says.
    #[test]
    fn extension_promotions_agree_with_spirv() {
        for row in EXTENSIONS {
            let Some(core) = row.core_in else { continue };
            let spirv = spirv_version(core, false);
            for ext in row.spv {
                if let Some(v) = promotions::promoted_version(*ext) {
                    assert!(
                        v <= spirv,
                        "{} is core in Vulkan {core:?} (SPIR-V {spirv}) but {ext} only in SPIR-V {v}",
                        row.vk
                    );
                }
            }
        }
        assert!(extension_row("VK_KHR_spirv_1_4").is_some());
        assert!(extension_row("VK_KHR_swapchain").is_none());
    }

    #[test]
    fn features_are_consistent() {
        for &f in Feature::ALL {
            assert_eq!(Feature::from_vk_name(f.vk_name()), Some(f));
            assert!(
                f.extension().is_some() || f.core_in() == Some((1, 0)),
                "{f:?} comes from nowhere"
            );
            if let Some(ext) = f.extension() {
                let row = extension_row(ext);
                if let Some(row) = row {
                    assert_eq!(row.core_in, f.core_in(), "{f:?} vs {ext}");
                }
            }
        }
        assert_eq!(Feature::from_vk_name("shaderInt7"), None);
    }

    #[test]
    fn vendors_agree_with_core() {
        for &(id, _, v) in VENDORS {
            assert_eq!(Vendor::from_pci_vendor_id(id), v, "{id:#x}");
        }
        assert_eq!(vendor(0x10005), Vendor::Unknown);
        assert_eq!(vendor_name(0x10005), Some("Mesa"));
        assert_eq!(vendor(0x10DE), Vendor::Nvidia);
        assert_eq!(vendor(0xBEEF), Vendor::Unknown);
        assert_eq!(vendor_name(0xBEEF), None);
    }

    #[test]
    fn small_mappings() {
        assert_eq!(device_type(RuntimeDeviceType::Cpu), DeviceType::Cpu);
        assert_eq!(
            device_type(RuntimeDeviceType::VirtualGpu),
            DeviceType::Other
        );
        assert_eq!(
            component_type(vk::ComponentTypeKHR::SINT8).map(|t| t.to_string()),
            Some("si8".to_string())
        );
        assert_eq!(
            component_type(vk::ComponentTypeKHR::FLOAT16).map(|t| t.to_string()),
            Some("f16".to_string())
        );
        assert_eq!(scope(vk::ScopeKHR::SUBGROUP), Some(Scope::Subgroup));
    }
}
