//! `kiln devices`: lavapipe is listed at index 0 with its target env; the
//! `--json` form has every documented key and every limit; and a target env
//! saved with `--target-env-only` parses back to the very env kiln queries
//! from the device, so `kiln opt --update-vce --target-env @FILE` (offline)
//! gives the same module as update-vce under the device's env (next to the
//! device). Needs lavapipe (ci/setup.sh); fails, never skips, without it.

use std::process::Command;

use kiln_core::target::{TargetEnv, KILN_LIMIT_NAMES, MLIR_LIMIT_NAMES};
use kiln_core::text::{Prefix, PrintOptions};
use serde_json::Value;

use crate::common;

/// A module needing `GroupNonUniformArithmetic` and `Int64`: legal under
/// lavapipe's env, not under the default one.
const SUBGROUP_I64: &str = r#"spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Constant 0 : i32
    %1 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %2 = spirv.AccessChain %1[%0, %0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %3 = spirv.Load "StorageBuffer" %2 : f32
    %4 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %3 : f32
    %5 = spirv.Constant 1 : i64
    %6 = spirv.IAdd %5, %5 : i64
    spirv.Store "StorageBuffer" %2, %4 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 8, 1, 1
}
"#;

/// Runs kiln with `args` and `stdin`; returns (status, stdout, stderr).
fn kiln(args: &[&str], stdin: &str) -> (i32, String, String) {
    common::run(
        common::kiln_cmd().args(args).env_remove("KILN_DEVICE"),
        stdin.as_bytes(),
    )
}

/// Runs kiln, expecting success; returns stdout.
fn kiln_ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = kiln(args, stdin);
    assert_eq!(
        code,
        0,
        "kiln {} failed (lavapipe needed: run ci/setup.sh): {err}",
        args.join(" ")
    );
    out
}

/// The env kiln queries from device 0, in process (what a context on it
/// compiles for).
fn device_env() -> TargetEnv {
    kiln_vulkan::query_target_env(0).expect("device 0 (lavapipe: run ci/setup.sh)")
}

#[test]
fn lists_lavapipe_at_index_0_with_its_env() {
    let out = kiln_ok(&["devices"], "");
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("0: llvmpipe"))
        .unwrap_or_else(|| panic!("no '0: llvmpipe' line in:\n{out}"));
    let block: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("    "))
        .copied()
        .collect();
    for want in [
        "    type: CPU",
        "    driver: llvmpipe",
        "    Vulkan: 1.",
        "    vendor id: 0x10005 (Mesa)",
        "    target env: #spirv.target_env<#spirv.vce<v1.6, [Shader",
    ] {
        assert!(
            block.iter().any(|l| l.starts_with(want)),
            "no line starting {want:?} in:\n{out}"
        );
    }
    let env_line = block
        .iter()
        .find_map(|l| l.strip_prefix("    target env: "))
        .unwrap();
    let env: TargetEnv = env_line.parse().unwrap();
    assert_eq!(env, device_env());
    assert!(env_line.contains("GroupNonUniformArithmetic"), "{env_line}");
}

#[test]
fn json_has_every_key_and_limit() {
    let out = kiln_ok(&["devices", "--json"], "");
    let json: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}:\n{out}"));
    let devices = json.as_array().expect("a JSON array");
    let dev = devices.iter().find(|d| d["index"] == 0).expect("device 0");
    assert!(
        dev["name"].as_str().unwrap().starts_with("llvmpipe"),
        "{dev}"
    );
    for key in [
        "index",
        "name",
        "device_type",
        "driver_name",
        "driver_info",
        "api_version",
        "vendor_id",
        "device_id",
        "target_env",
        "spirv_version",
        "capabilities",
        "extensions",
        "limits",
    ] {
        assert!(dev.get(key).is_some(), "key {key} missing: {dev}");
    }
    assert_eq!(dev["device_type"], "CPU");
    assert_eq!(dev["driver_name"], "llvmpipe");
    assert_eq!(dev["vendor_id"], 0x10005);
    assert_eq!(dev["spirv_version"], "v1.6");
    assert!(dev["api_version"].as_str().unwrap().starts_with("1.3."));

    let env: TargetEnv = dev["target_env"].as_str().unwrap().parse().unwrap();
    assert_eq!(env, device_env());
    let caps: Vec<&str> = dev["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for cap in ["Shader", "GroupNonUniformArithmetic", "Int64", "Int8"] {
        assert!(caps.contains(&cap), "{cap} missing: {caps:?}");
    }
    assert_eq!(caps.len(), env.vce.capabilities.len());
    let exts: Vec<&str> = dev["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(exts.contains(&"SPV_KHR_8bit_storage"), "{exts:?}");

    let limits = dev["limits"].as_object().expect("limits is an object");
    for name in MLIR_LIMIT_NAMES.iter().chain(KILN_LIMIT_NAMES.iter()) {
        assert!(
            limits.contains_key(*name),
            "limit {name} missing: {limits:?}"
        );
    }
    assert_eq!(
        limits.len(),
        MLIR_LIMIT_NAMES.len() + KILN_LIMIT_NAMES.len()
    );
    assert_eq!(limits["subgroup_size"], 8);
    assert_eq!(limits["min_subgroup_size"], 8);
    assert_eq!(limits["max_compute_workgroup_invocations"], 1024);
    assert_eq!(
        limits["max_compute_workgroup_count"],
        serde_json::json!([65535, 65535, 65535])
    );
}

#[test]
fn saved_env_compiles_offline_like_next_to_the_device() {
    let dir = common::scratch("devices-roundtrip");
    let env_file = dir.join("lavapipe.env");
    let text = kiln_ok(&["devices", "--target-env-only", "--device", "0"], "");
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    std::fs::write(&env_file, &text).unwrap();

    // Text saved -> parsed -> identical TargetEnv.
    let saved: TargetEnv = std::fs::read_to_string(&env_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let device = device_env();
    assert_eq!(saved, device);
    // `--device` by name and the default pick give the same text here.
    assert_eq!(
        kiln_ok(
            &["devices", "--target-env-only", "--device", "llvmpipe"],
            ""
        ),
        text
    );

    // Offline: update-vce under the saved file, and under the inline text.
    let at_file = format!("@{}", env_file.display());
    let offline = kiln_ok(
        &["opt", "--update-vce", "--target-env", &at_file, "-"],
        SUBGROUP_I64,
    );
    let inline = kiln_ok(
        &["opt", "--update-vce", "--target-env", text.trim(), "-"],
        SUBGROUP_I64,
    );
    assert_eq!(offline, inline);

    // Next to the device: update-vce in process under the queried env.
    let mut module = kiln_core::text::parse(SUBGROUP_I64).unwrap();
    kiln_core::passes::update_vce(&mut module, &device).unwrap();
    let online = kiln_core::text::print(
        &module,
        &PrintOptions {
            prefix: Prefix::Spirv,
        },
    );
    assert_eq!(offline, online);
    assert!(
        offline.contains("GroupNonUniformArithmetic") && offline.contains("Int64"),
        "{offline}"
    );

    // The env matters: the default env rejects the module.
    let (code, _, err) = kiln(&["opt", "--update-vce", "-"], SUBGROUP_I64);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");

    // MLIR 19's form drops kiln's extra limits but keeps the triple, so
    // update-vce agrees under it too.
    let mlir_text = kiln_ok(
        &["devices", "--target-env-only", "--device", "0", "--mlir"],
        "",
    );
    let mlir_env: TargetEnv = mlir_text.trim().parse().unwrap();
    assert_eq!(mlir_env.vce, device.vce);
    assert_eq!(mlir_env.device, device.device);
    let under_mlir = kiln_ok(
        &["opt", "--update-vce", "--target-env", mlir_text.trim(), "-"],
        SUBGROUP_I64,
    );
    assert_eq!(under_mlir, online);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--mlir` prints what MLIR 19 reads and prints back unchanged.
#[test]
fn mlir_form_is_read_by_mlir_opt() {
    let text = kiln_ok(&["devices", "--target-env-only", "--mlir"], "");
    let text = text.trim();
    let dir = common::scratch("devices-mlir");
    let file = dir.join("env.mlir");
    std::fs::write(
        &file,
        format!("module attributes {{spirv.target_env = {text}}} {{}}\n"),
    )
    .unwrap();
    let out = Command::new("mlir-opt-19")
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run mlir-opt-19 ({e}); run ci/setup.sh"));
    assert!(
        out.status.success(),
        "mlir-opt-19 rejected the env: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(printed.contains(text), "mlir-opt-19 printed:\n{printed}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_device_is_an_error() {
    let (code, out, err) = kiln(&["devices", "--device", "no-such-gpu"], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        err.starts_with("error: cannot query the Vulkan device"),
        "{err}"
    );
    assert!(
        err.contains("no-such-gpu") && err.contains("llvmpipe"),
        "{err}"
    );
}

/// The `.spv` files of `kiln compile PROGRAM -o DIR FLAGS` (no tuned
/// strategies: an empty cache), by name.
fn compiled_kernels(
    program: &std::path::Path,
    dir: &std::path::Path,
    flags: &[&str],
) -> std::collections::BTreeMap<String, Vec<u8>> {
    let out = dir.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let (program, out_arg) = (program.display().to_string(), out.display().to_string());
    let mut args = vec!["compile", program.as_str(), "-o", out_arg.as_str()];
    args.extend(flags);
    let (code, _, err) = common::run(
        common::kiln_cmd()
            .args(&args)
            .env_remove("KILN_DEVICE")
            .env("KILN_CACHE_DIR", dir.join("cache")),
        b"",
    );
    assert_eq!(code, 0, "kiln {}: {err}", args.join(" "));
    std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// A target env file saved with `--driver-facts` carries lavapipe's
/// driver facts, so `kiln compile --target-env @FILE` emits the very
/// kernels `kiln compile --device 0` does (texel reads, word stores, the
/// strategies of a device whose barriers serialize); without the facts
/// line the same env compiles other kernels.
#[test]
fn saved_env_with_driver_facts_compiles_the_device_kernels() {
    let dir = common::scratch("devices-facts");
    let text = kiln_ok(
        &[
            "devices",
            "--target-env-only",
            "--driver-facts",
            "--device",
            "0",
        ],
        "",
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "env and facts: {text}");
    assert!(lines[1].starts_with("#kiln.driver_facts<"), "{text}");
    assert!(lines[1].contains("barriers_serialize"), "{text}");
    let with_facts = dir.join("with-facts.env");
    std::fs::write(&with_facts, &text).unwrap();
    let env_only = dir.join("env-only.env");
    std::fs::write(&env_only, format!("{}\n", lines[0])).unwrap();
    let (with_facts, env_only) = (
        format!("@{}", with_facts.display()),
        format!("@{}", env_only.display()),
    );
    let programs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/programs");
    let mut differ_without = 0;
    for name in ["add_16m.mlir", "matmul_512.mlir", "softmax_1024x4096.mlir"] {
        let program = programs.join(name);
        let device = compiled_kernels(&program, &dir, &["--device", "0"]);
        let offline = compiled_kernels(&program, &dir, &["--target-env", &with_facts]);
        assert!(!device.is_empty(), "{name}: no kernels");
        assert_eq!(
            device.keys().collect::<Vec<_>>(),
            offline.keys().collect::<Vec<_>>(),
            "{name}"
        );
        for (kernel, words) in &device {
            assert!(offline[kernel] == *words, "{name}: {kernel} differs");
        }
        if compiled_kernels(&program, &dir, &["--target-env", &env_only]) != device {
            differ_without += 1;
        }
    }
    assert_eq!(differ_without, 3, "the facts steer every one of them");
    let _ = std::fs::remove_dir_all(&dir);
}
