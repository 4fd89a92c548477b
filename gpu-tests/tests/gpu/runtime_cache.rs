//! kiln-runtime's caches, validation on: in memory, compiled SPIR-V on
//! disk, and the `VkPipelineCache` blob — surviving a restart (a new
//! device on the same directory compiles nothing), ignoring corrupt files
//! and a pipeline cache of another device (a forged header).

use std::path::Path;

use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir};
use kiln_runtime::{CacheLocation, Device, DeviceOptions, KernelSource, Tensor};

use crate::runtime_support::test_device;

/// y[i] = 3 x[i] + 1 as a memref-level kernel (lowered by kiln-core).
const AXPB: &str = r#"
gpu.module @m {
  gpu.func @axpb(%x: memref<64xf32>, %y: memref<64xf32>) kernel
      attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
    %i = gpu.thread_id x
    %v = memref.load %x[%i] : memref<64xf32>
    %a = arith.constant 3.0 : f32
    %b = arith.constant 1.0 : f32
    %m = arith.mulf %v, %a : f32
    %w = arith.addf %m, %b : f32
    memref.store %w, %y[%i] : memref<64xf32>
    gpu.return
  }
}"#;

fn open(dir: &Path) -> Device {
    test_device(DeviceOptions {
        cache: CacheLocation::Dir(dir.to_owned()),
        ..DeviceOptions::default()
    })
}

/// Loads and runs AXPB; checks its output.
fn run_axpb(device: &Device) {
    let kernel = device
        .load_kernel(KernelSource::memref(AXPB, "axpb"))
        .unwrap();
    let x: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let xt = Tensor::from_slice(device, &x, &[64]).unwrap();
    let yt = Tensor::empty(device, xt.dtype(), &[64]).unwrap();
    device
        .stream()
        .dispatch(&kernel, &[&xt, &yt], [1, 1, 1])
        .unwrap();
    let want: Vec<f32> = x.iter().map(|v| 3.0 * v + 1.0).collect();
    assert_eq!(yt.to_vec::<f32>().unwrap(), want);
}

fn files(dir: &Path, sub: &str) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir.join(sub))
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

fn pipeline_cache_file(dir: &Path) -> std::path::PathBuf {
    let found: Vec<_> = files(dir, ".")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("pipeline-cache-")
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].clone()
}

#[test]
fn the_disk_cache_survives_a_restart() {
    let dir = scratch_dir();
    {
        let device = open(&dir);
        run_axpb(&device);
        run_axpb(&device);
        let s = device.cache_stats();
        assert_eq!(
            (s.compiled, s.disk_hits, s.disk_writes, s.memory_hits),
            (1, 0, 1, 1)
        );
        assert_eq!(s.pipeline_cache_loaded, 0, "a fresh directory");
        assert_no_validation_messages(device.context());
    } // dropped: the pipeline cache is written
    assert_eq!(files(&dir, "spirv").len(), 1);
    let blob = std::fs::read(pipeline_cache_file(&dir)).unwrap();
    assert!(blob.len() > 56, "a header and the driver's data");
    // "Restart": a new device on the same directory.
    let device = open(&dir);
    let s = device.cache_stats();
    assert!(s.pipeline_cache_loaded > 0, "{s:?}");
    run_axpb(&device);
    let s = device.cache_stats();
    assert_eq!((s.compiled, s.disk_hits), (0, 1), "no recompilation: {s:?}");
    assert!(device.warnings().is_empty(), "{:?}", device.warnings());
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_cache_files_are_ignored_with_a_warning() {
    let dir = scratch_dir();
    run_axpb(&open(&dir));
    let spv = files(&dir, "spirv").pop().unwrap();
    let mut bytes = std::fs::read(&spv).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&spv, &bytes).unwrap();
    std::fs::write(pipeline_cache_file(&dir), b"not a pipeline cache").unwrap();

    let device = open(&dir);
    run_axpb(&device);
    let s = device.cache_stats();
    assert_eq!(s.pipeline_cache_loaded, 0);
    assert_eq!(s.rejected_files, 2);
    assert_eq!(s.compiled, 1, "the corrupt binary was not used");
    let warnings = device.warnings().join("\n");
    assert!(warnings.contains("ignoring pipeline cache"), "{warnings}");
    assert!(warnings.contains("bad magic"), "{warnings}");
    assert!(
        warnings.contains("checksum mismatch (corrupt)"),
        "{warnings}"
    );
    assert_no_validation_messages(device.context());
    drop(device);
    // Rewritten whole on the way out: the next device uses both again.
    let device = open(&dir);
    run_axpb(&device);
    let s = device.cache_stats();
    assert!(s.pipeline_cache_loaded > 0 && s.compiled == 0, "{s:?}");
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_pipeline_cache_of_another_device_is_not_used() {
    let dir = scratch_dir();
    run_axpb(&open(&dir));
    let path = pipeline_cache_file(&dir);
    let mut file = std::fs::read(&path).unwrap();
    // Header: magic (8), vendor, device, driver version (4 each), then the
    // 16-byte pipelineCacheUUID. Forge another UUID.
    for b in &mut file[20..36] {
        *b = !*b;
    }
    std::fs::write(&path, &file).unwrap();
    let device = open(&dir);
    assert_eq!(device.cache_stats().pipeline_cache_loaded, 0);
    let warnings = device.warnings().join("\n");
    assert!(
        warnings.contains("made by another device or driver"),
        "{warnings}"
    );
    // Still works, compiling into a fresh pipeline cache.
    run_axpb(&device);
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}
