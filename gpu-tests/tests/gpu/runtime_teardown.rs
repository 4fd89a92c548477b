//! kiln-runtime device teardown, validation on: dropping a device right
//! after dispatches on device-local tensors (with staging) must not crash
//! the driver or the validation layer.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, DType, DeviceOptions, Tensor};

use crate::runtime_support::{glsl_kernel, test_device, INCREMENT};

/// How many devices the teardown test opens and drops. Before the fix
/// (the queue drained before the timeline semaphore is destroyed), 9 of
/// 10 runs of 10 rounds crashed lavapipe; 20 rounds make a pass without
/// the fix unlikely.
fn rounds() -> usize {
    std::env::var("KILN_TEARDOWN_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
}

/// One round: 20 chained dispatches on a device-local 64-float tensor, a
/// blocking read, then the device (and everything on it) dropped.
fn chained_dispatches_then_drop(unified: bool) {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        unified_memory: unified,
        ..DeviceOptions::default()
    });
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let stream = device.stream();
    let mut x = Tensor::from_slice(&device, &[0.0f32; 64], &[64]).unwrap();
    for _ in 0..20 {
        let y = Tensor::empty(&device, DType::F32, &[64]).unwrap();
        stream.dispatch(&kernel, &[&x, &y], [1, 1, 1]).unwrap();
        x = y;
    }
    assert_eq!(x.to_vec::<f32>().unwrap(), vec![20.0f32; 64]);
    assert_no_validation_messages(device.context());
}

#[test]
fn dropping_a_device_after_device_local_dispatches_does_not_crash() {
    for _ in 0..rounds() {
        chained_dispatches_then_drop(false);
    }
}

#[test]
fn dropping_a_device_after_unified_dispatches_does_not_crash() {
    for _ in 0..rounds().div_ceil(4) {
        chained_dispatches_then_drop(true);
    }
}
