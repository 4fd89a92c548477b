// tensor dialect ops with static and dynamic shapes.
func.func @slices(%t: tensor<8x16xf32>, %d: tensor<?x?xf32>, %n: index) -> (tensor<2x?xf32>, tensor<8x16xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %d, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %t[1, %n] [2, %dim] [1, 2] : tensor<8x16xf32> to tensor<2x?xf32>
  %u = tensor.insert_slice %s into %t[0, 1] [2, %dim] [3, 1] : tensor<2x?xf32> into tensor<8x16xf32>
  %r = tensor.extract_slice %t[2, 0] [1, 4] [1, 1] : tensor<8x16xf32> to tensor<4xf32>
  return %s, %u, %r : tensor<2x?xf32>, tensor<8x16xf32>, tensor<4xf32>
}

func.func @reshapes(%t: tensor<2x3x4xf32>, %d: tensor<?x4xf32>, %n: index) -> (tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x2x2xf32>, tensor<24xf32>) {
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.expand_shape %t [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xf32> into tensor<2x3x2x2xf32>
  %f = tensor.expand_shape %d [[0], [1, 2]] output_shape [%n, 2, 2] : tensor<?x4xf32> into tensor<?x2x2xf32>
  %g = tensor.collapse_shape %t [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  return %c, %e, %f, %g : tensor<6x4xf32>, tensor<2x3x2x2xf32>, tensor<?x2x2xf32>, tensor<24xf32>
}

func.func @pad_cast_concat(%t: tensor<2x3xi32>, %h: index, %s: i32) -> (tensor<?x6xi32>, tensor<?x3xi32>, tensor<4x3xi32>, tensor<5x3xi32>) {
  %c7 = arith.constant 7 : i32
  %p = tensor.pad %t low[1, 2] high[%h, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c7 : i32
  } : tensor<2x3xi32> to tensor<?x6xi32>
  %c = tensor.cast %t : tensor<2x3xi32> to tensor<?x3xi32>
  %k = tensor.concat dim(0) %t, %t : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  %sp = tensor.splat %s : tensor<1x3xi32>
  %k2 = tensor.concat dim(0) %k, %sp : (tensor<4x3xi32>, tensor<1x3xi32>) -> tensor<5x3xi32>
  return %p, %c, %k, %k2 : tensor<?x6xi32>, tensor<?x3xi32>, tensor<4x3xi32>, tensor<5x3xi32>
}

func.func @elements(%t: tensor<4xf32>, %x: f32, %n: index) -> (f32, tensor<4xf32>, tensor<2xf32>, tensor<?xf32>) {
  %c1 = arith.constant 1 : index
  %v = tensor.extract %t[%c1] : tensor<4xf32>
  %u = tensor.insert %x into %t[%c1] : tensor<4xf32>
  %f = tensor.from_elements %v, %x : tensor<2xf32>
  %s = tensor.splat %x[%n] : tensor<?xf32>
  return %v, %u, %f, %s : f32, tensor<4xf32>, tensor<2xf32>, tensor<?xf32>
}

func.func @rank0(%a: tensor<1x1xf32>) -> (tensor<f32>, tensor<1x1x1xf32>) {
  %c = tensor.collapse_shape %a [] : tensor<1x1xf32> into tensor<f32>
  %e = tensor.expand_shape %c [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
  return %c, %e : tensor<f32>, tensor<1x1x1xf32>
}
