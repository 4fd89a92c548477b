//! `kiln_runtime::bench` on the device with the validation layer on: the
//! committed SPIR-V of the hand-written limit kernels is what glslang makes
//! of their GLSL and passes spirv-val; each limit kernel, the host loops,
//! the dispatch-overhead and compile-time measurements check their results
//! at sizes with tails (a partial last workgroup) before timing.

use std::path::Path;
use std::process::Command;

use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir, words_from_bytes};
use kiln_runtime::bench::limits::{fastest, spirv, Access, HandWritten};
use kiln_runtime::bench::{host, overhead, BenchError, Unit};
use kiln_runtime::DeviceOptions;

use crate::runtime_support::{device, test_device};

const SHADERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../runtime/src/bench/shaders");

/// Compiles `shaders/NAME.comp` as `shaders/regen.sh` does (the texel and
/// word kernels' `Unknown` buffer-image format set to `Rgba32f`).
fn glslang(name: &str) -> Vec<u32> {
    let dir = scratch_dir();
    let out = dir.join(format!("{name}.spv"));
    let status = Command::new("glslangValidator")
        .args(["-V", "--target-env", "vulkan1.1", "-o"])
        .arg(&out)
        .arg(Path::new(SHADERS).join(format!("{name}.comp")))
        .output()
        .expect("glslangValidator (ci/setup.sh)");
    assert!(status.status.success(), "{name}: {status:?}");
    let mut words = words_from_bytes(&std::fs::read(&out).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
    if name.ends_with("_texel") || name.ends_with("_words") {
        assert_eq!(set_buffer_image_format(&mut words), 1, "{name}");
    }
    words
}

/// Sets the format of every `OpTypeImage` with `Dim = Buffer`, `Sampled =
/// 1` and format `Unknown` to `Rgba32f`, as `regen.sh` does; returns how
/// many it changed.
fn set_buffer_image_format(words: &mut [u32]) -> usize {
    const OP_TYPE_IMAGE: u32 = 25;
    const DIM_BUFFER: u32 = 5;
    const RGBA32F: u32 = 1;
    let mut changed = 0;
    let mut at = 5;
    while at < words.len() {
        let (count, op) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        if count == 0 {
            break;
        }
        // OpTypeImage: result, sampled type, dim, depth, arrayed, MS, sampled, format.
        if op == OP_TYPE_IMAGE && count >= 9 {
            let w = &mut words[at..at + 9];
            if w[3] == DIM_BUFFER && w[7] == 1 && w[8] == 0 {
                w[8] = RGBA32F;
                changed += 1;
            }
        }
        at += count;
    }
    changed
}

#[test]
fn committed_spirv_is_fresh_and_valid() {
    for (name, bytes) in spirv::ALL {
        let committed = words_from_bytes(bytes);
        let fresh = glslang(name);
        // Word 2 is the generator (glslang's version): not compared.
        let strip = |w: &[u32]| {
            let mut w = w.to_vec();
            w[2] = 0;
            w
        };
        assert_eq!(
            strip(&committed),
            strip(&fresh),
            "shaders/{name}.spv is stale: run runtime/src/bench/shaders/regen.sh"
        );
        let path = Path::new(SHADERS).join(format!("{name}.spv"));
        let val = Command::new("spirv-val")
            .args(["--target-env", "vulkan1.1"])
            .arg(&path)
            .output()
            .expect("spirv-val (ci/setup.sh)");
        assert!(val.status.success(), "{name}: {val:?}");
    }
}

#[test]
fn limit_kernels_check_then_time() {
    let device = device();
    let k = HandWritten::load(&device).expect("load");
    // 4 * 1,024 * 4 + 8 floats: one full workgroup of the copy/add shape
    // and a partial one.
    let n = 4 * 1024 * 4 + 8;
    let copy = k.copy(&device, n, 2).expect("copy");
    let add = k.add(&device, n, 2).expect("add");
    // Read-sum: two full workgroups (16 vec4 per invocation) and a tail.
    let read = k
        .read_sum(&device, 2 * 4 * 1024 * 16 + 12, 2)
        .expect("read");
    let fma = k.fma(&device, 2, 5, 2).expect("fma");
    // The texel-buffer and word-store variants check the same results.
    let copy_texel = k
        .copy_with(Access::TexelBuffer, &device, n, 2)
        .expect("copy");
    let add_texel = k.add_with(Access::TexelBuffer, &device, n, 2).expect("add");
    let read_texel = k
        .read_sum_with(Access::TexelBuffer, &device, 2 * 4 * 1024 * 16 + 12, 2)
        .expect("read");
    let copy_words = k
        .copy_with(Access::TexelWords, &device, n, 2)
        .expect("copy");
    let add_words = k.add_with(Access::TexelWords, &device, n, 2).expect("add");
    assert!(copy_texel.name.contains("texel-buffer reads"));
    assert!(copy_words.name.contains("64-bit word stores"));
    let (best, note) = fastest(
        "copy",
        vec![
            Ok(copy.clone()),
            Ok(copy_texel.clone()),
            Ok(copy_words.clone()),
        ],
    );
    let best = best.expect("all measured");
    for m in [&copy, &copy_texel, &copy_words] {
        assert!(
            best.rate() >= m.rate(),
            "{} is faster than the best",
            m.name
        );
    }
    assert!(
        note.starts_with("copy: ")
            && note.contains("texel-buffer reads)")
            && note.contains("word stores"),
        "{note}"
    );
    // A failed variant gives way to the others; all failing, the first
    // error.
    let failed = || -> Result<kiln_runtime::bench::Measurement, BenchError> {
        Err(BenchError::Invalid {
            what: "x".into(),
            message: "failed on purpose".into(),
        })
    };
    let (best, note) = fastest("copy", vec![failed(), Ok(copy.clone())]);
    assert_eq!(best.expect("one measured").name, copy.name);
    assert!(
        note.contains("failed: ") && note.contains("failed on purpose"),
        "{note}"
    );
    assert!(fastest("copy", vec![failed(), failed()]).0.is_err());
    for m in [
        &copy,
        &add,
        &read,
        &fma,
        &copy_texel,
        &add_texel,
        &read_texel,
        &copy_words,
        &add_words,
    ] {
        assert_eq!(m.timing.wall.runs, 2, "{}", m.name);
        assert!(m.timing.wall.min <= m.timing.wall.max, "{}", m.name);
        assert!(m.rate() > 0.0, "{}", m.name);
        if device.info().timestamps {
            assert!(m.timing.gpu.is_some(), "{}: no GPU time", m.name);
        }
    }
    assert_eq!(copy.work.amount, 8.0 * n as f64);
    assert_eq!(add.work.amount, 12.0 * n as f64);
    assert_eq!(fma.work.unit, Unit::Flops);
    assert_eq!(fma.work.amount, (2 * 1024 * 5 * 16 * 4 * 2) as f64);
    assert_no_validation_messages(device.context());
}

#[test]
fn limit_kernels_refuse_sizes_they_cannot_take() {
    let device = device();
    let k = HandWritten::load(&device).expect("load");
    assert!(matches!(
        k.copy(&device, 6, 1),
        Err(BenchError::Invalid { .. })
    ));
    assert!(matches!(
        k.add(&device, 0, 1),
        Err(BenchError::Invalid { .. })
    ));
    // At lavapipe's loop cap: refused rather than silently cut.
    assert!(matches!(
        k.fma(&device, 1, 65_535, 1),
        Err(BenchError::Invalid { .. })
    ));
}

#[test]
fn host_loops_check_then_time() {
    let add = host::stream_add(10_001, 3, 2).expect("add");
    let sum = host::read_sum(10_001, 3, 2).expect("sum");
    assert_eq!(add.work.amount, 12.0 * 10_001.0);
    assert_eq!(sum.work.amount, 4.0 * 10_001.0);
    assert!(add.timing.gpu.is_none() && add.timing.wall.runs == 2);
}

#[test]
fn dispatch_overhead_and_compile_times() {
    let device = test_device(DeviceOptions {
        cache: kiln_runtime::CacheLocation::Disabled,
        ..DeviceOptions::default()
    });
    let o = overhead::dispatch_overhead(&device, 2).expect("overhead");
    assert_eq!(o.runtime_batch.runs, 2);
    assert!(o.runtime_batch.median > o.runtime_one.min / 2);
    assert_no_validation_messages(device.context());
    let options = DeviceOptions {
        validation: true,
        ..DeviceOptions::default()
    };
    let c =
        kiln_runtime::bench::compile::compile_times(&options, overhead::INCREMENT, "increment", 2)
            .expect("compile times (the warm load must hit the disk cache)");
    assert_eq!((c.lower.runs, c.cold.runs, c.warm.runs), (2, 2, 2));
}
