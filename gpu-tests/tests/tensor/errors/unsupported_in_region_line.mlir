// An op inside a linalg.generic region that the device cannot compile
// (math.sin on f64: GLSL.std.450 defines Sin for 16- and 32-bit floats
// only): the error names the op's own line and column, not `<unknown>`.
// MLIR: accepts

func.func @unsupported_in_region_line() {
  %a = util.unfoldable_constant dense<[0.0, 0.5, -0.5, 1.0]> : tensor<4xf64>
  %e = tensor.empty() : tensor<4xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf64>) outs(%e : tensor<4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = math.sin %x : f64 // ERROR: 11:10: 'math.sin'
    linalg.yield %y : f64
  } -> tensor<4xf64>
  check.expect_almost_eq_const(%r, dense<[0.0, 0.47942553860420295, -0.47942553860420295, 0.8414709848078965]> : tensor<4xf64>) : tensor<4xf64>
  return
}
