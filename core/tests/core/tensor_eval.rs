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

/// torch-mlir's `tm_tensor.scan` and IREE's `iree_linalg_ext.scan`
/// (rewritten at import into log-step generics) give what the ops'
/// reference definition gives, written out here as its sequential loop:
/// inclusive `y[0] = x[0]`, `y[i] = f(y[i-1], x[i])`; exclusive `y[0] =
/// acc`, `y[i] = f(y[i-1], x[i-1])`; the accumulator result `y[n-1]` when
/// `n >= 2`, else the accumulator given. Wrapping sums, max, and "keep
/// the first" (associative, not commutative: it pins the argument order),
/// for lengths around the powers of two.
#[test]
fn linalg_ext_scans_match_their_sequential_definition() {
    type Combine = fn(i32, i32) -> i32;
    let combiners: [(&str, Combine); 3] = [
        ("%v = arith.addi %a, %b : i32", i32::wrapping_add),
        ("%v = arith.maxsi %a, %b : i32", i32::max),
        (
            "%v = arith.addi %a, %a : i32\n    %w = arith.subi %v, %a : i32",
            |a, _| a,
        ),
    ];
    for dialect in ["tm_tensor", "iree_linalg_ext"] {
        for inclusive in [true, false] {
            for (body, f) in combiners {
                for n in [1usize, 2, 3, 5, 8, 13] {
                    let yielded = if body.contains("%w") { "%w" } else { "%v" };
                    let t = format!("tensor<2x{n}xi32>");
                    let src = format!(
                        "func.func @f(%x: {t}, %acc: tensor<2xi32>) -> ({t}, tensor<2xi32>) {{
  %e = tensor.empty() : {t}
  %r:2 = {dialect}.scan dimension(1) inclusive({inclusive}) ins(%x : {t}) outs(%e, %acc : {t}, tensor<2xi32>) {{
  ^bb0(%a: i32, %b: i32):
    {body}
    {dialect}.yield {yielded} : i32
  }} -> {t}, tensor<2xi32>
  return %r#0, %r#1 : {t}, tensor<2xi32>
}}"
                    );
                    let m = tensor::load(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
                    let x: Vec<i32> = (0..2 * n)
                        .map(|i| {
                            ((i as i32 * 7919 + 13) % 97 - 40)
                                .wrapping_add((i as i32 % 3) * 0x3fff_ffff)
                        })
                        .collect();
                    let acc = [5i32, -9];
                    let int = |shape: Vec<usize>, data: Vec<i32>| {
                        Value::Tensor(
                            eval::Tensor {
                                elem: tensor::ElemType::Int(32),
                                shape,
                                data: tensor::Elements::I32(data),
                            }
                            .into(),
                        )
                    };
                    let out = eval::run(
                        &m,
                        "f",
                        &[int(vec![2, n], x.clone()), int(vec![2], acc.to_vec())],
                    )
                    .unwrap_or_else(|e| panic!("{e}\n{src}"));
                    let mut want = vec![0i32; 2 * n];
                    let mut want_acc = acc;
                    for r in 0..2 {
                        let row = &x[r * n..(r + 1) * n];
                        let y = &mut want[r * n..(r + 1) * n];
                        y[0] = if inclusive { row[0] } else { acc[r] };
                        for i in 1..n {
                            y[i] = f(y[i - 1], if inclusive { row[i] } else { row[i - 1] });
                        }
                        if n >= 2 {
                            want_acc[r] = y[n - 1];
                        }
                    }
                    let what = format!("{dialect} inclusive({inclusive}) n={n}: {body}");
                    assert_eq!(
                        out[0].tensor().unwrap().data,
                        tensor::Elements::I32(want),
                        "{what}"
                    );
                    assert_eq!(
                        out[1].tensor().unwrap().data,
                        tensor::Elements::I32(want_acc.to_vec()),
                        "{what}"
                    );
                }
            }
        }
    }
}

/// torch-mlir's `tm_tensor.scatter` as its `index_put` lowering writes it:
/// updates `tensor<N x 1.. x S..>` with a unit extent for each indexed dim
/// inside the update slice (`x[i] += v`, `x[:, i] += v`, `x[i, j] += v`).
/// The results are TMTensor's definition written out as its sequential
/// loop: slice dims line up with the original's trailing dims, an indexed
/// dim's position is the index plus the slice position, updates apply in
/// order (duplicate indices add up).
#[test]
fn tm_tensor_scatter_with_unit_update_dims_matches_its_definition() {
    // (original shape, updates shape, dimension_map, index rows)
    type Case<'a> = (&'a [usize], &'a [usize], &'a [usize], &'a [&'a [i64]]);
    let cases: [Case; 4] = [
        (&[5, 3], &[4, 1, 3], &[0], &[&[4], &[0], &[2], &[2]]),
        (
            &[3, 6],
            &[4, 1, 1],
            &[0, 1],
            &[&[2, 5], &[0, 0], &[2, 5], &[1, 3]],
        ),
        (
            &[2, 5, 3],
            &[3, 1, 1, 3],
            &[0, 1],
            &[&[1, 4], &[0, 0], &[1, 4]],
        ),
        (&[4, 2, 3], &[2, 2, 3], &[0], &[&[3], &[3]]),
    ];
    let shape = |s: &[usize]| {
        s.iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    };
    for (os, us, dims, rows) in cases {
        let (ot, ut) = (shape(os), shape(us));
        let (n, depth) = (rows.len(), dims.len());
        let map = dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let src = format!(
            "func.func @f(%o: tensor<{ot}xi32>, %u: tensor<{ut}xi32>, %i: tensor<{n}x{depth}xi64>) -> tensor<{ot}xi32> {{
  %r = tm_tensor.scatter {{dimension_map = array<i64: {map}>}} unique_indices(false) ins(%u, %i : tensor<{ut}xi32>, tensor<{n}x{depth}xi64>) outs(%o : tensor<{ot}xi32>) {{
  ^bb0(%a: i32, %b: i32):
    %v = arith.addi %b, %a : i32
    tm_tensor.yield %v : i32
  }} -> tensor<{ot}xi32>
  return %r : tensor<{ot}xi32>
}}"
        );
        let m = tensor::load(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let o: Vec<i32> = (0..os.iter().product::<usize>() as i32)
            .map(|v| v * 100)
            .collect();
        let u: Vec<i32> = (1..=us.iter().product::<usize>() as i32).collect();
        let idx: Vec<i64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
        let t = |elem, shape: &[usize], data| {
            Value::Tensor(
                eval::Tensor {
                    elem,
                    shape: shape.to_vec(),
                    data,
                }
                .into(),
            )
        };
        let out = eval::run(
            &m,
            "f",
            &[
                t(
                    tensor::ElemType::Int(32),
                    os,
                    tensor::Elements::I32(o.clone()),
                ),
                t(
                    tensor::ElemType::Int(32),
                    us,
                    tensor::Elements::I32(u.clone()),
                ),
                t(
                    tensor::ElemType::Int(64),
                    &[n, depth],
                    tensor::Elements::I64(idx),
                ),
            ],
        )
        .unwrap_or_else(|e| panic!("{e}\n{src}"));
        // TMTensor's ScatterOp::generateScalarImplementation, sequentially.
        let strides = |s: &[usize]| {
            let mut st = vec![1usize; s.len()];
            for d in (0..s.len().saturating_sub(1)).rev() {
                st[d] = st[d + 1] * s[d + 1];
            }
            st
        };
        let (ost, ust) = (strides(os), strides(us));
        let mut want = o;
        for (flat, &val) in u.iter().enumerate() {
            let ivs: Vec<usize> = (0..us.len()).map(|d| flat / ust[d] % us[d]).collect();
            let mut starts = vec![0i64; os.len()];
            let offset = os.len() - (us.len() - 1);
            for (t, &iv) in ivs[1..].iter().enumerate() {
                starts[offset + t] = iv as i64;
            }
            for (i, &d) in dims.iter().enumerate() {
                starts[d] += rows[ivs[0]][i];
            }
            let at: usize = starts
                .iter()
                .zip(&ost)
                .map(|(&s, &st)| s as usize * st)
                .sum();
            want[at] += val;
        }
        assert_eq!(
            out[0].tensor().unwrap().data,
            tensor::Elements::I32(want),
            "{src}"
        );
    }
}

/// A check's constant is static even where the checked result's size is
/// computed at run time (`tensor<?xf32>`, as torch-mlir's Split lowering
/// returns): the run-time shape is compared with the constant's, then the
/// values. A constant of another element type, rank or static size is
/// still refused at parse time.
#[test]
fn static_check_constants_compare_with_dynamic_results() {
    let text = r#"
func.func @dynamic_result_checked_by_static_constants() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  check.expect_almost_eq_const(%d, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<?xf32>
  check.expect_eq_const(%d, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<?xf32>
  return
}
func.func @wrong_run_time_size() {
  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %d = tensor.cast %x : tensor<3xf32> to tensor<?xf32>
  check.expect_almost_eq_const(%d, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<?xf32>
  return
}
"#;
    let m = tensor::load(text).unwrap();
    let report = e2e::run(&m, &mut ReferenceBackend, &RunOptions::default()).unwrap();
    assert_eq!(
        report.passed,
        ["module.dynamic_result_checked_by_static_constants"]
    );
    assert_eq!(report.failed, ["module.wrong_run_time_size"]);
    assert!(
        report.output.contains("Shapes do not match."),
        "{}",
        report.output
    );
    for (constant, ty) in [
        ("dense<[1, 2]> : tensor<2xi32>", "tensor<?xf32>"),
        ("dense<[[1.0, 2.0]]> : tensor<1x2xf32>", "tensor<?xf32>"),
        ("dense<[1.0, 2.0]> : tensor<2xf32>", "tensor<3xf32>"),
    ] {
        let bad = format!(
            "func.func @f() {{\n  %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n  \
             %d = tensor.cast %x : tensor<3xf32> to {ty}\n  \
             check.expect_almost_eq_const(%d, {constant}) : {ty}\n  return\n}}\n"
        );
        let err = tensor::load(&bad).expect_err(constant).to_string();
        assert!(err.contains("the constant has type"), "{constant}: {err}");
    }
    // Inside a run-time `scf.if` the guard selects between the checked
    // value and a passing one of the same size, which a constant of
    // another size cannot give: refused by name, on every engine alike.
    let in_branch = "func.func @f() {\n  %c = util.unfoldable_constant dense<true> : tensor<i1>\n  \
         %x = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>\n  \
         %d = tensor.cast %x : tensor<3xf32> to tensor<?xf32>\n  \
         %b = tensor.extract %c[] : tensor<i1>\n  scf.if %b {\n    \
         check.expect_almost_eq_const(%d, dense<[1.0, 2.0, 3.0]> : tensor<3xf32>) : tensor<?xf32>\n  \
         }\n  return\n}\n";
    let err = tensor::load(in_branch).expect_err("scf.if").to_string();
    assert!(
        err.contains("a branch checks a value of run-time size against a constant"),
        "{err}"
    );
}
