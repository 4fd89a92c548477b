// Malformed text: the second operand of arith.addf is missing. A parse
// error with the line, never a panic.
// MLIR: rejects

func.func @malformed_text() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %b = arith.addf %a, : tensor<4xf32> // ERROR: expected
  check.expect_almost_eq_const(%b, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
