func.func @f() {
  %a = tensor.empty() : tensor<4294967296x4294967296xf32>
  %c = arith.constant 1.0 : f32
  %d = linalg.fill ins(%c : f32) outs(%a : tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  %i0 = arith.constant 0 : index
  %e = tensor.extract %d[%i0, %i0] : tensor<4294967296x4294967296xf32>
  %t = arith.cmpf oeq, %e, %c : f32
  check.expect_true(%t) : i1
  return
}
