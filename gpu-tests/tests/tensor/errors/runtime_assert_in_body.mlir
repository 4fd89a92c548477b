// torch-mlir's reciprocal (a cf.assert of x != 0 inside the generic's body,
// which only the device can check) on a tensor holding a zero. Valid MLIR;
// kiln must fail the call with the assert's message, on every backend.
// MLIR: accepts

func.func @runtime_assert_in_body() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 0.0, 4.0, 8.0]> : tensor<5xf32>
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %nz = arith.cmpf one, %x, %z : f32
    cf.assert %nz, "unimplemented: tensor with zero element" // ERROR: assertion failed: unimplemented: tensor with zero element
    %one = arith.constant 1.0 : f32
    %q = arith.divf %one, %x : f32
    linalg.yield %q : f32
  } -> tensor<5xf32>
  check.expect_almost_eq_const(%r, dense<[1.0, 0.5, 0.0, 0.25, 0.125]> : tensor<5xf32>) : tensor<5xf32>
  return
}
