//! Buffers sized at run time past `maxStorageBufferRange` (issue 32): a
//! dispatch binding one gets a `_chunked` variant of its kernels, binding
//! it as `N` descriptors, chosen by a guard on its byte size; the plain
//! kernels take the other runs. The executor refuses such a buffer only
//! past `N` chunks (`CompiledFunction::chunk_limits`). Checked here on
//! lavapipe's env with the range lowered to 4 KiB, without a device (the
//! values are checked by the GPU test `tensor_split_buffers` and the CPU
//! runner's). Costs well under a second (two small functions compiled).

use kiln_core::codegen::exec::BufferSizeError;
use kiln_core::codegen::{explain, CodegenTarget, DriverFacts};

use crate::common::{compile_first, env_file, kernels_validate};

/// lavapipe's env (32 storage descriptors per stage) with a 4 KiB range.
fn small_range() -> CodegenTarget {
    let mut env = env_file("lavapipe.env");
    env.limits.max_storage_buffer_range = 4096;
    CodegenTarget::new(
        env,
        DriverFacts::for_driver("llvmpipe (LLVM 15.0.6, 256 bits)", Some("llvmpipe")),
    )
}

const ADD: &str = r#"func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c = arith.addf %a, %b : tensor<?xf32>
  return %c : tensor<?xf32>
}"#;

/// The element count of buffer `b` of `f` for inputs of `n` elements.
fn count(
    f: &kiln_core::codegen::CompiledFunction,
    b: usize,
    n: u64,
) -> Result<u64, BufferSizeError> {
    let vals = f
        .evaluate_host(&|_, d| (d == 0).then_some(n), &|_| None)
        .expect("host values");
    f.buffer_count(b, &vals, 4096)
}

#[test]
fn a_run_time_sized_add_has_a_chunked_variant_chosen_by_its_size() {
    let f = compile_first(ADD, &small_range());
    kernels_validate(&f);
    let d = &f.dispatches[0];
    let names: Vec<&str> = d.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["f_dispatch_0", "f_dispatch_0_chunked"]);
    let text = explain(&f);
    assert!(text.contains("> 4096"), "{text}");
    assert!(text.contains("<= 4096"), "{text}");
    // Every binding of the variant is an array of the same N descriptors,
    // within lavapipe's 32 per stage.
    let iface = kiln_core::reflect::reflect_binary(&d.kernels[1].words, &d.kernels[1].name)
        .expect("reflects");
    let storage = kiln_abi::DescriptorType::StorageBuffer;
    let counts: Vec<u32> = iface
        .bindings
        .iter()
        .filter(|b| b.descriptor_type == storage)
        .map(|b| b.count)
        .collect();
    let n = counts[0];
    assert!(
        n >= 2 && counts.iter().all(|&c| c == n),
        "{counts:?}\n{text}"
    );
    assert!(counts.iter().sum::<u32>() <= 32, "{counts:?}");
    let plain = kiln_core::reflect::reflect_binary(&d.kernels[0].words, &d.kernels[0].name)
        .expect("reflects");
    assert!(plain.bindings.iter().all(|b| b.count == 1));
    // The guard: the plain kernel up to 1,024 f32 (4 KiB), the variant past.
    let launches = |elems: u64| -> Vec<usize> {
        let vals = f
            .evaluate_host(&|_, dim| (dim == 0).then_some(elems), &|_| None)
            .expect("host values");
        d.kernels
            .iter()
            .map(|k| k.launches(&f.host, &vals).len())
            .collect()
    };
    assert_eq!(launches(1024), [1, 0]);
    assert_eq!(launches(1025), [0, 1]);
    assert_eq!(launches(7), [1, 0]);
    // Each of the three buffers may have N chunks of 4 KiB, not one byte
    // more: the executor refuses the rest before making any buffer.
    let most = u64::from(n) * 4096;
    assert_eq!(
        f.chunk_limits,
        [(0, most), (1, most), (2, most)],
        "{:?}",
        f.chunk_limits
    );
    for b in 0..3 {
        assert_eq!(count(&f, b, most / 4), Ok(most / 4));
        assert!(
            matches!(
                count(&f, b, most / 4 + 1),
                Err(BufferSizeError::TooLarge { max_bytes, .. }) if max_bytes == most
            ),
            "{:?}",
            count(&f, b, most / 4 + 1)
        );
    }
}

/// An H200 (1,048,576 storage descriptors per stage) with the range
/// lowered to 4 KiB, as the GPU test `tensor_split_buffers` lowers it: the
/// variant's `N` is capped (64 descriptors per buffer), not the 349,525
/// the descriptor limit allows, whose per-chunk branches made a kernel of
/// 15,029,748 ids that could not be serialized (the H200 run of
/// 2026-11-30; this test fails on main with `TooManyIds`).
#[test]
fn a_device_with_a_million_descriptors_gets_a_variant_of_bounded_size() {
    let mut target = crate::common::h200_target();
    target.env.limits.max_storage_buffer_range = 4096;
    let f = compile_first(ADD, &target);
    kernels_validate(&f);
    let d = &f.dispatches[0];
    assert_eq!(d.kernels.len(), 2, "a plain kernel and its variant");
    let variant = &d.kernels[1];
    let iface =
        kiln_core::reflect::reflect_binary(&variant.words, &variant.name).expect("reflects");
    // Each buffer is bound in 64 chunks (through a vec4 and a scalar
    // binding here).
    let counts: Vec<u32> = iface.bindings.iter().map(|b| b.count).collect();
    assert!(
        counts.len() >= 3 && counts.iter().all(|&c| c == 64),
        "{counts:?}"
    );
    // One branch per chunk per access: the variant stays small, nowhere
    // near SPIR-V's id bound (4,194,303).
    assert!(
        variant.words.len() < 100_000,
        "{} words",
        variant.words.len()
    );
    let most = 64 * 4096;
    assert_eq!(f.chunk_limits, [(0, most), (1, most), (2, most)]);
    assert!(matches!(
        count(&f, 0, most / 4 + 1),
        Err(BufferSizeError::TooLarge { max_bytes, .. }) if max_bytes == most
    ));
}

#[test]
fn static_sizes_get_no_variant_and_a_range_wide_enough_gets_none() {
    // Static sizes: split statically as before, no variant.
    let f = compile_first(
        &crate::common::binary_program("arith.addf", "f32", 2000),
        &small_range(),
    );
    assert_eq!(f.dispatches[0].kernels.len(), 1);
    assert!(f.chunk_limits.is_empty());
    // i8 elements under a 4 GiB range: i32::MAX of them always fit.
    let mut env = env_file("lavapipe.env");
    env.limits.max_storage_buffer_range = u32::MAX;
    let wide = CodegenTarget::new(env, DriverFacts::conservative());
    let f = compile_first(&ADD.replace("f32", "i8").replace("addf", "addi"), &wide);
    assert_eq!(f.dispatches[0].kernels.len(), 1);
    assert!(f.chunk_limits.is_empty());
}
