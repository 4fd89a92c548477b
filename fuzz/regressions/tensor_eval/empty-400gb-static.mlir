func.func @f() {
  %a = tensor.empty() : tensor<100000x1000000xf32>
  %c = arith.constant 1.0 : f32
  %d = linalg.fill ins(%c : f32) outs(%a : tensor<100000x1000000xf32>) -> tensor<100000x1000000xf32>
  %i0 = arith.constant 0 : index
  %e = tensor.extract %d[%i0, %i0] : tensor<100000x1000000xf32>
  %one = arith.constant 1.0 : f32
  %t = arith.cmpf oeq, %e, %one : f32
  %ti = arith.extui %t : i1 to i32
  check.expect_true(%ti) : i32
  return
}
