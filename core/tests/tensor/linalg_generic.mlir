// linalg.generic: several inputs and outputs, linalg.index, reductions,
// broadcasts, strided windows and zero-input generics.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_outputs(%a: tensor<4x8xf32>, %init: tensor<4xf32>, %idx: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %r:2 = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%init, %idx : tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%in: f32, %m: f32, %i: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %m : f32
    %nm = arith.select %gt, %in, %m : f32
    %ni = arith.select %gt, %jj, %i : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<4xf32>, tensor<4xi32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}

func.func @iota(%n: index) -> tensor<?x3xi32> {
  %e = tensor.empty(%n) : tensor<?x3xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x3xi32>) {
  ^bb0(%out: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %k = arith.muli %i, %c3 : index
    %l = arith.addi %k, %j overflow<nsw> : index
    %v = arith.index_cast %l : index to i32
    linalg.yield %v : i32
  } -> tensor<?x3xi32>
  return %r : tensor<?x3xi32>
}

func.func @strided_window(%x: tensor<1x11xf32>, %k: tensor<3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 * 3 + d2 * 2 - 1 + 1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %k : tensor<1x11xf32>, tensor<3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b fastmath<contract> : f32
    %s = arith.addf %acc, %p fastmath<fast> : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

func.func @broadcast_add(%m: tensor<3x5xf16>, %b: tensor<5xf16>) -> tensor<3x5xf16> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<3x5xf16>, tensor<5xf16>) outs(%m : tensor<3x5xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  } -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
