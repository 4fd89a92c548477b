//! The reference evaluator and the e2e runner: every file of the tensor
//! corpus (`gpu-tests/tests/tensor/`, expected values from numpy, `gen.py`
//! beside them) passes on the reference backend (the GPU test
//! `tensor_programs::corpus_matches_its_generator` runs `gen.py --check`);
//! failing checks print what iree-check-module prints for the same values
//! (`core/tests/tensor/e2e/failing.mlir`).

use kiln_core::tensor::e2e::{self, ReferenceBackend, RunOptions};
use kiln_core::tensor::eval::{self, Scalar, Value};
use kiln_core::tensor::{self, TensorModule};

fn e2e_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tensor/e2e")
}

fn load(path: &std::path::Path) -> TensorModule {
    let text = std::fs::read_to_string(path).expect("readable");
    tensor::load(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The tensor corpus shared with the GPU tests.
fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../gpu-tests/tests/tensor")
}

#[test]
fn numpy_generated_corpus_passes_on_the_reference_backend() {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 50, "corpus files are missing");
    let mut total = 0;
    let mut failures = Vec::new();
    for path in files {
        let m = load(&path);
        assert!(e2e::is_e2e(&m), "{}", path.display());
        match e2e::run(&m, &mut ReferenceBackend, &RunOptions::default()) {
            Ok(report) if report.success() => total += report.passed.len(),
            Ok(report) => failures.push(format!("{}:\n{}", path.display(), report.output)),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total >= 100, "only {total} e2e tests ran");
}

#[test]
fn failing_checks_print_iree_check_module_messages() {
    let m = load(&e2e_dir().join("failing.mlir"));
    let opts = RunOptions {
        source_name: Some("failing.mlir".into()),
        ..RunOptions::default()
    };
    let report = e2e::run(&m, &mut ReferenceBackend, &opts).unwrap();
    assert_eq!(report.passed, ["module.passes"]);
    assert_eq!(report.failed.len(), 6);
    let out = &report.output;
    // The messages of IREE's check/test/failure.mlir for the same values.
    for expected in [
        "[ RUN      ] module.true_of_zero\nfailing.mlir:13:3: Failure\nExpected 0 to be nonzero.\n[  FAILED  ] module.true_of_zero, where GetParam() = 1\n",
        "Expected near equality of these values. Contents does not match to tolerance parameters atol=0.0001, rtol=0. The first failure occurs at index 0 as the lhs value 1 differs from the rhs value 0.999 by -1.000e-03.\n  lhs:\n    5xf32=1 2 3 4 5\n  rhs:\n    5xf32=0.999 2 3 4 5\n",
        "Contents does not match to tolerance parameters atol=0.01, rtol=0. The first failure occurs at index 0 as the lhs value 1 differs from the rhs value 0.98 by -2.000e-02.",
        "Contents does not match to tolerance parameters atol=0.01, rtol=0.01. The first failure occurs at index 0 as the lhs value 0 differs from the rhs value 0.0110016 by 1.100e-02.",
        "Contents does not match to tolerance parameters atol=0.01, rtol=0.01. The first failure occurs at index 1 as the lhs value 100 differs from the rhs value 98 by -2.000e+00.",
        "Expected equality of these values. Contents does not match. The first failure occurs at index 3 as the lhs value 8 differs from the rhs value 9.\n  lhs:\n    2x2xi32=[2 4][6 8]\n  rhs:\n    2x2xi32=[2 4][6 9]\n",
        "[==========] Running 7 tests from 1 test suite.\n",
        "[  PASSED  ] 1 test.\n[  FAILED  ] 6 tests, listed below:\n",
        "\n 6 FAILED TESTS\n",
    ] {
        assert!(out.contains(expected), "missing:\n{expected}\nin:\n{out}");
    }
    // --function runs one test.
    let one = RunOptions {
        function: Some("passes".into()),
        ..RunOptions::default()
    };
    let report = e2e::run(&m, &mut ReferenceBackend, &one).unwrap();
    assert!(report.success());
    assert!(report
        .output
        .starts_with("[==========] Running 1 test from 1 test suite.\n"));
    let missing = RunOptions {
        function: Some("nope".into()),
        ..RunOptions::default()
    };
    let err = e2e::run(&m, &mut ReferenceBackend, &missing).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("no test function '@nope' (tests: passes, true_of_zero,"),
        "{err}"
    );
}

/// Hand-computed results of a function with arguments and dynamic shapes.
#[test]
fn evaluates_functions_with_arguments() {
    let m = tensor::load(
        "func.func @f(%a: tensor<?x3xf32>, %s: f32) -> (tensor<?x3xf32>, tensor<3xf32>, index) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %x = linalg.map ins(%a : tensor<?x3xf32>) outs(%e : tensor<?x3xf32>)
    (%v: f32) {
      %y = arith.mulf %v, %s : f32
      linalg.yield %y : f32
    }
  %z = arith.constant 0.0 : f32
  %e3 = tensor.empty() : tensor<3xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<?x3xf32>) outs(%f3 : tensor<3xf32>) dimensions = [0]
  return %x, %r, %n : tensor<?x3xf32>, tensor<3xf32>, index
}",
    )
    .unwrap();
    let input = eval::Tensor {
        elem: tensor::ElemType::F32,
        shape: vec![2, 3],
        data: tensor::Elements::F32(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    };
    let out = eval::run(
        &m,
        "f",
        &[
            Value::Tensor(input.into()),
            Value::Scalar(Scalar::Float(0.5)),
        ],
    )
    .unwrap();
    let t = out[0].tensor().unwrap();
    assert_eq!(t.shape, [2, 3]);
    assert_eq!(
        t.data,
        tensor::Elements::F32(vec![0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    );
    assert_eq!(
        out[1].tensor().unwrap().data,
        tensor::Elements::F32(vec![2.5, 3.5, 4.5])
    );
    assert_eq!(out[2], Value::Scalar(Scalar::Int(2)));
    // A run-time shape that does not fit the program is an error, with the
    // message of the size checks every backend shares.
    let m2 = tensor::load(
        "func.func @g(%a: tensor<?xf32>) -> tensor<4xf32> {
  %c = tensor.cast %a : tensor<?xf32> to tensor<4xf32>
  return %c : tensor<4xf32>
}",
    )
    .unwrap();
    let five = eval::Tensor {
        elem: tensor::ElemType::F32,
        shape: vec![5],
        data: tensor::Elements::F32(vec![0.0; 5]),
    };
    let err = eval::run(&m2, "g", &[Value::Tensor(five.into())]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "2:8: 'tensor.cast' op size mismatch: result dimension 0 is 5 at run time, but the program needs 4"
    );
}

/// A 16,777,216-element sum of ones is exactly 16777216.0 (f32 holds
/// every integer up to 2^24), accumulated in loop order.
#[test]
fn large_sum_is_exact() {
    let m = tensor::load(
        "func.func @sum() {
  %ones = util.unfoldable_constant dense<1.0> : tensor<16777216xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce { arith.addf } ins(%ones : tensor<16777216xf32>) outs(%f : tensor<f32>) dimensions = [0]
  check.expect_eq_const(%s, dense<16777216.0> : tensor<f32>) : tensor<f32>
  return
}",
    )
    .unwrap();
    let report = e2e::run(&m, &mut ReferenceBackend, &RunOptions::default()).unwrap();
    assert!(report.success(), "{}", report.output);
}
