// matmul 512x512x512, f16 inputs accumulated into f32: C = A B into a
// zero-filled C (mixed precision, as ML frameworks run f16 weights).
// 2 * 512^3 FLOP per call.
func.func @main(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<512x512xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x512xf32>) -> tensor<512x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>)
                     outs(%c0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
