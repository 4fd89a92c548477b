// A valid MLIR op outside kiln's tensor set (tensor.gather): the error names
// it, with its line and the list of supported tensor ops.
// MLIR: accepts

func.func @unsupported_tensor_op() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = util.unfoldable_constant dense<[[2], [0]]> : tensor<2x1xindex>
  %g = tensor.gather %a[%i] gather_dims([0]) : (tensor<4xf32>, tensor<2x1xindex>) -> tensor<2xf32> // ERROR: tensor.gather
  check.expect_almost_eq_const(%g, dense<[3.0, 1.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
