// A tensor.insert_slice whose dynamic source (2 elements) is shorter than
// the slice (4). Valid MLIR (the sizes are only known when it runs); kiln
// must stop with an error naming the size, not read past the source.
// MLIR: accepts

func.func @runtime_insert_slice_size() {
  %src = flow.tensor.dynamic_constant dense<[1.0, 2.0]> : tensor<2xf32> -> tensor<?xf32>
  %dst = util.unfoldable_constant dense<0.0> : tensor<8xf32>
  %n = util.unfoldable_constant 4 : index
  %r = tensor.insert_slice %src into %dst[0] [%n] [1] : tensor<?xf32> into tensor<8xf32> // ERROR: size
  check.expect_eq_const(%r, dense<0.0> : tensor<8xf32>) : tensor<8xf32>
  return
}
