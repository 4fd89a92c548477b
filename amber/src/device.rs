//! Device requirements: `DEVICE_FEATURE`, `DEVICE_PROPERTY`,
//! `DEVICE_EXTENSION` and `INSTANCE_EXTENSION`, checked against what the
//! device reported when the context was made
//! ([`kiln_vulkan::Context::device_query`]).
//!
//! - Features are spelled as Amber spells them: a `VkPhysicalDeviceFeatures`
//!   member (`shaderInt64`), or `Struct.member`
//!   (`Storage16BitFeatures.storageBuffer16BitAccess`,
//!   `SubgroupSupportedOperations.ballot`). A feature is met when the
//!   context *enabled* it (a module may only use enabled features); kiln
//!   enables every compute feature of [`kiln_vulkan::DeviceFeatures`] the
//!   device supports. Subgroup operations and stages come from the
//!   device's subgroup properties. Features kiln does not enable (graphics
//!   features, `robustBufferAccess`, sparse residency, ...) are unmet.
//! - Properties are `FloatControlsProperties.*` booleans.
//! - A device extension is met when the device reports it and its
//!   functionality is core at the device's version (kiln enables no other
//!   extensions, [`kiln_vulkan::DeviceQuery::extension_usable`]).
//! - An instance extension is met when it was promoted to Vulkan 1.1 (kiln
//!   creates 1.1+ instances) — `VK_KHR_get_physical_device_properties2`
//!   and the external capability queries.
//!
//! An unmet requirement makes the script a skip whose reason names it.

use kiln_vulkan::ash::vk;
use kiln_vulkan::{Context, Feature};

use crate::script::{Requirement, RequirementKind};

/// The `VkPhysicalDeviceFeatures` members.
const CORE_FEATURES: [&str; 55] = [
    "robustBufferAccess",
    "fullDrawIndexUint32",
    "imageCubeArray",
    "independentBlend",
    "geometryShader",
    "tessellationShader",
    "sampleRateShading",
    "dualSrcBlend",
    "logicOp",
    "multiDrawIndirect",
    "drawIndirectFirstInstance",
    "depthClamp",
    "depthBiasClamp",
    "fillModeNonSolid",
    "depthBounds",
    "wideLines",
    "largePoints",
    "alphaToOne",
    "multiViewport",
    "samplerAnisotropy",
    "textureCompressionETC2",
    "textureCompressionASTC_LDR",
    "textureCompressionBC",
    "occlusionQueryPrecise",
    "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics",
    "fragmentStoresAndAtomics",
    "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended",
    "shaderStorageImageExtendedFormats",
    "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat",
    "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing",
    "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing",
    "shaderStorageImageArrayDynamicIndexing",
    "shaderClipDistance",
    "shaderCullDistance",
    "shaderFloat64",
    "shaderInt64",
    "shaderInt16",
    "shaderResourceResidency",
    "shaderResourceMinLod",
    "sparseBinding",
    "sparseResidencyBuffer",
    "sparseResidencyImage2D",
    "sparseResidencyImage3D",
    "sparseResidency2Samples",
    "sparseResidency4Samples",
    "sparseResidency8Samples",
    "sparseResidency16Samples",
    "sparseResidencyAliased",
    "variableMultisampleRate",
    "inheritedQueries",
];

/// The `Struct.member` features Amber knows.
const STRUCT_FEATURES: [&str; 38] = [
    "VariablePointerFeatures.variablePointers",
    "VariablePointerFeatures.variablePointersStorageBuffer",
    "Float16Int8Features.shaderFloat16",
    "Float16Int8Features.shaderInt8",
    "VulkanMemoryModelFeatures.vulkanMemoryModel",
    "VulkanMemoryModelFeatures.vulkanMemoryModelDeviceScope",
    "ZeroInitializeWorkgroupMemoryFeatures.shaderZeroInitializeWorkgroupMemory",
    "Storage8BitFeatures.storageBuffer8BitAccess",
    "Storage8BitFeatures.uniformAndStorageBuffer8BitAccess",
    "Storage8BitFeatures.storagePushConstant8",
    "Storage16BitFeatures.storageBuffer16BitAccess",
    "Storage16BitFeatures.uniformAndStorageBuffer16BitAccess",
    "Storage16BitFeatures.storagePushConstant16",
    "Storage16BitFeatures.storageInputOutput16",
    "DepthClampZeroOneFeatures.depthClampZeroOne",
    "SubgroupSizeControl.subgroupSizeControl",
    "SubgroupSizeControl.computeFullSubgroups",
    "SubgroupSupportedOperations.basic",
    "SubgroupSupportedOperations.vote",
    "SubgroupSupportedOperations.arithmetic",
    "SubgroupSupportedOperations.ballot",
    "SubgroupSupportedOperations.shuffle",
    "SubgroupSupportedOperations.shuffleRelative",
    "SubgroupSupportedOperations.clustered",
    "SubgroupSupportedOperations.quad",
    "SubgroupSupportedStages.vertex",
    "SubgroupSupportedStages.tessellationControl",
    "SubgroupSupportedStages.tessellationEvaluation",
    "SubgroupSupportedStages.geometry",
    "SubgroupSupportedStages.fragment",
    "SubgroupSupportedStages.compute",
    "IndexTypeUint8Features.indexTypeUint8",
    "ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes",
    "CooperativeMatrixFeaturesKHR.cooperativeMatrix",
    "RayTracingPipelineFeaturesKHR.rayTracingPipeline",
    "AccelerationStructureFeaturesKHR.accelerationStructure",
    "BufferDeviceAddressFeatures.bufferDeviceAddress",
    "ShaderLongVectorFeaturesEXT.longVector",
];

/// The float-controls properties (`FloatControlsProperties.` + name) and
/// where [`kiln_vulkan::FloatControls`] keeps them: (field, width index).
const PROPERTIES: [(&str, usize, usize); 15] = [
    ("shaderSignedZeroInfNanPreserveFloat16", 2, 0),
    ("shaderSignedZeroInfNanPreserveFloat32", 2, 1),
    ("shaderSignedZeroInfNanPreserveFloat64", 2, 2),
    ("shaderDenormPreserveFloat16", 0, 0),
    ("shaderDenormPreserveFloat32", 0, 1),
    ("shaderDenormPreserveFloat64", 0, 2),
    ("shaderDenormFlushToZeroFloat16", 1, 0),
    ("shaderDenormFlushToZeroFloat32", 1, 1),
    ("shaderDenormFlushToZeroFloat64", 1, 2),
    ("shaderRoundingModeRTEFloat16", 3, 0),
    ("shaderRoundingModeRTEFloat32", 3, 1),
    ("shaderRoundingModeRTEFloat64", 3, 2),
    ("shaderRoundingModeRTZFloat16", 4, 0),
    ("shaderRoundingModeRTZFloat32", 4, 1),
    ("shaderRoundingModeRTZFloat64", 4, 2),
];

/// Instance extensions promoted to Vulkan 1.1.
const CORE_INSTANCE_EXTENSIONS: [&str; 5] = [
    "VK_KHR_get_physical_device_properties2",
    "VK_KHR_device_group_creation",
    "VK_KHR_external_fence_capabilities",
    "VK_KHR_external_memory_capabilities",
    "VK_KHR_external_semaphore_capabilities",
];

/// Whether `DEVICE_FEATURE name` names a feature Amber knows.
pub(crate) fn is_known_feature(name: &str) -> bool {
    CORE_FEATURES.contains(&name) || STRUCT_FEATURES.contains(&name)
}

/// Whether `DEVICE_PROPERTY name` names a property Amber knows.
pub(crate) fn is_known_property(name: &str) -> bool {
    name.strip_prefix("FloatControlsProperties.")
        .is_some_and(|p| PROPERTIES.iter().any(|(n, ..)| *n == p))
}

/// The first requirement of `requirements` the context does not meet, as
/// a skip reason.
pub(crate) fn unmet(ctx: &Context, requirements: &[Requirement]) -> Option<String> {
    requirements.iter().find_map(|r| check(ctx, r))
}

fn check(ctx: &Context, r: &Requirement) -> Option<String> {
    let q = ctx.device_query();
    let name = &r.name;
    match r.kind {
        RequirementKind::Feature => {
            let member = name.rsplit('.').next().unwrap_or(name);
            if let Some(op) = name.strip_prefix("SubgroupSupportedOperations.") {
                let flag = subgroup_operation(op)?;
                let ok = q
                    .subgroup
                    .is_some_and(|s| s.supported_operations.contains(flag));
                return (!ok).then(|| format!("device feature {name} is not supported"));
            }
            if let Some(stage) = name.strip_prefix("SubgroupSupportedStages.") {
                let flag = subgroup_stage(stage)?;
                let ok = q
                    .subgroup
                    .is_some_and(|s| s.supported_stages.contains(flag));
                return (!ok).then(|| format!("device feature {name} is not supported"));
            }
            match Feature::from_vk_name(member) {
                Some(f) if q.enabled_features.contains(&f) => None,
                Some(f) if q.supported_features.contains(&f) => Some(format!(
                    "device feature {name} is supported but kiln does not enable it"
                )),
                Some(_) => Some(format!("device feature {name} is not supported")),
                None => Some(format!(
                    "device feature {name} is not one kiln queries or enables"
                )),
            }
        }
        RequirementKind::Property => {
            let prop = name.strip_prefix("FloatControlsProperties.")?;
            let &(_, field, width) = PROPERTIES.iter().find(|(n, ..)| *n == prop)?;
            let ok = q.float_controls.is_some_and(|fc| {
                let fields = [
                    fc.denorm_preserve,
                    fc.denorm_flush_to_zero,
                    fc.signed_zero_inf_nan_preserve,
                    fc.rounding_mode_rte,
                    fc.rounding_mode_rtz,
                ];
                fields[field][width]
            });
            (!ok).then(|| format!("device property {name} is not supported"))
        }
        RequirementKind::DeviceExtension => {
            if q.extension_usable(name) {
                None
            } else if q.has_extension(name) {
                Some(format!(
                    "device extension {name} is supported but kiln does not enable it \
                     (it is not core in Vulkan {}.{})",
                    q.effective_api_version.major, q.effective_api_version.minor
                ))
            } else {
                Some(format!("device extension {name} is not supported"))
            }
        }
        RequirementKind::InstanceExtension => {
            let core = CORE_INSTANCE_EXTENSIONS.contains(&name.as_str())
                && (q.effective_api_version.major, q.effective_api_version.minor) >= (1, 1);
            (!core).then(|| format!("instance extension {name} is not enabled by kiln"))
        }
    }
}

fn subgroup_operation(name: &str) -> Option<vk::SubgroupFeatureFlags> {
    use vk::SubgroupFeatureFlags as F;
    Some(match name {
        "basic" => F::BASIC,
        "vote" => F::VOTE,
        "arithmetic" => F::ARITHMETIC,
        "ballot" => F::BALLOT,
        "shuffle" => F::SHUFFLE,
        "shuffleRelative" => F::SHUFFLE_RELATIVE,
        "clustered" => F::CLUSTERED,
        "quad" => F::QUAD,
        _ => return None,
    })
}

fn subgroup_stage(name: &str) -> Option<vk::ShaderStageFlags> {
    use vk::ShaderStageFlags as S;
    Some(match name {
        "vertex" => S::VERTEX,
        "tessellationControl" => S::TESSELLATION_CONTROL,
        "tessellationEvaluation" => S::TESSELLATION_EVALUATION,
        "geometry" => S::GEOMETRY,
        "fragment" => S::FRAGMENT,
        "compute" => S::COMPUTE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_amber_knows() {
        assert!(is_known_feature("shaderInt64"));
        assert!(is_known_feature(
            "Storage16BitFeatures.storagePushConstant16"
        ));
        assert!(!is_known_feature("shaderInt7"));
        assert!(!is_known_feature("Storage16BitFeatures.shaderInt64"));
        assert!(is_known_property(
            "FloatControlsProperties.shaderDenormPreserveFloat32"
        ));
        assert!(!is_known_property("shaderDenormPreserveFloat32"));
    }
}
