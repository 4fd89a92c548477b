//! Descriptor arrays and dynamic buffer descriptors through kiln-vulkan's
//! safe API (`BufferBinding::element`, `ComputePipeline::with_dynamic_bindings`,
//! `BufferBinding::dynamic_offset`) on the device, validation layer on:
//! results against host computations, and every misuse rejected before
//! any Vulkan call, naming the binding.

use kiln_core::reflect::reflect_binary;
use kiln_gpu_tests::{assert_no_validation_messages, compile_glsl, test_context};
use kiln_vulkan::{Buffer, BufferBinding, ComputePipeline, Error};

/// b[k].v[i] += 100 * (k + 1) over a descriptor array of three buffers.
const ARRAY: &str = r#"#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[4]; } b[3];
void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; k < 3u; k++) {
        b[k].v[i] += 100u * (k + 1u);
    }
}
"#;

/// w[i] = i + tag over a 16-byte window of a dynamic storage buffer.
const WINDOW: &str = r#"#version 450
layout(local_size_x = 4) in;
layout(push_constant) uniform P { uint tag; } p;
layout(set = 0, binding = 0) buffer W { uint w[4]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    w[i] = i + p.tag;
}
"#;

#[test]
fn descriptor_array_elements_bind_their_own_buffers() {
    let ctx = test_context();
    let words = compile_glsl("descriptor_array", ARRAY);
    let iface = reflect_binary(&words, "main").unwrap();
    assert_eq!(iface.bindings.len(), 1);
    assert_eq!(iface.bindings[0].count, 3);
    let pipeline = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let buffers: Vec<Buffer> = (0..3u32)
        .map(|k| Buffer::from_slice(&ctx, &[k, k + 10, k + 20, k + 30]).unwrap())
        .collect();
    let bindings: Vec<BufferBinding<'_>> = buffers
        .iter()
        .enumerate()
        .map(|(k, b)| BufferBinding::new(0, 0, b).element(k as u32))
        .collect();

    // Every element must be given, once, and none past the end.
    let before = ctx.vulkan_call_count();
    let err = ctx
        .dispatch_bindings(&pipeline, &bindings[..2], &[], [1, 1, 1])
        .unwrap_err();
    assert!(matches!(
        err,
        Error::MissingArrayElement {
            element: 2,
            count: 3,
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "binding 0:0 of entry point \"main\" is an array of 3 descriptors, but no buffer \
         was given for element 2"
    );
    let mut extra = bindings.clone();
    extra.push(BufferBinding::new(0, 0, &buffers[0]).element(3));
    let err = ctx
        .dispatch_bindings(&pipeline, &extra, &[], [1, 1, 1])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "a buffer was given for element 3 of binding 0:0, which has 3 descriptor(s)"
    );
    let mut twice = bindings.clone();
    twice[2] = twice[1];
    let err = ctx
        .dispatch_bindings(&pipeline, &twice, &[], [1, 1, 1])
        .unwrap_err();
    assert_eq!(err.to_string(), "two buffers were given for binding 0:0");
    assert_eq!(ctx.vulkan_call_count(), before, "rejected before Vulkan");

    ctx.dispatch_bindings(&pipeline, &bindings, &[], [1, 1, 1])
        .unwrap();
    for (k, b) in buffers.iter().enumerate() {
        let k = k as u32;
        let add = 100 * (k + 1);
        assert_eq!(
            b.to_vec::<u32>(),
            [k + add, k + 10 + add, k + 20 + add, k + 30 + add],
            "element {k}"
        );
    }
    assert_no_validation_messages(&ctx);
}

#[test]
fn dynamic_offsets_move_the_window_per_dispatch() {
    let ctx = test_context();
    let words = compile_glsl("dynamic_window", WINDOW);
    let iface = reflect_binary(&words, "main").unwrap();
    let align = ctx.limits().min_storage_buffer_offset_alignment.max(16);
    let data = Buffer::from_slice(&ctx, &vec![0u32; (4 * align / 4) as usize]).unwrap();

    // Binding names are checked at pipeline creation.
    let err =
        ComputePipeline::with_dynamic_bindings(&ctx, &words, &iface, &[], &[(0, 1)]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "binding 0:1: made dynamic, but entry point \"main\" does not use it"
    );

    // A dispatch of `pipeline` over the window moved by `offset` that must
    // fail: its message.
    let window = BufferBinding::new(0, 0, &data).range(0, Some(16));
    let rejected = |pipeline: &ComputePipeline, offset: u64| {
        ctx.dispatch_bindings(
            pipeline,
            &[window.dynamic_offset(offset as u32)],
            &1u32.to_le_bytes(),
            [1, 1, 1],
        )
        .unwrap_err()
        .to_string()
    };
    let plain = ComputePipeline::new(&ctx, &words, &iface).unwrap();
    let dynamic =
        ComputePipeline::with_dynamic_bindings(&ctx, &words, &iface, &[], &[(0, 0)]).unwrap();
    let before = ctx.vulkan_call_count();
    // A plain pipeline takes no dynamic offset.
    assert_eq!(
        rejected(&plain, align),
        format!(
            "binding 0:0[0]: dynamic offset {align}: the pipeline does not make the binding dynamic"
        )
    );
    assert_eq!(
        rejected(&dynamic, align + 4),
        format!(
            "binding 0:0[0]: dynamic offset {}: not a multiple of the device limit \
             minStorageBufferOffsetAlignment = {align}",
            align + 4
        )
    );
    assert_eq!(
        rejected(&dynamic, 4 * align),
        format!(
            "binding 0:0[0]: dynamic offset {}: the 16 bytes bound at offset 0 end past the \
             {}-byte buffer when moved by it",
            4 * align,
            4 * align
        )
    );
    assert_eq!(ctx.vulkan_call_count(), before, "rejected before Vulkan");

    // One pipeline, one descriptor range, three windows.
    for (k, tag) in [(0u32, 10u32), (2, 20), (3, 30)] {
        ctx.dispatch_bindings(
            &dynamic,
            &[window.dynamic_offset(k * align as u32)],
            &tag.to_le_bytes(),
            [1, 1, 1],
        )
        .unwrap();
    }
    let words_per_window = (align / 4) as usize;
    let out = data.to_vec::<u32>();
    for (k, tag) in [(0usize, 10u32), (1, 0), (2, 20), (3, 30)] {
        let at = k * words_per_window;
        let expected: Vec<u32> = if tag == 0 {
            vec![0; 4]
        } else {
            (0..4).map(|i| i + tag).collect()
        };
        assert_eq!(out[at..at + 4], expected, "window {k}");
    }
    assert_no_validation_messages(&ctx);
}
