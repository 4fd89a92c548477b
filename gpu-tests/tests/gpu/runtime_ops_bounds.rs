//! Out-of-range indices of kiln-runtime's index ops are errors naming the
//! op, never values read from elsewhere: indices the host can read are
//! checked at the call; indices computed on the device are checked by the
//! kernel and reported by `Stream::sync` and by every read of what the
//! call wrote (and of what later ops computed from it).

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::ops;
use kiln_runtime::{CacheLocation, DeviceOptions, Stream, Tensor};

use crate::runtime_support::{device, test_device};

/// The error of `r`, or of reading its tensor (a call that was enqueued
/// reports a kernel's fault when its result is read); panics with the
/// values read when both succeed.
fn failure(r: Result<Tensor, kiln_runtime::Error>) -> String {
    match r {
        Err(e) => e.to_string(),
        Ok(t) => match t.to_vec::<f32>() {
            Err(e) => e.to_string(),
            Ok(v) => panic!("an index out of range gave values {v:?}"),
        },
    }
}

/// `x` = [[0, 1, 2], [3, 4, 5]] (f32).
fn x(s: &Stream) -> Tensor {
    Tensor::from_slice(&s.device(), &[0f32, 1.0, 2.0, 3.0, 4.0, 5.0], &[2, 3]).unwrap()
}

/// Indices the host can read (unified memory: lavapipe, integrated GPUs)
/// are refused at the call, naming the op and the index; on a device whose
/// tensors are device-local (a discrete GPU, or `unified_memory: false`
/// here) the host cannot read them without waiting for the device, so the
/// kernel checks them (`index::check_host_indices`) and the error, naming
/// the op, comes from the call or from the read of its result. (The H200
/// run of 2026-11-30 got the device's error where this test expected the
/// host's: its tensors are device-local.) Both memory kinds run here.
#[test]
fn host_indices_out_of_range_are_refused_at_the_call() {
    for unified in [true, false] {
        host_indices_out_of_range(unified);
    }
}

fn host_indices_out_of_range(unified: bool) {
    let device = test_device(DeviceOptions {
        cache: CacheLocation::Disabled,
        unified_memory: unified,
        ..DeviceOptions::default()
    });
    let on_host = device.info().unified_memory;
    let s = device.stream();
    let i = |v: &[i64], shape: &[usize]| Tensor::from_slice(&device, v, shape).unwrap();
    // The error names the op; refused on the host, at the call, it also
    // names the index.
    let refused = |r: Result<Tensor, kiln_runtime::Error>, op: &str, index: &str| {
        let e = if on_host {
            r.expect_err("refused at the call").to_string()
        } else {
            failure(r)
        };
        assert!(e.contains(op), "{e}");
        if on_host {
            assert!(
                e.contains(index) && e.contains("(checked on the host)"),
                "{e}"
            );
        } else {
            assert!(e.contains("(checked on the device)"), "{e}");
        }
    };
    refused(
        ops::index_select(&s, &x(&s), 1, &i(&[0, 3], &[2])),
        "ops::index_select",
        "is 3,",
    );
    refused(
        ops::index_select(&s, &x(&s), 0, &i(&[-1], &[1])),
        "ops::index_select",
        "is -1,",
    );
    refused(
        ops::gather(&s, &x(&s), 1, &i(&[0, 1, 7, 2], &[2, 2])),
        "ops::gather",
        "is 7,",
    );
    refused(
        ops::embedding(&s, &x(&s), &i(&[1, 2], &[1, 2])),
        "ops::embedding",
        "is 2,",
    );
    let _ = s.sync();
    // In range: the values numpy's take gives.
    let t = ops::index_select(&s, &x(&s), 1, &i(&[2, 0], &[2])).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![2.0, 0.0, 5.0, 3.0]);
    assert_no_validation_messages(device.context());
}

#[test]
fn device_indices_out_of_range_fail_the_sync_and_every_read_naming_the_op() {
    let device = device();
    let s = device.stream();
    let base = Tensor::from_slice(&device, &[0i64, 1], &[2]).unwrap();
    let one = Tensor::from_slice(&device, &[1i64], &[1]).unwrap();
    // [1, 2], computed on the device: the host cannot check it at the call.
    let ids = ops::add(&s, &base, &one).unwrap();
    let y = ops::index_select(&s, &x(&s), 0, &ids).unwrap();
    let z = ops::mul(&s, &y, &y).unwrap(); // computed from y
    let e = s.sync().unwrap_err().to_string();
    assert!(e.contains("ops::index_select"), "{e}");
    let e = failure(Ok(y));
    assert!(e.contains("ops::index_select"), "{e}");
    let e = failure(Ok(z));
    assert!(e.contains("ops::index_select"), "{e}");
    // gather, and embedding under its own name.
    let g = ops::gather(
        &s,
        &x(&s),
        1,
        &ops::add(&s, &ids, &one).unwrap().reshape(&[1, 2]).unwrap(),
    );
    let e = failure(g);
    assert!(e.contains("ops::gather"), "{e}");
    let e = failure(ops::embedding(&s, &x(&s), &ids));
    assert!(e.contains("ops::embedding"), "{e}");
    let _ = s.sync();
    // The device stays usable; in-range device indices give numpy's take.
    let zero = Tensor::from_slice(&device, &[-1i64], &[1]).unwrap();
    let ok = ops::add(&s, &base, &zero).unwrap().narrow(0, 1, 1).unwrap(); // [0]
    let t = ops::index_select(&s, &x(&s), 0, &ok).unwrap();
    s.sync().unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![0.0, 1.0, 2.0]);
    assert_no_validation_messages(device.context());
}
