//! Optional device features kiln's compute modules may need.
//!
//! A compute module that declares, e.g., the `Float64` or `StorageBuffer8BitAccess`
//! capability only runs on a device created with the matching feature enabled
//! (the validation layer reports a module that uses a capability whose
//! feature is off). kiln enables every feature below that the device
//! supports, so any module valid for the device runs. Each group says which
//! Vulkan version made it core and which extension it came from; groups are
//! queried only when the device (and instance) support that version.
//! (Enabling the pre-promotion extensions on older devices is not done yet.)

use ash::vk;

use crate::instance::InstanceShared;

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
    //     VK_KHR_shader_integer_dot_product) ---
    /// `subgroupSizeControl`: required subgroup sizes per pipeline.
    pub subgroup_size_control: bool,
    /// `computeFullSubgroups`: full subgroups in compute.
    pub compute_full_subgroups: bool,
    /// `shaderIntegerDotProduct`: the `DotProduct*` capabilities.
    pub shader_integer_dot_product: bool,
}

/// The Vulkan feature structs, filled either by a query or from a
/// [`DeviceFeatures`] to enable.
#[derive(Default)]
pub(crate) struct FeatureChain {
    core: vk::PhysicalDeviceFeatures,
    v11: vk::PhysicalDeviceVulkan11Features<'static>,
    v12: vk::PhysicalDeviceVulkan12Features<'static>,
    v13: vk::PhysicalDeviceVulkan13Features<'static>,
    /// The effective API version: min(instance, device).
    version: u32,
}

impl FeatureChain {
    /// Queries what `pd` supports.
    pub(crate) fn query(instance: &InstanceShared, pd: vk::PhysicalDevice) -> Self {
        // SAFETY: `pd` belongs to the live instance.
        let props = unsafe { instance.raw.get_physical_device_properties(pd) };
        let mut chain = Self {
            version: props.api_version.min(instance.api_version),
            ..Self::default()
        };
        if chain.version < vk::API_VERSION_1_1 {
            // SAFETY: as above.
            chain.core = unsafe { instance.raw.get_physical_device_features(pd) };
            return chain;
        }
        let version = chain.version;
        let mut features2 = vk::PhysicalDeviceFeatures2::default();
        if version >= vk::API_VERSION_1_2 {
            features2 = features2
                .push_next(&mut chain.v11)
                .push_next(&mut chain.v12);
        }
        if version >= vk::API_VERSION_1_3 {
            features2 = features2.push_next(&mut chain.v13);
        }
        // SAFETY: every chained struct is core in the effective version
        // checked above; all outlive the call.
        unsafe {
            instance
                .raw
                .get_physical_device_features2(pd, &mut features2)
        };
        chain.core = features2.features;
        chain.unlink();
        chain
    }

    /// Clears the `p_next` pointers a query left behind.
    fn unlink(&mut self) {
        self.v11.p_next = std::ptr::null_mut();
        self.v12.p_next = std::ptr::null_mut();
        self.v13.p_next = std::ptr::null_mut();
    }

    /// The supported subset kiln cares about.
    pub(crate) fn to_features(&self) -> DeviceFeatures {
        let b = |v: vk::Bool32| v == vk::TRUE;
        DeviceFeatures {
            shader_float64: b(self.core.shader_float64),
            shader_int64: b(self.core.shader_int64),
            shader_int16: b(self.core.shader_int16),
            storage_buffer_16bit_access: b(self.v11.storage_buffer16_bit_access),
            uniform_and_storage_buffer_16bit_access: b(self
                .v11
                .uniform_and_storage_buffer16_bit_access),
            storage_push_constant16: b(self.v11.storage_push_constant16),
            variable_pointers_storage_buffer: b(self.v11.variable_pointers_storage_buffer),
            variable_pointers: b(self.v11.variable_pointers),
            shader_float16: b(self.v12.shader_float16),
            shader_int8: b(self.v12.shader_int8),
            storage_buffer_8bit_access: b(self.v12.storage_buffer8_bit_access),
            uniform_and_storage_buffer_8bit_access: b(self
                .v12
                .uniform_and_storage_buffer8_bit_access),
            storage_push_constant8: b(self.v12.storage_push_constant8),
            scalar_block_layout: b(self.v12.scalar_block_layout),
            vulkan_memory_model: b(self.v12.vulkan_memory_model),
            vulkan_memory_model_device_scope: b(self.v12.vulkan_memory_model_device_scope),
            shader_subgroup_extended_types: b(self.v12.shader_subgroup_extended_types),
            shader_buffer_int64_atomics: b(self.v12.shader_buffer_int64_atomics),
            shader_shared_int64_atomics: b(self.v12.shader_shared_int64_atomics),
            subgroup_size_control: b(self.v13.subgroup_size_control),
            compute_full_subgroups: b(self.v13.compute_full_subgroups),
            shader_integer_dot_product: b(self.v13.shader_integer_dot_product),
        }
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
        c
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
        f(Some(&mut features2), &core)
    }
}
