//! Texel reads: on lavapipe (its driver facts, an env with
//! `SampledBuffer`), read-only 32-bit tensors that kernels read as vec4
//! are bound as uniform texel buffers and fetched with `OpImageFetch`
//! (natively stored f16 ones through RGBA16F views); written tensors, f16
//! held as bits and other drivers keep storage buffers.
//! Every kernel passes spirv-val.

use kiln_core::codegen::{CodegenTarget, CompiledFunction};
use kiln_core::grammar::Capability;

use crate::common::{
    binary_program as binary, compile_first as compile, h200_target as h200, lavapipe_target,
    spirv_val,
};

/// `target` with its env's texel-buffer capabilities as `sampled_buffer`
/// says (`ImageBuffer` implies `SampledBuffer`, so both go).
fn with_sampled_buffer(mut target: CodegenTarget, sampled_buffer: bool) -> CodegenTarget {
    let caps = &mut target.env.vce.capabilities;
    caps.retain(|c| !matches!(c, Capability::SampledBuffer | Capability::ImageBuffer));
    if sampled_buffer {
        caps.push(Capability::SampledBuffer);
    }
    target
}

fn lavapipe(sampled_buffer: bool) -> CodegenTarget {
    with_sampled_buffer(lavapipe_target(), sampled_buffer)
}

/// The kernels' texts that fetch texels, after checking every kernel
/// with spirv-val.
fn texel_kernels(cf: &CompiledFunction) -> Vec<String> {
    let mut out = Vec::new();
    for d in &cf.dispatches {
        for k in &d.kernels {
            spirv_val(&k.words, "vulkan1.3").unwrap_or_else(|e| panic!("{}: {e}", k.name));
            if k.kernel_text
                .contains("#spirv.storage_class<UniformConstant>")
            {
                out.push(k.kernel_text.clone());
            }
        }
    }
    out
}

const MATMUL: &str = r#"func.func @f(%a: tensor<64x96xf32>, %b: tensor<96x128xf32>) -> tensor<64x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %c0 = linalg.fill ins(%z : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x128xf32>) outs(%c0 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %c : tensor<64x128xf32>
}"#;

const ADD_2D_UNALIGNED: &str = r#"func.func @f(%a: tensor<64x35xf32>, %b: tensor<64x35xf32>) -> tensor<64x35xf32> {
  %c = arith.addf %a, %b : tensor<64x35xf32>
  return %c : tensor<64x35xf32>
}"#;

#[test]
fn lavapipe_reads_vec4_operands_through_texel_buffers() {
    let cpu = lavapipe(true);
    for (what, text) in [
        ("f32 add", binary("arith.addf", "f32", 4096)),
        ("i32 add", binary("arith.addi", "i32", 4096)),
        ("matmul", MATMUL.to_owned()),
        // A 1-D space of 4,099: its 1,024 whole texels (the last 3
        // points one by one).
        ("unaligned 1-D add", binary("arith.addf", "f32", 4099)),
    ] {
        let cf = compile(&text, &cpu);
        let kernels = texel_kernels(&cf);
        assert!(!kernels.is_empty(), "{what}: no kernel reads texels");
        for k in &kernels {
            assert!(
                !k.contains("memref.store %")
                    || !k.lines().any(|l| l.contains("memref.store")
                        && l.contains("#spirv.storage_class<UniformConstant>")),
                "{what}: a store to a texel buffer:\n{k}"
            );
        }
        assert!(
            cf.dispatches[0].strategy.texel_reads.is_some(),
            "{what}: {}",
            cf.dispatches[0].strategy
        );
    }
}

/// A 256x80x128 matmul of f16 inputs accumulated into `acc`.
fn f16_matmul(acc: &str) -> String {
    format!(
        r#"func.func @f(%a: tensor<256x80xf16>, %b: tensor<80x128xf16>) -> tensor<256x128x{acc}> {{
  %z = arith.constant 0.0 : {acc}
  %e = tensor.empty() : tensor<256x128x{acc}>
  %c0 = linalg.fill ins(%z : {acc}) outs(%e : tensor<256x128x{acc}>) -> tensor<256x128x{acc}>
  %c = linalg.matmul ins(%a, %b : tensor<256x80xf16>, tensor<80x128xf16>) outs(%c0 : tensor<256x128x{acc}>) -> tensor<256x128x{acc}>
  return %c : tensor<256x128x{acc}>
}}"#
    )
}

/// `target` without native f16 storage (f16 is then held as bits).
fn without_f16_storage(mut target: CodegenTarget) -> CodegenTarget {
    target.env.vce.capabilities.retain(|c| {
        !matches!(
            c,
            Capability::Float16 | Capability::StorageBuffer16BitAccess
        )
    });
    target
}

#[test]
fn lavapipe_reads_f16_matmul_operands_through_rgba16f_texel_buffers() {
    let f16_texel = "memref<?xvector<4xf16>, #spirv.storage_class<UniformConstant>>";
    for acc in ["f32", "f16"] {
        let cf = compile(&f16_matmul(acc), &lavapipe(true));
        let kernels = texel_kernels(&cf);
        let d = &cf.dispatches[0];
        assert!(
            kernels.iter().any(|k| k.matches(f16_texel).count() >= 2),
            "{acc}: both f16 operands should be texels:\n{kernels:?}"
        );
        assert!(d.strategy.texel_reads.is_some(), "{acc}: {}", d.strategy);
        // The lavapipe texel tile (groups of 16 or 8 columns), which the
        // f16 operands now take too.
        assert!(
            matches!(
                d.strategy.distribution,
                kiln_core::codegen::strategy::Distribution::Tile { cols: 8 | 16, .. }
            ),
            "{acc}: {}",
            d.strategy
        );
        let k = &d.kernels[0];
        let iface = kiln_core::reflect::reflect_binary(&k.words, &k.name)
            .unwrap_or_else(|e| panic!("{acc}: {e}"));
        let formats: Vec<_> = iface
            .bindings
            .iter()
            .filter_map(|b| b.texel_format)
            .collect();
        assert_eq!(
            formats,
            [kiln_abi::TexelFormat::Rgba16f; 2],
            "{acc}: {iface:?}"
        );
    }
}

#[test]
fn other_drivers_sixteen_bit_tensors_and_envs_without_sampled_buffer_keep_storage_buffers() {
    let f16 = binary("arith.addf", "f16", 4096);
    for (what, text, target) in [
        (
            "f16 matmul, no SampledBuffer",
            f16_matmul("f32"),
            lavapipe(false),
        ),
        ("f16 matmul, H200", f16_matmul("f32"), h200()),
        (
            "f16 matmul, f16 as bits",
            f16_matmul("f32"),
            without_f16_storage(lavapipe(true)),
        ),
        ("H200 matmul", MATMUL.to_owned(), h200()),
        ("H200 add", binary("arith.addf", "f32", 4096), h200()),
        (
            "no SampledBuffer",
            binary("arith.addf", "f32", 4096),
            lavapipe(false),
        ),
        ("f16 add as bits", f16, without_f16_storage(lavapipe(true))),
        // Rows that are not a whole number of texels (a 1-D space of any
        // length reads its whole texels: the test above).
        (
            "unaligned 2-D add",
            ADD_2D_UNALIGNED.to_owned(),
            lavapipe(true),
        ),
    ] {
        let cf = compile(&text, &target);
        assert!(
            texel_kernels(&cf).is_empty(),
            "{what}: a kernel reads texels"
        );
    }
}

/// A convolution's deep tile on lavapipe unrolls the window column (kw)
/// into each step of the channel loop, and its rows share the input
/// pixels their taps read: a 27-row tile over 3 taps reads 27 + 2 pixels
/// per step (as two vec4 each, 8 channels deep), not 3 x 27.
#[test]
fn deep_conv_tiles_load_each_input_pixel_once_per_step() {
    let text = include_str!("../../../bench/programs/conv2d_56x56x64_3x3x64.mlir");
    let cf = compile(text, &lavapipe(true));
    let d = &cf.dispatches[0];
    assert_eq!(
        d.strategy.distribution,
        kiln_core::codegen::strategy::Distribution::Tile {
            rows: 27,
            cols: 8,
            depth: 8
        },
        "{}",
        d.strategy
    );
    let kernels = texel_kernels(&cf);
    let k = &kernels[0];
    let loads = |arg: &str| {
        k.lines()
            .filter(|l| l.contains(&format!("memref.load {arg}[")))
            .count()
    };
    // Input pixels: (27 rows + 2 taps) x 2 vec4 of channels.
    assert_eq!(loads("%arg0"), (27 + 2) * 2, "{k}");
    // Filters: 3 taps x 8 channels x 2 vec4 of the tile's 8 columns.
    assert_eq!(loads("%arg1"), 3 * 8 * 2, "{k}");
}

/// A dynamically sized add on lavapipe: a vec4 distribution whose groups
/// are checked at run time, both operands read as texels (the host's
/// equality check makes `%b`'s length the space's), the result stored as
/// 64-bit words; on a target whose storage buffers may be larger than
/// its views, dynamic tensors keep storage buffers.
#[test]
fn dynamic_operands_read_texels_where_any_storage_range_fits_a_view() {
    const DYNAMIC_ADD: &str = r#"func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.addf %a, %b : tensor<?xf32>
  return %c : tensor<?xf32>
}"#;
    let cpu = lavapipe(true);
    let cf = compile(DYNAMIC_ADD, &cpu);
    let d = &cf.dispatches[0];
    assert!(
        matches!(
            d.strategy.distribution,
            kiln_core::codegen::strategy::Distribution::Vector4 { .. }
        ) && d.strategy.dynamic_texels,
        "{}",
        d.strategy
    );
    // The plain kernel and its `_chunked` variant (tensors past the
    // storage range: their texel views are not limited by it).
    let kernels = texel_kernels(&cf);
    assert_eq!(kernels.len(), 2);
    for k in &kernels {
        assert_eq!(
            k.matches("UniformConstant>> {spirv.interface_var_abi")
                .count(),
            2,
            "both operands as texels:\n{k}"
        );
    }
    let mut small_views = lavapipe(true);
    small_views.facts.texel_reads = Some(1 << 16);
    let cf = compile(DYNAMIC_ADD, &small_views);
    assert!(!cf.dispatches[0].strategy.dynamic_texels);
    assert!(texel_kernels(&cf).is_empty(), "texels past the view limit");
}
