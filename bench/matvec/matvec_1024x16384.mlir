func.func @matvec(%a: tensor<1024x16384xf32>, %x: tensor<16384xf32>) -> tensor<1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.matvec ins(%a, %x : tensor<1024x16384xf32>, tensor<16384xf32>) outs(%f : tensor<1024xf32>) -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
