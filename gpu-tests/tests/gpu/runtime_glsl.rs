//! The runtime spine end to end: GLSL → SPIR-V (glslangValidator) →
//! reflected interface → pipeline → dispatch on the Vulkan device (lavapipe
//! in CI), validation layer on, zero messages allowed.

use kiln_abi::{Access, DescriptorType, PushConstantRange};
use kiln_core::reflect::reflect_binary;
use kiln_gpu_tests::{assert_no_validation_messages, compile_glsl, test_context};
use kiln_vulkan::{ash::vk, Buffer, ComputePipeline, Error, MessageSeverity};

const VECTOR_ADD: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < c.length()) {
        c[i] = a[i] + b[i];
    }
}
"#;

/// Push constants plus sparse sets {0, 2}: y[i] = scale * x[i] + offset.
const SAXPY_SETS_0_2: &str = r#"#version 450
layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;
layout(push_constant) uniform Params { float scale; float offset; uint n; } params;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 2, binding = 3) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        y[i] = params.scale * x[i] + params.offset;
    }
}
"#;

#[test]
fn vector_add() {
    let words = compile_glsl("vector_add", VECTOR_ADD);
    let iface = reflect_binary(&words, "main").expect("reflect");
    assert_eq!(iface.workgroup_size, [64, 1, 1]);
    assert_eq!(iface.push_constants, None);
    let summary: Vec<_> = iface
        .bindings
        .iter()
        .map(|b| {
            (
                b.set,
                b.binding,
                b.descriptor_type,
                b.access,
                b.element_stride,
            )
        })
        .collect();
    use DescriptorType::StorageBuffer as S;
    assert_eq!(
        summary,
        vec![
            (0, 0, S, Access::ReadOnly, Some(4)),
            (0, 1, S, Access::ReadOnly, Some(4)),
            (0, 2, S, Access::WriteOnly, Some(4)),
        ]
    );

    let ctx = test_context();
    let n = 1000usize; // not a multiple of 64: the bounds check matters
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32 + 1.0).collect();
    let buf_a = Buffer::from_slice(&ctx, &a).unwrap();
    let buf_b = Buffer::from_slice(&ctx, &b).unwrap();
    let buf_c = Buffer::new(&ctx, (n * 4) as u64).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let groups = (n as u32).div_ceil(64);
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &buf_a), (0, 1, &buf_b), (0, 2, &buf_c)],
        &[],
        [groups, 1, 1],
    )
    .unwrap();
    let c: Vec<f32> = buf_c.to_vec();
    let expected: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(c, expected);

    // Dispatching again reuses the pipeline and buffers.
    ctx.dispatch(
        &pipeline,
        &[(0, 2, &buf_c), (0, 0, &buf_c), (0, 1, &buf_b)],
        &[],
        [groups, 1, 1],
    )
    .unwrap();
    let c2: Vec<f32> = buf_c.to_vec();
    let expected2: Vec<f32> = expected.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(c2, expected2);
    assert_no_validation_messages(&ctx);
}

#[test]
fn push_constants_and_sparse_sets() {
    let words = compile_glsl("saxpy_sets_0_2", SAXPY_SETS_0_2);
    let iface = reflect_binary(&words, "main").expect("reflect");
    assert_eq!(iface.sets(), vec![0, 2]);
    assert_eq!(
        iface.push_constants,
        Some(PushConstantRange {
            offset: 0,
            size: 12
        })
    );
    assert_eq!(iface.binding(2, 3).unwrap().access, Access::ReadWrite);

    let ctx = test_context();
    let n = 37u32;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let buf_x = Buffer::from_slice(&ctx, &x).unwrap();
    // y is larger than n: the tail must stay untouched.
    let mut buf_y = Buffer::new(&ctx, 64 * 4).unwrap();
    buf_y.write_slice(&vec![-1.0f32; 64]).unwrap();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let mut push = Vec::new();
    push.extend_from_slice(&2.0f32.to_le_bytes());
    push.extend_from_slice(&0.5f32.to_le_bytes());
    push.extend_from_slice(&n.to_le_bytes());
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &buf_x), (2, 3, &buf_y)],
        &push,
        [n.div_ceil(8), 1, 1],
    )
    .unwrap();
    let y: Vec<f32> = buf_y.to_vec();
    assert_eq!(y.len(), 64);
    for (i, &got) in y.iter().enumerate() {
        let want = if i < n as usize {
            2.0 * i as f32 + 0.5
        } else {
            -1.0
        };
        assert_eq!(got, want, "y[{i}]");
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn binding_mistakes_are_caught_before_vulkan() {
    let words = compile_glsl("vector_add_mistakes", VECTOR_ADD);
    let iface = reflect_binary(&words, "main").unwrap();
    let ctx = test_context();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let buf = Buffer::new(&ctx, 16).unwrap();

    let err = ctx
        .dispatch(&pipeline, &[(0, 0, &buf), (0, 1, &buf)], &[], [1, 1, 1])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 0:2 (storage buffer) is used by entry point \"main\" but no buffer was given for it"
    );
    let err = ctx
        .dispatch(
            &pipeline,
            &[(0, 0, &buf), (0, 1, &buf), (0, 2, &buf), (1, 0, &buf)],
            &[],
            [1, 1, 1],
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "a buffer was given for binding 1:0, which entry point \"main\" does not use \
         (it uses: 0:0, 0:1, 0:2)"
    );
    let err = ctx
        .dispatch(
            &pipeline,
            &[(0, 0, &buf), (0, 1, &buf), (0, 2, &buf)],
            &[1, 2, 3, 4],
            [1, 1, 1],
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::PushConstantSize {
                expected: 0,
                got: 4,
                ..
            }
        ),
        "{err}"
    );
    let err = ctx
        .dispatch(
            &pipeline,
            &[(0, 0, &buf), (0, 1, &buf), (0, 2, &buf)],
            &[],
            [u32::MAX, 1, 1],
        )
        .unwrap_err();
    assert!(matches!(err, Error::LimitExceeded { .. }), "{err}");

    // A buffer from another context is refused.
    let other = test_context();
    let foreign = Buffer::new(&other, 16).unwrap();
    let err = ctx
        .dispatch(
            &pipeline,
            &[(0, 0, &buf), (0, 1, &buf), (0, 2, &foreign)],
            &[],
            [1, 1, 1],
        )
        .unwrap_err();
    assert!(matches!(err, Error::ForeignObject { .. }), "{err}");
    assert_no_validation_messages(&ctx);
    assert_no_validation_messages(&other);
}

#[test]
fn objects_outlive_their_context_handle() {
    let words = compile_glsl("vector_add_drop_order", VECTOR_ADD);
    let iface = reflect_binary(&words, "main").unwrap();
    let ctx = test_context();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let buf = Buffer::from_slice(&ctx, &[1.0f32, 2.0]).unwrap();
    let probe = ctx.clone();
    drop(ctx);
    // The device is still alive through the objects' handles.
    assert_eq!(buf.to_vec::<f32>(), vec![1.0, 2.0]);
    drop(pipeline);
    drop(buf);
    assert_no_validation_messages(&probe);
}

/// The messenger really delivers layer messages: an invalid call made
/// through the raw device must show up as a validation error.
///
/// `vkCreateBuffer` with `size = 0` violates VUID-VkBufferCreateInfo-size-00912.
/// Strictly, any valid-usage violation is undefined behaviour; this one is
/// chosen because the layer catches it on the create-info alone and lavapipe
/// then merely creates an empty buffer object, which is destroyed at once
/// and never bound or used.
#[test]
#[allow(unsafe_code)] // the raw call the layer is to catch
fn messenger_catches_layer_errors() {
    let ctx = test_context();
    assert_no_validation_messages(&ctx);
    let info = vk::BufferCreateInfo::default()
        .size(0)
        .usage(vk::BufferUsageFlags::STORAGE_BUFFER);
    // SAFETY: see the test's documentation; the buffer is destroyed
    // immediately and never used.
    unsafe {
        if let Ok(buffer) = ctx.raw_device().create_buffer(&info, None) {
            ctx.raw_device().destroy_buffer(buffer, None);
        }
    }
    let messages = ctx.take_validation_messages();
    assert!(
        messages
            .iter()
            .any(|m| m.severity == MessageSeverity::Error && m.id_name.contains("00912")),
        "expected VUID-VkBufferCreateInfo-size-00912, got: {messages:#?}"
    );
}

/// A uniform buffer (std140 block: min_size from its offsets) and a
/// workgroup size given by a specialization constant (reflected with its
/// default value through the `WorkgroupSize` built-in).
const UBO_SPEC_WG: &str = r#"#version 450
layout(local_size_x = 16, local_size_x_id = 0) in;
layout(set = 0, binding = 0) uniform Params { vec4 scale; uint n; } params;
layout(set = 0, binding = 1) buffer Data { vec4 data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        data[i] = data[i] * params.scale;
    }
}
"#;

#[test]
fn uniform_buffer_and_spec_constant_workgroup_size() {
    let words = compile_glsl("ubo_spec_wg", UBO_SPEC_WG);
    let iface = reflect_binary(&words, "main").expect("reflect");
    assert_eq!(iface.workgroup_size, [16, 1, 1]);
    let ubo = iface.binding(0, 0).unwrap();
    assert_eq!(ubo.descriptor_type, DescriptorType::UniformBuffer);
    assert_eq!(ubo.access, Access::ReadOnly);
    assert_eq!(ubo.min_size, 20);
    assert_eq!(ubo.element_stride, None);
    assert_eq!(iface.binding(0, 1).unwrap().element_stride, Some(16));

    let ctx = test_context();
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let n = 20u32;
    let data: Vec<f32> = (0..n * 4).map(|i| i as f32).collect();
    let buf_data = Buffer::from_slice(&ctx, &data).unwrap();

    // Too small for the block: refused before Vulkan sees it.
    let small = Buffer::new(&ctx, 16).unwrap();
    let err = ctx
        .dispatch(
            &pipeline,
            &[(0, 0, &small), (0, 1, &buf_data)],
            &[],
            [2, 1, 1],
        )
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 0:0 needs at least 20 bytes, but its buffer has 16"
    );

    let mut params = Vec::new();
    for s in [1.0f32, 2.0, 3.0, 4.0] {
        params.extend_from_slice(&s.to_le_bytes());
    }
    params.extend_from_slice(&n.to_le_bytes());
    let buf_params = Buffer::from_bytes(&ctx, &params).unwrap();
    ctx.dispatch(
        &pipeline,
        &[(0, 0, &buf_params), (0, 1, &buf_data)],
        &[],
        [n.div_ceil(16), 1, 1],
    )
    .unwrap();
    let out: Vec<f32> = buf_data.to_vec();
    let expected: Vec<f32> = data
        .iter()
        .enumerate()
        .map(|(i, v)| v * (1 + i % 4) as f32)
        .collect();
    assert_eq!(out, expected);
    assert_no_validation_messages(&ctx);
}
