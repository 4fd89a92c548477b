// matmul 4096x4096x4096 f32: C = A B into a zero-filled C. 2 * 4096^3 FLOP per call.
// GPU devices only (`kiln bench` skips it elsewhere); held against the
// vendor's BLAS there (the "cuBLAS (torch)" row).
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4096x4096xf32>
  %c0 = linalg.fill ins(%zero : f32) outs(%empty : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %c = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
                     outs(%c0 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}
