//! kiln-runtime's `ops` as an eager framework backend: shape classes (a
//! new batch size compiles nothing), op programs in the disk cache (a new
//! process compiles nothing), and typed errors naming the op for bad
//! operands of the framework ops (index ops, arg-reductions, logical ops, clamp, stack, pad, views).

use kiln_gpu_tests::{assert_no_validation_messages, scratch_dir};
use kiln_runtime::ops;
use kiln_runtime::{CacheLocation, DType, Device, DeviceOptions, Error, Tensor};

use crate::runtime_support::{device, test_device};

/// `a [m, k] x b [k, n]` in f64 (small integers: exact in f32).
fn host_matmul(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let s: f64 = (0..k)
                .map(|p| f64::from(a[i * k + p]) * f64::from(b[p * n + j]))
                .sum();
            c[i * n + j] = s as f32;
        }
    }
    c
}

fn ints(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 7 + seed * 3) % 9) as f32 - 4.0)
        .collect()
}

#[test]
fn a_new_batch_size_compiles_nothing() {
    let device = device();
    let stream = device.stream();
    let (k, n) = (24, 10);
    let w = ints(k * n, 1);
    let wt = Tensor::from_slice(&device, &w, &[k, n]).unwrap();
    for (round, m) in [5usize, 1, 64, 33].into_iter().enumerate() {
        let a = ints(m * k, m);
        let at = Tensor::from_slice(&device, &a, &[m, k]).unwrap();
        let y = ops::matmul(&stream, &at, &wt).unwrap();
        assert_eq!(y.shape(), [m, n]);
        assert_eq!(
            y.to_vec::<f32>().unwrap(),
            host_matmul(&a, &w, m, k, n),
            "m = {m}"
        );
        assert_eq!(
            ops::cache_stats(&device).compiled,
            1,
            "round {round}, m = {m}"
        );
    }
    // Leading dimensions are rows too.
    let a = ints(2 * 3 * k, 2);
    let at = Tensor::from_slice(&device, &a, &[2, 3, k]).unwrap();
    let y = ops::matmul(&stream, &at, &wt).unwrap();
    assert_eq!(y.shape(), [2, 3, n]);
    assert_eq!(y.to_vec::<f32>().unwrap(), host_matmul(&a, &w, 6, k, n));
    // Batched: any batch and rows of one K and N.
    for (b, m) in [(2usize, 3usize), (5, 1), (1, 17)] {
        let a = ints(b * m * k, b + m);
        let at = Tensor::from_slice(&device, &a, &[b, m, k]).unwrap();
        let ws: Vec<f32> = (0..b).flat_map(|_| w.iter().copied()).collect();
        let wb = Tensor::from_slice(&device, &ws, &[b, k, n]).unwrap();
        let y = ops::batch_matmul(&stream, &at, &wb).unwrap();
        assert_eq!(y.to_vec::<f32>().unwrap(), host_matmul(&a, &w, b * m, k, n));
    }
    assert_eq!(ops::cache_stats(&device).compiled, 2);
    assert_no_validation_messages(device.context());
}

#[test]
fn op_programs_survive_a_restart_in_the_disk_cache() {
    let dir = scratch_dir();
    let open = || {
        test_device(DeviceOptions {
            cache: CacheLocation::Dir(dir.clone()),
            ..DeviceOptions::default()
        })
    };
    let run = |device: &Device| {
        let stream = device.stream();
        let a = Tensor::from_slice(device, &[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
        let y = ops::relu(&stream, &ops::add(&stream, &a, &a).unwrap()).unwrap();
        let y = ops::matmul(&stream, &y, &a).unwrap();
        // numpy: (2a) @ a = [[14, 20], [30, 44]].
        assert_eq!(y.to_vec::<f32>().unwrap(), vec![14.0, 20.0, 30.0, 44.0]);
    };
    {
        let device = open();
        run(&device);
        assert_eq!(ops::cache_stats(&device).compiled, 3);
        assert_eq!(device.cache_stats().program_disk_writes, 3);
        assert_no_validation_messages(device.context());
    }
    let device = open();
    run(&device);
    let s = ops::cache_stats(&device);
    assert_eq!((s.compiled, s.entries), (0, 3), "no recompilation: {s:?}");
    assert_eq!(device.cache_stats().program_disk_hits, 3);
    assert!(device.warnings().is_empty(), "{:?}", device.warnings());
    assert_no_validation_messages(device.context());
    drop(device);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_operands_of_framework_ops_are_typed_errors() {
    let device = device();
    let stream = device.stream();
    let f = |shape: &[usize]| Tensor::zeros(&device, DType::F32, shape).unwrap();
    let i64s = |shape: &[usize]| Tensor::zeros(&device, DType::I64, shape).unwrap();
    let bools = |shape: &[usize]| Tensor::zeros(&device, DType::Bool, shape).unwrap();
    let check = |r: Result<Tensor, Error>, op: &str, words: &str| match r {
        Err(Error::Shape { what, reason }) => {
            assert_eq!(what, op, "{reason}");
            assert!(reason.contains(words), "{op}: {reason:?} lacks {words:?}");
        }
        other => panic!("{op}: expected a shape error, got {other:?}"),
    };
    check(
        ops::index_select(&stream, &f(&[2, 3]), 2, &i64s(&[1])),
        "ops::index_select",
        "out of range",
    );
    check(
        ops::index_select(&stream, &f(&[2, 3]), 0, &f(&[1])),
        "ops::index_select",
        "i32 or i64",
    );
    check(
        ops::index_select(&stream, &f(&[2, 3]), 0, &i64s(&[1, 1])),
        "ops::index_select",
        "1-D",
    );
    check(
        ops::embedding(&stream, &f(&[2, 3, 4]), &i64s(&[2])),
        "ops::embedding",
        "[V, D]",
    );
    check(
        ops::gather(&stream, &f(&[2, 3]), 1, &i64s(&[3, 1])),
        "ops::gather",
        "does not fit",
    );
    check(
        ops::one_hot(&stream, &f(&[2]), 3, DType::F32),
        "ops::one_hot",
        "i32 or i64",
    );
    check(
        ops::argmax(&stream, &f(&[2, 0]), 1, false),
        "ops::argmax",
        "empty axis",
    );
    check(
        ops::argmin(&stream, &bools(&[2]), 0, false),
        "ops::argmin",
        "bool",
    );
    check(
        ops::logical_and(&stream, &bools(&[2]), &f(&[2])),
        "ops::logical",
        "operand 1 is f32",
    );
    check(
        ops::logical_not(&stream, &f(&[2])),
        "ops::logical_not",
        "bool",
    );
    check(
        ops::logical_or(&stream, &bools(&[2]), &bools(&[3])),
        "ops::logical",
        "broadcast",
    );
    check(
        ops::clamp(&stream, &f(&[2]), Some(2.0), Some(1.0)),
        "ops::clamp",
        "not an interval",
    );
    check(
        ops::clamp(&stream, &bools(&[2]), Some(0.0), None),
        "ops::clamp",
        "bool",
    );
    check(
        ops::stack(&stream, &[&f(&[2]), &f(&[3])], 0),
        "ops::stack",
        "operand 1",
    );
    check(ops::stack(&stream, &[], 0), "ops::stack", "no tensors");
    check(
        ops::stack(&stream, &[&f(&[2])], 2),
        "ops::stack",
        "out of range",
    );
    check(
        ops::pad(&stream, &f(&[2, 2]), &[[1, 1]], 0.0),
        "ops::pad",
        "per dimension",
    );
    check(
        ops::pad(&stream, &i64s(&[2]), &[[1, 1]], f64::NAN),
        "ops::pad",
        "NaN",
    );
    check(
        ops::arange(&stream, 0.0, f64::INFINITY, 1.0, DType::F32),
        "ops::arange",
        "finite",
    );
    check(
        ops::sign(&stream, &bools(&[2])),
        "ops::sign",
        "not defined on i1",
    );
    assert!(matches!(
        f(&[3, 2]).expand(&[3, 4]),
        Err(Error::Shape { what: "expand", .. })
    ));
    // Nothing compiled for any of them, and the device is still usable.
    assert_eq!(ops::cache_stats(&device).compiled, 0);
    let p = ops::pad(&stream, &f(&[0]), &[[1, 2]], 5.0).unwrap();
    assert_eq!(p.to_vec::<f32>().unwrap(), vec![5.0; 3]);
    assert_no_validation_messages(device.context());
}
