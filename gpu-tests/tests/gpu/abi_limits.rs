//! Limit and binding violations are errors before Vulkan: each test builds
//! a kernel (spv text with interface attributes, lowered, serialized and
//! validated like any other) or a dispatch that breaks one rule of the
//! device, and checks that pipeline creation or dispatch fails with a
//! message naming the limit (or binding) and the value, while
//! [`Context::vulkan_call_count`](kiln_vulkan::Context::vulkan_call_count)
//! shows that no Vulkan object was created and no command recorded. The
//! limits are the device's own (read from the context), so the kernels
//! exceed them on any device; the compiler-side check
//! ([`kiln_abi::PipelineInterface::check_limits`] against the device's
//! target env) must report the same violation.

use kiln_abi::PipelineInterface;
use kiln_core::reflect::reflect_binary;
use kiln_gpu_tests::{
    assert_no_validation_messages, compile_abi_kernel as compile, compile_glsl, test_context,
    Buffer, ComputePipeline,
};
use kiln_vulkan::{BufferBinding, Context, Error};

/// An entry function `@k` with `args` (text of the argument list), extra
/// module-level `globals`, `body` ops before the return, and a workgroup
/// size.
fn kernel(globals: &str, args: &str, body: &str, wg: [u32; 3]) -> String {
    let [x, y, z] = wg;
    format!(
        r#"spirv.module Logical GLSL450 {{
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  {globals}
  spirv.func @k({args}) "None" attributes {{spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [{x}, {y}, {z}]>}} {{
    {body}
    spirv.Return
  }}
}}
"#
    )
}

/// A storage-buffer argument of 256 f32 at `(set, binding)`.
fn buffer_arg(name: &str, set: u32, binding: u32) -> String {
    format!(
        "%{name}: !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer> \
         {{spirv.interface_var_abi = #spirv.interface_var_abi<({set}, {binding})>}}"
    )
}

/// `out[gid.x] = 1.0` for the argument `%out` of [`buffer_arg`].
const STORE_ONE: &str = r#"
    %id = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %id : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %one = spirv.Constant 1.0 : f32
    %p = spirv.AccessChain %out[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %one : f32"#;

/// The message of a limit violation, as both the runtime and the ABI
/// crate spell it.
fn limit_message(what: &str, value: u64, name: &str, limit: u64) -> String {
    format!("{what} is {value}, above the device limit {name} = {limit}")
}

/// Creating a pipeline for `words`/`iface` fails with `expected` and makes
/// no Vulkan call; the compiler-side check against the device's target env
/// reports the same.
#[track_caller]
fn assert_pipeline_rejected(
    ctx: &Context,
    words: &[u32],
    iface: &PipelineInterface,
    expected: &str,
) {
    let before = ctx.vulkan_call_count();
    let err = ComputePipeline::new(ctx, words, iface).expect_err("the pipeline must be rejected");
    assert!(matches!(err, Error::LimitExceeded { .. }), "{err:?}");
    assert_eq!(err.to_string(), expected);
    assert_eq!(
        ctx.vulkan_call_count(),
        before,
        "a Vulkan call was made before the check"
    );
    let compiler_side = iface
        .check_limits(&kiln_core::reflect::limits(ctx.target_env()))
        .expect_err("the target env check must fail too");
    assert_eq!(compiler_side.to_string(), expected);
    assert_no_validation_messages(ctx);
}

#[test]
fn more_storage_buffers_than_the_device_allows() {
    let ctx = test_context();
    let max = ctx.limits().max_per_stage_descriptor_storage_buffers;
    // A descriptor array of `max` storage buffers and one more buffer: one
    // over the limit on any device, however large (lavapipe allows a few
    // hundred per stage, an NVIDIA H200 1,048,576).
    let src = format!(
        "#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {{ float v[]; }} b[{max}];
layout(set = 1, binding = 0) buffer O {{ float o[]; }};
void main() {{ o[0] = b[0].v[0] + b[{last}].v[0]; }}
",
        last = max - 1
    );
    let words = compile_glsl("too_many_storage_buffers", &src);
    let iface = reflect_binary(&words, "main").unwrap();
    let count: u32 = iface.bindings.iter().map(|b| b.count).sum();
    assert_eq!(count, max + 1);
    let expected = limit_message(
        "the number of storage buffers used by entry point \"main\"",
        u64::from(max) + 1,
        "maxPerStageDescriptorStorageBuffers",
        max.into(),
    );
    assert_pipeline_rejected(&ctx, &words, &iface, &expected);
}

#[test]
fn workgroup_over_max_invocations() {
    let ctx = test_context();
    let l = *ctx.limits();
    let max = l.max_compute_work_group_invocations;
    // x at its own limit, y just enough to pass the total (each dimension
    // within its limit).
    let x = l.max_compute_work_group_size[0].min(max);
    let y = max / x + 1;
    assert!(y <= l.max_compute_work_group_size[1]);
    let src = kernel("", &buffer_arg("out", 0, 0), STORE_ONE, [x, y, 1]);
    let (words, iface) = compile(&ctx, &src, "k");
    let total = u64::from(x) * u64::from(y);
    let expected = limit_message(
        &format!(
            "the number of invocations per workgroup of entry point \"k\" (workgroup size [{x}, {y}, 1])"
        ),
        total,
        "maxComputeWorkGroupInvocations",
        max.into(),
    );
    assert_pipeline_rejected(&ctx, &words, &iface, &expected);
}

#[test]
fn workgroup_over_a_dimension_limit() {
    let ctx = test_context();
    // z one above its limit; when that also exceeds the total, the
    // dimension is still the first violation reported.
    let z = ctx.limits().max_compute_work_group_size[2] + 1;
    let src = kernel("", &buffer_arg("out", 0, 0), STORE_ONE, [1, 1, z]);
    let (words, iface) = compile(&ctx, &src, "k");
    let expected = limit_message(
        "the workgroup size in z of entry point \"k\"",
        z.into(),
        "maxComputeWorkGroupSize",
        (z - 1).into(),
    );
    assert_pipeline_rejected(&ctx, &words, &iface, &expected);
}

#[test]
fn push_constants_over_max_push_constants_size() {
    let ctx = test_context();
    let max = ctx.limits().max_push_constants_size;
    // One i32 more than fits.
    let n = max / 4 + 1;
    let mut args: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "%p{i}: i32 {{spirv.interface_var_abi = #spirv.interface_var_abi<(0, {}), PushConstant>}}",
                i + 1
            )
        })
        .collect();
    args.push(buffer_arg("out", 0, 0));
    // The last push constant is used, so the whole block is.
    let body = format!(
        r#"{STORE_ONE}
    %last = spirv.ConvertSToF %p{} : i32 to f32
    spirv.Store "StorageBuffer" %p, %last : f32"#,
        n - 1
    );
    let src = kernel("", &args.join(",\n      "), &body, [1, 1, 1]);
    let (words, iface) = compile(&ctx, &src, "k");
    assert_eq!(iface.push_constants.map(|p| p.size), Some(4 * n));
    let expected = limit_message(
        "the end of the push-constant range of entry point \"k\"",
        u64::from(4 * n),
        "maxPushConstantsSize",
        max.into(),
    );
    assert_pipeline_rejected(&ctx, &words, &iface, &expected);
}

#[test]
fn shared_memory_over_the_limit() {
    let ctx = test_context();
    let max = ctx.limits().max_compute_shared_memory_size;
    let floats = max / 4 + 1;
    let globals =
        format!("spirv.GlobalVariable @shm : !spirv.ptr<!spirv.array<{floats} x f32>, Workgroup>");
    let body = format!(
        r#"{STORE_ONE}
    %s = spirv.mlir.addressof @shm : !spirv.ptr<!spirv.array<{floats} x f32>, Workgroup>
    %ps = spirv.AccessChain %s[%i] : !spirv.ptr<!spirv.array<{floats} x f32>, Workgroup>, i32
    spirv.Store "Workgroup" %ps, %one : f32"#
    );
    let src = kernel(&globals, &buffer_arg("out", 0, 0), &body, [1, 1, 1]);
    let (words, iface) = compile(&ctx, &src, "k");
    assert_eq!(iface.workgroup_memory, u64::from(floats) * 4);
    let expected = limit_message(
        "the workgroup memory (bytes) of entry point \"k\"",
        u64::from(floats) * 4,
        "maxComputeSharedMemorySize",
        max.into(),
    );
    assert_pipeline_rejected(&ctx, &words, &iface, &expected);
}

/// A valid two-buffer pipeline for the dispatch-time checks.
fn two_buffer_pipeline(ctx: &Context) -> ComputePipeline {
    let args = [
        buffer_arg("out", 0, 0),
        "%rt: !spirv.ptr<!spirv.rtarray<vector<2xf32>>, StorageBuffer> \
         {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}"
            .to_owned(),
    ];
    let body = format!(
        r#"{STORE_ONE}
    %pr = spirv.AccessChain %rt[%i] : !spirv.ptr<!spirv.rtarray<vector<2xf32>>, StorageBuffer>, i32
    %two = spirv.Constant dense<2.0> : vector<2xf32>
    spirv.Store "StorageBuffer" %pr, %two : vector<2xf32>"#
    );
    let src = kernel("", &args.join(",\n      "), &body, [64, 1, 1]);
    let (words, iface) = compile(ctx, &src, "k");
    assert_eq!(iface.binding(0, 0).unwrap().min_size, 1024);
    assert_eq!(iface.binding(0, 1).unwrap().element_stride, Some(8));
    ComputePipeline::new(ctx, &words, &iface).unwrap()
}

/// `dispatch_bindings` fails with `expected` and makes no Vulkan call.
#[track_caller]
fn assert_dispatch_rejected(
    ctx: &Context,
    pipeline: &ComputePipeline,
    bindings: &[BufferBinding<'_>],
    groups: [u32; 3],
    expected: &str,
) {
    let before = ctx.vulkan_call_count();
    let err = ctx
        .dispatch_bindings(pipeline, bindings, &[], groups)
        .expect_err("the dispatch must be rejected");
    assert_eq!(err.to_string(), expected);
    assert_eq!(
        ctx.vulkan_call_count(),
        before,
        "a Vulkan call was made before the check"
    );
    assert_no_validation_messages(ctx);
}

#[test]
fn dispatch_time_checks() {
    let ctx = test_context();
    let pipeline = two_buffer_pipeline(&ctx);
    let out = Buffer::new(&ctx, 1024).unwrap();
    let rt = Buffer::new(&ctx, 8 * 64).unwrap();
    let small = Buffer::new(&ctx, 1000).unwrap();
    let good = [
        BufferBinding::new(0, 0, &out),
        BufferBinding::new(0, 1, &rt),
    ];

    // The valid dispatch runs (and the counter moves).
    let before = ctx.vulkan_call_count();
    ctx.dispatch_bindings(&pipeline, &good, &[], [1, 1, 1])
        .unwrap();
    assert!(ctx.vulkan_call_count() > before);
    assert!(out.to_vec::<f32>()[..64].iter().all(|&x| x == 1.0));
    assert!(rt.to_vec::<f32>().iter().all(|&x| x == 2.0));

    // A missing buffer.
    assert_dispatch_rejected(
        &ctx,
        &pipeline,
        &good[..1],
        [1, 1, 1],
        "binding 0:1 (storage buffer) is used by entry point \"k\" but no buffer was given for it",
    );
    // A buffer too small for a static array of 256 f32.
    assert_dispatch_rejected(
        &ctx,
        &pipeline,
        &[BufferBinding::new(0, 0, &small), good[1]],
        [1, 1, 1],
        "binding 0:0 needs at least 1024 bytes, but its buffer has 1000",
    );
    // Dispatch over maxComputeWorkGroupCount in y.
    let max_y = ctx.limits().max_compute_work_group_count[1];
    assert_dispatch_rejected(
        &ctx,
        &pipeline,
        &good,
        [1, max_y + 1, 1],
        &limit_message(
            "the number of workgroups in y",
            u64::from(max_y) + 1,
            "maxComputeWorkGroupCount",
            max_y.into(),
        ),
    );
    // A runtime array of vec2 bound with half an element.
    assert_dispatch_rejected(
        &ctx,
        &pipeline,
        &[
            good[0],
            BufferBinding::new(0, 1, &rt).range(0, Some(8 * 10 + 4)),
        ],
        [1, 1, 1],
        "binding 0:1: the bound 84 bytes are not the fixed 0 bytes plus a whole number of \
         8-byte elements",
    );
    // An offset that breaks minStorageBufferOffsetAlignment.
    let align = ctx.limits().min_storage_buffer_offset_alignment;
    if align > 1 {
        let big = Buffer::new(&ctx, 8 * 64 + 4 * align).unwrap();
        let offset = align + align / 2;
        assert_dispatch_rejected(
            &ctx,
            &pipeline,
            &[
                good[0],
                BufferBinding::new(0, 1, &big).range(offset, Some(64)),
            ],
            [1, 1, 1],
            &format!(
                "binding 0:1: offset {offset} is not a multiple of the device limit \
                 minStorageBufferOffsetAlignment = {align}"
            ),
        );
    }
    // A range past the end of its buffer.
    assert_dispatch_rejected(
        &ctx,
        &pipeline,
        &[
            good[0],
            BufferBinding::new(0, 1, &rt).range(0, Some(8 * 65)),
        ],
        [1, 1, 1],
        "binding 0:1: the range of 520 bytes at offset 0 ends beyond the buffer's 512 bytes",
    );
}
