// A size read back from data the program computes (a host sync point: 2 - 5
// written by a dispatch, read by the host) that is negative. Valid MLIR;
// kiln must stop with an error naming the op that uses it and its line,
// never allocate a buffer of a garbage size.
// MLIR: accepts

func.func @runtime_size_from_data() {
  %n = util.unfoldable_constant dense<[2]> : tensor<1xi64>
  %e = tensor.empty() : tensor<1xi64>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%n : tensor<1xi64>) outs(%e : tensor<1xi64>) {
  ^bb0(%x: i64, %o: i64):
    %five = arith.constant 5 : i64
    %y = arith.subi %x, %five : i64
    linalg.yield %y : i64
  } -> tensor<1xi64>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %m[%c0] : tensor<1xi64>
  %s = arith.index_cast %v : i64 to index
  %t = tensor.empty(%s) : tensor<?xf32> // ERROR: a size cannot be negative
  %f0 = arith.constant 1.0 : f32
  %r = linalg.fill ins(%f0 : f32) outs(%t : tensor<?xf32>) -> tensor<?xf32>
  %b = util.optimization_barrier %r : tensor<?xf32>
  %c = tensor.cast %b : tensor<?xf32> to tensor<1xf32>
  check.expect_eq_const(%c, dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
