//! `update-vce`: minimal triples, failures, and agreement with
//! `mlir-opt-19 --spirv-update-vce` where MLIR can express the module and
//! env (the comparison fails, not skips, when the tool is missing).

use crate::common;

use kiln_core::grammar::{Capability, Extension, Version};
use kiln_core::ir::{AttrKind, Module, Vce};
use kiln_core::passes::{deduce_vce, update_vce, UpdateVceError};
use kiln_core::target::{parse_vce, TargetEnv};
use kiln_core::text;

/// Adds two 64-bit integers.
const ADD_I64: &str = r#"spirv.module Logical GLSL450 {
  spirv.func @add(%a: i64, %b: i64) -> i64 "None" {
    %0 = spirv.IAdd %a, %b : i64
    spirv.ReturnValue %0 : i64
  }
}"#;

/// A compute kernel reading and writing bytes of a storage buffer.
const BYTES: &str = r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %p = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %x = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %q = spirv.AccessChain %p[%c0, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %e = spirv.Load "StorageBuffer" %q : i8
    %s = spirv.IAdd %e, %e : i8
    spirv.Store "StorageBuffer" %q, %s : i8
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}"#;

/// A subgroup reduction.
const REDUCE: &str = r#"spirv.module Logical GLSL450 {
  spirv.func @reduce(%a: f32) -> f32 "None" {
    %0 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %a : f32
    spirv.ReturnValue %0 : f32
  }
}"#;

/// A barrier at queue-family scope.
const QUEUE_BARRIER: &str = r#"spirv.module Logical GLSL450 {
  spirv.func @sync() "None" {
    spirv.ControlBarrier <QueueFamily>, <Subgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
}"#;

/// Half floats in a storage buffer.
const HALVES: &str = r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %p = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %q = spirv.AccessChain %p[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %e = spirv.Load "StorageBuffer" %q : f16
    %s = spirv.FMul %e, %e : f16
    spirv.Store "StorageBuffer" %q, %s : f16
    spirv.Return
  }
}"#;

/// A storage buffer and a subgroup op.
const BUFFER_AND_SUBGROUP: &str = r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %p = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %q = spirv.AccessChain %p[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %e = spirv.Load "StorageBuffer" %q : f32
    %s = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %e : f32
    spirv.Store "StorageBuffer" %q, %s : f32
    spirv.Return
  }
}"#;

const EMPTY: &str = "spirv.module Logical GLSL450 {\n}";

fn env(text: &str) -> TargetEnv {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn parse(src: &str) -> Module {
    text::parse(src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// kiln's triple for `src` under `env`.
fn kiln_vce(src: &str, env: &TargetEnv) -> Result<Vce, UpdateVceError> {
    let mut m = parse(src);
    update_vce(&mut m, env)?;
    match m.attr_kind(m.top(), "vce_triple") {
        Some(AttrKind::Vce(vce)) => Ok(vce.clone()),
        other => panic!("no VCE triple after update-vce: {other:?}"),
    }
}

/// MLIR's triple for `src` under `env`; `Err` with MLIR's diagnostic when it
/// fails. Panics when `mlir-opt-19` is missing.
fn mlir_vce(src: &str, env: &TargetEnv) -> Result<Vce, String> {
    let input = format!(
        "module attributes {{spirv.target_env = {}}} {{\n{src}\n}}\n",
        env.print(text::Prefix::Spirv)
    );
    let out = common::run_tool("mlir-opt-19", &["--spirv-update-vce"], &input);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let printed = String::from_utf8(out.stdout).unwrap();
    let start = printed
        .find("requires ")
        .unwrap_or_else(|| panic!("no requires clause:\n{printed}"))
        + "requires ".len();
    let end = start + printed[start..].find("> {").expect("end of the triple") + 1;
    Ok(parse_vce(&printed[start..end]).unwrap_or_else(|e| panic!("{e}: {printed}")))
}

fn vce(version: Version, caps: &[Capability], exts: &[Extension]) -> Vce {
    Vce {
        version,
        capabilities: caps.to_vec(),
        extensions: exts.to_vec(),
    }
}

/// kiln and MLIR agree, and the triple is `expected`.
fn agree(src: &str, env_text: &str, expected: Vce) {
    let env = env(env_text);
    let kiln = kiln_vce(src, &env).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(kiln, expected, "kiln under {env_text}");
    let mlir = mlir_vce(src, &env).unwrap_or_else(|e| panic!("mlir-opt-19 failed: {e}"));
    assert_eq!(mlir, expected, "mlir-opt-19 under {env_text}");
}

#[test]
fn int64_add_needs_int64() {
    let env = TargetEnv::default();
    let err = kiln_vce(ADD_I64, &env).unwrap_err();
    assert_eq!(
        err.to_string(),
        "3:10: 'spirv.IAdd': type i64 requires capability Int64; the target env offers SPIR-V \
         v1.0 with capabilities [Shader] and extensions []"
    );
    match &err {
        UpdateVceError::Unsatisfied {
            op, requirement, ..
        } => {
            assert_eq!(op, "spirv.IAdd");
            assert!(requirement.to_string().contains("Int64"));
        }
        other => panic!("{other:?}"),
    }
    // MLIR fails too.
    assert!(mlir_vce(ADD_I64, &env).is_err());
    // On error the module is left as it was.
    let mut m = parse(ADD_I64);
    assert!(update_vce(&mut m, &env).is_err());
    assert!(m.attr(m.top(), "vce_triple").is_none());

    agree(
        ADD_I64,
        "#spirv.target_env<#spirv.vce<v1.0, [Shader, Int64], []>, #spirv.resource_limits<>>",
        vce(Version::V1_0, &[Capability::Int64, Capability::Shader], &[]),
    );
}

#[test]
fn minimal_triples_agree_with_mlir() {
    agree(
        EMPTY,
        "#spirv.target_env<#spirv.vce<v1.6, [Shader, Int64, Float16], \
         [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>",
        vce(Version::V1_0, &[Capability::Shader], &[]),
    );
    agree(
        BYTES,
        "#spirv.target_env<#spirv.vce<v1.5, [Shader, Int8, StorageBuffer8BitAccess], \
         [SPV_KHR_8bit_storage, SPV_KHR_storage_buffer_storage_class]>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_0,
            &[
                Capability::Shader,
                Capability::StorageBuffer8BitAccess,
                Capability::Int8,
            ],
            &[
                Extension::SpvKhr8bitStorage,
                Extension::SpvKhrStorageBufferStorageClass,
            ],
        ),
    );
    agree(
        REDUCE,
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], []>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_3,
            &[Capability::GroupNonUniformArithmetic, Capability::Shader],
            &[],
        ),
    );
    agree(
        QUEUE_BARRIER,
        "#spirv.target_env<#spirv.vce<v1.5, [Shader, VulkanMemoryModel], []>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_5,
            &[Capability::VulkanMemoryModel, Capability::Shader],
            &[],
        ),
    );
    agree(
        HALVES,
        "#spirv.target_env<#spirv.vce<v1.0, [Shader, Float16, StorageBuffer16BitAccess], \
         [SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_0,
            &[
                Capability::Shader,
                Capability::StorageBuffer16BitAccess,
                Capability::Float16,
            ],
            &[
                Extension::SpvKhr16bitStorage,
                Extension::SpvKhrStorageBufferStorageClass,
            ],
        ),
    );
}

/// Extensions folded into the target's version are allowed (MLIR's implied
/// extensions): the module stays at a low version and declares them.
#[test]
fn folded_extensions_are_allowed() {
    agree(
        BYTES,
        "#spirv.target_env<#spirv.vce<v1.5, [Shader, Int8, StorageBuffer8BitAccess], []>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_0,
            &[
                Capability::Shader,
                Capability::StorageBuffer8BitAccess,
                Capability::Int8,
            ],
            &[
                Extension::SpvKhr8bitStorage,
                Extension::SpvKhrStorageBufferStorageClass,
            ],
        ),
    );
    agree(
        HALVES,
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, Float16, StorageBuffer16BitAccess], []>, \
         #spirv.resource_limits<>>",
        vce(
            Version::V1_0,
            &[
                Capability::Shader,
                Capability::StorageBuffer16BitAccess,
                Capability::Float16,
            ],
            &[
                Extension::SpvKhr16bitStorage,
                Extension::SpvKhrStorageBufferStorageClass,
            ],
        ),
    );
}

/// A builtin of core 1.3 that also lists an extension the target lacks:
/// kiln raises the version (MLIR does not look at builtins at all and
/// would leave the module at 1.0 without the capability it needs).
#[test]
fn versions_are_raised_when_no_extension_is_allowed() {
    let src = r#"spirv.module Logical GLSL450 {
  spirv.GlobalVariable @mask built_in("SubgroupEqMask") : !spirv.ptr<vector<4xi32>, Input>
}"#;
    let env13 = env_v(
        Version::V1_3,
        &[Capability::Shader, Capability::GroupNonUniformBallot],
    );
    assert_eq!(
        kiln_vce(src, &env13),
        Ok(vce(
            Version::V1_3,
            &[Capability::GroupNonUniformBallot, Capability::Shader],
            &[]
        ))
    );
    assert_eq!(
        mlir_vce(src, &env13),
        Ok(vce(Version::V1_0, &[Capability::Shader], &[]))
    );
    let env10 = env_v(
        Version::V1_0,
        &[Capability::Shader, Capability::GroupNonUniformBallot],
    );
    assert_eq!(
        kiln_vce(src, &env10).unwrap_err().to_string(),
        "2:3: 'spirv.GlobalVariable': BuiltIn SubgroupEqMask requires SPIR-V v1.3 or extension \
         SPV_KHR_shader_ballot; the target env offers SPIR-V v1.0 with capabilities [Shader, \
         GroupNonUniformBallot] and extensions []"
    );
}

/// An extension chosen for a feature the final version has in the core is
/// dropped (MLIR keeps it).
#[test]
fn extensions_the_final_version_folds_are_dropped() {
    let env = env(
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], \
         [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>",
    );
    let kiln = kiln_vce(BUFFER_AND_SUBGROUP, &env).unwrap();
    assert_eq!(
        kiln,
        vce(
            Version::V1_3,
            &[Capability::Shader, Capability::GroupNonUniformArithmetic],
            &[]
        )
    );
    let mlir = mlir_vce(BUFFER_AND_SUBGROUP, &env).unwrap();
    assert_eq!(
        mlir,
        Vce {
            extensions: vec![Extension::SpvKhrStorageBufferStorageClass],
            ..kiln
        }
    );
}

#[test]
fn failures_name_op_requirement_and_offer() {
    let env10 = env(
        "#spirv.target_env<#spirv.vce<v1.0, [Shader, GroupNonUniformArithmetic], []>, \
         #spirv.resource_limits<>>",
    );
    assert_eq!(
        kiln_vce(REDUCE, &env10).unwrap_err().to_string(),
        "3:10: 'spirv.GroupNonUniformFAdd': instruction OpGroupNonUniformFAdd requires SPIR-V \
         v1.3; the target env offers SPIR-V v1.0 with capabilities [Shader, \
         GroupNonUniformArithmetic] and extensions []"
    );
    assert!(mlir_vce(REDUCE, &env10).is_err());

    let env13 = env(
        "#spirv.target_env<#spirv.vce<v1.3, [Shader, Int8, StorageBuffer8BitAccess], \
         [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>",
    );
    assert_eq!(
        kiln_vce(BYTES, &env13).unwrap_err().to_string(),
        "3:3: 'spirv.GlobalVariable': type i8 in storage class StorageBuffer requires SPIR-V \
         v1.5 or extension SPV_KHR_8bit_storage; the target env offers SPIR-V v1.3 with \
         capabilities [Shader, Int8, StorageBuffer8BitAccess] and extensions \
         [SPV_KHR_storage_buffer_storage_class]"
    );

    let no_cap = env(
        "#spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_8bit_storage]>, \
         #spirv.resource_limits<>>",
    );
    assert_eq!(
        kiln_vce(BYTES, &no_cap).unwrap_err().to_string(),
        "3:3: 'spirv.GlobalVariable': type i8 in storage class StorageBuffer requires \
         capability StorageBuffer8BitAccess; the target env offers SPIR-V v1.3 with \
         capabilities [Shader] and extensions [SPV_KHR_8bit_storage]"
    );

    let sb = env("#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>");
    assert_eq!(
        kiln_vce(BUFFER_AND_SUBGROUP, &sb).unwrap_err().to_string(),
        "2:3: 'spirv.GlobalVariable': StorageClass StorageBuffer requires SPIR-V v1.3 or one \
         of the extensions [SPV_KHR_storage_buffer_storage_class, SPV_KHR_variable_pointers]; \
         the target env offers SPIR-V v1.0 with capabilities [Shader] and extensions []"
    );
}

/// A capability the target lists but cannot declare is named as such.
#[test]
fn undeclarable_capabilities_are_explained() {
    let src = r#"spirv.module Logical GLSL450 {
  spirv.func @f(%a: i32) -> i32 "None" {
    %0 = spirv.SDot %a, %a, <PackedVectorFormat4x8Bit> : i32 -> i32
    spirv.ReturnValue %0 : i32
  }
}"#;
    let text16 = "#spirv.target_env<#spirv.vce<v1.6, [Shader, DotProduct, \
                  DotProductInput4x8BitPacked], []>, #spirv.resource_limits<>>";
    // SPV_KHR_integer_dot_product is folded into 1.6, so it is allowed and
    // keeps the module at 1.0, as in MLIR.
    agree(
        src,
        text16,
        vce(
            Version::V1_0,
            &[
                Capability::DotProduct,
                Capability::DotProductInput4x8BitPacked,
                Capability::Shader,
            ],
            &[Extension::SpvKhrIntegerDotProduct],
        ),
    );
    let env = env(text16);
    let env = TargetEnv::new(Vce {
        version: Version::V1_5,
        ..env.vce.clone()
    });
    let err = kiln_vce(src, &env).unwrap_err().to_string();
    assert!(
        err.contains(
            "instruction OpSDot requires SPIR-V v1.6 or extension SPV_KHR_integer_dot_product"
        ),
        "{err}"
    );
    let with_ext = TargetEnv::new(Vce {
        extensions: vec![Extension::SpvKhrIntegerDotProduct],
        ..env.vce.clone()
    });
    assert_eq!(
        kiln_vce(src, &with_ext),
        Ok(vce(
            Version::V1_0,
            &[
                Capability::DotProduct,
                Capability::DotProductInput4x8BitPacked,
                Capability::Shader
            ],
            &[Extension::SpvKhrIntegerDotProduct]
        ))
    );
    // Listing the capability without a way to declare it.
    let src2 = r#"spirv.module Logical GLSL450 {
  spirv.func @f(%a: i64) -> i64 "None" {
    %0 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %a : i64
    spirv.ReturnValue %0 : i64
  }
}"#;
    let v12 = env_v(
        Version::V1_2,
        &[
            Capability::Shader,
            Capability::Int64,
            Capability::GroupNonUniformArithmetic,
        ],
    );
    let err = kiln_vce(src2, &v12).unwrap_err().to_string();
    assert!(
        err.contains("instruction OpGroupNonUniformIAdd requires SPIR-V v1.3"),
        "{err}"
    );
    let t = kiln_core::target::ConversionTarget::new(&v12);
    let unmet = t.missing_capability(&[Capability::GroupNonUniformArithmetic]);
    assert_eq!(
        unmet.to_string(),
        "requires capability GroupNonUniformArithmetic (the target env lists \
         GroupNonUniformArithmetic but cannot declare it: it requires SPIR-V v1.3)"
    );
}

fn env_v(version: Version, caps: &[Capability]) -> TargetEnv {
    TargetEnv::new(vce(version, caps, &[]))
}

/// A feature removed from the core after 1.3 cannot be combined with one
/// that needs 1.4.
#[test]
fn removed_features_conflict_with_newer_ones() {
    let src = r#"spirv.module Physical64 OpenCL {
  spirv.func @f(%p: !spirv.ptr<i32, Workgroup>, %v: i32, %s: !spirv.struct<(f32)>) "None" {
    %0 = spirv.AtomicCompareExchangeWeak <Workgroup> <AcquireRelease> <Acquire> %p, %v, %v : !spirv.ptr<i32, Workgroup>
    %1 = "spirv.CopyLogical"(%s) : (!spirv.struct<(f32)>) -> !spirv.struct<(f32)>
    spirv.Return
  }
}"#;
    let env = env_v(
        Version::V1_4,
        &[Capability::Kernel, Capability::Addresses, Capability::Int64],
    );
    let err = deduce_vce(&parse(src), &env).unwrap_err();
    assert_eq!(
        err.to_string(),
        "3:10: 'spirv.AtomicCompareExchangeWeak': instruction OpAtomicCompareExchangeWeak is \
         not available after SPIR-V v1.3, but the module needs SPIR-V v1.4 for instruction \
         OpCopyLogical of 'spirv.CopyLogical' at 4:10"
    );
    // Without the newer op the module stays at 1.0.
    let old = src.replace(
        "    %1 = \"spirv.CopyLogical\"(%s) : (!spirv.struct<(f32)>) -> !spirv.struct<(f32)>\n",
        "",
    );
    assert_eq!(
        deduce_vce(&parse(&old), &env),
        Ok(vce(
            Version::V1_0,
            &[Capability::Kernel, Capability::Addresses],
            &[]
        ))
    );
}

/// The pass reads its env from the module in the CLI; here: the module's
/// own `spirv.target_env` gives the same result as passing it.
#[test]
fn env_from_the_module() {
    let src = format!(
        "module attributes {{spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, \
         GroupNonUniformArithmetic], []>, #spirv.resource_limits<>>}} {{\n{REDUCE}\n}}\n"
    );
    let mut m = parse(&src);
    let env = TargetEnv::from_module(&m).unwrap();
    update_vce(&mut m, &env).unwrap();
    let printed = text::print(&m, &text::PrintOptions::default());
    assert!(
        printed.contains("requires #spirv.vce<v1.3, [GroupNonUniformArithmetic, Shader], []>"),
        "{printed}"
    );
}

/// Literal attributes (`spec_id(4)` parses as MLIR's default `i64`) are
/// instruction literals: they need no Int64. The spec constant's own value
/// type still counts.
#[test]
fn literal_attributes_need_nothing() {
    let src = r#"spirv.module Logical GLSL450 {
  spirv.SpecConstant @sc spec_id(4) = 7 : i32
  spirv.SpecConstant @wide spec_id(5) = 7 : i64
}"#;
    let only_i32 =
        "spirv.module Logical GLSL450 {\n  spirv.SpecConstant @sc spec_id(4) = 7 : i32\n}";
    agree(
        only_i32,
        "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>",
        vce(Version::V1_0, &[Capability::Shader], &[]),
    );
    let err = kiln_vce(src, &TargetEnv::default()).unwrap_err();
    assert!(err.to_string().contains("Int64"), "{err}");
}
