//! The target env kiln derives from a real device.
//!
//! - On lavapipe, the env reports SPIR-V 1.6, the subgroup capabilities
//!   and the 8/16/64-bit type capabilities lavapipe supports; a context's
//!   env equals the one queried without a context, and creating the
//!   context (which queries it with validation on) draws no validation
//!   message.
//! - `vulkaninfo` (an independent reader of the same device) agrees with
//!   what kiln queried: limits, feature bits, subgroup properties,
//!   extensions and API version, for the device kiln picks, matched by
//!   name. The test fails, never skips, when `vulkaninfo` is missing.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use kiln_core::grammar::{Capability, Extension, Version};
use kiln_core::target::TargetEnv;
use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir};
use kiln_vulkan::ash::vk;
use kiln_vulkan::{
    query_device, query_devices, query_target_env, Context, ContextOptions, DeviceQuery,
    DeviceSelector, EnvScope, Feature,
};

/// A context on lavapipe with validation on; fails saying what is missing.
fn lavapipe_context() -> Context {
    let options = ContextOptions {
        validation: true,
        device: DeviceSelector::NameContains("llvmpipe".into()),
    };
    Context::new(&options).unwrap_or_else(|e| {
        panic!(
            "this test needs lavapipe (mesa-vulkan-drivers) and the validation layer \
             (run ci/setup.sh): {e}"
        )
    })
}

#[test]
fn lavapipe_env_reports_version_and_capabilities() {
    let ctx = lavapipe_context();
    assert_no_validation_messages(&ctx);
    let env = ctx.target_env();
    assert_eq!(env.vce.version, Version::V1_6, "{}", env.summary());
    for cap in [
        Capability::Shader,
        Capability::GroupNonUniform,
        Capability::GroupNonUniformVote,
        Capability::GroupNonUniformArithmetic,
        Capability::GroupNonUniformBallot,
        Capability::GroupNonUniformShuffle,
        Capability::GroupNonUniformShuffleRelative,
        Capability::GroupNonUniformQuad,
        Capability::Int64,
        Capability::Float64,
        Capability::Int16,
        Capability::Float16,
        Capability::Int8,
        Capability::StorageBuffer8BitAccess,
        Capability::StorageBuffer16BitAccess,
        Capability::VariablePointers,
        Capability::VulkanMemoryModel,
        Capability::DotProduct,
    ] {
        assert!(
            env.vce.capabilities.contains(&cap),
            "{cap:?} missing: {}",
            env.summary()
        );
    }
    // lavapipe 22.3 has no clustered subgroup operations.
    assert!(!env
        .vce
        .capabilities
        .contains(&Capability::GroupNonUniformClustered));
    for ext in [
        Extension::SpvKhr8bitStorage,
        Extension::SpvKhr16bitStorage,
        Extension::SpvKhrStorageBufferStorageClass,
        Extension::SpvKhrVariablePointers,
        Extension::SpvKhrVulkanMemoryModel,
    ] {
        assert!(
            env.vce.extensions.contains(&ext),
            "{ext} missing: {}",
            env.summary()
        );
    }
    // DRIVERS.md's lavapipe facts.
    let l = &env.limits;
    assert_eq!(l.subgroup_size, 8);
    assert_eq!(
        (l.min_subgroup_size, l.max_subgroup_size),
        (Some(8), Some(8))
    );
    assert_eq!(l.max_compute_workgroup_invocations, 1024);
    assert_eq!(l.max_compute_shared_memory_size, 32768);
    assert_eq!(l.max_per_stage_descriptor_storage_buffers, 32);
    assert_eq!(l.max_push_constants_size, 128);
    assert_eq!(l.max_bound_descriptor_sets, 8);
    assert_eq!(l.max_storage_buffer_range, 128 << 20);

    // Offline (no context) gives the same env as the context.
    let offline = query_target_env(ctx.device_summary().index).unwrap();
    assert_eq!(&offline, env);
    // And its lossless text gives it back.
    let text = env.print_with(
        kiln_core::text::Prefix::Spirv,
        kiln_core::target::TargetEnvSyntax::Dictionary,
    );
    assert_eq!(&text.parse::<TargetEnv>().unwrap(), env, "{text}");
    assert_no_validation_messages(&ctx);
}

#[test]
fn device_scope_adds_what_kiln_does_not_enable() {
    let devices = query_devices().unwrap();
    let q = devices
        .iter()
        .find(|d| d.summary.name.contains("llvmpipe"))
        .expect("lavapipe is listed (run ci/setup.sh)");
    let kiln = q.target_env();
    let device = q.target_env_for(EnvScope::Device);
    let kiln_caps: BTreeSet<_> = kiln.vce.capabilities.iter().collect();
    let device_caps: BTreeSet<_> = device.vce.capabilities.iter().collect();
    assert!(kiln_caps.is_subset(&device_caps));
    // lavapipe supports bufferDeviceAddress and VK_EXT_shader_atomic_float,
    // which a kiln context does not enable.
    assert!(q.supported_features.contains(&Feature::BufferDeviceAddress));
    assert!(!q.enabled_features.contains(&Feature::BufferDeviceAddress));
    for cap in [
        Capability::PhysicalStorageBufferAddresses,
        Capability::AtomicFloat32AddEXT,
    ] {
        assert!(device_caps.contains(&cap), "{cap:?}");
        assert!(!kiln_caps.contains(&cap), "{cap:?}");
    }
    assert!(device
        .vce
        .extensions
        .contains(&Extension::SpvExtShaderAtomicFloatAdd));
    assert!(q.enabled_features.is_subset(&q.supported_features));
    assert!(q.enabled_features.contains(&Feature::ScalarBlockLayout));
}

// ---- vulkaninfo ---------------------------------------------------------

/// A value in `vulkaninfo`'s text: `name = value`, or `name: count = N`
/// followed by N indented items.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Scalar(String),
    List(Vec<String>),
}

/// One device's section of `vulkaninfo`'s text: block name (the line above
/// a row of dashes, e.g. `VkPhysicalDeviceLimits:`) → entries. The device
/// extensions are the block `Device Extensions`.
#[derive(Debug, Default)]
struct DeviceInfo {
    blocks: BTreeMap<String, BTreeMap<String, Value>>,
}

impl DeviceInfo {
    fn get(&self, block: &str, key: &str) -> &Value {
        self.blocks
            .get(block)
            .and_then(|b| b.get(key))
            .unwrap_or_else(|| panic!("vulkaninfo has no {block}.{key}"))
    }

    fn scalar(&self, block: &str, key: &str) -> &str {
        match self.get(block, key) {
            Value::Scalar(s) => s,
            v => panic!("{block}.{key} is not a scalar: {v:?}"),
        }
    }

    fn list(&self, block: &str, key: &str) -> &[String] {
        match self.get(block, key) {
            Value::List(l) => l,
            v => panic!("{block}.{key} is not a list: {v:?}"),
        }
    }

    fn number(&self, block: &str, key: &str) -> u64 {
        parse_number(self.scalar(block, key))
    }

    /// Every value vulkaninfo gives for boolean `key`, in any block.
    fn booleans(&self, key: &str) -> Vec<(String, bool)> {
        self.blocks
            .iter()
            .filter_map(|(block, entries)| match entries.get(key) {
                Some(Value::Scalar(v)) if v == "true" || v == "false" => {
                    Some((block.clone(), v == "true"))
                }
                _ => None,
            })
            .collect()
    }
}

/// `65536`, `0x00000010`, `1.3.230 (4206822)` (the part before a space).
fn parse_number(s: &str) -> u64 {
    let s = s.split_whitespace().next().unwrap_or("");
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("not a number: {s:?}: {e}"))
}

/// Runs `vulkaninfo` (full text) and returns its stdout.
fn run_vulkaninfo() -> String {
    let runtime_dir = scratch_dir();
    let out = Command::new("vulkaninfo")
        .env("XDG_RUNTIME_DIR", &runtime_dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run vulkaninfo ({e}); install vulkan-tools (run ci/setup.sh)")
        });
    assert!(
        out.status.success(),
        "vulkaninfo failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("vulkaninfo prints UTF-8")
}

/// Splits the `Device Properties and Extensions` part of vulkaninfo's text
/// into one [`DeviceInfo`] per `GPUn:` section.
fn parse_vulkaninfo(text: &str) -> Vec<DeviceInfo> {
    let start = text
        .find("Device Properties and Extensions:")
        .expect("vulkaninfo's full text has a 'Device Properties and Extensions' part");
    let lines: Vec<&str> = text[start..].lines().collect();
    let mut devices: Vec<DeviceInfo> = Vec::new();
    let mut block = String::new();
    let mut list: Option<(String, usize)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.trim().is_empty() {
            continue;
        }
        let is_gpu_header = line.starts_with("GPU")
            && line.ends_with(':')
            && line[3..line.len() - 1].bytes().all(|b| b.is_ascii_digit());
        if is_gpu_header {
            devices.push(DeviceInfo::default());
            block.clear();
            list = None;
            continue;
        }
        let Some(dev) = devices.last_mut() else {
            continue;
        };
        if !line.starts_with('\t') {
            // A block header: `VkPhysicalDeviceLimits:` over a row of
            // dashes, or `Device Extensions: count = 101` on its own.
            let underlined = lines.get(i).is_some_and(|next| {
                !next.is_empty() && next.bytes().all(|b| b == b'-' || b == b'=')
            });
            if underlined {
                i += 1;
            }
            block = line.trim().trim_end_matches(':').to_string();
            if let Some((name, _)) = block.split_once(':') {
                block = name.trim().to_string();
            }
            list = None;
            continue;
        }
        let entries = dev.blocks.entry(block.clone()).or_default();
        if block == "Device Extensions" {
            // `\tVK_KHR_8bit_storage : extension revision 1`
            if let Some((name, _)) = line.trim().split_once(':') {
                entries.insert(name.trim().to_string(), Value::Scalar("present".into()));
            }
            continue;
        }
        let depth = line.bytes().take_while(|&b| b == b'\t').count();
        let body = line.trim();
        if depth >= 2 {
            if let Some((key, left)) = &mut list {
                if *left > 0 {
                    *left -= 1;
                    if let Some(Value::List(items)) = entries.get_mut(key.as_str()) {
                        items.push(body.to_string());
                    }
                }
            }
            continue;
        }
        list = None;
        if let Some((key, count)) = body.split_once(": count = ") {
            let n: usize = count.trim().parse().unwrap_or(0);
            entries.insert(key.trim().to_string(), Value::List(Vec::new()));
            list = Some((key.trim().to_string(), n));
        } else if let Some((key, value)) = body.split_once(" = ") {
            entries.insert(
                key.trim().to_string(),
                Value::Scalar(value.trim().to_string()),
            );
        }
    }
    devices
}

/// vulkaninfo's names of the subgroup operation bits.
const SUBGROUP_OPS: &[(&str, vk::SubgroupFeatureFlags, Capability)] = &[
    (
        "SUBGROUP_FEATURE_BASIC_BIT",
        vk::SubgroupFeatureFlags::BASIC,
        Capability::GroupNonUniform,
    ),
    (
        "SUBGROUP_FEATURE_VOTE_BIT",
        vk::SubgroupFeatureFlags::VOTE,
        Capability::GroupNonUniformVote,
    ),
    (
        "SUBGROUP_FEATURE_ARITHMETIC_BIT",
        vk::SubgroupFeatureFlags::ARITHMETIC,
        Capability::GroupNonUniformArithmetic,
    ),
    (
        "SUBGROUP_FEATURE_BALLOT_BIT",
        vk::SubgroupFeatureFlags::BALLOT,
        Capability::GroupNonUniformBallot,
    ),
    (
        "SUBGROUP_FEATURE_SHUFFLE_BIT",
        vk::SubgroupFeatureFlags::SHUFFLE,
        Capability::GroupNonUniformShuffle,
    ),
    (
        "SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT",
        vk::SubgroupFeatureFlags::SHUFFLE_RELATIVE,
        Capability::GroupNonUniformShuffleRelative,
    ),
    (
        "SUBGROUP_FEATURE_CLUSTERED_BIT",
        vk::SubgroupFeatureFlags::CLUSTERED,
        Capability::GroupNonUniformClustered,
    ),
    (
        "SUBGROUP_FEATURE_QUAD_BIT",
        vk::SubgroupFeatureFlags::QUAD,
        Capability::GroupNonUniformQuad,
    ),
];

/// Features compared with vulkaninfo, and the capability each gives when a
/// kiln context enables it (all of these are enabled when supported).
const FEATURES: &[(Feature, Option<Capability>)] = &[
    (Feature::ShaderInt64, Some(Capability::Int64)),
    (Feature::ShaderFloat64, Some(Capability::Float64)),
    (Feature::ShaderInt16, Some(Capability::Int16)),
    (
        Feature::StorageBuffer8BitAccess,
        Some(Capability::StorageBuffer8BitAccess),
    ),
    (
        Feature::StorageBuffer16BitAccess,
        Some(Capability::StorageBuffer16BitAccess),
    ),
    (
        Feature::UniformAndStorageBuffer16BitAccess,
        Some(Capability::UniformAndStorageBuffer16BitAccess),
    ),
    (
        Feature::StoragePushConstant8,
        Some(Capability::StoragePushConstant8),
    ),
    (Feature::ShaderFloat16, Some(Capability::Float16)),
    (Feature::ShaderInt8, Some(Capability::Int8)),
    (
        Feature::VariablePointers,
        Some(Capability::VariablePointers),
    ),
    (
        Feature::VariablePointersStorageBuffer,
        Some(Capability::VariablePointersStorageBuffer),
    ),
    (
        Feature::VulkanMemoryModel,
        Some(Capability::VulkanMemoryModel),
    ),
    (
        Feature::VulkanMemoryModelDeviceScope,
        Some(Capability::VulkanMemoryModelDeviceScope),
    ),
    (Feature::ScalarBlockLayout, None),
    (Feature::ShaderSubgroupExtendedTypes, None),
    (Feature::SubgroupSizeControl, None),
    (
        Feature::ShaderIntegerDotProduct,
        Some(Capability::DotProduct),
    ),
    (
        Feature::ShaderBufferInt64Atomics,
        Some(Capability::Int64Atomics),
    ),
];

/// The vulkaninfo section of the device kiln picks by default.
fn picked_device() -> (DeviceQuery, DeviceInfo) {
    let query = query_device(&DeviceSelector::Default).expect("a Vulkan device (run ci/setup.sh)");
    let mut sections = parse_vulkaninfo(&run_vulkaninfo());
    assert!(!sections.is_empty(), "vulkaninfo listed no device");
    let names: Vec<String> = sections
        .iter()
        .map(|s| {
            s.scalar("VkPhysicalDeviceProperties", "deviceName")
                .to_string()
        })
        .collect();
    let at = names
        .iter()
        .position(|n| *n == query.summary.name)
        .unwrap_or_else(|| {
            panic!(
                "kiln picked '{}' but vulkaninfo lists {names:?}",
                query.summary.name
            )
        });
    (query, sections.swap_remove(at))
}

#[test]
fn vulkaninfo_agrees_with_the_queried_env() {
    let (query, info) = picked_device();
    let env = query.target_env();
    let l = &env.limits;

    // ---- limits --------------------------------------------------------
    const LIMITS: &str = "VkPhysicalDeviceLimits";
    let mut compared = 1; // timestampPeriod, compared below as a float
    let mut check = |name: &str, vulkaninfo: u64, kiln: u64| {
        assert_eq!(vulkaninfo, kiln, "{name}: vulkaninfo vs kiln");
        compared += 1;
    };
    let scalars: [(&str, u64); 9] = [
        (
            "maxComputeSharedMemorySize",
            l.max_compute_shared_memory_size.into(),
        ),
        (
            "maxComputeWorkGroupInvocations",
            l.max_compute_workgroup_invocations.into(),
        ),
        ("maxPushConstantsSize", l.max_push_constants_size.into()),
        ("maxStorageBufferRange", l.max_storage_buffer_range.into()),
        ("maxUniformBufferRange", l.max_uniform_buffer_range.into()),
        (
            "maxPerStageDescriptorStorageBuffers",
            l.max_per_stage_descriptor_storage_buffers.into(),
        ),
        (
            "maxPerStageDescriptorUniformBuffers",
            l.max_per_stage_descriptor_uniform_buffers.into(),
        ),
        ("maxBoundDescriptorSets", l.max_bound_descriptor_sets.into()),
        (
            "minStorageBufferOffsetAlignment",
            l.min_storage_buffer_offset_alignment,
        ),
    ];
    for (name, kiln) in scalars {
        check(name, info.number(LIMITS, name), kiln);
    }
    for (name, kiln) in [
        ("maxComputeWorkGroupSize", l.max_compute_workgroup_size),
        ("maxComputeWorkGroupCount", l.max_compute_workgroup_count),
    ] {
        let items = info.list(LIMITS, name);
        assert_eq!(items.len(), 3, "{name}: {items:?}");
        for (i, item) in items.iter().enumerate() {
            check(&format!("{name}[{i}]"), parse_number(item), kiln[i].into());
        }
    }
    let period: f32 = info
        .scalar(LIMITS, "timestampPeriod")
        .parse()
        .expect("timestampPeriod is a number");
    assert_eq!(period, l.timestamp_period, "timestampPeriod");

    const SUBGROUP: &str = "VkPhysicalDeviceSubgroupProperties";
    let subgroup = query.subgroup.expect("a Vulkan 1.1+ device");
    check(
        "subgroupSize",
        info.number(SUBGROUP, "subgroupSize"),
        l.subgroup_size.into(),
    );
    check(
        "subgroupSize (properties)",
        info.number(SUBGROUP, "subgroupSize"),
        subgroup.subgroup_size.into(),
    );
    if info
        .blocks
        .contains_key("VkPhysicalDeviceSubgroupSizeControlProperties")
    {
        const SSC: &str = "VkPhysicalDeviceSubgroupSizeControlProperties";
        check(
            "minSubgroupSize",
            info.number(SSC, "minSubgroupSize"),
            l.min_subgroup_size.expect("set with subgroups").into(),
        );
        check(
            "maxSubgroupSize",
            info.number(SSC, "maxSubgroupSize"),
            l.max_subgroup_size.expect("set with subgroups").into(),
        );
    }
    assert!(compared >= 10, "only {compared} limits compared");

    // ---- features ------------------------------------------------------
    let mut features_compared = 0;
    for &f in Feature::ALL {
        let values = info.booleans(f.vk_name());
        if values.is_empty() {
            continue;
        }
        for (block, value) in &values {
            assert_eq!(
                *value,
                query.supported_features.contains(&f),
                "{} in {block}: vulkaninfo vs kiln",
                f.vk_name()
            );
        }
        features_compared += 1;
    }
    for (f, cap) in FEATURES {
        let values = info.booleans(f.vk_name());
        assert!(
            !values.is_empty(),
            "vulkaninfo does not list {}",
            f.vk_name()
        );
        let supported = values[0].1;
        if let Some(cap) = cap {
            assert_eq!(
                env.vce.capabilities.contains(cap),
                supported,
                "{} = {supported} in vulkaninfo, {cap:?} in the env: {}",
                f.vk_name(),
                env.summary()
            );
        }
    }

    // Subgroup operations and stages.
    let ops = info.list(SUBGROUP, "supportedOperations");
    let stages = info.list(SUBGROUP, "supportedStages");
    let compute = stages.iter().any(|s| s == "SHADER_STAGE_COMPUTE_BIT");
    assert_eq!(
        compute,
        subgroup
            .supported_stages
            .contains(vk::ShaderStageFlags::COMPUTE),
        "compute in supportedStages"
    );
    for (name, bit, cap) in SUBGROUP_OPS {
        let listed = ops.iter().any(|o| o == name);
        assert_eq!(
            listed,
            subgroup.supported_operations.contains(*bit),
            "{name}: vulkaninfo vs kiln"
        );
        assert_eq!(
            listed && compute,
            env.vce.capabilities.contains(cap),
            "{name} in vulkaninfo, {cap:?} in the env"
        );
        features_compared += 1;
    }
    eprintln!("compared {compared} limits and {features_compared} features with vulkaninfo");
    assert!(
        features_compared >= 10,
        "only {features_compared} features compared"
    );

    // ---- extensions, version, ids ---------------------------------------
    let listed: BTreeSet<&str> = info
        .blocks
        .get("Device Extensions")
        .expect("vulkaninfo lists the device extensions")
        .keys()
        .map(String::as_str)
        .collect();
    let queried: BTreeSet<&str> = query.extensions.iter().map(String::as_str).collect();
    assert_eq!(listed, queried, "device extensions");

    const PROPS: &str = "VkPhysicalDeviceProperties";
    let api = info.scalar(PROPS, "apiVersion");
    assert!(
        api.starts_with(&query.summary.api_version.to_string()),
        "apiVersion {api} vs {}",
        query.summary.api_version
    );
    assert_eq!(
        info.number(PROPS, "vendorID"),
        u64::from(query.summary.vendor_id)
    );
    assert_eq!(
        info.number(PROPS, "deviceID"),
        u64::from(query.summary.device_id)
    );
    let expected_spirv = match (
        query.effective_api_version.major,
        query.effective_api_version.minor,
    ) {
        (1, 0) => Version::V1_0,
        (1, 1) => Version::V1_3,
        (1, 2) => Version::V1_5,
        _ => Version::V1_6,
    };
    assert_eq!(env.vce.version, expected_spirv);
}
