// A run-time check as torch-mlir writes it for a broadcast (cf.assert on a
// comparison of two sizes) that fails: the operands are 3 and 2 long. Valid
// MLIR; kiln must fail the call with the assert's message.
// MLIR: accepts

func.func @runtime_assert() {
  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> tensor<?xf32>
  %b = flow.tensor.dynamic_constant dense<[10.0, 20.0]> : tensor<2xf32> -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %m = tensor.dim %b, %c0 : tensor<?xf32>
  %ok = arith.cmpi eq, %n, %m : index
  cf.assert %ok, "mismatched size for broadcast" // ERROR: assertion failed: mismatched size for broadcast
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %s = tensor.cast %r : tensor<?xf32> to tensor<3xf32>
  check.expect_almost_eq_const(%s, dense<[11.0, 22.0, 33.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
