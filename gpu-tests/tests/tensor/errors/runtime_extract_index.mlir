// A tensor.extract whose index, known only at run time, is past the end of
// the tensor (index 7 of 4 elements). Valid MLIR; kiln must stop with an
// error naming the op and its line, not read out of bounds.
// MLIR: accepts

func.func @runtime_extract_index() {
  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> tensor<?xf32>
  %i = util.unfoldable_constant 7 : index
  %v = tensor.extract %a[%i] : tensor<?xf32> // ERROR: index out of bounds
  %e = tensor.empty() : tensor<1xf32>
  %s = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  check.expect_eq_const(%s, dense<1.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
