//! kiln-runtime streams and memory on the device, validation on: batches
//! of dependent dispatches, buffers freed only when their last use
//! completed, flat memory over a long loop, profiling, and errors of queued
//! work reported by `sync`.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, DType, DeviceOptions, Tensor};
use kiln_vulkan::{CallFamily, FaultTimes, InjectedFault};

use std::time::Duration;

use crate::runtime_support::{
    device, glsl_kernel, lcg, slow_lcg_iters, test_device, INCREMENT, SLOW_LCG,
};

#[test]
fn a_thousand_dependent_dispatches_give_the_right_result() {
    for unified in [true, false] {
        let device = test_device(DeviceOptions {
            cache: CacheLocation::Disabled,
            unified_memory: unified,
            ..DeviceOptions::default()
        });
        let kernel = glsl_kernel(&device, "increment", INCREMENT);
        let n = 1000usize;
        let init: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let a = Tensor::from_slice(&device, &init, &[n]).unwrap();
        let b = Tensor::empty(&device, DType::F32, &[n]).unwrap();
        let stream = device.stream();
        let before = device.counters();
        for k in 0..1000 {
            // Each step reads what the one before wrote.
            let (x, y) = if k % 2 == 0 { (&a, &b) } else { (&b, &a) };
            stream
                .dispatch(&kernel, &[x, y], [(n as u32).div_ceil(64), 1, 1])
                .unwrap();
        }
        stream.sync().unwrap();
        let counters = device.counters();
        assert_eq!(counters.dispatches - before.dispatches, 1000);
        // Submitted in batches of the default 100 dispatches.
        assert_eq!(counters.submits - before.submits, 10);
        let want: Vec<f32> = init.iter().map(|x| x + 1000.0).collect();
        assert_eq!(
            a.to_vec::<f32>().unwrap(),
            want,
            "unified memory: {unified}"
        );
        assert_no_validation_messages(device.context());
    }
}

#[test]
fn a_buffer_dropped_while_queued_work_uses_it_is_not_reused_until_that_work_completes() {
    let device = device();
    let kernel = glsl_kernel(&device, "slow_lcg", SLOW_LCG);
    let n = 16384usize;
    // Busy for at least 0.1 s on any device (the H200 finished a fixed
    // 20,000 iterations before `c` was allocated, and reusing `a` was then
    // right); lavapipe keeps 20,000 or more.
    let iters = slow_lcg_iters(&device, &kernel, n, 20000, Duration::from_millis(100));
    let input: Vec<u32> = (0..n as u32).collect();
    let a = Tensor::from_slice(&device, &input, &[n]).unwrap();
    let b = Tensor::empty(&device, DType::U32, &[n]).unwrap();
    let a_location = a.buffer_location();
    let stream = device.stream();
    stream
        .dispatch_with(
            &kernel,
            &[&a, &b],
            &iters.to_le_bytes(),
            [(n as u32).div_ceil(64), 1, 1],
        )
        .unwrap();
    // Queued and submitted: the slow kernel is still reading `a` when its
    // last handle goes.
    stream.flush().unwrap();
    drop(a);
    // A buffer of the same size must not take `a`'s place: writing it now
    // would change what the running kernel reads.
    let garbage = vec![0xDEAD_BEEFu32; n];
    let c = Tensor::from_slice(&device, &garbage, &[n]).unwrap();
    assert_ne!(
        c.buffer_location(),
        a_location,
        "the pool handed out a buffer queued work still reads"
    );
    stream.sync().unwrap();
    let want: Vec<u32> = input.iter().map(|&x| lcg(x, iters)).collect();
    assert_eq!(
        b.to_vec::<u32>().unwrap(),
        want,
        "the input was overwritten"
    );
    // Once the work completed, the range is free again (first fit: the
    // lowest free range is `a`'s).
    let d = Tensor::empty(&device, DType::U32, &[n]).unwrap();
    assert_eq!(d.buffer_location(), a_location);
    assert_eq!(c.to_vec::<u32>().unwrap(), garbage);
    assert_no_validation_messages(device.context());
}

#[test]
fn a_buffer_dropped_while_its_batch_is_unsubmitted_is_not_reused() {
    let device = device();
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let n = 256usize;
    let a = Tensor::from_slice(&device, &vec![1.0f32; n], &[n]).unwrap();
    let b = Tensor::empty(&device, DType::F32, &[n]).unwrap();
    let a_location = a.buffer_location();
    let stream = device.stream();
    stream.dispatch(&kernel, &[&a, &b], [4, 1, 1]).unwrap();
    drop(a);
    let c = Tensor::from_slice(&device, &vec![7.0f32; n], &[n]).unwrap();
    assert_ne!(c.buffer_location(), a_location);
    assert_eq!(b.to_vec::<f32>().unwrap(), vec![2.0; n]);
    assert_no_validation_messages(device.context());
}

#[test]
fn memory_report_stays_flat_over_ten_thousand_iterations() {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        // Small blocks, so that growth would show as more blocks.
        tensor_block_size: 64 << 10,
        staging_block_size: 64 << 10,
        ..DeviceOptions::default()
    });
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let n = 256usize;
    let stream = device.stream();
    let mut first = None;
    let mut last = None;
    for it in 0..10_000u32 {
        // An inference step: a fresh input, three dispatches through
        // temporaries (dropped while their work is queued), the output read.
        let x = Tensor::from_slice(&device, &vec![(it % 64) as f32; n], &[n]).unwrap();
        let t1 = Tensor::empty(&device, DType::F32, &[n]).unwrap();
        let t2 = Tensor::empty(&device, DType::F32, &[n]).unwrap();
        let y = Tensor::empty(&device, DType::F32, &[n]).unwrap();
        stream.dispatch(&kernel, &[&x, &t1], [4, 1, 1]).unwrap();
        stream.dispatch(&kernel, &[&t1, &t2], [4, 1, 1]).unwrap();
        stream.dispatch(&kernel, &[&t2, &y], [4, 1, 1]).unwrap();
        drop((x, t1, t2));
        let out = y.to_vec::<f32>().unwrap();
        if it % 1000 == 0 {
            assert_eq!(out, vec![(it % 64) as f32 + 3.0; n]);
        }
        last = Some(y);
        // Flat from the second iteration on (the first has no earlier
        // output alive).
        let report = device.memory_report();
        match &first {
            None if it == 1 => first = Some(report),
            None => {}
            Some(first) => {
                assert_eq!(report, *first, "memory changed at iteration {it}");
            }
        }
    }
    assert_eq!(device.counters().dispatches, 30_000);
    drop(last);
    stream.sync().unwrap();
    assert_eq!(device.memory_report().in_use(), 0);
    assert!(device.trim().unwrap() > 0);
    assert_eq!(device.memory_report().reserved(), 0);
    assert_no_validation_messages(device.context());
}

#[test]
fn memory_stays_bounded_when_the_host_never_waits() {
    let options = DeviceOptions {
        cache: CacheLocation::Disabled,
        tensor_block_size: 64 << 10,
        ..DeviceOptions::default()
    };
    let device = test_device(options.clone());
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let n = 256usize;
    let stream = device.stream();
    for _ in 0..2000 {
        let x = Tensor::zeros(&device, DType::F32, &[n]).unwrap();
        let y = Tensor::empty(&device, DType::F32, &[n]).unwrap();
        stream.dispatch(&kernel, &[&x, &y], [4, 1, 1]).unwrap();
    }
    stream.sync().unwrap();
    // At most `max_in_flight` submissions plus the one being recorded hold
    // buffers: each iteration's two 1 KiB tensors, 100 dispatches a batch.
    let bound = (options.max_in_flight as u64 + 1) * 100 * 2 * 1024;
    let peak = device.memory_report().pools[0].peak;
    assert!(peak <= bound, "peak {peak} above the bound {bound}");
    assert_eq!(device.memory_report().in_use(), 0);
    assert_no_validation_messages(device.context());
}

#[test]
fn profiling_records_each_dispatch_with_its_gpu_time() {
    let device = device();
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let x = Tensor::zeros(&device, DType::F32, &[128]).unwrap();
    let y = Tensor::zeros(&device, DType::F32, &[128]).unwrap();
    let stream = device.stream();
    stream.profile(true);
    for _ in 0..3 {
        stream.dispatch(&kernel, &[&x, &y], [2, 1, 1]).unwrap();
    }
    stream.sync().unwrap();
    let records = device.take_profile();
    assert_eq!(records.len(), 3);
    for r in &records {
        assert_eq!(r.kernel.as_ref(), "main");
        assert_eq!(r.grid, [2, 1, 1]);
        assert!(r.gpu_time.is_some(), "lavapipe writes timestamps");
    }
    let report = device.profile_report();
    assert!(report.kernels.is_empty(), "taken");
    assert_eq!(device.counters().dispatches, 3);
    assert_no_validation_messages(device.context());
}

#[test]
fn sync_reports_the_failed_submission_naming_its_kernel_and_dispatch() {
    let device = device();
    let kernel = glsl_kernel(&device, "increment", INCREMENT);
    let x = Tensor::zeros(&device, DType::F32, &[64]).unwrap();
    let y = Tensor::zeros(&device, DType::F32, &[64]).unwrap();
    let stream = device.stream();
    stream.set_submit_limits(2, u64::MAX);
    stream.dispatch(&kernel, &[&x, &y], [1, 1, 1]).unwrap();
    device.context().inject_fault(
        CallFamily::Submit,
        InjectedFault::OutOfDeviceMemory,
        FaultTimes::Once,
    );
    // The second dispatch reaches the limit: the automatic submit fails,
    // and the dispatch itself (recorded fine) returns Ok.
    stream.dispatch(&kernel, &[&y, &x], [1, 1, 1]).unwrap();
    let err = stream.sync().unwrap_err();
    assert_eq!(
        err.to_string(),
        "dispatch #0 (kernel \"main\", grid [1, 1, 1]) of a submission of 2 dispatch(es): \
         vkQueueSubmit: out of device memory"
    );
    assert!(err.is_out_of_memory());
    // Reported once; the device is still usable.
    stream.sync().unwrap();
    stream.dispatch(&kernel, &[&x, &y], [1, 1, 1]).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0; 64]);
    assert_no_validation_messages(device.context());
}
