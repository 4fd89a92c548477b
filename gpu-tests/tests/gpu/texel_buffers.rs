//! Texel buffers on the device, validation on: kernels written as spv text
//! (explicit texel formats, which GLSL's `textureBuffer` cannot give: its
//! format is `Unknown`) that read two uniform texel buffers with
//! `OpImageFetch` and write a storage buffer, through the pass pipeline
//! under the device's own target env (so `SampledBuffer` must be in it),
//! dispatched by command batches, by one-shot dispatch and by kiln-runtime
//! streams, every output element checked exactly; ranges at aligned
//! offsets of larger buffers; misaligned offsets and `Unknown` formats
//! refused with typed errors before any Vulkan call; a storage texel buffer
//! written with `OpImageWrite`.

use std::sync::Arc;

use kiln_abi::{DescriptorType, TexelFormat};
use kiln_gpu_tests::{assert_no_validation_messages, compile_abi_kernel, test_context};
use kiln_runtime::{DType, KernelSource, Tensor};
use kiln_vulkan::{
    BlockPool, Buffer, BufferBinding, CommandBatch, ComputePipeline, Context, Error, MemoryKind,
    Slice, SliceBinding, Timeline,
};

use crate::runtime_support::device;

/// Workgroup size of the kernels.
const WG: u32 = 64;

/// One element type of the add kernel: its text type, texel format, add op.
#[derive(Clone, Copy)]
struct Elem {
    ty: &'static str,
    format: TexelFormat,
    add: &'static str,
}

const F32: Elem = Elem {
    ty: "f32",
    format: TexelFormat::Rgba32f,
    add: "spirv.FAdd",
};
// A signed sampled type for the SINT format, an unsigned one for UINT:
// the numeric type of the image must match the view's format.
const I32: Elem = Elem {
    ty: "si32",
    format: TexelFormat::Rgba32i,
    add: "spirv.IAdd",
};
const U32: Elem = Elem {
    ty: "i32",
    format: TexelFormat::Rgba32ui,
    add: "spirv.IAdd",
};

/// `c[i] = a[i] + b[i]` on 4-vectors, `a` and `b` uniform texel buffers
/// (bindings 0 and 1) of `format` (its text name), `c` a storage buffer of
/// vec4 (binding 2). One texel per invocation, no bounds check: the grid
/// covers the output exactly.
fn texel_add(ty: &str, format: &str, add: &str) -> String {
    format!(
        r#"
!img = !spirv.image<{ty}, Buffer, NoDepth, NonArrayed, SingleSampled, NeedSampler, {format}>
!out = !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4x{ty}>, stride=16> [0])>, StorageBuffer>
spirv.module Logical GLSL450 {{
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!img, UniformConstant>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!img, UniformConstant>
  spirv.GlobalVariable @c bind(0, 2) : !out
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {{
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %gp : vector<3xi32>
    %i = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %ap = spirv.mlir.addressof @a : !spirv.ptr<!img, UniformConstant>
    %ai = spirv.Load "UniformConstant" %ap : !img
    %av = "spirv.ImageFetch"(%ai, %i) : (!img, i32) -> vector<4x{ty}>
    %bp = spirv.mlir.addressof @b : !spirv.ptr<!img, UniformConstant>
    %bi = spirv.Load "UniformConstant" %bp : !img
    %bv = "spirv.ImageFetch"(%bi, %i) : (!img, i32) -> vector<4x{ty}>
    %sum = {add} %av, %bv : vector<4x{ty}>
    %zero = spirv.Constant 0 : i32
    %cp = spirv.mlir.addressof @c : !out
    %dst = spirv.AccessChain %cp[%zero, %i] : !out, i32, i32
    spirv.Store "StorageBuffer" %dst, %sum : vector<4x{ty}>
    spirv.Return
  }}
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", {WG}, 1, 1
}}
"#
    )
}

/// `n[i] = (i, i, i, i)` into an `R32ui` storage texel buffer (binding 0).
const TEXEL_STORE: &str = r#"
!img = !spirv.image<i32, Buffer, NoDepth, NonArrayed, SingleSampled, NoSampler, R32ui>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @n bind(0, 0) {NonReadable} : !spirv.ptr<!img, UniformConstant>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g = spirv.Load "Input" %gp : vector<3xi32>
    %i = spirv.CompositeExtract %g[0 : i32] : vector<3xi32>
    %np = spirv.mlir.addressof @n : !spirv.ptr<!img, UniformConstant>
    %ni = spirv.Load "UniformConstant" %np : !img
    %iv = spirv.CompositeConstruct %i, %i, %i, %i : (i32, i32, i32, i32) -> vector<4xi32>
    "spirv.ImageWrite"(%ni, %i, %iv) : (!img, i32, vector<4xi32>) -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
"#;

/// The add kernel of `elem` as a pipeline, its interface checked.
fn add_pipeline(ctx: &Context, elem: Elem) -> Arc<ComputePipeline> {
    let src = texel_add(elem.ty, elem.format.name(), elem.add);
    let (words, iface) = compile_abi_kernel(ctx, &src, "main");
    let types: Vec<_> = iface
        .bindings
        .iter()
        .map(|b| (b.descriptor_type, b.texel_format))
        .collect();
    assert_eq!(
        types,
        [
            (DescriptorType::UniformTexelBuffer, Some(elem.format)),
            (DescriptorType::UniformTexelBuffer, Some(elem.format)),
            (DescriptorType::StorageBuffer, None),
        ]
    );
    Arc::new(ComputePipeline::new(ctx, &words, &iface).expect("pipeline"))
}

fn host_pool(ctx: &Context) -> BlockPool {
    let kind = if ctx.has_unified_memory() {
        MemoryKind::Unified
    } else {
        MemoryKind::Upload
    };
    BlockPool::new(ctx, kind, 1 << 20).unwrap()
}

fn words_le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn read_words(slice: &Slice, at: u64, n: usize) -> Vec<u32> {
    let mut bytes = vec![0u8; n * 4];
    slice.read(at, &mut bytes).unwrap();
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Inputs of `texels` texels for `elem` as raw 32-bit words (negative and
/// large values for the integer formats, fractions for floats), and the
/// sums the kernel must produce, word for word.
fn inputs(elem: Elem, texels: usize) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let n = texels * 4;
    match elem.format {
        TexelFormat::Rgba32f => {
            let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 300.0).collect();
            let b: Vec<f32> = (0..n).map(|i| 1.0e6 - i as f32 * 1.5).collect();
            let c: Vec<u32> = a.iter().zip(&b).map(|(x, y)| (x + y).to_bits()).collect();
            let bits = |v: Vec<f32>| v.into_iter().map(f32::to_bits).collect();
            (bits(a), bits(b), c)
        }
        TexelFormat::Rgba32i => {
            let a: Vec<i32> = (0..n as i32).map(|i| i * 7 - 5000).collect();
            let b: Vec<i32> = (0..n as i32).map(|i| i32::MIN / 2 + i * 3).collect();
            let c: Vec<u32> = a
                .iter()
                .zip(&b)
                .map(|(x, y)| x.wrapping_add(*y) as u32)
                .collect();
            let words = |v: Vec<i32>| v.into_iter().map(|x| x as u32).collect();
            (words(a), words(b), c)
        }
        _ => {
            let a: Vec<u32> = (0..n as u32).map(|i| i * 11 + 3_000_000_000).collect();
            let b: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(2_654_435_761))
                .collect();
            let c = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
            (a, b, c)
        }
    }
}

/// Runs the add kernel of `elem` over `texels` texels in a command batch,
/// `a` and `b` ranges of one larger slice (`b` at a non-zero aligned
/// offset, bound with a size that is not a whole number of texels, which
/// the view rounds down); returns whether every word matched.
fn batch_add(ctx: &Context, elem: Elem, texels: usize) {
    let pipeline = add_pipeline(ctx, elem);
    let pool = host_pool(ctx);
    let (a, b, want) = inputs(elem, texels);
    let bytes = (texels * 16) as u64;
    let align = ctx.limits().min_texel_buffer_offset_alignment.max(16);
    let b_at = (bytes + 3 * align).next_multiple_of(align);
    let mut inputs = pool.allocate(b_at + bytes + 8).unwrap();
    inputs.write(0, &words_le(&a)).unwrap();
    inputs.write(b_at, &words_le(&b)).unwrap();
    let out = pool.allocate(bytes).unwrap();
    let timeline = Timeline::new(ctx).unwrap();
    let mut batch = CommandBatch::new(ctx).unwrap();
    batch
        .dispatch(
            &pipeline,
            &[
                SliceBinding::new(0, 0, &inputs).range(0, Some(bytes)),
                // 8 bytes past the last whole texel: the view drops them.
                SliceBinding::new(0, 1, &inputs).range(b_at, Some(bytes + 8)),
                SliceBinding::new(0, 2, &out),
            ],
            &[],
            [texels as u32 / WG, 1, 1],
        )
        .unwrap();
    let submission = batch.submit(&timeline).unwrap();
    submission.wait().unwrap();
    // Recycling destroys the batch's buffer views after the work.
    let batch = submission.recycle().unwrap();
    assert!(batch.is_empty());
    drop(batch);
    let got = read_words(&out, 0, texels * 4);
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "{:?}: word {i} of {}", elem.format, want.len());
    }
    assert_no_validation_messages(ctx);
}

#[test]
fn uniform_texel_buffers_add_rgba32f_in_a_batch() {
    let ctx = test_context();
    batch_add(&ctx, F32, 64 * 17);
}

#[test]
fn uniform_texel_buffers_add_rgba32i_and_rgba32ui_in_a_batch() {
    let ctx = test_context();
    batch_add(&ctx, I32, 64 * 5);
    batch_add(&ctx, U32, 64 * 5);
}

#[test]
fn one_shot_dispatch_binds_texel_buffers_at_an_offset() {
    let ctx = test_context();
    let pipeline = add_pipeline(&ctx, F32);
    let texels = 64 * 3;
    let (a, b, want) = inputs(F32, texels);
    let bytes = (texels * 16) as u64;
    let align = ctx.limits().min_texel_buffer_offset_alignment.max(16);
    let at = align * 2;
    let words_of = |w: &[u32]| -> Vec<f32> { w.iter().map(|&x| f32::from_bits(x)).collect() };
    let mut padded = vec![f32::NAN; (at / 4) as usize];
    padded.extend(words_of(&a));
    let buf_a = Buffer::from_slice(&ctx, &padded).unwrap();
    let buf_b = Buffer::from_slice(&ctx, &words_of(&b)).unwrap();
    let buf_c = Buffer::new(&ctx, bytes).unwrap();
    ctx.dispatch_bindings(
        &pipeline,
        &[
            BufferBinding::new(0, 0, &buf_a).range(at, Some(bytes)),
            BufferBinding::new(0, 1, &buf_b),
            BufferBinding::new(0, 2, &buf_c),
        ],
        &[],
        [texels as u32 / WG, 1, 1],
    )
    .unwrap();
    let got: Vec<f32> = buf_c.to_vec();
    let got: Vec<u32> = got.into_iter().map(f32::to_bits).collect();
    assert_eq!(got, want);
    assert_no_validation_messages(&ctx);
}

#[test]
fn misaligned_texel_offsets_and_unknown_formats_are_refused_before_vulkan() {
    let ctx = test_context();
    let pipeline = add_pipeline(&ctx, F32);
    let align = ctx.limits().min_texel_buffer_offset_alignment;
    assert!(
        align > 4,
        "lavapipe aligns texel views to 16 bytes, got {align}"
    );
    let pool = host_pool(&ctx);
    let inputs = pool.allocate(4096).unwrap();
    let out = pool.allocate(1024).unwrap();
    let mut batch = CommandBatch::new(&ctx).unwrap();
    let before = ctx.vulkan_call_count();
    let err = batch
        .dispatch(
            &pipeline,
            &[
                SliceBinding::new(0, 0, &inputs).range(4, Some(1024)),
                SliceBinding::new(0, 1, &inputs).range(2048, Some(1024)),
                SliceBinding::new(0, 2, &out),
            ],
            &[],
            [1, 1, 1],
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::MisalignedOffset {
                set: 0,
                binding: 0,
                offset: 4,
                limit_name: "minTexelBufferOffsetAlignment",
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "binding 0:0: offset 4 is not a multiple of the device limit \
             minTexelBufferOffsetAlignment = {align}"
        )
    );
    // Less than one texel.
    let err = batch
        .dispatch(
            &pipeline,
            &[
                SliceBinding::new(0, 0, &inputs).range(0, Some(12)),
                SliceBinding::new(0, 1, &inputs).range(2048, Some(1024)),
                SliceBinding::new(0, 2, &out),
            ],
            &[],
            [1, 1, 1],
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::BufferTooSmall {
                required: 16,
                size: 12,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(ctx.vulkan_call_count(), before, "no Vulkan call was made");

    // A module that leaves the format to the host reflects and makes a
    // pipeline, but kiln cannot create its view.
    let src = texel_add("f32", "Unknown", "spirv.FAdd");
    let (words, iface) = compile_abi_kernel(&ctx, &src, "main");
    assert_eq!(iface.bindings[0].texel_format, Some(TexelFormat::Unknown));
    let unknown = Arc::new(ComputePipeline::new(&ctx, &words, &iface).unwrap());
    let before = ctx.vulkan_call_count();
    let err = batch
        .dispatch(
            &unknown,
            &[
                SliceBinding::new(0, 0, &inputs).range(0, Some(1024)),
                SliceBinding::new(0, 1, &inputs).range(2048, Some(1024)),
                SliceBinding::new(0, 2, &out),
            ],
            &[],
            [1, 1, 1],
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::UnknownTexelFormat {
                set: 0,
                binding: 0,
                ..
            }
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("kiln needs an explicit format"),
        "{err}"
    );
    assert_eq!(ctx.vulkan_call_count(), before, "no Vulkan call was made");
    assert!(batch.is_empty());
    assert_no_validation_messages(&ctx);
}

#[test]
fn a_storage_texel_buffer_is_written_with_image_write() {
    let ctx = test_context();
    let (words, iface) = compile_abi_kernel(&ctx, TEXEL_STORE, "main");
    let b = &iface.bindings[0];
    assert_eq!(b.descriptor_type, DescriptorType::StorageTexelBuffer);
    assert_eq!(b.texel_format, Some(TexelFormat::R32ui));
    let pipeline = Arc::new(ComputePipeline::new(&ctx, &words, &iface).unwrap());
    let pool = host_pool(&ctx);
    let n = 64 * 9;
    let mut out = pool.allocate((n * 4) as u64).unwrap();
    out.write(0, &vec![0xffu8; n * 4]).unwrap();
    let timeline = Timeline::new(&ctx).unwrap();
    let mut batch = CommandBatch::new(&ctx).unwrap();
    batch
        .dispatch(
            &pipeline,
            &[SliceBinding::new(0, 0, &out)],
            &[],
            [n as u32 / WG, 1, 1],
        )
        .unwrap();
    batch.submit(&timeline).unwrap().wait().unwrap();
    let want: Vec<u32> = (0..n as u32).collect();
    assert_eq!(read_words(&out, 0, n), want);
    assert_no_validation_messages(&ctx);
}

#[test]
fn kiln_runtime_binds_tensors_as_uniform_texel_buffers() {
    let device = device();
    let src = texel_add("f32", "Rgba32f", "spirv.FAdd");
    let (words, _) = compile_abi_kernel(device.context(), &src, "main");
    let kernel = device
        .load_kernel(KernelSource::spirv(&words, "main"))
        .unwrap();
    let texels = 64 * 6;
    let n = texels * 4;
    let (a, b, want) = inputs(F32, texels);
    let floats = |w: &[u32]| -> Vec<f32> { w.iter().map(|&x| f32::from_bits(x)).collect() };
    // `a` is a view four elements (16 bytes) into a larger tensor.
    let mut padded = vec![f32::NAN; 4];
    padded.extend(floats(&a));
    padded.extend([f32::NAN; 4]);
    let big = Tensor::from_slice(&device, &padded, &[n + 8]).unwrap();
    let ta = big.narrow(0, 4, n).unwrap();
    let tb = Tensor::from_slice(&device, &floats(&b), &[n]).unwrap();
    let tc = Tensor::empty(&device, DType::F32, &[n]).unwrap();
    let stream = device.stream();
    let align = device.limits().min_texel_buffer_offset_alignment;
    if 16 % align == 0 {
        stream
            .dispatch(&kernel, &[&ta, &tb, &tc], [texels as u32 / WG, 1, 1])
            .unwrap();
    } else {
        // The device needs a coarser alignment: bind the tensor whole.
        let ta = Tensor::from_slice(&device, &floats(&a), &[n]).unwrap();
        stream
            .dispatch(&kernel, &[&ta, &tb, &tc], [texels as u32 / WG, 1, 1])
            .unwrap();
    }
    stream.sync().unwrap();
    let got: Vec<u32> = tc
        .to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f32::to_bits)
        .collect();
    assert_eq!(got, want);

    // A view at 4 bytes breaks the texel alignment: a typed error.
    let misaligned = big.narrow(0, 1, n).unwrap();
    let err = stream
        .dispatch(&kernel, &[&misaligned, &tb, &tc], [1, 1, 1])
        .unwrap_err();
    assert!(
        matches!(
            err,
            kiln_runtime::Error::Vulkan(Error::MisalignedOffset {
                limit_name: "minTexelBufferOffsetAlignment",
                ..
            })
        ),
        "{err}"
    );
    assert_no_validation_messages(device.context());
}

#[test]
fn a_batch_makes_one_view_per_range_it_binds() {
    let ctx = test_context();
    let pipeline = add_pipeline(&ctx, F32);
    let pool = host_pool(&ctx);
    let texels = 64 * 2;
    let bytes = (texels * 16) as u64;
    let (a, b, want) = inputs(F32, texels);
    let mut a_slice = pool.allocate(bytes).unwrap();
    a_slice.write(0, &words_le(&a)).unwrap();
    // `b` twice: at 0 and at `bytes` of one slice.
    let mut b_slice = pool.allocate(2 * bytes).unwrap();
    b_slice.write(0, &words_le(&b)).unwrap();
    b_slice.write(bytes, &words_le(&b)).unwrap();
    let outs: Vec<Slice> = (0..3).map(|_| pool.allocate(bytes).unwrap()).collect();
    let timeline = Timeline::new(&ctx).unwrap();
    let mut batch = CommandBatch::new(&ctx).unwrap();
    let mut calls = Vec::new();
    for (k, out) in outs.iter().enumerate() {
        let b_at = if k == 2 { bytes } else { 0 };
        let before = ctx.vulkan_call_count();
        batch
            .dispatch(
                &pipeline,
                &[
                    SliceBinding::new(0, 0, &a_slice).range(0, Some(bytes)),
                    SliceBinding::new(0, 1, &b_slice).range(b_at, Some(bytes)),
                    SliceBinding::new(0, 2, out),
                ],
                &[],
                [texels as u32 / WG, 1, 1],
            )
            .unwrap();
        calls.push(ctx.vulkan_call_count() - before);
    }
    // The second dispatch reuses both views of the first; the third makes
    // one for `b`'s other range (one more call) and reuses `a`'s.
    assert_eq!(calls[2], calls[1] + 1, "calls per dispatch: {calls:?}");
    batch.submit(&timeline).unwrap().wait().unwrap();
    for out in &outs {
        assert_eq!(read_words(out, 0, texels * 4), want);
    }
    assert_no_validation_messages(&ctx);
}
