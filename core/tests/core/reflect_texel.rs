//! Texel buffers through both reflectors: an spv module reading two
//! `Rgba32f` uniform texel buffers (`OpImageFetch`) and a storage texel
//! buffer of `R32ui`, reflected from the IR and from its binary, which
//! must agree, and validated for Vulkan 1.0 (texel buffers need only the
//! `SampledBuffer` / `ImageBuffer` capabilities).

use kiln_abi::{Access, DescriptorType, TexelFormat};
use kiln_core::binary::serialize;
use kiln_core::reflect::{reflect_binary, reflect_module};
use kiln_core::text;
use kiln_core::validate::{validate, ValidationEnv};

/// `c[i] = a[i] + b[i]` on vec4s, `a` and `b` uniform texel buffers, and
/// `n[i] = i` into a storage texel buffer.
const TEXEL_ADD: &str = r#"
!tf = !spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32f>
!tu = !spirv.image<i32, Buffer, NoDepth, NonArrayed, SingleSampled, NoSampler, R32ui>
!buf = !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, SampledBuffer, ImageBuffer], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!tf, UniformConstant>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!tf, UniformConstant>
  spirv.GlobalVariable @c bind(0, 2) : !buf
  spirv.GlobalVariable @n bind(1, 0) {NonReadable} : !spirv.ptr<!tu, UniformConstant>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %gp : vector<3xi32>
    %i = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %ap = spirv.mlir.addressof @a : !spirv.ptr<!tf, UniformConstant>
    %ai = spirv.Load "UniformConstant" %ap : !tf
    %av = "spirv.ImageFetch"(%ai, %i) : (!tf, i32) -> vector<4xf32>
    %bp = spirv.mlir.addressof @b : !spirv.ptr<!tf, UniformConstant>
    %bi = spirv.Load "UniformConstant" %bp : !tf
    %bv = "spirv.ImageFetch"(%bi, %i) : (!tf, i32) -> vector<4xf32>
    %sum = spirv.FAdd %av, %bv : vector<4xf32>
    %zero = spirv.Constant 0 : i32
    %cp = spirv.mlir.addressof @c : !buf
    %dst = spirv.AccessChain %cp[%zero, %i] : !buf, i32, i32
    spirv.Store "StorageBuffer" %dst, %sum : vector<4xf32>
    %np = spirv.mlir.addressof @n : !spirv.ptr<!tu, UniformConstant>
    %ni = spirv.Load "UniformConstant" %np : !tu
    %iv = spirv.CompositeConstruct %i, %i, %i, %i : (i32, i32, i32, i32) -> vector<4xi32>
    "spirv.ImageWrite"(%ni, %i, %iv) : (!tu, i32, vector<4xi32>) -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
"#;

#[test]
fn texel_buffers_reflect_alike_from_ir_and_binary() {
    let module = text::parse(TEXEL_ADD).unwrap_or_else(|e| panic!("parse: {e}"));
    let from_ir = reflect_module(&module, "main").unwrap_or_else(|e| panic!("reflect IR: {e}"));
    let words = serialize(&module).unwrap_or_else(|e| panic!("serialize: {e}"));
    validate(&words, ValidationEnv::Vulkan1_0).unwrap_or_else(|e| panic!("validate: {e}"));
    let from_binary = reflect_binary(&words, "main").unwrap_or_else(|e| panic!("reflect: {e}"));
    assert_eq!(from_ir, from_binary);
    assert_eq!(from_ir.check(), Ok(()));
    let got: Vec<_> = from_ir
        .bindings
        .iter()
        .map(|b| (b.key(), b.descriptor_type, b.access, b.texel_format))
        .collect();
    use DescriptorType as D;
    use TexelFormat as F;
    assert_eq!(
        got,
        [
            (
                (0, 0),
                D::UniformTexelBuffer,
                Access::ReadOnly,
                Some(F::Rgba32f)
            ),
            (
                (0, 1),
                D::UniformTexelBuffer,
                Access::ReadOnly,
                Some(F::Rgba32f)
            ),
            ((0, 2), D::StorageBuffer, Access::ReadWrite, None),
            (
                (1, 0),
                D::StorageTexelBuffer,
                Access::WriteOnly,
                Some(F::R32ui)
            ),
        ]
    );
    assert_eq!(
        from_ir.bindings[0].to_string(),
        "0:0 (uniform texel buffer, read-only, Rgba32f)"
    );
}

#[test]
fn conflicting_texel_formats_at_one_binding_are_an_error() {
    // `@b` moved to `@a`'s binding with the same format: the aliases merge.
    let src = TEXEL_ADD.replace("@b bind(0, 1)", "@b bind(0, 0)");
    let module = text::parse(&src).unwrap_or_else(|e| panic!("parse: {e}"));
    let iface = reflect_module(&module, "main").unwrap();
    assert_eq!(iface.bindings.len(), 3);

    // Another format at the same binding is refused by both reflectors.
    let src = src.replace(
        "!tf = !spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32f>",
        "!tf = !spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, Rgba32f>\n\
         !tg = !spirv.image<f32, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, R32f>",
    );
    let src = src
        .replace(
            "spirv.GlobalVariable @b bind(0, 0) : !spirv.ptr<!tf, UniformConstant>",
            "spirv.GlobalVariable @b bind(0, 0) : !spirv.ptr<!tg, UniformConstant>",
        )
        .replace(
            "%bp = spirv.mlir.addressof @b : !spirv.ptr<!tf, UniformConstant>\n    %bi = spirv.Load \"UniformConstant\" %bp : !tf\n    %bv = \"spirv.ImageFetch\"(%bi, %i) : (!tf, i32)",
            "%bp = spirv.mlir.addressof @b : !spirv.ptr<!tg, UniformConstant>\n    %bi = spirv.Load \"UniformConstant\" %bp : !tg\n    %bv = \"spirv.ImageFetch\"(%bi, %i) : (!tg, i32)",
        );
    let module = text::parse(&src).unwrap_or_else(|e| panic!("parse: {e}\n{src}"));
    let err = reflect_module(&module, "main").unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 0:0 is a texel buffer of format Rgba32f for global @a and of format R32f \
         for global @b"
    );
    let words = serialize(&module).unwrap_or_else(|e| panic!("serialize: {e}"));
    let err = reflect_binary(&words, "main").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("binding 0:0 is a texel buffer of format Rgba32f for "),
        "{err}"
    );
}

#[test]
fn rgba16f_texel_buffers_reflect_alike_from_ir_and_binary() {
    // `@a` and `@b` as RGBA16F views (f32 texels, as kiln's f16 operands).
    let src = TEXEL_ADD.replace("NeedSampler, Rgba32f>", "NeedSampler, Rgba16f>");
    let module = text::parse(&src).unwrap_or_else(|e| panic!("parse: {e}"));
    let from_ir = reflect_module(&module, "main").unwrap_or_else(|e| panic!("reflect IR: {e}"));
    let words = serialize(&module).unwrap_or_else(|e| panic!("serialize: {e}"));
    validate(&words, ValidationEnv::Vulkan1_0).unwrap_or_else(|e| panic!("validate: {e}"));
    let from_binary = reflect_binary(&words, "main").unwrap_or_else(|e| panic!("reflect: {e}"));
    assert_eq!(from_ir, from_binary);
    let formats: Vec<_> = from_ir.bindings.iter().map(|b| b.texel_format).collect();
    assert_eq!(
        formats,
        [
            Some(TexelFormat::Rgba16f),
            Some(TexelFormat::Rgba16f),
            None,
            Some(TexelFormat::R32ui)
        ]
    );
    assert_eq!(
        from_ir.bindings[0].to_string(),
        "0:0 (uniform texel buffer, read-only, Rgba16f)"
    );
    assert_eq!(TexelFormat::Rgba16f.texel_size(), Some(8));
    assert_eq!(TexelFormat::Rgba16f.components(), Some(4));
}
