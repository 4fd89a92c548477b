//! Uniform texel buffers (kiln's extension): a read-only
//! `memref<Nxvector<4xT>, #spirv.storage_class<UniformConstant>>` kernel
//! argument becomes an RGBA32 `Buffer` image variable and `memref.load`
//! an `OpImageFetch` of one texel; `vector<4xf16>` elements an RGBA16F
//! image of f32 texels, converted to f16.

use crate::lower_util as util;

use util::*;

/// The minimal env plus `SampledBuffer` (Vulkan 1.0 core).
const TEXEL_ENV: &str = "#spirv.target_env<#spirv.vce<v1.0, [Shader, SampledBuffer], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>";

fn kernel(elem: &str, arg: &str, body: &str) -> String {
    format!(
        r#"
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k(%a: {arg}, %o: memref<?xvector<4x{elem}>>) kernel attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>}} {{
      %i = gpu.global_id x
{body}
      gpu.return
    }}
  }}
}}
"#
    )
}

fn texel_memref(elem: &str) -> String {
    format!("memref<?xvector<4x{elem}>, #spirv.storage_class<UniformConstant>>")
}

fn fetch_and_store(elem: &str) -> String {
    let a = texel_memref(elem);
    kernel(
        elem,
        &a,
        &format!(
            "      %v = memref.load %a[%i] : {a}\n      memref.store %v, %o[%i] : memref<?xvector<4x{elem}>>"
        ),
    )
}

#[test]
fn texel_buffers_lower_to_rgba32_image_fetches_that_validate() {
    for (elem, image) in [
        (
            "f32",
            "!spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32f>",
        ),
        (
            "i32",
            "!spirv.image<i32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32ui>",
        ),
    ] {
        let mods = compile(&kernels_from(&fetch_and_store(elem)), &env(TEXEL_ENV));
        let m = &mods[0].module;
        let text = print(m);
        let var = format!("!spirv.ptr<{image}, UniformConstant>");
        assert!(text.contains(&var), "{elem}: missing `{var}` in\n{text}");
        assert!(
            text.contains("bind(0, 0)"),
            "{elem}: the texel buffer's binding\n{text}"
        );
        assert!(has_op(m, "ImageFetch"), "{elem}: no ImageFetch\n{text}");
        assert!(
            capabilities(m).iter().any(|c| c == "SampledBuffer"),
            "{elem}: {:?}",
            capabilities(m)
        );
        spirv_val(&mods[0].words, "vulkan1.1", elem);
    }
}

/// [`TEXEL_ENV`] plus native f16 in storage buffers.
const F16_TEXEL_ENV: &str = "#spirv.target_env<#spirv.vce<v1.0, [Shader, SampledBuffer, Float16, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, #spirv.resource_limits<>>";

#[test]
fn f16_texel_buffers_lower_to_rgba16f_fetches_converted_to_f16_that_validate() {
    let mods = compile(&kernels_from(&fetch_and_store("f16")), &env(F16_TEXEL_ENV));
    let m = &mods[0].module;
    let text = print(m);
    // The image's sampled type is f32: an RGBA16F view fetches f32 texels.
    let var = "!spirv.ptr<!spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba16f>, UniformConstant>";
    assert!(text.contains(var), "missing `{var}` in\n{text}");
    assert!(has_op(m, "ImageFetch"), "no ImageFetch\n{text}");
    assert!(
        text.contains("-> vector<4xf32>") && text.contains("spirv.FConvert"),
        "the fetch must give vector<4xf32>, converted to f16\n{text}"
    );
    assert!(
        text.contains("vector<4xf32> to vector<4xf16>"),
        "the texel converted to vector<4xf16>\n{text}"
    );
    spirv_val(&mods[0].words, "vulkan1.1", "f16");
}

#[test]
fn a_target_without_sampled_buffer_refuses_texel_buffers() {
    let err = lower_err(&kernels_from(&fetch_and_store("f32")), &env(MINIMAL)).to_string();
    assert!(err.contains("requires capability SampledBuffer"), "{err}");
}

#[test]
fn texel_buffers_are_read_only_rgba32_vectors() {
    let cases = [
        (
            // A store.
            kernel(
                "f32",
                &texel_memref("f32"),
                &format!(
                    "      %v = memref.load %o[%i] : memref<?xvector<4xf32>>\n      memref.store %v, %a[%i] : {}",
                    texel_memref("f32")
                ),
            ),
            "a store to a uniform texel buffer (read-only)",
        ),
        (
            // Scalar elements.
            kernel(
                "f32",
                "memref<?xf32, #spirv.storage_class<UniformConstant>>",
                "      %v = memref.load %a[%i] : memref<?xf32, #spirv.storage_class<UniformConstant>>",
            ),
            "its elements must be vector<4xT>",
        ),
        (
            // 16-bit integer lanes (f16 is the only 16-bit T).
            kernel(
                "f32",
                "memref<?xvector<4xi16>, #spirv.storage_class<UniformConstant>>",
                "      %v = memref.load %a[%i] : memref<?xvector<4xi16>, #spirv.storage_class<UniformConstant>>",
            ),
            "T must be f16 or a 32-bit float or integer",
        ),
        (
            // Two dimensions.
            kernel(
                "f32",
                "memref<4x?xvector<4xf32>, #spirv.storage_class<UniformConstant>>",
                "      %v = memref.load %a[%i, %i] : memref<4x?xvector<4xf32>, #spirv.storage_class<UniformConstant>>",
            ),
            "it must be 1-D with the identity layout",
        ),
    ];
    for (src, want) in cases {
        let err = lower_err(&kernels_from(&src), &env(TEXEL_ENV)).to_string();
        assert!(err.contains(want), "want `{want}` in: {err}");
    }
}
