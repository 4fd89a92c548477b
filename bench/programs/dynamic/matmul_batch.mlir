// a batch of rows of dynamic count times a static weight (time it with
// --input 128x768xf32=... --input 768x3072xf32=...).
func.func @main(%a: tensor<?x768xf32>, %b: tensor<768x3072xf32>) -> tensor<?x3072xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x768xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x3072xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<?x3072xf32>) -> tensor<?x3072xf32>
  return %r : tensor<?x3072xf32>
}
