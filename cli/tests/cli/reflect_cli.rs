//! `kiln reflect`: the pipeline interface of a GLSL shader compiled by
//! glslangValidator (the oracle: every number below follows from the GLSL
//! declarations and the std140/std430 rules glslang applies), agreement
//! between the text and the binary path of one kiln module, limit checks
//! against a given or the module's own target env (exit 1, message naming
//! the limit and the value), and bad `--entry`.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

use common::kiln;

use crate::common;

const GLSL: &str = r#"#version 450
layout(local_size_x_id = 3, local_size_y = 2, local_size_z = 1) in;
layout(constant_id = 7) const int K = 5;
layout(set = 0, binding = 1, std430) readonly buffer In { vec2 head; float data[]; } inp;
layout(set = 2, binding = 0, std430) buffer Out { float o[16]; } outp;
layout(set = 0, binding = 3, std140) uniform U { vec3 a; float b; vec4 c[2]; } u;
layout(push_constant) uniform P { int n; float s; } pc;
shared float tile[64];
void main() {
  uint i = gl_GlobalInvocationID.x;
  tile[i % 64] = inp.data[i];
  barrier();
  outp.o[i % 16] = tile[(i + 1) % 64] * pc.s + u.b + u.c[1].x + float(K) + float(pc.n) + inp.head.x;
}
"#;

/// GLSL → SPIR-V with glslangValidator (installed by ci/setup.sh).
fn glsl_binary(dir: &std::path::Path) -> PathBuf {
    let src = dir.join("r.comp");
    let spv = dir.join("r.spv");
    std::fs::write(&src, GLSL).unwrap();
    let out = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.0", "-o"])
        .arg(&spv)
        .arg(&src)
        .output()
        .expect("glslangValidator (run ci/setup.sh)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    spv
}

#[test]
fn glslang_shader_interface() {
    let dir = common::scratch("reflect");
    let spv = glsl_binary(&dir);
    let (code, out, err) = kiln(&["reflect", spv.to_str().unwrap(), "--json"], b"");
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let ep = &doc["entry_points"][0];
    assert_eq!(doc["entry_points"].as_array().unwrap().len(), 1);
    assert_eq!(ep["name"], "main");
    // local_size_x_id = 3 (default 1), local_size_y = 2.
    assert_eq!(ep["workgroup_size"], json!([1, 2, 1]));
    assert_eq!(ep["workgroup_size_spec_ids"], json!([3, null, null]));
    let binding = |set: u64, b: u64| -> Value {
        ep["bindings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["set"] == set && x["binding"] == b)
            .cloned()
            .unwrap_or_else(|| panic!("no binding {set}:{b} in {out}"))
    };
    assert_eq!(ep["bindings"].as_array().unwrap().len(), 3);
    // std430: vec2 head at 0, float data[] at 8 with stride 4; readonly.
    let b = binding(0, 1);
    assert_eq!(b["descriptor_type"], "storage buffer");
    assert_eq!(b["access"], "read-only");
    assert_eq!(
        (b["min_size"].as_u64(), b["element_stride"].as_u64()),
        (Some(8), Some(4))
    );
    // std140: vec3 a at 0, float b at 12, vec4 c[2] at 16 (stride 16): 48.
    let u = binding(0, 3);
    assert_eq!(u["descriptor_type"], "uniform buffer");
    assert_eq!(u["access"], "read-only");
    assert_eq!(u["min_size"], 48);
    assert_eq!(u["element_stride"], Value::Null);
    // float o[16].
    let o = binding(2, 0);
    assert_eq!(
        (o["access"].as_str(), o["min_size"].as_u64()),
        (Some("read-write"), Some(64))
    );
    // int n, float s.
    assert_eq!(ep["push_constants"], json!({"offset": 0, "size": 8}));
    // shared float tile[64].
    assert_eq!(ep["workgroup_memory"], 256);
    let spec = ep["spec_constants"].as_array().unwrap();
    let ids: Vec<u64> = spec.iter().map(|c| c["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [3, 7]);
    assert_eq!(spec[1]["default"], "5");
    assert_eq!(spec[0]["default"], "1");
    // No target env given, a binary has none: nothing checked.
    assert!(doc.get("limit_violations").is_none());

    // The text form says the same.
    let (code, text, err) = kiln(&["reflect", spv.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("entry point \"main\""), "{text}");
    assert!(
        text.contains("workgroup size: [1, 2, 1] (x = spec 3)"),
        "{text}"
    );
    assert!(
        text.contains("binding 0:1 (storage buffer, read-only, at least 8 bytes + n * 4)"),
        "{text}"
    );
    assert!(
        text.contains("push constants: 8 bytes at offset 0"),
        "{text}"
    );
    assert!(text.contains("workgroup memory: 256 bytes"), "{text}");

    // Checked against a target env that allows only 128 bytes of shared
    // memory and one bound set: both violations named, exit 1.
    let env = "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, \
               #spirv.resource_limits<max_compute_shared_memory_size = 128>>";
    let (code, out, err) = kiln(
        &[
            "reflect",
            spv.to_str().unwrap(),
            "--json",
            "--target-env",
            env,
        ],
        b"",
    );
    assert_eq!(code, 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let expected = "the workgroup memory (bytes) of entry point \"main\" is 256, above the \
                    device limit maxComputeSharedMemorySize = 128";
    assert_eq!(doc["limit_violations"], json!([expected]));
    assert_eq!(err.trim(), format!("error: {}: {expected}", spv.display()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A kiln module with interface attributes, its own target env, and a
/// workgroup of 256 invocations.
const KERNEL: &str = r#"module attributes {
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64]>>
} {
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @scale(
    %in: !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>, spirv.decoration = #spirv.decoration<NonWritable>},
    %out: !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer> {spirv.interface_var_abi = #spirv.interface_var_abi<(1, 4)>},
    %k: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 9), PushConstant>}) "None"
  attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [256, 1, 1]>} {
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %pi = spirv.AccessChain %in[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32>)>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pi : f32
    %y = spirv.FMul %x, %k : f32
    %po = spirv.AccessChain %out[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %po, %y : f32
    spirv.Return
  }
}
}
"#;

#[test]
fn text_and_binary_agree() {
    let dir = common::scratch("reflect");
    let mlir = dir.join("k.mlir");
    std::fs::write(&mlir, KERNEL).unwrap();
    let (code, from_text, err) = kiln(&["reflect", mlir.to_str().unwrap(), "--json"], b"");
    assert_eq!(code, 0, "{err}");
    let (code, lowered, err) = kiln(
        &["opt", "--lower-abi-attrs", "--update-vce", "-"],
        KERNEL.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let spv = dir.join("k.spv");
    let (code, _, err) = kiln(
        &["translate", "--serialize", "-", "-o", spv.to_str().unwrap()],
        lowered.as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    let (code, from_binary, err) = kiln(&["reflect", spv.to_str().unwrap(), "--json"], b"");
    assert_eq!(code, 0, "{err}");
    let mut t: Value = serde_json::from_str(&from_text).unwrap();
    let b: Value = serde_json::from_str(&from_binary).unwrap();
    // The text input has its own target env and is checked against it;
    // the binary has none.
    assert_eq!(t["limit_violations"], json!([]));
    t.as_object_mut().unwrap().remove("limit_violations");
    assert_eq!(t, b);
    let ep = &b["entry_points"][0];
    assert_eq!(ep["name"], "scale");
    assert_eq!(ep["bindings"][0]["access"], "read-only");
    assert_eq!(ep["bindings"][1]["set"], 1);
    assert_eq!(ep["bindings"][1]["binding"], 4);
    assert_eq!(ep["push_constants"], json!({"offset": 0, "size": 4}));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn limits_from_the_module_or_the_command_line() {
    // The module's own env allows 1024 invocations: fine.
    let (code, _, err) = kiln(&["reflect", "-"], KERNEL.as_bytes());
    assert_eq!(code, 0, "{err}");
    // The Vulkan minimum of 128 does not.
    let env = "#spirv.target_env<#spirv.vce<v1.0, [Shader], []>, #spirv.resource_limits<>>";
    let (code, out, err) = kiln(&["reflect", "-", "--target-env", env], KERNEL.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("entry point \"scale\""),
        "the interface is still printed: {out}"
    );
    assert_eq!(
        err.trim(),
        "error: <stdin>: the workgroup size in x of entry point \"scale\" is 256, above the \
         device limit maxComputeWorkGroupSize = 128\n\
         error: <stdin>: the number of invocations per workgroup of entry point \"scale\" \
         (workgroup size [256, 1, 1]) is 256, above the device limit \
         maxComputeWorkGroupInvocations = 128"
    );
}

#[test]
fn unknown_entry_point() {
    let (code, out, err) = kiln(&["reflect", "-", "--entry", "nope"], KERNEL.as_bytes());
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert_eq!(
        err.trim(),
        "error: <stdin>: no GLCompute entry point named \"nope\"; the module's entry points \
         are: \"scale\" (GLCompute)"
    );
}
