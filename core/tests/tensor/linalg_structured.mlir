// map, reduce (short and long forms), transpose, broadcast, softmax.
func.func @map_reduce(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.map { arith.addf } ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
  %e4 = tensor.empty() : tensor<4xf32>
  %r = linalg.reduce { arith.maximumf } ins(%m : tensor<4x8xf32>) outs(%e4 : tensor<4xf32>) dimensions = [1]
  %m2 = linalg.map ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>)
    (%x: f32) {
      %y = math.tanh %x : f32
      %z = arith.mulf %y, %x : f32
      linalg.yield %z : f32
    }
  %r2 = linalg.reduce ins(%m2 : tensor<4x8xf32>) outs(%e4 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %ei = tensor.empty() : tensor<4xi32>
  %r3 = linalg.reduce { arith.addi } ins(%i : tensor<4x8xi32>) outs(%ei : tensor<4xi32>) dimensions = [1]
  return %m, %r, %m2, %r2, %r3 : tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xi32>
}

func.func @layout(%a: tensor<2x3x4xf32>, %v: tensor<3xf32>) -> (tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x3x4xf32>) {
  %e = tensor.empty() : tensor<4x2x3xf32>
  %t = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %eb = tensor.empty() : tensor<2x3x5xf32>
  %b = linalg.broadcast ins(%v : tensor<3xf32>) outs(%eb : tensor<2x3x5xf32>) dimensions = [0, 2]
  %es = tensor.empty() : tensor<2x3x4xf32>
  %s = linalg.softmax dimension(2) ins(%a : tensor<2x3x4xf32>) outs(%es : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %t, %b, %s : tensor<4x2x3xf32>, tensor<2x3x5xf32>, tensor<2x3x4xf32>
}
