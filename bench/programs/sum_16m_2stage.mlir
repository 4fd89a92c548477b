// sum-reduce, 16M f32, written in two stages (the form IREE gets right on
// lavapipe): view as 4096x4096, sum each row, then sum the 4096 row sums.
func.func @main(%a: tensor<16777216xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.expand_shape %a [[0, 1]] output_shape [4096, 4096]
      : tensor<16777216xf32> into tensor<4096x4096xf32>
  %e1 = tensor.empty() : tensor<4096xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4096xf32>) -> tensor<4096xf32>
  %partial = linalg.reduce ins(%rows : tensor<4096x4096xf32>) outs(%i1 : tensor<4096xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  %e0 = tensor.empty() : tensor<f32>
  %i0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%partial : tensor<4096xf32>) outs(%i0 : tensor<f32>) dimensions = [0]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %s : tensor<f32>
}
