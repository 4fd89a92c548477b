// softmax over the last dimension of 1024x4096 f32 (linalg.softmax).
func.func @main(%x: tensor<1024x4096xf32>) -> tensor<1024x4096xf32> {
  %empty = tensor.empty() : tensor<1024x4096xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1024x4096xf32>)
                     outs(%empty : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  return %y : tensor<1024x4096xf32>
}
