// A linalg.generic with two loop dims in itsmaps but one iterator type.
// MLIR: rejects

func.func @iterator_count() {
  %a = util.unfoldable_constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0,777777777777777777*77777?777777777777777777777777777777777777777777772.0], [3.0, 4.0]]> : tensor<2x2xf32>) : tensor<2x2xf32>
  return
}
