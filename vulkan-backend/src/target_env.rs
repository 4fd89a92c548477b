//! The target env of a Vulkan device: what kiln may compile for it.
//!
//! [`DeviceQuery`] is everything kiln reads from one physical device
//! without creating a logical device: its extensions, the optional feature
//! bits ([`Feature`]), the subgroup, subgroup-size-control and
//! float-controls properties, the limits and the cooperative-matrix
//! configurations. [`DeviceQuery::target_env`] turns it into a
//! [`TargetEnv`] through the tables of `target_env/tables.rs`:
//!
//! - **version**: the effective Vulkan version (the lower of the device's
//!   and the instance's, as everywhere in kiln) → SPIR-V 1.0 / 1.3 / 1.5 /
//!   1.6, or 1.4 on Vulkan 1.1 with `VK_KHR_spirv_1_4`;
//! - **extensions**: each usable device extension → its `SPV_*` extensions
//!   (listed even when the SPIR-V version has them in its core, so MLIR,
//!   which does not fold promotions, reads the env the same way);
//! - **capabilities**: the core ones every implementation has (`Shader`,
//!   `SampledBuffer` and `ImageBuffer` for texel buffers), then each
//!   capability whose features are
//!   on, the `GroupNonUniform*` capabilities of the supported subgroup
//!   operations when the compute stage supports subgroup operations, and
//!   the float-controls capabilities;
//! - **limits**: every field of [`ResourceLimits`]; `min_subgroup_size` /
//!   `max_subgroup_size` from the subgroup-size-control properties when
//!   usable, else both equal to `subgroup_size` (`None` on a Vulkan 1.0
//!   device, which has no subgroups); `signed_zero_inf_nan_preserve_widths`
//!   from `shaderSignedZeroInfNanPreserveFloat{16,32,64}` for the usable
//!   widths (32, and 16/64 with `shaderFloat16`/`shaderFloat64`) when the
//!   float-controls properties are usable, `denorm_preserve_widths` from
//!   `shaderDenormPreserveFloat{16,32,64}` the same way;
//! - **device**: `api=Vulkan`, the vendor from its id and the device type
//!   and id.
//!
//! # Which features count ([`EnvScope`])
//!
//! A target env must describe what the runtime will accept: a module that
//! declares a capability whose feature was not enabled on the logical
//! device fails validation. [`EnvScope::Kiln`] (what
//! [`DeviceQuery::target_env`] and [`Context::target_env`] use) counts the
//! features a kiln [`Context`] enables ([`DeviceFeatures`]) and the device
//! extensions it may use without enabling them (those core in the
//! effective Vulkan version: a `Context` enables no others), so compiling
//! offline under the env `kiln devices` prints gives the same module as
//! compiling next to the device. [`EnvScope::Device`] counts everything
//! the device supports, as if every extension and feature were enabled:
//! what kiln could target once the runtime enables them (on lavapipe it
//! adds `PhysicalStorageBufferAddresses` and `AtomicFloat32AddEXT`).
//!
//! # Invariant: the env is its text
//!
//! The env holds nothing its lossless text form
//! ([`TargetEnvSyntax::Dictionary`]) cannot carry, so printing it and
//! parsing the text back gives an identical [`TargetEnv`]. In particular
//! the text forms (like MLIR's) print the device type and id only after a
//! known vendor, so for a vendor MLIR does not know (lavapipe's
//! `VK_VENDOR_ID_MESA`) the env leaves both unknown; the
//! [`DeviceSummary`] still has them.
//!
//! [`Context`]: crate::Context
//! [`DeviceFeatures`]: crate::DeviceFeatures
//! [`Context::target_env`]: crate::Context::target_env
//! [`TargetEnvSyntax::Dictionary`]: kiln_core::target::TargetEnvSyntax::Dictionary

mod query;
mod tables;

use std::collections::BTreeSet;

use ash::vk;
use kiln_core::grammar::{Capability, Extension};
use kiln_core::ir::Vce;
use kiln_core::target::{
    ClientApi, CoopMatrixPropertiesKhr, DeviceInfo, DeviceType, ResourceLimits, TargetEnv, Vendor,
    DEFAULT_SUBGROUP_SIZE, FLOAT_CONTROL_WIDTHS, UNKNOWN_DEVICE_ID,
};

pub(crate) use query::query;
pub use tables::Feature;

use crate::device::{self, ApiVersion, DeviceSelector, DeviceSummary};
use crate::error::Result;
use crate::instance::InstanceShared;
use kiln_abi::Limits;

/// Which features and extensions count when deriving a target env (see
/// the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EnvScope {
    /// What a kiln [`Context`](crate::Context) enables on the device: the
    /// env kiln compiles for.
    #[default]
    Kiln,
    /// Everything the device supports, as if every extension and feature
    /// were enabled.
    Device,
}

/// `VkPhysicalDeviceSubgroupProperties` (Vulkan 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgroupProperties {
    /// `subgroupSize`: the default number of invocations per subgroup.
    pub subgroup_size: u32,
    /// `supportedStages`: the stages with subgroup operations.
    pub supported_stages: vk::ShaderStageFlags,
    /// `supportedOperations`: the classes of subgroup operations.
    pub supported_operations: vk::SubgroupFeatureFlags,
    /// `quadOperationsInAllStages`.
    pub quad_operations_in_all_stages: bool,
}

/// `VkPhysicalDeviceSubgroupSizeControlProperties` (Vulkan 1.3 or
/// `VK_EXT_subgroup_size_control`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgroupSizeControlProperties {
    /// `minSubgroupSize`.
    pub min_subgroup_size: u32,
    /// `maxSubgroupSize`.
    pub max_subgroup_size: u32,
    /// `maxComputeWorkgroupSubgroups`.
    pub max_compute_workgroup_subgroups: u32,
    /// `requiredSubgroupSizeStages`.
    pub required_subgroup_size_stages: vk::ShaderStageFlags,
}

/// `VkPhysicalDeviceFloatControlsProperties` (Vulkan 1.2 or
/// `VK_KHR_shader_float_controls`): each field is `[f16, f32, f64]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatControls {
    /// `shaderDenormPreserveFloat{16,32,64}`.
    pub denorm_preserve: [bool; 3],
    /// `shaderDenormFlushToZeroFloat{16,32,64}`.
    pub denorm_flush_to_zero: [bool; 3],
    /// `shaderSignedZeroInfNanPreserveFloat{16,32,64}`.
    pub signed_zero_inf_nan_preserve: [bool; 3],
    /// `shaderRoundingModeRTEFloat{16,32,64}`.
    pub rounding_mode_rte: [bool; 3],
    /// `shaderRoundingModeRTZFloat{16,32,64}`.
    pub rounding_mode_rtz: [bool; 3],
}

/// Everything kiln reads from one physical device to derive its target
/// env (see the module docs). Built by [`query_devices`] /
/// [`query_device`] without creating a logical device.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceQuery {
    /// The device's summary (index, name, type, ids, driver).
    pub summary: DeviceSummary,
    /// The Vulkan version kiln uses the device at: the lower of the
    /// device's and the instance's.
    pub effective_api_version: ApiVersion,
    /// The device extensions it reports, sorted.
    pub extensions: Vec<String>,
    /// The features it supports (from the feature structs of the effective
    /// version, else of the extensions it reports).
    pub supported_features: BTreeSet<Feature>,
    /// The features a kiln [`Context`](crate::Context) enables on it (a
    /// subset of `supported_features`).
    pub enabled_features: BTreeSet<Feature>,
    /// Subgroup properties (`None` below Vulkan 1.1).
    pub subgroup: Option<SubgroupProperties>,
    /// Subgroup-size-control properties, when the device reports them.
    pub subgroup_size_control: Option<SubgroupSizeControlProperties>,
    /// Float-controls properties, when the device reports them.
    pub float_controls: Option<FloatControls>,
    /// The limits dispatch checks against.
    pub limits: Limits,
    /// `timestampPeriod`: nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// The `VK_KHR_cooperative_matrix` configurations (empty without the
    /// `cooperativeMatrix` feature; configurations with component types
    /// kiln cannot spell are left out).
    pub cooperative_matrix_khr: Vec<CoopMatrixPropertiesKhr>,
}

impl DeviceQuery {
    /// The target env kiln compiles for on this device
    /// ([`EnvScope::Kiln`]); equal to the [`Context::target_env`] of a
    /// context on it.
    ///
    /// [`Context::target_env`]: crate::Context::target_env
    pub fn target_env(&self) -> TargetEnv {
        self.target_env_for(EnvScope::Kiln)
    }

    /// The target env under the given scope (see the module docs).
    pub fn target_env_for(&self, scope: EnvScope) -> TargetEnv {
        let version = (
            self.effective_api_version.major,
            self.effective_api_version.minor,
        );
        let usable = |ext: &str| {
            let core = tables::extension_row(ext)
                .and_then(|r| r.core_in)
                .is_some_and(|v| v <= version);
            // Kiln scope: the unpromoted extensions the context enables
            // because one of their features is enabled
            // (`VK_KHR_cooperative_matrix`).
            let enabled = scope == EnvScope::Kiln
                && self
                    .enabled_features
                    .iter()
                    .any(|f| f.core_in().is_none() && f.extension() == Some(ext));
            core || enabled || (scope == EnvScope::Device && self.has_extension(ext))
        };
        let features = match scope {
            EnvScope::Kiln => &self.enabled_features,
            EnvScope::Device => &self.supported_features,
        };

        let spirv = tables::spirv_version(version, usable("VK_KHR_spirv_1_4"));

        let mut caps: BTreeSet<Capability> = tables::CORE_CAPABILITIES.iter().copied().collect();
        for (cap, needs) in tables::CAPABILITY_FEATURES {
            if needs.iter().all(|f| features.contains(f)) {
                caps.insert(*cap);
            }
        }
        if let Some(sg) = &self.subgroup {
            if sg.supported_stages.contains(vk::ShaderStageFlags::COMPUTE) {
                for (op, cap) in tables::SUBGROUP_OPERATIONS {
                    if sg.supported_operations.contains(*op) {
                        caps.insert(*cap);
                    }
                }
            }
        }
        // The float widths a shader may use: 32, and 16/64 with their features.
        let usable_widths = [
            features.contains(&Feature::ShaderFloat16),
            true,
            features.contains(&Feature::ShaderFloat64),
        ];
        let mut preserve_widths = Vec::new();
        let mut denorm_widths = Vec::new();
        if let Some(fc) = &self.float_controls {
            if usable("VK_KHR_shader_float_controls") {
                let widths = usable_widths;
                // The usable widths where a property holds.
                let holding = |property: [bool; 3]| -> Vec<u32> {
                    property
                        .iter()
                        .zip(widths)
                        .zip(FLOAT_CONTROL_WIDTHS)
                        .filter(|((&has, usable), _)| has && *usable)
                        .map(|(_, width)| width)
                        .collect()
                };
                preserve_widths = holding(fc.signed_zero_inf_nan_preserve);
                denorm_widths = holding(fc.denorm_preserve);
                for (get, cap) in tables::FLOAT_CONTROLS {
                    if get(fc)
                        .iter()
                        .zip(widths)
                        .any(|(&has, usable)| has && usable)
                    {
                        caps.insert(*cap);
                    }
                }
            }
        }

        let mut exts: BTreeSet<Extension> = BTreeSet::new();
        for row in tables::EXTENSIONS {
            if usable(row.vk) {
                exts.extend(row.spv.iter().copied());
            }
        }

        let vendor = tables::vendor(self.summary.vendor_id);
        let device = if vendor == Vendor::Unknown {
            // The text forms drop type and id after an unknown vendor.
            DeviceInfo {
                client_api: ClientApi::Vulkan,
                ..DeviceInfo::default()
            }
        } else {
            let device_type = tables::device_type(self.summary.device_type);
            DeviceInfo {
                client_api: ClientApi::Vulkan,
                vendor,
                device_type,
                device_id: (device_type != DeviceType::Unknown
                    && self.summary.device_id != UNKNOWN_DEVICE_ID)
                    .then_some(self.summary.device_id),
            }
        };

        let mut limits = self.resource_limits(
            usable("VK_EXT_subgroup_size_control"),
            caps.contains(&Capability::CooperativeMatrixKHR),
        );
        limits.signed_zero_inf_nan_preserve_widths = preserve_widths;
        limits.denorm_preserve_widths = denorm_widths;
        TargetEnv {
            vce: Vce {
                version: spirv,
                capabilities: caps.into_iter().collect(),
                extensions: exts.into_iter().collect(),
            },
            device,
            limits,
        }
    }

    /// Every limit of the env.
    fn resource_limits(&self, size_control: bool, coop_matrix: bool) -> ResourceLimits {
        let l = &self.limits;
        let subgroup_size = self
            .subgroup
            .map_or(DEFAULT_SUBGROUP_SIZE, |s| s.subgroup_size);
        let (min_subgroup_size, max_subgroup_size) =
            match (&self.subgroup, &self.subgroup_size_control) {
                (None, _) => (None, None),
                (Some(_), Some(c)) if size_control => {
                    (Some(c.min_subgroup_size), Some(c.max_subgroup_size))
                }
                (Some(_), _) => (Some(subgroup_size), Some(subgroup_size)),
            };
        ResourceLimits {
            max_compute_shared_memory_size: l.max_compute_shared_memory_size,
            max_compute_workgroup_invocations: l.max_compute_work_group_invocations,
            max_compute_workgroup_size: l.max_compute_work_group_size,
            subgroup_size,
            min_subgroup_size,
            max_subgroup_size,
            cooperative_matrix_properties_khr: if coop_matrix {
                self.cooperative_matrix_khr.clone()
            } else {
                Vec::new()
            },
            cooperative_matrix_properties_nv: Vec::new(),
            max_compute_workgroup_count: l.max_compute_work_group_count,
            max_push_constants_size: l.max_push_constants_size,
            max_storage_buffer_range: l.max_storage_buffer_range,
            max_uniform_buffer_range: l.max_uniform_buffer_range,
            max_per_stage_descriptor_storage_buffers: l.max_per_stage_descriptor_storage_buffers,
            max_per_stage_descriptor_uniform_buffers: l.max_per_stage_descriptor_uniform_buffers,
            max_bound_descriptor_sets: l.max_bound_descriptor_sets,
            min_storage_buffer_offset_alignment: l.min_storage_buffer_offset_alignment,
            timestamp_period: self.timestamp_period,
            // Set by `target_env_for`, which knows the usable widths.
            signed_zero_inf_nan_preserve_widths: Vec::new(),
            denorm_preserve_widths: Vec::new(),
        }
    }

    /// Whether the device reports extension `name` (`VK_KHR_8bit_storage`).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions
            .binary_search_by(|e| e.as_str().cmp(name))
            .is_ok()
    }

    /// Whether modules on a kiln [`Context`](crate::Context) of this device
    /// may use extension `name`: the device reports it and its
    /// functionality is core at the effective API version (kiln enables no
    /// device extensions beyond `VK_KHR_portability_subset`, so an
    /// extension that is not core is not usable even when reported).
    /// Core versions come from kiln's extension and feature tables; an
    /// extension they do not list counts as not core.
    pub fn extension_usable(&self, name: &str) -> bool {
        let version = (
            self.effective_api_version.major,
            self.effective_api_version.minor,
        );
        let core = tables::extension_row(name)
            .and_then(|r| r.core_in)
            .or_else(|| {
                Feature::ALL
                    .iter()
                    .filter(|f| f.extension() == Some(name))
                    .find_map(|f| f.core_in())
            })
            .is_some_and(|v| v <= version);
        self.has_extension(name) && core
    }

    /// A name for the vendor id (`Mesa` for lavapipe's `0x10005`), when
    /// kiln knows it.
    pub fn vendor_name(&self) -> Option<&'static str> {
        tables::vendor_name(self.summary.vendor_id)
    }
}

/// Queries every Vulkan device of this machine, in enumeration order (the
/// order [`DeviceSelector::Index`] counts in), without validation and
/// without creating logical devices.
pub fn query_devices() -> Result<Vec<DeviceQuery>> {
    let instance = InstanceShared::new(false)?;
    device::physical_devices(&instance)?
        .into_iter()
        .map(|(pd, summary)| query(&instance, pd, summary))
        .collect()
}

/// Queries the device `selector` picks, as [`Context::new`] would pick it
/// (so [`DeviceSelector::Default`] honours `KILN_DEVICE`).
///
/// [`Context::new`]: crate::Context::new
pub fn query_device(selector: &DeviceSelector) -> Result<DeviceQuery> {
    let selector = match selector {
        DeviceSelector::Default => DeviceSelector::from_env().unwrap_or_default(),
        other => other.clone(),
    };
    let instance = InstanceShared::new(false)?;
    let devices = device::physical_devices(&instance)?;
    let summaries: Vec<DeviceSummary> = devices.iter().map(|(_, s)| s.clone()).collect();
    let chosen = selector.pick(&summaries)?;
    let (pd, summary) = devices[chosen].clone();
    query(&instance, pd, summary)
}

/// The target env ([`EnvScope::Kiln`]) of the device at enumeration index
/// `index`, without creating a logical device.
pub fn query_target_env(index: usize) -> Result<TargetEnv> {
    Ok(query_device(&DeviceSelector::Index(index))?.target_env())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_core::target::TargetEnvSyntax;
    use kiln_core::text::Prefix;

    use crate::device::DeviceType as KilnDeviceType;
    use crate::features::DeviceFeatures;

    /// A Vulkan 1.3 device like lavapipe, with every feature the tables
    /// know supported and the kiln context enabling the core ones.
    fn lavapipe_like() -> DeviceQuery {
        let supported: BTreeSet<Feature> = Feature::ALL.iter().copied().collect();
        let enabled = DeviceFeatures {
            shader_float64: true,
            shader_int64: true,
            shader_int16: true,
            storage_buffer_8bit_access: true,
            shader_int8: true,
            shader_integer_dot_product: true,
            ..DeviceFeatures::default()
        }
        .to_set();
        DeviceQuery {
            summary: DeviceSummary {
                index: 0,
                name: "llvmpipe".into(),
                device_type: KilnDeviceType::Cpu,
                vendor_id: 0x10005,
                device_id: 0,
                api_version: ApiVersion {
                    major: 1,
                    minor: 3,
                    patch: 230,
                },
                driver_name: Some("llvmpipe".into()),
                driver_info: Some("Mesa".into()),
            },
            effective_api_version: ApiVersion {
                major: 1,
                minor: 3,
                patch: 230,
            },
            extensions: vec![
                "VK_EXT_shader_atomic_float".into(),
                "VK_KHR_cooperative_matrix".into(),
            ],
            supported_features: supported,
            enabled_features: enabled,
            subgroup: Some(SubgroupProperties {
                subgroup_size: 8,
                supported_stages: vk::ShaderStageFlags::COMPUTE,
                supported_operations: vk::SubgroupFeatureFlags::BASIC
                    | vk::SubgroupFeatureFlags::ARITHMETIC,
                quad_operations_in_all_stages: false,
            }),
            subgroup_size_control: Some(SubgroupSizeControlProperties {
                min_subgroup_size: 4,
                max_subgroup_size: 16,
                max_compute_workgroup_subgroups: 32,
                required_subgroup_size_stages: vk::ShaderStageFlags::COMPUTE,
            }),
            float_controls: Some(FloatControls {
                rounding_mode_rte: [true, false, false],
                rounding_mode_rtz: [false, true, false],
                ..FloatControls::default()
            }),
            limits: crate::limits::limits_from_vk(&vk::PhysicalDeviceLimits {
                max_compute_shared_memory_size: 32768,
                max_compute_work_group_invocations: 1024,
                max_compute_work_group_size: [1024, 1024, 1024],
                max_compute_work_group_count: [65535, 65535, 65535],
                max_push_constants_size: 128,
                max_storage_buffer_range: 1 << 27,
                max_uniform_buffer_range: 65536,
                max_per_stage_descriptor_storage_buffers: 32,
                max_per_stage_descriptor_uniform_buffers: 15,
                max_bound_descriptor_sets: 8,
                min_storage_buffer_offset_alignment: 16,
                ..vk::PhysicalDeviceLimits::default()
            }),
            timestamp_period: 83.333_336,
            cooperative_matrix_khr: Vec::new(),
        }
    }

    #[test]
    fn kiln_scope_counts_enabled_features_and_core_extensions() {
        let env = lavapipe_like().target_env();
        assert_eq!(env.vce.version, kiln_core::grammar::Version::V1_6);
        let caps = &env.vce.capabilities;
        for cap in [
            Capability::Shader,
            Capability::SampledBuffer,
            Capability::ImageBuffer,
            Capability::Float64,
            Capability::Int64,
            Capability::Int16,
            Capability::Int8,
            Capability::StorageBuffer8BitAccess,
            Capability::DotProduct,
            Capability::DotProductInput4x8Bit,
            Capability::GroupNonUniform,
            Capability::GroupNonUniformArithmetic,
            // f32 RTZ counts; f16 RTE does not without Float16.
            Capability::RoundingModeRTZ,
        ] {
            assert!(caps.contains(&cap), "{cap:?} missing from {caps:?}");
        }
        for cap in [
            Capability::Float16,
            Capability::GroupNonUniformVote,
            Capability::PhysicalStorageBufferAddresses,
            Capability::AtomicFloat32AddEXT,
            Capability::CooperativeMatrixKHR,
            Capability::RoundingModeRTE,
        ] {
            assert!(!caps.contains(&cap), "{cap:?} in {caps:?}");
        }
        let exts = &env.vce.extensions;
        assert!(exts.contains(&Extension::SpvKhr8bitStorage));
        assert!(exts.contains(&Extension::SpvKhrIntegerDotProduct));
        assert!(!exts.contains(&Extension::SpvExtShaderAtomicFloatAdd));
        assert!(caps.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        assert!(exts.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");

        assert_eq!(env.limits.subgroup_size, 8);
        assert_eq!(env.limits.min_subgroup_size, Some(4));
        assert_eq!(env.limits.max_subgroup_size, Some(16));
        assert_eq!(env.limits.max_compute_workgroup_invocations, 1024);
        assert_eq!(env.limits.max_per_stage_descriptor_uniform_buffers, 15);
        assert_eq!(env.limits.min_storage_buffer_offset_alignment, 16);
        assert_eq!(env.device.vendor, Vendor::Unknown);
        assert_eq!(env.device.device_type, DeviceType::Unknown);
        assert_eq!(env.device.device_id, None);
    }

    #[test]
    fn device_scope_counts_everything_supported() {
        let env = lavapipe_like().target_env_for(EnvScope::Device);
        let caps = &env.vce.capabilities;
        for cap in [
            Capability::Float16,
            Capability::PhysicalStorageBufferAddresses,
            Capability::AtomicFloat32AddEXT,
            Capability::CooperativeMatrixKHR,
            Capability::RoundingModeRTE,
            Capability::VulkanMemoryModel,
        ] {
            assert!(caps.contains(&cap), "{cap:?} missing from {caps:?}");
        }
        let exts = &env.vce.extensions;
        assert!(exts.contains(&Extension::SpvExtShaderAtomicFloatAdd));
        assert!(exts.contains(&Extension::SpvKhrCooperativeMatrix));
    }

    /// A device whose context enables `cooperativeMatrix` lists the
    /// capability, the SPIR-V extension and the queried configurations in
    /// kiln's env; without the feature enabled (lavapipe) it lists none.
    #[test]
    fn kiln_scope_lists_cooperative_matrices_when_enabled() {
        use kiln_core::grammar::Scope;
        use kiln_core::ir::FloatKind;
        use kiln_core::target::ScalarType;
        let f16 = ScalarType::Float(FloatKind::F16);
        let f32 = ScalarType::Float(FloatKind::F32);
        let props = CoopMatrixPropertiesKhr {
            m_size: 16,
            n_size: 16,
            k_size: 16,
            a_type: f16,
            b_type: f16,
            c_type: f32,
            result_type: f32,
            acc_sat: false,
            scope: Scope::Subgroup,
        };
        let mut q = lavapipe_like();
        q.cooperative_matrix_khr = vec![props];
        let without = q.target_env();
        assert!(without.limits.cooperative_matrix_properties_khr.is_empty());
        assert!(!without
            .vce
            .extensions
            .contains(&Extension::SpvKhrCooperativeMatrix));
        q.enabled_features.insert(Feature::CooperativeMatrix);
        let env = q.target_env();
        assert!(env
            .vce
            .capabilities
            .contains(&Capability::CooperativeMatrixKHR));
        assert!(env
            .vce
            .extensions
            .contains(&Extension::SpvKhrCooperativeMatrix));
        assert_eq!(env.limits.cooperative_matrix_properties_khr, vec![props]);
    }

    #[test]
    fn older_versions_and_known_vendors() {
        let mut q = lavapipe_like();
        q.effective_api_version = ApiVersion {
            major: 1,
            minor: 1,
            patch: 0,
        };
        q.extensions.push("VK_KHR_spirv_1_4".into());
        q.extensions.push("VK_KHR_shader_float_controls".into());
        q.extensions.sort();
        q.summary.vendor_id = 0x10DE;
        q.summary.device_type = KilnDeviceType::DiscreteGpu;
        q.summary.device_id = 0x2684;
        // Kiln does not enable VK_KHR_spirv_1_4, float controls nor size
        // control on a 1.1 device.
        let env = q.target_env();
        assert_eq!(env.vce.version, kiln_core::grammar::Version::V1_3);
        assert!(!env.vce.capabilities.contains(&Capability::RoundingModeRTZ));
        assert!(!env.vce.extensions.contains(&Extension::SpvKhr8bitStorage));
        assert!(env.vce.extensions.contains(&Extension::SpvKhr16bitStorage));
        assert_eq!(env.limits.min_subgroup_size, Some(8));
        assert_eq!(env.device.vendor, Vendor::Nvidia);
        assert_eq!(env.device.device_type, DeviceType::DiscreteGpu);
        assert_eq!(env.device.device_id, Some(0x2684));
        let env = q.target_env_for(EnvScope::Device);
        assert_eq!(env.vce.version, kiln_core::grammar::Version::V1_4);
        assert!(env.vce.capabilities.contains(&Capability::RoundingModeRTZ));

        q.effective_api_version.minor = 0;
        q.subgroup = None;
        let env = q.target_env();
        assert_eq!(env.vce.version, kiln_core::grammar::Version::V1_0);
        assert!(!env.vce.capabilities.contains(&Capability::GroupNonUniform));
        assert_eq!(env.limits.min_subgroup_size, None);
        assert_eq!(env.limits.subgroup_size, DEFAULT_SUBGROUP_SIZE);
    }

    /// The invariant of the module docs: the lossless text gives the env
    /// back, whatever the vendor.
    #[test]
    fn env_is_its_text() {
        let mut q = lavapipe_like();
        for vendor_id in [0x10005, 0x10DE] {
            q.summary.vendor_id = vendor_id;
            for scope in [EnvScope::Kiln, EnvScope::Device] {
                let env = q.target_env_for(scope);
                for prefix in [Prefix::Spv, Prefix::Spirv] {
                    let text = env.print_with(prefix, TargetEnvSyntax::Dictionary);
                    let back: TargetEnv = text.parse().unwrap();
                    assert_eq!(back, env, "{text}");
                }
            }
        }
    }

    #[test]
    fn subgroup_ops_need_the_compute_stage() {
        let mut q = lavapipe_like();
        if let Some(sg) = &mut q.subgroup {
            sg.supported_stages = vk::ShaderStageFlags::FRAGMENT;
        }
        let env = q.target_env();
        assert!(!env.vce.capabilities.contains(&Capability::GroupNonUniform));
    }
}
