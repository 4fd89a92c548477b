//! kiln-runtime's staged transfers in chunks (device-local tensors, small
//! chunks so that tests stay small), validation on: sizes that are not
//! multiples of a chunk (and 0 bytes) round-trip through `from_slice`,
//! `upload`, `to_vec`, `read_into`, `read()` and views; many transfers in
//! flight at once; and an upload of many chunks through a bounded staging
//! ring, whose slices are reused only after the copy that used them
//! completed (reused any earlier, the next chunk's host copy would
//! overwrite bytes the device had not copied yet, and the data would come
//! back wrong).

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::{CacheLocation, Device, DeviceOptions, Tensor};

use crate::runtime_support::test_device;

/// The smallest chunk the runtime takes.
const CHUNK: usize = 64 << 10;

fn staging_device() -> Device {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        unified_memory: false,
        staging_chunk_size: CHUNK as u64,
        // Blocks of one chunk: a reused slice is the same memory.
        staging_block_size: CHUNK as u64,
        ..DeviceOptions::default()
    });
    assert!(!device.info().unified_memory, "tensors through staging");
    device
}

/// Data whose every byte differs from its neighbours' (a misplaced chunk
/// shows).
fn bytes(n: usize, seed: u32) -> Vec<u8> {
    (0..n)
        .map(|i| {
            (i as u32)
                .wrapping_mul(2_654_435_761)
                .wrapping_add(seed)
                .rotate_right(13) as u8
        })
        .collect()
}

#[test]
fn sizes_around_chunk_boundaries_round_trip() {
    let device = staging_device();
    for n in [
        0,
        1,
        3,
        CHUNK - 1,
        CHUNK,
        CHUNK + 1,
        2 * CHUNK - 3,
        5 * CHUNK + 12_345,
    ] {
        let data = bytes(n, n as u32);
        let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), data, "to_vec of {n} bytes");
        let mut out = vec![0u8; n];
        t.read_into(&mut out).unwrap();
        assert_eq!(out, data, "read_into of {n} bytes");
        assert_eq!(
            pollster::block_on(t.read::<u8>()).unwrap(),
            data,
            "read() of {n} bytes"
        );
        // A view whose span starts inside the first chunk and ends inside
        // the last: the staged span is read from its own start.
        if n > 10 {
            let v = t.narrow(0, 7, n - 10).unwrap();
            assert_eq!(v.to_vec::<u8>().unwrap(), data[7..n - 3], "narrow of {n}");
        }
        // Overwriting in place (Tensor::upload) goes through chunks too.
        let again = bytes(n, 99);
        t.upload(&again).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), again, "upload of {n} bytes");
    }
    assert_no_validation_messages(device.context());
}

#[test]
fn wider_elements_and_strided_views_cross_chunks() {
    let device = staging_device();
    // 3 x (CHUNK/4 + 5) f32: rows do not line up with chunks.
    let (rows, cols) = (3, CHUNK / 4 + 5);
    let data: Vec<f32> = (0..rows * cols).map(|i| i as f32 * 0.5 - 7.0).collect();
    let t = Tensor::from_slice(&device, &data, &[rows, cols]).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), data);
    let tt = t.transpose(0, 1).unwrap();
    let want: Vec<f32> = (0..cols)
        .flat_map(|c| (0..rows).map(move |r| (r * cols + c) as f32 * 0.5 - 7.0))
        .collect();
    assert_eq!(tt.to_vec::<f32>().unwrap(), want);
    let mut out = vec![0f32; rows * cols];
    tt.read_into(&mut out).unwrap();
    assert_eq!(out, want);
    assert_no_validation_messages(device.context());
}

#[test]
fn many_transfers_in_flight() {
    let device = staging_device();
    let stream = device.stream();
    let sizes: Vec<usize> = (0..24).map(|i| i * CHUNK / 3 + 4 * (i % 5)).collect();
    let tensors: Vec<Tensor> = sizes
        .iter()
        .map(|&n| Tensor::empty(&device, kiln_runtime::DType::U8, &[n]).unwrap())
        .collect();
    // Every upload enqueued on one stream without waiting.
    for (i, (t, &n)) in tensors.iter().zip(&sizes).enumerate() {
        stream.upload(t, &bytes(n, i as u32)).unwrap();
    }
    // Every read started before any is awaited.
    let futures: Vec<_> = tensors.iter().map(|t| t.read::<u8>()).collect();
    for (i, (f, &n)) in futures.into_iter().zip(&sizes).enumerate() {
        assert_eq!(
            pollster::block_on(f).unwrap(),
            bytes(n, i as u32),
            "tensor {i}"
        );
    }
    stream.sync().unwrap();
    assert_no_validation_messages(device.context());
}

#[test]
fn staging_slices_are_reused_only_after_their_copy_completed() {
    let device = staging_device();
    let n = 40 * CHUNK + 1000;
    let data = bytes(n, 7);
    for round in 0..3 {
        let t = Tensor::from_slice(&device, &data, &[n]).unwrap();
        assert_eq!(t.to_vec::<u8>().unwrap(), data, "round {round}");
    }
    // The upload ring stays small: 41 chunks went through a few slices,
    // each taken again once the copy that used it had completed.
    let report = device.memory_report();
    let upload = report.pools.iter().find(|p| p.name == "upload").unwrap();
    assert!(
        upload.peak <= 8 * CHUNK as u64,
        "an upload of 41 chunks holds at most a few in flight: {upload:?}"
    );
    assert_eq!(upload.in_use, 0, "every staging slice back: {upload:?}");
    let counters = device.counters();
    assert!(
        counters.submits >= 3 * 41,
        "a submission per chunk: {counters:?}"
    );
    assert_no_validation_messages(device.context());
}
