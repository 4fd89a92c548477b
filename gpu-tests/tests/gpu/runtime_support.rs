//! Shared by the kiln-runtime tests: a validated device, GLSL kernels,
//! slow work of a measured length.

use kiln_gpu_tests::compile_glsl;
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, Kernel, KernelSource, Tensor};

/// y[i] = x[i] + 1 over floats; x read-only, y write-only (the access the
/// stream's barriers come from).
pub const INCREMENT: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < y.length()) {
        y[i] = x[i] + 1.0;
    }
}
"#;

/// y[i] = x[i] run through `iters` steps of a 32-bit LCG: slow on purpose
/// (work that is still running when the host acts), checkable on the host
/// with [`lcg`].
pub const SLOW_LCG: &str = r#"#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint iters; } p;
layout(set = 0, binding = 0) readonly buffer X { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { uint y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= y.length()) {
        return;
    }
    uint acc = x[i];
    for (uint k = 0u; k < p.iters; k++) {
        acc = acc * 1664525u + 1013904223u;
    }
    y[i] = acc;
}
"#;

/// What [`SLOW_LCG`] computes for one element: `iters` steps of
/// `x -> a x + c` (mod 2^32) composed by squaring, `O(log iters)` (the
/// calibrated counts of [`slow_lcg_iters`] reach hundreds of millions on
/// a fast GPU; `lcg_composition_matches_the_loop` checks it against the
/// step-by-step loop).
pub fn lcg(x: u32, iters: u32) -> u32 {
    // (a, c) of the map applied so far and of the current power of the step.
    let (mut a, mut c) = (1u32, 0u32);
    let (mut pa, mut pc) = (1_664_525u32, 1_013_904_223u32);
    let mut n = iters;
    while n > 0 {
        if n & 1 == 1 {
            // Then the power: p(a x + c) = pa a x + pa c + pc.
            a = pa.wrapping_mul(a);
            c = pa.wrapping_mul(c).wrapping_add(pc);
        }
        // p(p(x)) = pa pa x + pa pc + pc.
        pc = pa.wrapping_mul(pc).wrapping_add(pc);
        pa = pa.wrapping_mul(pa);
        n >>= 1;
    }
    a.wrapping_mul(x).wrapping_add(c)
}

/// The iterations of [`SLOW_LCG`] (`kernel`) over `n` elements that keep
/// `device` busy for at least `busy` — measured, so that work meant to
/// be "still running when the host acts" is so on a fast GPU too (the
/// H200 finished 20,000 iterations before the host's next call, and two
/// tests read its completion as a failure) — and never fewer than
/// `floor` (what the tests used on lavapipe, which stays the least).
/// Each try runs the kernel once and multiplies the count by the time
/// still missing (2x to 64x); a few tries on a fast GPU, one on lavapipe
/// when `floor` is already slow enough.
pub fn slow_lcg_iters(
    device: &Device,
    kernel: &Kernel,
    n: usize,
    floor: u32,
    busy: std::time::Duration,
) -> u32 {
    let x = Tensor::zeros(device, DType::U32, &[n]).unwrap();
    let y = Tensor::empty(device, DType::U32, &[n]).unwrap();
    let stream = device.stream();
    let mut iters = floor;
    for _ in 0..8 {
        let start = std::time::Instant::now();
        stream
            .dispatch_with(
                kernel,
                &[&x, &y],
                &iters.to_le_bytes(),
                [(n as u32).div_ceil(64), 1, 1],
            )
            .unwrap();
        stream.sync().unwrap();
        let took = start.elapsed();
        if took >= busy || iters == u32::MAX {
            eprintln!("slow_lcg: {iters} iterations over {n} elements took {took:?}");
            break;
        }
        let factor = (busy.as_secs_f64() / took.as_secs_f64().max(1e-6)).ceil();
        iters = (f64::from(iters) * factor.clamp(2.0, 64.0)).min(f64::from(u32::MAX)) as u32;
    }
    iters
}

/// A device with the validation layer on and no disk cache, else `options`.
pub fn test_device(options: DeviceOptions) -> Device {
    let options = DeviceOptions {
        validation: true,
        ..options
    };
    Device::new(&options).unwrap_or_else(|e| {
        panic!("GPU tests need a Vulkan device and the validation layer (ci/setup.sh): {e}")
    })
}

/// [`test_device`] with default options and no disk cache.
pub fn device() -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        ..DeviceOptions::default()
    })
}

/// A GLSL compute shader loaded as a kernel (entry point `main`).
pub fn glsl_kernel(device: &Device, name: &str, source: &str) -> Kernel {
    let words = compile_glsl(name, source);
    device
        .load_kernel(KernelSource::spirv(&words, "main"))
        .unwrap_or_else(|e| panic!("loading {name}: {e}"))
}

#[test]
fn lcg_composition_matches_the_loop() {
    for (x, iters) in [
        (0u32, 0u32),
        (1, 1),
        (7, 2),
        (12345, 20000),
        (u32::MAX, 65537),
    ] {
        let mut want = x;
        for _ in 0..iters {
            want = want.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        }
        assert_eq!(lcg(x, iters), want, "x = {x}, {iters} iterations");
    }
}

/// Whether `KILN_DIFF_NO_CPU=1` leaves the CPU runner out (a machine
/// without LLVM 19's tools, such as a GPU machine the tests are carried
/// to).
pub fn cpu_runner_left_out() -> bool {
    std::env::var("KILN_DIFF_NO_CPU").is_ok_and(|v| v == "1")
}
