// An op inside a linalg.generic region that the device cannot compile
// (math.ctlz on i64: bit counting is lowered for 32-bit integers only): the
// error names the op's own line and column, not `<unknown>`.
// MLIR: accepts

func.func @unsupported_in_region_line() {
  %a = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %e = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%x: i64, %o: i64):
    %y = math.ctlz %x : i64 // ERROR: 11:10: 'math.ctlz'
    linalg.yield %y : i64
  } -> tensor<4xi64>
  check.expect_eq_const(%r, dense<[63, 62, 62, 61]> : tensor<4xi64>) : tensor<4xi64>
  return
}
