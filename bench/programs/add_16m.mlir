// add, 16M f32: c = a + b, an elementwise linalg.generic (IREE 3.13 does
// not take the linalg.add named op). 201 MB moved per call.
#id = affine_map<(i) -> (i)>
func.func @main(%a: tensor<16777216xf32>, %b: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %init = tensor.empty() : tensor<16777216xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<16777216xf32>, tensor<16777216xf32>) outs(%init : tensor<16777216xf32>) {
    ^bb0(%x: f32, %y: f32, %unused: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
  } -> tensor<16777216xf32>
  return %c : tensor<16777216xf32>
}
