// add, 16M f32: c = a + b (linalg.add). 201 MB moved per call.
func.func @main(%a: tensor<16777216xf32>, %b: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %init = tensor.empty() : tensor<16777216xf32>
  %c = linalg.add ins(%a, %b : tensor<16777216xf32>, tensor<16777216xf32>)
                  outs(%init : tensor<16777216xf32>) -> tensor<16777216xf32>
  return %c : tensor<16777216xf32>
}
