//! The pass pipeline (`kiln_core::passes::pipeline`): when `update-vce`
//! moves the version across SPIR-V 1.4, the entry point's interface list
//! follows (from 1.4 on it names every global the entry point uses, before
//! that only `Input`/`Output` ones: SPIR-V spec, `OpEntryPoint`), and the
//! result is the module that lowering the ABI again for the final version
//! would give (the pipeline replaced such a second lowering).

use crate::common;

use kiln_core::grammar::Version;
use kiln_core::ir::{AttrKind, Module};
use kiln_core::passes::{pipeline, PipelineOptions};
use kiln_core::target::TargetEnv;
use kiln_core::text::{self, PrintOptions};

/// An entry function reading its storage buffer through
/// `spirv.CopyLogical`, which exists from SPIR-V 1.4 on and has no
/// extension: `update-vce` must raise the version to 1.4. `VCE` is the
/// declared version.
fn copy_logical(vce: &str) -> String {
    format!(
        r#"spirv.module Logical GLSL450 requires #spirv.vce<{vce}, [Shader], [SPV_KHR_storage_buffer_storage_class]> {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @k(
    %a: !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer> {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}}) "None"
  attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>}} {{
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %id = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %id[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %p = spirv.AccessChain %a[%c0] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer>, i32
    %v = spirv.Load "StorageBuffer" %p : !spirv.array<4 x f32, stride=4>
    %w = "spirv.CopyLogical"(%v) : (!spirv.array<4 x f32, stride=4>) -> !spirv.array<4 x f32>
    %x = spirv.CompositeExtract %w[0 : i32] : !spirv.array<4 x f32>
    %q = spirv.AccessChain %a[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %q, %x : f32
    spirv.Return
  }}
}}"#
    )
}

fn run(src: &str, env: &TargetEnv) -> Module {
    let mut m = text::parse(src).expect("test module parses");
    pipeline::run(&mut m, env, &PipelineOptions::default()).expect("pipeline succeeds");
    m
}

fn version(m: &Module) -> Version {
    match m.attr_kind(m.top(), "vce_triple") {
        Some(AttrKind::Vce(v)) => v.version,
        other => panic!("no vce_triple: {other:?}"),
    }
}

/// The entry point's interface, as a sorted list (its order is free).
fn interface(printed: &str) -> Vec<&str> {
    let line = printed
        .lines()
        .find_map(|l| l.trim().strip_prefix(r#"spirv.EntryPoint "GLCompute" @k"#))
        .expect("an entry point for @k");
    let mut names: Vec<&str> = line.split(", ").skip(1).collect();
    names.sort_unstable();
    names
}

#[test]
fn interface_follows_the_version_update_vce_chooses() {
    let env: TargetEnv =
        "#spirv.target_env<#spirv.vce<v1.4, [Shader], []>, #spirv.resource_limits<>>"
            .parse()
            .expect("env parses");
    // Declared 1.0: lower-abi-attrs lists only the Input builtin, then
    // update-vce raises the version to 1.4 for CopyLogical.
    let raised = run(&copy_logical("v1.0"), &env);
    assert_eq!(version(&raised), Version::V1_4);
    let printed = text::print(&raised, &PrintOptions::default());
    assert_eq!(interface(&printed), ["@gid", "@k_arg_0"], "{printed}");
    // The module a second lowering for 1.4 gives (the ABI lowered with the
    // final version declared from the start).
    let relowered = run(&copy_logical("v1.4"), &env);
    assert_eq!(
        printed,
        text::print(&relowered, &PrintOptions::default()),
        "the pipeline differs from lowering again for the final version"
    );
    let words = kiln_core::binary::serialize(&raised).expect("serializes");
    let val = kiln_core::validate::ValidationEnv::for_vulkan_module(Version::V1_4);
    kiln_core::validate::validate(&words, val).expect("valid for Vulkan with SPIR-V 1.4");
    common::spirv_val(&words, val.name()).expect("spirv-val accepts it");
}

#[test]
fn interface_shrinks_when_update_vce_lowers_the_version() {
    // Declared 1.4, but everything but CopyLogical is 1.0: without it the
    // module ends at 1.0 and the storage buffer leaves the list.
    let src = copy_logical("v1.4").replace(
        "    %w = \"spirv.CopyLogical\"(%v) : (!spirv.array<4 x f32, stride=4>) -> !spirv.array<4 x f32>\n    %x = spirv.CompositeExtract %w[0 : i32] : !spirv.array<4 x f32>\n",
        "    %x = spirv.CompositeExtract %v[0 : i32] : !spirv.array<4 x f32, stride=4>\n",
    );
    let env: TargetEnv =
        "#spirv.target_env<#spirv.vce<v1.4, [Shader], []>, #spirv.resource_limits<>>"
            .parse()
            .expect("env parses");
    let lowered = run(&src, &env);
    assert_eq!(version(&lowered), Version::V1_0);
    let printed = text::print(&lowered, &PrintOptions::default());
    assert_eq!(interface(&printed), ["@gid"], "{printed}");
    let words = kiln_core::binary::serialize(&lowered).expect("serializes");
    let val = kiln_core::validate::ValidationEnv::for_vulkan_module(Version::V1_0);
    common::spirv_val(&words, val.name()).expect("spirv-val accepts it");
}
