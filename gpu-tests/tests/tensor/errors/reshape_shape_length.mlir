// tensor.reshape whose shape operand has 3 entries for a result of rank 2.
// MLIR: rejects

func.func @reshape_shape_length() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = arith.constant dense<[3, 2, 1]> : tensor<3xi64>
  %r = tensor.reshape %a(%s) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<3x2xf32> // ERROR: length of shape operand differs from the result's tensor rank
  check.expect_almost_eq_const(%r, dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
