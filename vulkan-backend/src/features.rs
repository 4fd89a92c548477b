//! Optional device features kiln's compute modules may need.
//!
//! A compute module that declares, e.g., the `Float64` or `StorageBuffer8BitAccess`
//! capability only runs on a device created with the matching feature enabled
//! (the validation layer reports a module that uses a capability whose
//! feature is off). kiln enables every feature below that the device
//! supports, so any module valid for the device runs. Each group says which
//! Vulkan version made it core and which extension it came from. What the
//! device supports comes from the one feature query behind
//! [`DeviceQuery`](crate::DeviceQuery); a group is enabled only when its
//! core struct can be chained at the device's effective version.
//! (Enabling the pre-promotion extensions on older devices is not done yet.)
//! One feature of an unpromoted extension is enabled too: `cooperativeMatrix`
//! of `VK_KHR_cooperative_matrix`, with its extension, on Vulkan 1.1+
//! devices that report it.

use std::collections::BTreeSet;

use ash::vk;

use crate::target_env::Feature;

/// The optional compute features of a device, as supported and enabled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeviceFeatures {
    // --- Vulkan 1.0 core (VkPhysicalDeviceFeatures) ---
    /// `shaderFloat64`: the `Float64` capability.
    pub shader_float64: bool,
    /// `shaderInt64`: the `Int64` capability.
    pub shader_int64: bool,
    /// `shaderInt16`: the `Int16` capability.
    pub shader_int16: bool,

    // --- Vulkan 1.1 core (VK_KHR_16bit_storage, VK_KHR_variable_pointers) ---
    /// `storageBuffer16BitAccess`: `StorageBuffer16BitAccess`.
    pub storage_buffer_16bit_access: bool,
    /// `uniformAndStorageBuffer16BitAccess`: `UniformAndStorageBuffer16BitAccess`.
    pub uniform_and_storage_buffer_16bit_access: bool,
    /// `storagePushConstant16`: `StoragePushConstant16`.
    pub storage_push_constant16: bool,
    /// `variablePointersStorageBuffer`: `VariablePointersStorageBuffer`.
    pub variable_pointers_storage_buffer: bool,
    /// `variablePointers`: `VariablePointers`.
    pub variable_pointers: bool,

    // --- Vulkan 1.2 core (VK_KHR_shader_float16_int8, VK_KHR_8bit_storage,
    //     VK_EXT_scalar_block_layout, VK_KHR_vulkan_memory_model,
    //     VK_KHR_shader_subgroup_extended_types, VK_KHR_shader_atomic_int64) ---
    /// `shaderFloat16`: the `Float16` capability.
    pub shader_float16: bool,
    /// `shaderInt8`: the `Int8` capability.
    pub shader_int8: bool,
    /// `storageBuffer8BitAccess`: `StorageBuffer8BitAccess`.
    pub storage_buffer_8bit_access: bool,
    /// `uniformAndStorageBuffer8BitAccess`: `UniformAndStorageBuffer8BitAccess`.
    pub uniform_and_storage_buffer_8bit_access: bool,
    /// `storagePushConstant8`: `StoragePushConstant8`.
    pub storage_push_constant8: bool,
    /// `scalarBlockLayout`: scalar (C-like) block layout.
    pub scalar_block_layout: bool,
    /// `vulkanMemoryModel`: the `VulkanMemoryModel` capability.
    pub vulkan_memory_model: bool,
    /// `vulkanMemoryModelDeviceScope`: `VulkanMemoryModelDeviceScope`.
    pub vulkan_memory_model_device_scope: bool,
    /// `shaderSubgroupExtendedTypes`: subgroup ops on 8/16/64-bit types.
    pub shader_subgroup_extended_types: bool,
    /// `shaderBufferInt64Atomics`: 64-bit atomics on buffers.
    pub shader_buffer_int64_atomics: bool,
    /// `shaderSharedInt64Atomics`: 64-bit atomics on workgroup memory.
    pub shader_shared_int64_atomics: bool,

    // --- Vulkan 1.3 core (VK_EXT_subgroup_size_control,
    //     VK_KHR_shader_integer_dot_product,
    //     VK_KHR_zero_initialize_workgroup_memory) ---
    /// `subgroupSizeControl`: required subgroup sizes per pipeline.
    pub subgroup_size_control: bool,
    /// `computeFullSubgroups`: full subgroups in compute.
    pub compute_full_subgroups: bool,
    /// `shaderIntegerDotProduct`: the `DotProduct*` capabilities.
    pub shader_integer_dot_product: bool,
    /// `shaderZeroInitializeWorkgroupMemory`: initializers on `Workgroup`
    /// variables.
    pub shader_zero_initialize_workgroup_memory: bool,

    // --- VK_KHR_cooperative_matrix (not promoted) ---
    /// `cooperativeMatrix`: the `CooperativeMatrixKHR` capability (the
    /// context also enables the extension).
    pub cooperative_matrix: bool,
}

impl DeviceFeatures {
    /// Each field with the [`Feature`] it stands for: the one table behind
    /// [`DeviceFeatures::to_set`] and [`DeviceFeatures::from_set`].
    fn fields(&mut self) -> [(&mut bool, Feature); 24] {
        [
            (&mut self.shader_float64, Feature::ShaderFloat64),
            (&mut self.shader_int64, Feature::ShaderInt64),
            (&mut self.shader_int16, Feature::ShaderInt16),
            (
                &mut self.storage_buffer_16bit_access,
                Feature::StorageBuffer16BitAccess,
            ),
            (
                &mut self.uniform_and_storage_buffer_16bit_access,
                Feature::UniformAndStorageBuffer16BitAccess,
            ),
            (
                &mut self.storage_push_constant16,
                Feature::StoragePushConstant16,
            ),
            (
                &mut self.variable_pointers_storage_buffer,
                Feature::VariablePointersStorageBuffer,
            ),
            (&mut self.variable_pointers, Feature::VariablePointers),
            (&mut self.shader_float16, Feature::ShaderFloat16),
            (&mut self.shader_int8, Feature::ShaderInt8),
            (
                &mut self.storage_buffer_8bit_access,
                Feature::StorageBuffer8BitAccess,
            ),
            (
                &mut self.uniform_and_storage_buffer_8bit_access,
                Feature::UniformAndStorageBuffer8BitAccess,
            ),
            (
                &mut self.storage_push_constant8,
                Feature::StoragePushConstant8,
            ),
            (&mut self.scalar_block_layout, Feature::ScalarBlockLayout),
            (&mut self.vulkan_memory_model, Feature::VulkanMemoryModel),
            (
                &mut self.vulkan_memory_model_device_scope,
                Feature::VulkanMemoryModelDeviceScope,
            ),
            (
                &mut self.shader_subgroup_extended_types,
                Feature::ShaderSubgroupExtendedTypes,
            ),
            (
                &mut self.shader_buffer_int64_atomics,
                Feature::ShaderBufferInt64Atomics,
            ),
            (
                &mut self.shader_shared_int64_atomics,
                Feature::ShaderSharedInt64Atomics,
            ),
            (
                &mut self.subgroup_size_control,
                Feature::SubgroupSizeControl,
            ),
            (
                &mut self.compute_full_subgroups,
                Feature::ComputeFullSubgroups,
            ),
            (
                &mut self.shader_integer_dot_product,
                Feature::ShaderIntegerDotProduct,
            ),
            (
                &mut self.shader_zero_initialize_workgroup_memory,
                Feature::ShaderZeroInitializeWorkgroupMemory,
            ),
            (&mut self.cooperative_matrix, Feature::CooperativeMatrix),
        ]
    }

    /// The features that are on, as [`Feature`]s.
    pub fn to_set(&self) -> BTreeSet<Feature> {
        let mut copy = *self;
        copy.fields()
            .into_iter()
            .filter(|(on, _)| **on)
            .map(|(_, feature)| feature)
            .collect()
    }

    /// The fields of `set`'s features on, every other field off (features
    /// without a field here are ignored).
    pub fn from_set(set: &BTreeSet<Feature>) -> Self {
        let mut f = Self::default();
        for (on, feature) in f.fields() {
            *on = set.contains(&feature);
        }
        f
    }

    /// What a kiln context enables on a device that supports `supported`
    /// and whose effective API version is `version` (packed): every
    /// supported feature with a field here that [`FeatureChain`] can
    /// enable at that version (its core struct is chainable there).
    pub(crate) fn kiln_enables(supported: &BTreeSet<Feature>, version: u32) -> Self {
        let enableable = supported
            .iter()
            .copied()
            .filter(|&f| FeatureChain::can_enable(f, version))
            .collect();
        Self::from_set(&enableable)
    }
}

/// The Vulkan feature structs that enable a [`DeviceFeatures`] at device
/// creation.
#[derive(Default)]
pub(crate) struct FeatureChain {
    core: vk::PhysicalDeviceFeatures,
    v11: vk::PhysicalDeviceVulkan11Features<'static>,
    v12: vk::PhysicalDeviceVulkan12Features<'static>,
    v13: vk::PhysicalDeviceVulkan13Features<'static>,
    coop: vk::PhysicalDeviceCooperativeMatrixFeaturesKHR<'static>,
    /// The effective API version: min(instance, device).
    version: u32,
}

impl FeatureChain {
    /// Whether the chain can enable `feature` on a device of effective
    /// version `version`: `VkPhysicalDeviceFeatures` members always; the
    /// `VkPhysicalDeviceVulkan11Features`/`12` members from Vulkan 1.2
    /// (the 1.1 struct itself arrived with 1.2); `13` members from 1.3.
    /// Of the features only an extension struct reports, `cooperativeMatrix`
    /// is enabled (from Vulkan 1.1, where its struct can be chained).
    pub(crate) fn can_enable(feature: Feature, version: u32) -> bool {
        if feature == Feature::CooperativeMatrix {
            return version >= vk::API_VERSION_1_1;
        }
        match feature.core_in() {
            Some((1, 0)) => true,
            Some((1, 1) | (1, 2)) => version >= vk::API_VERSION_1_2,
            Some((1, 3)) => version >= vk::API_VERSION_1_3,
            _ => false,
        }
    }

    /// Turns on `timelineSemaphore` where the core struct carries it (Vulkan
    /// 1.2+, where every device supports it).
    pub(crate) fn enable_timeline_semaphore(&mut self) {
        if self.version >= vk::API_VERSION_1_2 {
            self.v12.timeline_semaphore = vk::TRUE;
        }
    }

    /// Turns on `robustBufferAccess` (Vulkan 1.0 core): a buffer access
    /// out of its binding's range stays inside the buffer's memory. A
    /// second line of defence only: kiln's compiled programs check every
    /// run-time index and size themselves (on the host, or in the kernel
    /// with a fault word), so a correct program never relies on it.
    pub(crate) fn enable_robust_buffer_access(&mut self) {
        self.core.robust_buffer_access = vk::TRUE;
    }

    /// Clears the `p_next` pointers a previous chaining left behind.
    fn unlink(&mut self) {
        self.v11.p_next = std::ptr::null_mut();
        self.v12.p_next = std::ptr::null_mut();
        self.v13.p_next = std::ptr::null_mut();
        self.coop.p_next = std::ptr::null_mut();
    }

    /// The structs that enable exactly `f`, for a device whose effective
    /// version is `version` (fields of versions above it must be false).
    pub(crate) fn enabling(f: &DeviceFeatures, version: u32) -> Self {
        let b = |v: bool| if v { vk::TRUE } else { vk::FALSE };
        let mut c = Self {
            version,
            ..Self::default()
        };
        c.core.shader_float64 = b(f.shader_float64);
        c.core.shader_int64 = b(f.shader_int64);
        c.core.shader_int16 = b(f.shader_int16);
        c.v11.storage_buffer16_bit_access = b(f.storage_buffer_16bit_access);
        c.v11.uniform_and_storage_buffer16_bit_access =
            b(f.uniform_and_storage_buffer_16bit_access);
        c.v11.storage_push_constant16 = b(f.storage_push_constant16);
        c.v11.variable_pointers_storage_buffer = b(f.variable_pointers_storage_buffer);
        c.v11.variable_pointers = b(f.variable_pointers);
        c.v12.shader_float16 = b(f.shader_float16);
        c.v12.shader_int8 = b(f.shader_int8);
        c.v12.storage_buffer8_bit_access = b(f.storage_buffer_8bit_access);
        c.v12.uniform_and_storage_buffer8_bit_access = b(f.uniform_and_storage_buffer_8bit_access);
        c.v12.storage_push_constant8 = b(f.storage_push_constant8);
        c.v12.scalar_block_layout = b(f.scalar_block_layout);
        c.v12.vulkan_memory_model = b(f.vulkan_memory_model);
        c.v12.vulkan_memory_model_device_scope = b(f.vulkan_memory_model_device_scope);
        c.v12.shader_subgroup_extended_types = b(f.shader_subgroup_extended_types);
        c.v12.shader_buffer_int64_atomics = b(f.shader_buffer_int64_atomics);
        c.v12.shader_shared_int64_atomics = b(f.shader_shared_int64_atomics);
        c.v13.subgroup_size_control = b(f.subgroup_size_control);
        c.v13.compute_full_subgroups = b(f.compute_full_subgroups);
        c.v13.shader_integer_dot_product = b(f.shader_integer_dot_product);
        c.v13.shader_zero_initialize_workgroup_memory =
            b(f.shader_zero_initialize_workgroup_memory);
        c.coop.cooperative_matrix = b(f.cooperative_matrix);
        c
    }

    /// Whether the chain enables `cooperativeMatrix` (the context then
    /// enables `VK_KHR_cooperative_matrix`).
    pub(crate) fn enables_cooperative_matrix(&self) -> bool {
        self.version >= vk::API_VERSION_1_1 && self.coop.cooperative_matrix == vk::TRUE
    }

    /// Calls `f` with a `VkPhysicalDeviceFeatures2` chaining the structs
    /// valid for the effective version (for `VkDeviceCreateInfo::pNext`), or
    /// `None` on a Vulkan 1.0 device, where `core` goes to
    /// `pEnabledFeatures` instead (passed as the second argument).
    pub(crate) fn with_create_chain<R>(
        &mut self,
        f: impl FnOnce(Option<&mut vk::PhysicalDeviceFeatures2<'_>>, &vk::PhysicalDeviceFeatures) -> R,
    ) -> R {
        self.unlink();
        if self.version < vk::API_VERSION_1_1 {
            return f(None, &self.core);
        }
        let core = self.core;
        let version = self.version;
        let mut features2 = vk::PhysicalDeviceFeatures2::default().features(core);
        if version >= vk::API_VERSION_1_2 {
            features2 = features2.push_next(&mut self.v11).push_next(&mut self.v12);
        }
        if version >= vk::API_VERSION_1_3 {
            features2 = features2.push_next(&mut self.v13);
        }
        if self.coop.cooperative_matrix == vk::TRUE {
            features2 = features2.push_next(&mut self.coop);
        }
        f(Some(&mut features2), &core)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cooperativeMatrix` is enabled wherever the device reports it on
    /// Vulkan 1.1+, and the chain then carries its struct.
    #[test]
    fn cooperative_matrix_is_enabled_from_vulkan_1_1() {
        let supported = BTreeSet::from([Feature::CooperativeMatrix, Feature::ShaderInt64]);
        let f = DeviceFeatures::kiln_enables(&supported, vk::API_VERSION_1_3);
        assert!(f.cooperative_matrix && f.shader_int64);
        assert!(FeatureChain::enabling(&f, vk::API_VERSION_1_3).enables_cooperative_matrix());
        let old = DeviceFeatures::kiln_enables(&supported, vk::API_VERSION_1_0);
        assert!(!old.cooperative_matrix);
        let none = DeviceFeatures::kiln_enables(&BTreeSet::new(), vk::API_VERSION_1_3);
        assert!(!FeatureChain::enabling(&none, vk::API_VERSION_1_3).enables_cooperative_matrix());
    }
}
