// An op linalg does not have: the error names it, with its line and the
// list of supported linalg ops.
// MLIR: rejects

func.func @unsupported_op() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.foo ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32> // ERROR: linalg.foo
  check.expect_almost_eq_const(%r, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
