//! Shared by the kiln-runtime tests: a validated device, GLSL kernels.

use kiln_gpu_tests::compile_glsl;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Kernel, KernelSource};

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

/// What [`SLOW_LCG`] computes for one element.
pub fn lcg(mut x: u32, iters: u32) -> u32 {
    for _ in 0..iters {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
    }
    x
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
