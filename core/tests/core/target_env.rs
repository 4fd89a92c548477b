//! The target env's text forms: the seeds' dictionary syntax (kiln's
//! lossless form) and MLIR 19's syntax, checked against `mlir-opt-19` itself
//! (the tests fail, not skip, when it is missing), plus reading it from and
//! writing it to a module.

use kiln_core::grammar::{Capability, Extension, Scope, Version};
use kiln_core::ir::{FloatKind, Signedness, Vce};
use kiln_core::target::{
    ClientApi, CoopMatrixPropertiesKhr, CoopMatrixPropertiesNv, DeviceInfo, DeviceType,
    ResourceLimits, ScalarType, TargetEnv, TargetEnvError, TargetEnvSyntax, Vendor,
};
use kiln_core::text::{self, Prefix, PrintOptions};

use crate::common;

/// Runs `mlir-opt-19` on `src` and returns what it prints; panics (failing
/// the test) when the tool is missing or rejects the input.
fn mlir_opt(src: &str) -> String {
    common::mlir_opt(&[], src)
}

/// The value of `spirv.target_env = ...` in a module `mlir-opt-19` printed.
fn target_env_text(printed: &str) -> String {
    let start = printed
        .find("spirv.target_env = ")
        .unwrap_or_else(|| panic!("no target env in:\n{printed}"))
        + "spirv.target_env = ".len();
    let rest = &printed[start..];
    // The attribute ends where its angle brackets balance.
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return rest[..=i].to_string();
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced target env in:\n{printed}");
}

/// `mlir-opt-19`'s print of a builtin module carrying `env_text`.
fn through_mlir(env_text: &str) -> String {
    let src = format!("module attributes {{spirv.target_env = {env_text}}} {{\n}}\n");
    target_env_text(&mlir_opt(&src))
}

fn parse(s: &str) -> TargetEnv {
    s.parse()
        .unwrap_or_else(|e: TargetEnvError| panic!("{s}\n{e}"))
}

fn vce(version: Version, caps: &[Capability], exts: &[Extension]) -> Vce {
    Vce {
        version,
        capabilities: caps.to_vec(),
        extensions: exts.to_vec(),
    }
}

/// A target env using every field with non-default values.
fn full_env() -> TargetEnv {
    let i8t = ScalarType::Int {
        width: 8,
        signedness: Signedness::Signless,
    };
    let i32t = ScalarType::Int {
        width: 32,
        signedness: Signedness::Signless,
    };
    let f16t = ScalarType::Float(FloatKind::F16);
    TargetEnv {
        vce: vce(
            Version::V1_5,
            &[
                Capability::Shader,
                Capability::GroupNonUniformArithmetic,
                Capability::Int64,
                Capability::UniformAndStorageBuffer16BitAccess,
            ],
            &[
                Extension::SpvKhr8bitStorage,
                Extension::SpvKhrStorageBufferStorageClass,
            ],
        ),
        device: DeviceInfo {
            client_api: ClientApi::Vulkan,
            vendor: Vendor::Nvidia,
            device_type: DeviceType::DiscreteGpu,
            device_id: Some(0x2204),
        },
        limits: ResourceLimits {
            max_compute_shared_memory_size: 49152,
            max_compute_workgroup_invocations: 1024,
            max_compute_workgroup_size: [1024, 1024, 64],
            subgroup_size: 32,
            min_subgroup_size: Some(32),
            max_subgroup_size: Some(32),
            cooperative_matrix_properties_khr: vec![
                CoopMatrixPropertiesKhr {
                    m_size: 16,
                    n_size: 16,
                    k_size: 16,
                    a_type: f16t,
                    b_type: f16t,
                    c_type: f16t,
                    result_type: f16t,
                    acc_sat: false,
                    scope: Scope::Subgroup,
                },
                CoopMatrixPropertiesKhr {
                    m_size: 8,
                    n_size: 8,
                    k_size: 32,
                    a_type: ScalarType::Int {
                        width: 8,
                        signedness: Signedness::Unsigned,
                    },
                    b_type: ScalarType::Int {
                        width: 8,
                        signedness: Signedness::Signed,
                    },
                    c_type: i32t,
                    result_type: i32t,
                    acc_sat: true,
                    scope: Scope::Workgroup,
                },
            ],
            cooperative_matrix_properties_nv: vec![CoopMatrixPropertiesNv {
                m_size: 8,
                n_size: 8,
                k_size: 32,
                a_type: i8t,
                b_type: i8t,
                c_type: i32t,
                result_type: i32t,
                scope: Scope::Subgroup,
            }],
            max_compute_workgroup_count: [2147483647, 65535, 65535],
            max_push_constants_size: 256,
            max_storage_buffer_range: 4294967295,
            max_uniform_buffer_range: 65536,
            max_per_stage_descriptor_storage_buffers: 1048576,
            max_per_stage_descriptor_uniform_buffers: 15,
            max_bound_descriptor_sets: 32,
            min_storage_buffer_offset_alignment: 16,
            timestamp_period: 1.5,
            signed_zero_inf_nan_preserve_widths: vec![32, 64],
            denorm_preserve_widths: vec![16, 32],
        },
    }
}

/// `env` with kiln's extra limits reset (what the MLIR form carries).
fn without_extras(env: &TargetEnv) -> TargetEnv {
    let d = ResourceLimits::default();
    let mut e = env.clone();
    e.limits.max_compute_workgroup_count = d.max_compute_workgroup_count;
    e.limits.max_push_constants_size = d.max_push_constants_size;
    e.limits.max_storage_buffer_range = d.max_storage_buffer_range;
    e.limits.max_uniform_buffer_range = d.max_uniform_buffer_range;
    e.limits.max_per_stage_descriptor_storage_buffers = d.max_per_stage_descriptor_storage_buffers;
    e.limits.max_per_stage_descriptor_uniform_buffers = d.max_per_stage_descriptor_uniform_buffers;
    e.limits.max_bound_descriptor_sets = d.max_bound_descriptor_sets;
    e.limits.min_storage_buffer_offset_alignment = d.min_storage_buffer_offset_alignment;
    e.limits.timestamp_period = d.timestamp_period;
    e.limits.signed_zero_inf_nan_preserve_widths = d.signed_zero_inf_nan_preserve_widths;
    e.limits.denorm_preserve_widths = d.denorm_preserve_widths;
    e
}

/// A few target envs exercising the optional parts of the syntax.
fn sample_envs() -> Vec<TargetEnv> {
    let mut out = vec![TargetEnv::default(), full_env()];
    let mut e = TargetEnv::new(vce(Version::V1_3, &[Capability::Shader], &[]));
    e.device = DeviceInfo {
        client_api: ClientApi::Unknown,
        vendor: Vendor::Arm,
        device_type: DeviceType::IntegratedGpu,
        device_id: None,
    };
    out.push(e);
    let mut e = TargetEnv::new(vce(Version::V1_6, &[Capability::Kernel], &[]));
    e.device = DeviceInfo {
        client_api: ClientApi::OpenCL,
        vendor: Vendor::Intel,
        device_type: DeviceType::Unknown,
        device_id: None,
    };
    e.limits.subgroup_size = 16;
    out.push(e);
    let mut e = TargetEnv::new(vce(
        Version::V1_0,
        &[Capability::Shader, Capability::Float16],
        &[Extension::SpvKhr16bitStorage],
    ));
    e.device = DeviceInfo {
        client_api: ClientApi::WebGPU,
        vendor: Vendor::SwiftShader,
        device_type: DeviceType::Cpu,
        device_id: Some(0),
    };
    e.limits.max_compute_workgroup_size = [128, 128, 64];
    e.limits.max_compute_shared_memory_size = 32768;
    out.push(e);
    out
}

#[test]
fn seeds_example_parses_and_prints_back() {
    let seeds = "#spv.target_env<
    #spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>,
    ARM:IntegratedGPU,
    {
      max_compute_workgroup_invocations = 128 : i32,
      max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32>
    }>";
    let env = parse(seeds);
    assert_eq!(
        env.vce,
        vce(
            Version::V1_3,
            &[Capability::Shader, Capability::GroupNonUniform],
            &[Extension::SpvKhr8bitStorage]
        )
    );
    assert_eq!(env.device.vendor, Vendor::Arm);
    assert_eq!(env.device.device_type, DeviceType::IntegratedGpu);
    assert_eq!(env.device.client_api, ClientApi::Unknown);
    assert_eq!(env.limits, ResourceLimits::default());
    assert_eq!(
        env.print(Prefix::Spv),
        "#spv.target_env<#spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>, \
         ARM:IntegratedGPU, {max_compute_workgroup_invocations = 128 : i32, \
         max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32>}>"
    );
    assert_eq!(
        env.print(Prefix::Spirv),
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>, \
         ARM:IntegratedGPU, #spirv.resource_limits<>>"
    );
}

#[test]
fn dictionary_form_is_lossless() {
    for env in sample_envs() {
        for prefix in [Prefix::Spv, Prefix::Spirv] {
            let text = env.print_with(prefix, TargetEnvSyntax::Dictionary);
            assert_eq!(parse(&text), env, "{text}");
            assert_eq!(
                parse(&text).print_with(prefix, TargetEnvSyntax::Dictionary),
                text
            );
        }
    }
    let text = full_env().print(Prefix::Spv);
    assert_eq!(
        text,
        "#spv.target_env<#spv.vce<v1.5, [Shader, GroupNonUniformArithmetic, Int64, \
         StorageUniform16], [SPV_KHR_8bit_storage, SPV_KHR_storage_buffer_storage_class]>, \
         api=Vulkan, NVIDIA:DiscreteGPU:8708, {cooperative_matrix_properties_khr = \
         [#spv.coop_matrix_props_khr<m_size = 16, n_size = 16, k_size = 16, a_type = f16, \
         b_type = f16, c_type = f16, result_type = f16, acc_sat = false, scope = <Subgroup>>, \
         #spv.coop_matrix_props_khr<m_size = 8, n_size = 8, k_size = 32, a_type = ui8, \
         b_type = si8, c_type = i32, result_type = i32, acc_sat = true, scope = <Workgroup>>], \
         cooperative_matrix_properties_nv = [#spv.coop_matrix_props_nv<m_size = 8, n_size = 8, \
         k_size = 32, a_type = i8, b_type = i8, c_type = i32, result_type = i32, \
         scope = <Subgroup>>], denorm_preserve_widths = array<i32: 16, 32>, \
         max_bound_descriptor_sets = 32 : i32, \
         max_compute_shared_memory_size = 49152 : i32, max_compute_workgroup_count = \
         dense<[2147483647, 65535, 65535]> : vector<3xi32>, max_compute_workgroup_invocations \
         = 1024 : i32, max_compute_workgroup_size = dense<[1024, 1024, 64]> : vector<3xi32>, \
         max_per_stage_descriptor_storage_buffers = 1048576 : i32, \
         max_per_stage_descriptor_uniform_buffers = 15 : i32, max_push_constants_size = 256 : \
         i32, max_storage_buffer_range = 4294967295 : i64, max_subgroup_size = 32 : i32, \
         max_uniform_buffer_range = 65536 : i32, min_storage_buffer_offset_alignment = 16 : i64, \
         min_subgroup_size = 32 : i32, signed_zero_inf_nan_preserve_widths = \
         array<i32: 32, 64>, timestamp_period = 1.500000e+00 : f32}>"
    );
}

/// `signed_zero_inf_nan_preserve_widths` lists float widths in any array
/// spelling, sorted; the mode is allowed for a width only with the
/// capability and SPIR-V 1.4 or `SPV_KHR_float_controls`.
#[test]
fn signed_zero_inf_nan_preserve_widths() {
    let env = |caps: &str, exts: &str, widths: &str| {
        parse(&format!(
            "#spv.target_env<#spv.vce<v1.3, [Shader, {caps}], [{exts}]>, \
             {{signed_zero_inf_nan_preserve_widths = {widths}}}>"
        ))
    };
    let e = env(
        "Float16, SignedZeroInfNanPreserve",
        "SPV_KHR_float_controls",
        "[64, 16]",
    );
    assert_eq!(e.limits.signed_zero_inf_nan_preserve_widths, vec![16, 64]);
    assert!(e.preserves_signed_zero_inf_nan(16));
    assert!(!e.preserves_signed_zero_inf_nan(32));
    assert!(e.preserves_signed_zero_inf_nan(64));
    // f32 is computed in and not preserved; f64 is not computed in (no
    // Float64), so it is not listed.
    assert_eq!(e.unpreserved_float_widths(), vec![32]);
    assert!(e
        .print(Prefix::Spv)
        .contains("signed_zero_inf_nan_preserve_widths = array<i32: 16, 64>"));
    // Without the extension at SPIR-V 1.3, or without the capability: no mode.
    let e = env("SignedZeroInfNanPreserve", "", "array<i32: 32>");
    assert!(!e.preserves_signed_zero_inf_nan(32));
    let e = env(
        "Int8",
        "SPV_KHR_float_controls",
        "dense<[32]> : vector<1xi32>",
    );
    assert_eq!(e.limits.signed_zero_inf_nan_preserve_widths, vec![32]);
    assert!(!e.preserves_signed_zero_inf_nan(32));
    assert_eq!(e.unpreserved_float_widths(), vec![32]);
    let e = env("Int8", "", "array<i32>");
    assert_eq!(e, env("Int8", "", "[]"));
    assert_eq!(e.limits, ResourceLimits::default());
    for (bad, at) in [
        ("[32, 8]", "8"),
        ("[32, 32]", "32"),
        ("dense<32> : vector<1xi32>", ""),
    ] {
        let text = format!(
            "#spv.target_env<#spv.vce<v1.0, [], []>, {{signed_zero_inf_nan_preserve_widths = {bad}}}>"
        );
        let err = text.parse::<TargetEnv>().unwrap_err().to_string();
        assert!(
            err.contains("resource limit 'signed_zero_inf_nan_preserve_widths'")
                && err.contains(at),
            "{bad}: {err}"
        );
    }
}

/// kiln's MLIR-form print is exactly what `mlir-opt-19` prints for it, and
/// parses back to the same env (without kiln's extras).
#[test]
fn mlir_form_is_a_fixpoint_of_mlir_opt() {
    for env in sample_envs() {
        let text = env.print(Prefix::Spirv);
        let mlir = through_mlir(&text);
        assert_eq!(
            mlir, text,
            "mlir-opt-19 prints kiln's target env differently"
        );
        assert_eq!(parse(&mlir), without_extras(&env), "{mlir}");
    }
}

/// What `mlir-opt-19` prints from hand-written MLIR input parses in kiln and
/// prints back to the same text.
#[test]
fn mlir_opt_output_round_trips() {
    let inputs = [
        // Defaults spelled out are elided by MLIR; an i64 array is kept.
        "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<\
         max_compute_shared_memory_size = 16384, max_compute_workgroup_invocations = 128, \
         subgroup_size = 32>>",
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>, \
         api=Vulkan, NVIDIA:DiscreteGPU:1234, #spirv.resource_limits<\
         max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64]>>",
        // Hex device id; the unknown id 0x7FFFFFFF is not printed.
        "#spirv.target_env<#spirv.vce<v1.5, [Shader, StorageUniform16], []>, api=Vulkan, \
         AMD:IntegratedGPU:0x7FFFFFFF, #spirv.resource_limits<subgroup_size = 64>>",
        "#spirv.target_env<#spirv.vce<v1.6, [Shader, Int8], []>, Qualcomm:Other:0x1c, \
         #spirv.resource_limits<min_subgroup_size = 16, max_subgroup_size = 128, \
         subgroup_size = 64, max_compute_workgroup_size = [512 : i32, 512 : i32, 64 : i32]>>",
        // An unknown vendor hides the device type and id.
        "#spirv.target_env<#spirv.vce<v1.4, [Kernel, Addresses], []>, api=OpenCL, \
         Unknown:CPU:3, #spirv.resource_limits<>>",
        "#spirv.target_env<#spirv.vce<v1.6, [Shader, CooperativeMatrixKHR], \
         [SPV_KHR_cooperative_matrix]>, api=Vulkan, AMD:DiscreteGPU, #spirv.resource_limits<\
         cooperative_matrix_properties_khr = [#spirv.coop_matrix_props_khr<m_size = 16, \
         n_size = 16, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32, \
         acc_sat = false, scope = <Subgroup>>]>>",
    ];
    for input in inputs {
        let mlir = through_mlir(input);
        let env = parse(&mlir);
        // What MLIR does not print (the device type and id of an unknown
        // vendor) kiln does not print either.
        assert_eq!(
            parse(input).print(Prefix::Spirv),
            env.print(Prefix::Spirv),
            "kiln reads MLIR's input and output the same way"
        );
        let kiln = env.print(Prefix::Spirv);
        // Both prints are fixpoints of mlir-opt-19 and mean the same env.
        assert_eq!(through_mlir(&kiln), kiln);
        assert_eq!(parse(&through_mlir(&mlir)), env);
    }
    // The `spv.` spelling of the MLIR form parses too.
    let spv = "#spv.target_env<#spv.vce<v1.0, [Shader], []>, api=Vulkan, #spv.resource_limits<>>";
    assert_eq!(parse(spv), TargetEnv::default());
    assert_eq!(
        TargetEnv::default().print(Prefix::Spirv),
        "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, api=Vulkan, #spirv.resource_limits<>>"
    );
}

#[test]
fn module_attribute_round_trips_through_mlir_opt() {
    let src = "module {\n  spirv.module Logical GLSL450 {\n  }\n}\n";
    let mut m = text::parse(src).expect("module parses");
    assert_eq!(TargetEnv::lookup(&m), Ok(None));
    assert_eq!(TargetEnv::from_module(&m), Ok(TargetEnv::default()));
    let env = full_env();
    env.attach(&mut m);
    assert_eq!(TargetEnv::from_module(&m), Ok(env.clone()));
    let printed = text::print(&m, &PrintOptions::default());
    assert!(
        printed.contains("kiln.resource_limits = {"),
        "extras travel in their own attribute:\n{printed}"
    );
    // MLIR 19 accepts the module, keeps both attributes, and kiln reads
    // everything back.
    let mlir = mlir_opt(&printed);
    let back = text::parse(&mlir).unwrap_or_else(|e| panic!("{e}\n{mlir}"));
    assert_eq!(TargetEnv::from_module(&back), Ok(env.clone()));
    // Also through the `spv.` spelling of the module.
    let spv = text::print(
        &m,
        &PrintOptions {
            prefix: Prefix::Spv,
        },
    );
    let back = text::parse(&spv).unwrap_or_else(|e| panic!("{e}\n{spv}"));
    assert_eq!(TargetEnv::from_module(&back), Ok(env));
    // Attaching an env without extras removes the stale extras attribute.
    let plain = TargetEnv::default();
    plain.attach(&mut m);
    assert_eq!(TargetEnv::from_module(&m), Ok(plain));
    let printed = text::print(&m, &PrintOptions::default());
    assert!(!printed.contains("kiln.resource_limits"), "{printed}");
}

#[test]
fn target_env_on_the_spirv_module_takes_precedence() {
    let src = r#"module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
  spirv.module Logical GLSL450 attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], []>, api=Vulkan, #spirv.resource_limits<subgroup_size = 64>>} {
  }
}
"#;
    let m = text::parse(src).expect("module parses");
    let env = TargetEnv::from_module(&m).expect("target env reads");
    assert_eq!(env.vce.version, Version::V1_3);
    assert_eq!(env.limits.subgroup_size, 64);
}

#[test]
fn seeds_module_with_dictionary_limits_reads() {
    let src = r#"module attributes {
  spv.target_env = #spv.target_env<
    #spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_8bit_storage]>,
    ARM:IntegratedGPU,
    {
      max_compute_workgroup_invocations = 128 : i32,
      max_compute_workgroup_size = dense<[128, 128, 64]> : vector<3xi32>,
      max_push_constants_size = 256 : i32
    }>
} {
  spv.module Logical GLSL450 {
  }
}
"#;
    let m = text::parse(src).expect("module parses");
    let env = TargetEnv::from_module(&m).expect("target env reads");
    assert_eq!(env.device.vendor, Vendor::Arm);
    assert_eq!(env.limits.max_push_constants_size, 256);
    assert_eq!(env.vce.extensions, [Extension::SpvKhr8bitStorage]);
}

#[test]
fn bad_module_attributes_are_errors() {
    let src = r#"module attributes {spirv.target_env = 42 : i32} {
  spirv.module Logical GLSL450 {
  }
}
"#;
    let m = text::parse(src).expect("module parses");
    assert_eq!(
        TargetEnv::from_module(&m).unwrap_err().to_string(),
        "module attribute 'spirv.target_env' is not a #spirv.target_env attribute"
    );
    let src = r#"module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<bogus = 1>>} {
  spirv.module Logical GLSL450 {
  }
}
"#;
    let m = text::parse(src).expect("module parses");
    assert_eq!(
        TargetEnv::from_module(&m).unwrap_err().to_string(),
        "module attribute 'spirv.target_env': target env, offset 55: resource limit 'bogus': \
         not a resource limit kiln knows"
    );
    let src = r#"module attributes {kiln.resource_limits = {max_push_constants_size = -1}, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>} {
  spirv.module Logical GLSL450 {
  }
}
"#;
    let m = text::parse(src).expect("module parses");
    let err = TargetEnv::from_module(&m).unwrap_err().to_string();
    assert!(
        err.starts_with("module attribute 'kiln.resource_limits': ")
            && err.ends_with(
                "resource limit 'max_push_constants_size': -1 is not between 0 and 4294967295"
            ),
        "{err}"
    );
}

#[test]
fn syntax_errors_name_the_problem() {
    let cases: [(&str, &str); 10] = [
        (
            "#spirv.target_env<#spirv.vce<v1.0, [Shadr], []>, #spirv.resource_limits<>>",
            "target env, offset 36: unknown capability 'Shadr'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], [SPV_KHR_nope]>, #spirv.resource_limits<>>",
            "target env, offset 40: unknown extension 'SPV_KHR_nope'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.9, [], []>, #spirv.resource_limits<>>",
            "target env, offset 29: unknown SPIR-V version 'v1.9'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, Mesa:CPU, #spirv.resource_limits<>>",
            "target env, offset 44: unknown vendor 'Mesa'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, api=Glide, #spirv.resource_limits<>>",
            "target env, offset 48: unknown client API 'Glide'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, AMD:GPU, #spirv.resource_limits<>>",
            "target env, offset 48: unknown device type 'GPU'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, #spirv.resource_limits<subgroup_size = 1, \
             subgroup_size = 2>>",
            "target env, offset 86: resource limit 'subgroup_size': given twice",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, {max_compute_workgroup_size = [1, 2]}>",
            "target env, offset 74: resource limit 'max_compute_workgroup_size': expected 3 \
             values, found 2",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>, #spirv.resource_limits<>> trailing",
            "target env, offset 70: expected end of input after the target env, found 'trailing'",
        ),
        (
            "#spirv.target_env<#spirv.vce<v1.0, [], []>",
            "target env, offset 42: expected ',' after the VCE triple, found end of input",
        ),
    ];
    for (input, message) in cases {
        let err = input.parse::<TargetEnv>().unwrap_err();
        assert_eq!(err.to_string(), message, "for {input}");
    }
    // Splats are replicated, but only to three values.
    let splat = parse(
        "#spv.target_env<#spv.vce<v1.0, [], []>, {max_compute_workgroup_count = dense<7> : \
         vector<3xi32>, max_compute_workgroup_size = array<i32: 1, 2, 3>}>",
    );
    assert_eq!(splat.limits.max_compute_workgroup_count, [7, 7, 7]);
    assert_eq!(splat.limits.max_compute_workgroup_size, [1, 2, 3]);
    let huge = "#spv.target_env<#spv.vce<v1.0, [], []>, {max_compute_workgroup_count = \
                dense<7> : vector<99999999999999xi32>}>";
    assert!(huge.parse::<TargetEnv>().is_err());
    // Nothing panics on mangled input: every byte replaced by a few others.
    let full = full_env().print(Prefix::Spirv);
    for (i, _) in full.char_indices() {
        for replacement in [
            "", "<", ">", "[", "]", "{", ",", "=", ":", "#", "-", "0x", "é", " ",
        ] {
            let mangled = format!("{}{replacement}{}", &full[..i], &full[i + 1..]);
            let _ = mangled.parse::<TargetEnv>();
        }
    }
    // Nothing panics on truncated input.
    let full = full_env().print(Prefix::Spv);
    for end in 0..full.len() {
        if full.is_char_boundary(end) {
            assert!(full[..end].parse::<TargetEnv>().is_err());
        }
    }
}

#[test]
fn default_env_is_conservative() {
    let env = TargetEnv::default();
    assert_eq!(env.vce, vce(Version::V1_0, &[Capability::Shader], &[]));
    assert_eq!(env.device.client_api, ClientApi::Vulkan);
    assert_eq!(env.limits.max_compute_shared_memory_size, 16384);
    assert_eq!(env.limits.max_compute_workgroup_invocations, 128);
    assert_eq!(env.limits.max_compute_workgroup_size, [128, 128, 64]);
    assert_eq!(env.limits.subgroup_size, 32);
    assert!(env.limits.extras_are_default());
    assert_eq!(Vendor::from_pci_vendor_id(0x10DE), Vendor::Nvidia);
    assert_eq!(Vendor::from_pci_vendor_id(0x10005), Vendor::Unknown);
    assert!(env.capability_closure().contains(&Capability::Matrix));
    assert_eq!(
        env.summary(),
        "SPIR-V v1.0 with capabilities [Shader] and extensions []"
    );
}
