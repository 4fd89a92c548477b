//! What the lowering refuses, with the exact message: types the env cannot
//! represent (naming the type and the missing capability), unsupported
//! shapes, kernels without a workgroup size, files without kernels.

use crate::lower_util as util;

use util::*;

fn kernel(args: &str, body: &str, attrs: &str) -> String {
    format!(
        "module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k({args}) kernel{attrs} {{
      %i = gpu.thread_id x
{body}
      gpu.return
    }}
  }}
}}
"
    )
}

const ABI: &str =
    " attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>}";

fn error(src: &str, env_text: &str) -> String {
    lower_err(&kernels_from(src), &env(env_text)).to_string()
}

#[test]
fn f64_without_float64() {
    let src = kernel(
        "%a: memref<4xf64>",
        "      %x = memref.load %a[%i] : memref<4xf64>",
        ABI,
    );
    assert_eq!(
        error(&src, MINIMAL),
        "3:5: 'gpu.func': type f64 needs capability Float64 (64-bit floats), which the target env does not offer"
    );
}

#[test]
fn i64_without_int64() {
    let body = "      %x = memref.load %a[%i] : memref<4xi32>
      %y = arith.extsi %x : i32 to i64
      %z = arith.trunci %y : i64 to i32
      memref.store %z, %a[%i] : memref<4xi32>";
    let src = kernel("%a: memref<4xi32>", body, ABI);
    assert_eq!(
        error(&src, MINIMAL),
        "6:12: 'arith.extsi': type i64 needs capability Int64 (64-bit integers), which the target env does not offer"
    );
    // With Int64 it compiles and declares the capability.
    let e = env("#spirv.target_env<#spirv.vce<v1.0, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>");
    let m = &compile(&kernels_from(&src), &e)[0].module;
    assert!(capabilities(m).contains(&"Int64".to_string()));
}

#[test]
fn long_vectors() {
    let src = kernel(
        "%a: memref<4xi32>",
        "      %v = arith.constant dense<1> : vector<8xi32>",
        ABI,
    );
    assert_eq!(
        error(&src, MINIMAL),
        "5:12: 'arith.constant': type vector<8xi32>: only vectors of 1 to 4 elements are supported"
    );
}

#[test]
fn kernel_without_workgroup_size() {
    let src = kernel("%a: memref<4xi32>", "", "");
    assert_eq!(
        error(&src, MINIMAL),
        "3:5: 'gpu.func': kernel @k has no spirv.entry_point_abi workgroup_size (nor known_block_size)"
    );
}

#[test]
fn file_without_gpu_module() {
    let km = kernels_from("module {\n  func.func @main() {\n    return\n  }\n}\n");
    assert_eq!(
        lower_err(&km, &env(MINIMAL)).to_string(),
        "the kernel module has no gpu.module to lower"
    );
}

#[test]
fn bf16_is_refused() {
    let src = kernel("%a: memref<4xbf16>", "", ABI);
    assert_eq!(
        error(&src, MINIMAL),
        "3:5: 'gpu.func': type bf16: bf16 arithmetic is not supported by the lowering"
    );
}

#[test]
fn f16_buffers_need_16bit_storage() {
    let src = kernel("%a: memref<4xf16>", "", ABI);
    assert_eq!(
        error(&src, "#spirv.target_env<#spirv.vce<v1.0, [Shader, Float16], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>"),
        "3:5: 'gpu.func': type memref<4xf16>: its elements cannot be stored in StorageBuffer: type f16 in storage class StorageBuffer requires SPIR-V v1.3 or extension SPV_KHR_16bit_storage"
    );
}

#[test]
fn limits_of_the_env_are_checked() {
    // MLIR's default resource limits: 16 KiB of workgroup memory, at most
    // 128 invocations in x.
    let body = "      %w = memref.alloc() : memref<8192xf32, #gpu.address_space<workgroup>>";
    let src = kernel("%a: memref<4xf32>", body, ABI);
    assert_eq!(
        error(&src, MINIMAL),
        "3:5: kernel @k: 32768 bytes of workgroup memory exceed max_compute_shared_memory_size = 16384"
    );
    let wide = ABI.replace("[4, 1, 1]", "[256, 1, 1]");
    let src = kernel("%a: memref<4xf32>", "", &wide);
    assert_eq!(
        error(&src, MINIMAL),
        "3:5: kernel @k: workgroup size 256 in dimension x is outside 1..=128 (max_compute_workgroup_size)"
    );
    // lavapipe allows both.
    let src = kernel("%a: memref<4xf32>", body, &wide);
    compile(&kernels_from(&src), &lavapipe());
}

/// A pass failing after lowering names the gpu.module and the pass, and
/// leaves its cause to the source chain, so a caller walking the chain
/// prints it once. (`target_width` asks for `SignedZeroInfNanPreserve`,
/// which needs SPIR-V 1.4 or `SPV_KHR_float_controls`: SPIR-V spec.)
#[test]
fn pass_error_leaves_its_cause_to_the_chain() {
    let src = kernel(
        "%a: memref<4xi32>",
        "",
        " attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1], target_width = 32>}",
    );
    let err = lower_err(&kernels_from(&src), &env(MINIMAL));
    assert_eq!(err.to_string(), "gpu.module @m: update-vce");
    let cause = std::error::Error::source(&err)
        .expect("a source")
        .to_string();
    assert!(
        cause.contains("ExecutionMode SignedZeroInfNanPreserve requires SPIR-V v1.4"),
        "{cause}"
    );
}
