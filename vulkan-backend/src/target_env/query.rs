//! The Vulkan calls behind [`DeviceQuery`]: properties, extensions,
//! feature structs (core ones for the effective version, extension ones
//! for features above it) and cooperative-matrix configurations. Nothing
//! here creates a logical device.

use std::collections::BTreeSet;

use ash::vk;
use kiln_core::target::CoopMatrixPropertiesKhr;

use super::tables::{self, Feature};
use super::{DeviceQuery, FloatControls, SubgroupProperties, SubgroupSizeControlProperties};
use crate::conv;
use crate::device::DeviceSummary;
use crate::error::{map_enumerate, Result};
use crate::features::DeviceFeatures;
use crate::instance::InstanceShared;

/// Queries `pd` (enumerated from `instance`, summarized as `summary`).
pub(crate) fn query(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
    summary: DeviceSummary,
) -> Result<DeviceQuery> {
    // SAFETY: `pd` was enumerated from the live instance.
    let props = unsafe { instance.raw.get_physical_device_properties(pd) };
    let packed = props.api_version.min(instance.api_version);
    let version = tables::vk_version(packed);

    // SAFETY: as above.
    let ext_props = unsafe { instance.raw.enumerate_device_extension_properties(pd) }
        .map_err(|r| map_enumerate("vkEnumerateDeviceExtensionProperties", r))?;
    let mut extensions: Vec<String> = ext_props
        .iter()
        .map(|e| conv::fixed_cstr(&e.extension_name))
        .collect();
    extensions.sort();
    extensions.dedup();
    let has = |name: &str| {
        extensions
            .binary_search_by(|e| e.as_str().cmp(name))
            .is_ok()
    };

    let supported_features = query_features(instance, pd, version, &has);
    let mut enabled_features = DeviceFeatures::kiln_enables(&supported_features, packed).to_set();
    // VK_KHR_cooperative_matrix came with header 1.3.255; an older
    // validation layer (Debian 12's is 1.3.239) reports its feature
    // struct at vkCreateDevice as an unknown structure.
    if instance.validation_predates(vk::make_api_version(0, 1, 3, 255)) {
        enabled_features.remove(&Feature::CooperativeMatrix);
    }
    let (subgroup, subgroup_size_control, float_controls) =
        query_properties(instance, pd, version, &has);
    let cooperative_matrix_khr = if supported_features.contains(&Feature::CooperativeMatrix) {
        query_cooperative_matrix(instance, pd)?
    } else {
        Vec::new()
    };

    Ok(DeviceQuery {
        summary,
        effective_api_version: conv::api_version(packed),
        extensions,
        supported_features,
        enabled_features,
        subgroup,
        subgroup_size_control,
        float_controls,
        limits: crate::limits::limits_from_vk(&props.limits),
        timestamp_period: props.limits.timestamp_period,
        cooperative_matrix_khr,
    })
}

/// The features `pd` supports: from the core feature structs of the
/// effective `version`, and for features above it from their extension's
/// struct when the device reports the extension.
fn query_features(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
    version: tables::VkVersion,
    has: &dyn Fn(&str) -> bool,
) -> BTreeSet<Feature> {
    let b = |v: vk::Bool32| v == vk::TRUE;
    let mut set = BTreeSet::new();
    let mut add = |feature: Feature, on: vk::Bool32| {
        if b(on) {
            set.insert(feature);
        }
    };
    if version < (1, 1) {
        // SAFETY: `pd` was enumerated from the live instance.
        let core = unsafe { instance.raw.get_physical_device_features(pd) };
        add(Feature::ShaderFloat64, core.shader_float64);
        add(Feature::ShaderInt64, core.shader_int64);
        add(Feature::ShaderInt16, core.shader_int16);
        return set;
    }

    let core12 = version >= (1, 2);
    let core13 = version >= (1, 3);
    // Which extension structs to chain (only when not core and reported).
    let ext = has;
    let use_8bit = !core12 && ext("VK_KHR_8bit_storage");
    let use_f16i8 = !core12 && ext("VK_KHR_shader_float16_int8");
    let use_sbl = !core12 && ext("VK_EXT_scalar_block_layout");
    let use_ubsl = !core12 && ext("VK_KHR_uniform_buffer_standard_layout");
    let use_vmm = !core12 && ext("VK_KHR_vulkan_memory_model");
    let use_bda = !core12 && ext("VK_KHR_buffer_device_address");
    let use_ai64 = !core12 && ext("VK_KHR_shader_atomic_int64");
    let use_set = !core12 && ext("VK_KHR_shader_subgroup_extended_types");
    let use_ssc = !core13 && ext("VK_EXT_subgroup_size_control");
    let use_idp = !core13 && ext("VK_KHR_shader_integer_dot_product");
    let use_zi = !core13 && ext("VK_KHR_zero_initialize_workgroup_memory");
    let use_af = ext("VK_EXT_shader_atomic_float");
    let use_cm = ext("VK_KHR_cooperative_matrix");

    let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut s16 = vk::PhysicalDevice16BitStorageFeatures::default();
    let mut vp = vk::PhysicalDeviceVariablePointersFeatures::default();
    let mut s8 = vk::PhysicalDevice8BitStorageFeatures::default();
    let mut f16i8 = vk::PhysicalDeviceShaderFloat16Int8Features::default();
    let mut sbl = vk::PhysicalDeviceScalarBlockLayoutFeatures::default();
    let mut ubsl = vk::PhysicalDeviceUniformBufferStandardLayoutFeatures::default();
    let mut vmm = vk::PhysicalDeviceVulkanMemoryModelFeatures::default();
    let mut bda = vk::PhysicalDeviceBufferDeviceAddressFeatures::default();
    let mut ai64 = vk::PhysicalDeviceShaderAtomicInt64Features::default();
    let mut sgx = vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures::default();
    let mut ssc = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
    let mut idp = vk::PhysicalDeviceShaderIntegerDotProductFeatures::default();
    let mut zi = vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures::default();
    let mut af = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    let mut cm = vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default();

    let mut features2 = vk::PhysicalDeviceFeatures2::default();
    if core12 {
        features2 = features2.push_next(&mut v11).push_next(&mut v12);
    } else {
        // Vulkan 1.1: the 1.1 features have their own core structs.
        features2 = features2.push_next(&mut s16).push_next(&mut vp);
    }
    if core13 {
        features2 = features2.push_next(&mut v13);
    }
    if use_8bit {
        features2 = features2.push_next(&mut s8);
    }
    if use_f16i8 {
        features2 = features2.push_next(&mut f16i8);
    }
    if use_sbl {
        features2 = features2.push_next(&mut sbl);
    }
    if use_ubsl {
        features2 = features2.push_next(&mut ubsl);
    }
    if use_vmm {
        features2 = features2.push_next(&mut vmm);
    }
    if use_bda {
        features2 = features2.push_next(&mut bda);
    }
    if use_ai64 {
        features2 = features2.push_next(&mut ai64);
    }
    if use_set {
        features2 = features2.push_next(&mut sgx);
    }
    if use_ssc {
        features2 = features2.push_next(&mut ssc);
    }
    if use_idp {
        features2 = features2.push_next(&mut idp);
    }
    if use_zi {
        features2 = features2.push_next(&mut zi);
    }
    if use_af {
        features2 = features2.push_next(&mut af);
    }
    if use_cm {
        features2 = features2.push_next(&mut cm);
    }
    // SAFETY: `pd` belongs to the live instance, whose version is at least
    // 1.1 (the effective version is); every chained struct is core in the
    // effective version or belongs to an extension the device reports;
    // all of them outlive the call.
    unsafe {
        instance
            .raw
            .get_physical_device_features2(pd, &mut features2)
    };
    let core = features2.features;

    add(Feature::ShaderFloat64, core.shader_float64);
    add(Feature::ShaderInt64, core.shader_int64);
    add(Feature::ShaderInt16, core.shader_int16);
    if core12 {
        add(
            Feature::StorageBuffer16BitAccess,
            v11.storage_buffer16_bit_access,
        );
        add(
            Feature::UniformAndStorageBuffer16BitAccess,
            v11.uniform_and_storage_buffer16_bit_access,
        );
        add(Feature::StoragePushConstant16, v11.storage_push_constant16);
        add(
            Feature::VariablePointersStorageBuffer,
            v11.variable_pointers_storage_buffer,
        );
        add(Feature::VariablePointers, v11.variable_pointers);
        add(
            Feature::StorageBuffer8BitAccess,
            v12.storage_buffer8_bit_access,
        );
        add(
            Feature::UniformAndStorageBuffer8BitAccess,
            v12.uniform_and_storage_buffer8_bit_access,
        );
        add(Feature::StoragePushConstant8, v12.storage_push_constant8);
        add(Feature::ShaderFloat16, v12.shader_float16);
        add(Feature::ShaderInt8, v12.shader_int8);
        add(Feature::ScalarBlockLayout, v12.scalar_block_layout);
        add(
            Feature::UniformBufferStandardLayout,
            v12.uniform_buffer_standard_layout,
        );
        add(Feature::VulkanMemoryModel, v12.vulkan_memory_model);
        add(
            Feature::VulkanMemoryModelDeviceScope,
            v12.vulkan_memory_model_device_scope,
        );
        add(
            Feature::VulkanMemoryModelAvailabilityVisibilityChains,
            v12.vulkan_memory_model_availability_visibility_chains,
        );
        add(Feature::BufferDeviceAddress, v12.buffer_device_address);
        add(
            Feature::ShaderBufferInt64Atomics,
            v12.shader_buffer_int64_atomics,
        );
        add(
            Feature::ShaderSharedInt64Atomics,
            v12.shader_shared_int64_atomics,
        );
        add(
            Feature::ShaderSubgroupExtendedTypes,
            v12.shader_subgroup_extended_types,
        );
    } else {
        add(
            Feature::StorageBuffer16BitAccess,
            s16.storage_buffer16_bit_access,
        );
        add(
            Feature::UniformAndStorageBuffer16BitAccess,
            s16.uniform_and_storage_buffer16_bit_access,
        );
        add(Feature::StoragePushConstant16, s16.storage_push_constant16);
        add(
            Feature::VariablePointersStorageBuffer,
            vp.variable_pointers_storage_buffer,
        );
        add(Feature::VariablePointers, vp.variable_pointers);
        add(
            Feature::StorageBuffer8BitAccess,
            s8.storage_buffer8_bit_access,
        );
        add(
            Feature::UniformAndStorageBuffer8BitAccess,
            s8.uniform_and_storage_buffer8_bit_access,
        );
        add(Feature::StoragePushConstant8, s8.storage_push_constant8);
        add(Feature::ShaderFloat16, f16i8.shader_float16);
        add(Feature::ShaderInt8, f16i8.shader_int8);
        add(Feature::ScalarBlockLayout, sbl.scalar_block_layout);
        add(
            Feature::UniformBufferStandardLayout,
            ubsl.uniform_buffer_standard_layout,
        );
        add(Feature::VulkanMemoryModel, vmm.vulkan_memory_model);
        add(
            Feature::VulkanMemoryModelDeviceScope,
            vmm.vulkan_memory_model_device_scope,
        );
        add(
            Feature::VulkanMemoryModelAvailabilityVisibilityChains,
            vmm.vulkan_memory_model_availability_visibility_chains,
        );
        add(Feature::BufferDeviceAddress, bda.buffer_device_address);
        add(
            Feature::ShaderBufferInt64Atomics,
            ai64.shader_buffer_int64_atomics,
        );
        add(
            Feature::ShaderSharedInt64Atomics,
            ai64.shader_shared_int64_atomics,
        );
        add(
            Feature::ShaderSubgroupExtendedTypes,
            sgx.shader_subgroup_extended_types,
        );
    }
    if core13 {
        add(Feature::SubgroupSizeControl, v13.subgroup_size_control);
        add(Feature::ComputeFullSubgroups, v13.compute_full_subgroups);
        add(
            Feature::ShaderIntegerDotProduct,
            v13.shader_integer_dot_product,
        );
        add(
            Feature::ShaderZeroInitializeWorkgroupMemory,
            v13.shader_zero_initialize_workgroup_memory,
        );
    } else {
        add(Feature::SubgroupSizeControl, ssc.subgroup_size_control);
        add(Feature::ComputeFullSubgroups, ssc.compute_full_subgroups);
        add(
            Feature::ShaderIntegerDotProduct,
            idp.shader_integer_dot_product,
        );
        add(
            Feature::ShaderZeroInitializeWorkgroupMemory,
            zi.shader_zero_initialize_workgroup_memory,
        );
    }
    add(
        Feature::ShaderBufferFloat32Atomics,
        af.shader_buffer_float32_atomics,
    );
    add(
        Feature::ShaderBufferFloat32AtomicAdd,
        af.shader_buffer_float32_atomic_add,
    );
    add(
        Feature::ShaderBufferFloat64Atomics,
        af.shader_buffer_float64_atomics,
    );
    add(
        Feature::ShaderBufferFloat64AtomicAdd,
        af.shader_buffer_float64_atomic_add,
    );
    add(
        Feature::ShaderSharedFloat32Atomics,
        af.shader_shared_float32_atomics,
    );
    add(
        Feature::ShaderSharedFloat32AtomicAdd,
        af.shader_shared_float32_atomic_add,
    );
    add(
        Feature::ShaderSharedFloat64Atomics,
        af.shader_shared_float64_atomics,
    );
    add(
        Feature::ShaderSharedFloat64AtomicAdd,
        af.shader_shared_float64_atomic_add,
    );
    add(Feature::CooperativeMatrix, cm.cooperative_matrix);
    set
}

/// The subgroup, subgroup-size-control and float-controls properties of
/// `pd`, each when the effective `version` or a reported extension has it.
fn query_properties(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
    version: tables::VkVersion,
    has: &dyn Fn(&str) -> bool,
) -> (
    Option<SubgroupProperties>,
    Option<SubgroupSizeControlProperties>,
    Option<FloatControls>,
) {
    if version < (1, 1) {
        return (None, None, None);
    }
    let with_ssc = version >= (1, 3) || has("VK_EXT_subgroup_size_control");
    let with_fc = version >= (1, 2) || has("VK_KHR_shader_float_controls");
    let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
    let mut ssc = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
    let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sg);
    if with_ssc {
        props2 = props2.push_next(&mut ssc);
    }
    if with_fc {
        props2 = props2.push_next(&mut fc);
    }
    // SAFETY: `pd` belongs to the live instance of version 1.1 or later;
    // the subgroup struct is core in 1.1, the others are core in the
    // effective version or belong to an extension the device reports; all
    // outlive the call.
    unsafe {
        instance
            .raw
            .get_physical_device_properties2(pd, &mut props2)
    };
    let subgroup = SubgroupProperties {
        subgroup_size: sg.subgroup_size,
        supported_stages: sg.supported_stages,
        supported_operations: sg.supported_operations,
        quad_operations_in_all_stages: sg.quad_operations_in_all_stages == vk::TRUE,
    };
    let size_control = with_ssc.then_some(SubgroupSizeControlProperties {
        min_subgroup_size: ssc.min_subgroup_size,
        max_subgroup_size: ssc.max_subgroup_size,
        max_compute_workgroup_subgroups: ssc.max_compute_workgroup_subgroups,
        required_subgroup_size_stages: ssc.required_subgroup_size_stages,
    });
    let float_controls = with_fc.then(|| tables::float_controls(&fc));
    (Some(subgroup), size_control, float_controls)
}

/// The `VK_KHR_cooperative_matrix` configurations of `pd` (which supports
/// the extension and its feature).
fn query_cooperative_matrix(
    instance: &InstanceShared,
    pd: vk::PhysicalDevice,
) -> Result<Vec<CoopMatrixPropertiesKhr>> {
    let ext = ash::khr::cooperative_matrix::Instance::new(&instance.entry, &instance.raw);
    // SAFETY: `pd` belongs to the live instance and reports the extension.
    let props = unsafe { ext.get_physical_device_cooperative_matrix_properties(pd) }
        .map_err(|r| map_enumerate("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", r))?;
    Ok(props
        .iter()
        .filter_map(|p| {
            Some(CoopMatrixPropertiesKhr {
                m_size: p.m_size,
                n_size: p.n_size,
                k_size: p.k_size,
                a_type: tables::component_type(p.a_type)?,
                b_type: tables::component_type(p.b_type)?,
                c_type: tables::component_type(p.c_type)?,
                result_type: tables::component_type(p.result_type)?,
                acc_sat: p.saturating_accumulation == vk::TRUE,
                scope: tables::scope(p.scope)?,
            })
        })
        .collect())
}
