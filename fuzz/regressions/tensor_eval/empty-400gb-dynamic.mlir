func.func @f() {
  %n = util.unfoldable_constant 100000000000 : index
  %a = tensor.empty(%n) : tensor<?xf32>
  %c = arith.constant 1.0 : f32
  %d = linalg.fill ins(%c : f32) outs(%a : tensor<?xf32>) -> tensor<?xf32>
  %i0 = arith.constant 0 : index
  %e = tensor.extract %d[%i0] : tensor<?xf32>
  %t = arith.cmpf oeq, %e, %c : f32
  check.expect_true(%t) : i1
  return
}
