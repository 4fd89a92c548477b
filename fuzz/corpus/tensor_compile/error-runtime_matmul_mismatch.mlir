// A dynamic matmul whose reduction sizes disagree at run time (A is 3x4, B is
// 5x2). Valid MLIR; kiln must stop with an error naming the size.
// MLIR: accepts

func.func @runtime_matmul_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<3x4xf32> -> tensor<?x?xf32>
  %b = flow.tensor.dynamic_constant dense<1.0> : tensor<5x2xf32> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32> // ERROR: size
  %s = tensor.cast %r : tensor<?x?xf32> to tensor<3x2xf32>
  check.expect_almost_eq_const(%s, dense<4.0> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
