// arith.addf on tensors of different shapes (4 and 5 elements).
// MLIR: rejects

func.func @addf_shape_mismatch() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %c = arith.addf %a, %b : tensor<4xf32> // ERROR: shape
  check.expect_almost_eq_const(%c, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
