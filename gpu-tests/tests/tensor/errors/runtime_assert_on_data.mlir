// torch-mlir's NonMaxSuppression check at function level on a condition
// computed from tensor data (the minimum of the scores, a reduction, against
// a threshold read from a tensor) that fails: the threshold 2.5 is above the
// minimum score 1.5. Valid MLIR; kiln must fail the call with the assert's
// message, on every backend.
// MLIR: accepts

func.func @runtime_assert_on_data() {
  %scores = util.unfoldable_constant dense<[4.0, 1.5, 3.0]> : tensor<3xf32>
  %th = util.unfoldable_constant dense<[2.5]> : tensor<1xf32>
  %inf = arith.constant 0x7F800000 : f32
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%inf : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %min = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%scores : tensor<3xf32>) outs(%init : tensor<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.minimumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %lo = tensor.extract %min[] : tensor<f32>
  %t = tensor.extract %th[%c0] : tensor<1xf32>
  %ok = arith.cmpf uge, %lo, %t : f32
  cf.assert %ok, "unimplemented: score_threshold should be <= min(scores)" // ERROR: assertion failed: unimplemented: score_threshold should be <= min(scores)
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%scores : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  check.expect_eq_const(%r, dense<[8.0, 3.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
