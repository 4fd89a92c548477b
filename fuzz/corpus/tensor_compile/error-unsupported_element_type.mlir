// An element type kiln does not handle (valid MLIR): the error names the
// type.
// MLIR: accepts

func.func @unsupported_element_type() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf8E4M3FN> // ERROR: f8E4M3FN
  %b = arith.addf %a, %a : tensor<4xf8E4M3FN>
  check.expect_almost_eq_const(%b, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf8E4M3FN>) : tensor<4xf8E4M3FN>
  return
}
