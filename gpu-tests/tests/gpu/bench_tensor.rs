//! `kiln bench`'s tensor rows: [`compile_tensor_function`] compiles a
//! tensor program with kiln's compiler and calls it on device tensors
//! ([`Program::run_on_device`](kiln_runtime::Program::run_on_device)): the
//! results come back as device tensors of the function's dtype and shape,
//! equal to the same computation done here on the host in f64, at sizes
//! with tails (not a multiple of any workgroup) and one larger than a
//! workgroup; bad arguments are errors, not wrong numbers.

use kiln_gpu_tests::assert_no_validation_messages;
use kiln_runtime::bench::compile_tensor_function;
use kiln_runtime::{DType, Tensor};

use crate::runtime_support::device;

/// Inputs that are exact in f32 and differ per element.
fn data(n: usize, seed: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7 + seed) % 13) as f32 - 6.0).collect()
}

/// `@main(a, b) = a + b` over `n` f32.
fn add_program(n: usize) -> String {
    format!(
        "func.func @main(%a: tensor<{n}xf32>, %b: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %c = arith.addf %a, %b : tensor<{n}xf32>
  return %c : tensor<{n}xf32>
}}"
    )
}

#[test]
fn tensor_add_and_matmul_on_device_tensors() {
    let device = device();
    let stream = device.stream();
    // add with a tail: 300,007 elements (large enough for the 256 x 8
    // elementwise strategy, not a multiple of its 2,048 per workgroup).
    let n = 300_007;
    let add = add_program(n);
    let f = compile_tensor_function(&device, &add, "main").unwrap();
    let (a, b) = (data(n, 1), data(n, 5));
    let args = [
        Tensor::from_slice(&device, &a, &[n]).unwrap(),
        Tensor::from_slice(&device, &b, &[n]).unwrap(),
    ];
    let out = f.call(&stream, &args).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].dtype(), out[0].shape()), (DType::F32, &[n][..]));
    let got = out[0].to_vec::<f32>().unwrap();
    for i in 0..n {
        assert_eq!(got[i], a[i] + b[i], "element {i}");
    }
    // matmul 33x17 * 17x65 (f64 reference; the values are small integers,
    // exact in f32).
    let (m, k, p) = (33, 17, 65);
    let mm = format!(
        "func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{p}xf32>) -> tensor<{m}x{p}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{p}xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{p}xf32>) -> tensor<{m}x{p}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{p}xf32>) outs(%c0 : tensor<{m}x{p}xf32>) -> tensor<{m}x{p}xf32>
  return %c : tensor<{m}x{p}xf32>
}}"
    );
    let f = compile_tensor_function(&device, &mm, "main").unwrap();
    let (a, b) = (data(m * k, 2), data(k * p, 3));
    let args = [
        Tensor::from_slice(&device, &a, &[m, k]).unwrap(),
        Tensor::from_slice(&device, &b, &[k, p]).unwrap(),
    ];
    // Called twice: each call allocates its own output.
    let first = f.call(&stream, &args).unwrap();
    let out = f.call(&stream, &args).unwrap();
    assert!(!first[0].shares_buffer(&out[0]));
    assert_eq!(out[0].shape(), &[m, p]);
    let got = out[0].to_vec::<f32>().unwrap();
    for i in 0..m {
        for j in 0..p {
            let want: f64 = (0..k)
                .map(|l| f64::from(a[i * k + l]) * f64::from(b[l * p + j]))
                .sum();
            assert_eq!(f64::from(got[i * p + j]), want, "({i}, {j})");
        }
    }
    assert_eq!(first[0].to_vec::<f32>().unwrap(), got);
    // Wrong arguments: an error naming the argument.
    let wrong = [
        Tensor::from_slice(&device, &a, &[k, m]).unwrap(),
        args[1].clone(),
    ];
    let e = f.call(&stream, &wrong).unwrap_err().to_string();
    assert!(e.contains("argument 0"), "{e}");
    let e = compile_tensor_function(&device, &mm, "nope")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("no such function"), "{e}");
    drop(stream);
    assert_no_validation_messages(device.context());
}

/// `time_calls` times the wall clock on calls that write no timestamps
/// (lavapipe flushes its queue at each one), then takes the GPU time from
/// as many profiled calls: the warm-up calls (at least one, repeated for
/// `WARM_UP`) and `runs` calls leave no profile records, the next `runs`
/// leave one per call, and the stream is left profiling.
#[test]
fn wall_clock_calls_write_no_timestamps() {
    use kiln_runtime::bench::stats::time_calls;
    let device = device();
    let stream = device.stream();
    let n = 1024;
    let add = add_program(n);
    let f = compile_tensor_function(&device, &add, "main").unwrap();
    let args = [
        Tensor::from_slice(&device, &data(n, 1), &[n]).unwrap(),
        Tensor::from_slice(&device, &data(n, 2), &[n]).unwrap(),
    ];
    let runs = 5;
    let mut records = Vec::new();
    let timing = time_calls(&device, &stream, runs, || {
        f.call(&stream, &args)?;
        records.push(device.profile().len());
        Ok::<(), kiln_runtime::Error>(())
    })
    .unwrap();
    assert!(records.len() > 2 * runs, "{records:?}");
    let warm = records.len() - 2 * runs;
    assert!(
        records[..warm + runs].iter().all(|&r| r == 0),
        "{records:?}"
    );
    assert_eq!(timing.wall.runs, runs);
    if device.info().timestamps {
        assert!(
            records[warm + runs..].iter().all(|&r| r == 1),
            "{records:?}"
        );
        assert_eq!(timing.gpu.expect("GPU times").runs, runs);
    }
    assert_no_validation_messages(device.context());
}

/// A result that is an argument reshaped lives in the argument's buffer,
/// which keeps the argument's shape: it is flattened before the result is
/// cut from it (this failed with "narrow: 0..0+6 is outside dimension 0 of
/// extent 2", as ONNX's `test_reshape_reduced_dims` did through the Python
/// package).
#[test]
fn a_result_that_is_an_argument_reshaped_comes_back_on_the_device() {
    let device = device();
    let stream = device.stream();
    let src = "func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %y = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %y : tensor<6xf32>
}";
    let f = compile_tensor_function(&device, src, "main").unwrap();
    let x = data(6, 3);
    let args = [Tensor::from_slice(&device, &x, &[2, 3]).unwrap()];
    let out = f.call(&stream, &args).unwrap();
    assert_eq!(out[0].shape(), &[6]);
    assert_eq!(out[0].to_vec::<f32>().unwrap(), x);
    assert_no_validation_messages(device.context());
}
