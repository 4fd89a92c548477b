// sum-reduce, 16M f32 to a 0-d tensor (linalg.reduce over the one dimension).
func.func @main(%a: tensor<16777216xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<16777216xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %s : tensor<f32>
}
