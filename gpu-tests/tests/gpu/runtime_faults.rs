//! kiln-runtime under injected faults (kiln-vulkan's call-family hook),
//! validation on: device loss is a typed, sticky error — every later call
//! and pending future returns it, no panic, and the lost device is not
//! used again; out-of-memory is retried once after trimming, then a typed
//! error with the device still usable.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, DType, DeviceOptions, Error, KernelSource, Tensor};
use kiln_vulkan::{CallFamily, FaultTimes, InjectedFault};

use std::time::Duration;

use crate::runtime_support::{
    device, glsl_kernel, slow_lcg_iters, test_device, INCREMENT, SLOW_LCG,
};

#[test]
fn device_loss_at_submit_is_sticky_and_the_device_is_not_used_again() {
    let device = device();
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let x = Tensor::from_slice(&device, &[1.0f32; 64], &[64]).unwrap();
    let y = Tensor::zeros(&device, DType::F32, &[64]).unwrap();
    let stream = device.stream();
    stream.dispatch(&kernel, &[&x, &y], [1, 1, 1]).unwrap();
    let ctx = device.context().clone();
    ctx.inject_fault(
        CallFamily::Submit,
        InjectedFault::DeviceLost,
        FaultTimes::Once,
    );
    let err = stream.sync().unwrap_err();
    assert!(err.is_device_lost(), "{err}");
    assert_eq!(
        err.to_string(),
        "device lost (vkQueueSubmit, while running dispatch #0 (kernel \"main\", grid [1, 1, 1]) \
         of a submission of 1 dispatch(es))"
    );
    assert!(device.is_lost());
    let calls = ctx.vulkan_call_count();
    let lost = |e: Error| assert!(e.is_device_lost(), "{e}");
    lost(stream.sync().unwrap_err());
    lost(stream.dispatch(&kernel, &[&x, &y], [1, 1, 1]).unwrap_err());
    lost(stream.fill(&y, 0.0f32).unwrap_err());
    lost(Tensor::zeros(&device, DType::F32, &[4]).unwrap_err());
    lost(Tensor::from_slice(&device, &[1u8], &[1]).unwrap_err());
    lost(y.to_vec::<f32>().unwrap_err());
    lost(pollster::block_on(x.read::<f32>()).unwrap_err());
    lost(
        device
            .load_kernel(KernelSource::spirv(&[0x0723_0203, 0, 0, 0, 0], "main"))
            .unwrap_err(),
    );
    lost(device.trim().unwrap_err());
    lost(device.sync().unwrap_err());
    drop((x, y, stream));
    assert_eq!(
        ctx.vulkan_call_count(),
        calls,
        "a Vulkan call after the loss"
    );
    assert_no_validation_messages(&ctx);
}

#[test]
fn device_loss_while_waiting_fails_pending_futures() {
    let device = device();
    // Slow work: still running when the future is first polled, so the
    // poll asks the driver (the injected wait fails). Measured to last at
    // least 0.1 s: on the H200 a fixed 20,000 iterations completed inside
    // `read`, whose retire saw the value complete, and the future returned
    // the data without a wait to fail.
    let kernel = glsl_kernel(&device, "slow_lcg", SLOW_LCG);
    let n = 16384usize;
    let iters = slow_lcg_iters(&device, &kernel, n, 20000, Duration::from_millis(100));
    let x = Tensor::from_slice(&device, &vec![1u32; n], &[n]).unwrap();
    let y = Tensor::zeros(&device, DType::U32, &[n]).unwrap();
    let stream = device.stream();
    stream
        .dispatch_with(&kernel, &[&x, &y], &iters.to_le_bytes(), [256, 1, 1])
        .unwrap();
    let future = y.read::<u32>(); // submits the dispatch
    device.context().inject_fault(
        CallFamily::Wait,
        InjectedFault::DeviceLost,
        FaultTimes::Always,
    );
    let err = pollster::block_on(future).unwrap_err();
    assert!(err.is_device_lost(), "{err}");
    assert!(device.is_lost());
    assert!(Tensor::zeros(&device, DType::F32, &[1])
        .unwrap_err()
        .is_device_lost());
    device.context().clear_faults();
    // Still lost: the loss is the runtime's record, not the hook's.
    assert!(y.to_vec::<u32>().unwrap_err().is_device_lost());
    assert_no_validation_messages(device.context());
}

/// Out-of-memory retried once after trimming, then a typed error naming the
/// pool — with tensors in unified memory (lavapipe's default) and in
/// device-local memory (a discrete GPU's, `unified_memory: false` here).
/// Device-local zeros are a fill submitted by `Tensor::zeros`: on the H200
/// the trim ran while that fill was in flight and (releasing only what
/// finished work used) gave back nothing; the test now waits for the
/// device before it trims, and names the pool the device put tensors in.
#[test]
fn out_of_memory_is_retried_after_trimming_then_a_typed_error() {
    for unified in [true, false] {
        out_of_memory_is_retried(unified);
    }
}

fn out_of_memory_is_retried(unified: bool) {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        tensor_block_size: 64 << 10,
        unified_memory: unified,
        ..DeviceOptions::default()
    });
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    // An empty block the trim can give back.
    drop(Tensor::zeros(&device, DType::F32, &[1024]).unwrap());
    let ctx = device.context();
    let blocks = |d: &kiln_runtime::Device| d.memory_report().pools[0].blocks;
    let pool = device.memory_report().pools[0].name;
    assert_eq!(
        pool,
        if unified && ctx.has_unified_memory() {
            "unified"
        } else {
            "device-local"
        }
    );
    assert_eq!(blocks(&device), 1, "{pool}");
    // A request that needs a block of its own fails once: trimmed, retried.
    ctx.inject_fault(
        CallFamily::Memory,
        InjectedFault::OutOfDeviceMemory,
        FaultTimes::Once,
    );
    let big = Tensor::zeros(&device, DType::F32, &[100_000]).unwrap();
    assert_eq!(
        blocks(&device),
        1,
        "{pool}: the empty block was trimmed before the retry"
    );
    drop(big);
    // Its empty block would serve the next request without allocating;
    // once the fill that zeroed it (device-local memory) completed, the
    // trim gives it back.
    device.sync().unwrap();
    let trimmed = device.trim().unwrap();
    assert!(trimmed >= 400_000, "{pool}: trimmed {trimmed} bytes");
    assert_eq!(blocks(&device), 0, "{pool}");
    // Fails twice: a typed error naming the pool, no panic.
    ctx.inject_fault(
        CallFamily::Memory,
        InjectedFault::OutOfDeviceMemory,
        FaultTimes::Times(2),
    );
    let err = Tensor::zeros(&device, DType::F32, &[100_000]).unwrap_err();
    assert!(err.is_out_of_memory(), "{err}");
    let want = format!("out of device memory allocating 400000 bytes from the {pool} pool");
    assert!(err.to_string().starts_with(&want), "{err}");
    assert!(!device.is_lost());
    // The device is still usable.
    let x = Tensor::from_slice(&device, &[2.0f32; 64], &[64]).unwrap();
    let y = Tensor::empty(&device, DType::F32, &[64]).unwrap();
    device
        .stream()
        .dispatch(&kernel, &[&x, &y], [1, 1, 1])
        .unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![3.0; 64], "{pool}");
    assert_no_validation_messages(ctx);
}
