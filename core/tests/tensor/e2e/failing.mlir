// Checks that fail, with the messages iree-check-module prints for the
// same values (IREE's runtime/src/iree/modules/check/test/failure.mlir
// lists them); used by the runner's tests.

func.func @passes() {
  %a = util.unfoldable_constant dense<[1.0, 2.0]> : tensor<2xf32>
  check.expect_almost_eq_const(%a, dense<[1.00001, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}

func.func @true_of_zero() {
  %z = util.unfoldable_constant 0 : i32
  check.expect_true(%z) : i32
  return
}

func.func @near_f32() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  check.expect_almost_eq_const(%a, dense<[0.999, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>) : tensor<5xf32>
  return
}

func.func @near_f64_atol() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf64>
  check.expect_almost_eq_const(%a, dense<[0.98, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf64>, atol 1.0e-2) : tensor<5xf64>
  return
}

func.func @near_f16() {
  %a = util.unfoldable_constant dense<[0.0, 100.0]> : tensor<2xf16>
  check.expect_almost_eq_const(%a, dense<[0.011, 99.0]> : tensor<2xf16>, atol 1.0e-2, rtol 1.0e-2) : tensor<2xf16>
  return
}

func.func @near_bf16() {
  %a = util.unfoldable_constant dense<[0.0, 100.0]> : tensor<2xbf16>
  check.expect_almost_eq_const(%a, dense<[0.009, 98.0]> : tensor<2xbf16>, atol 1.0e-2, rtol 1.0e-2) : tensor<2xbf16>
  return
}

func.func @exact_i32() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = arith.addi %a, %a : tensor<2x2xi32>
  check.expect_eq_const(%b, dense<[[2, 4], [6, 9]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}
