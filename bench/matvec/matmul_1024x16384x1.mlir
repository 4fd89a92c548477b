func.func @matvec(%a: tensor<1024x16384xf32>, %x: tensor<16384x1xf32>) -> tensor<1024x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %r = linalg.matmul ins(%a, %x : tensor<1024x16384xf32>, tensor<16384x1xf32>) outs(%f : tensor<1024x1xf32>) -> tensor<1024x1xf32>
  return %r : tensor<1024x1xf32>
}
