// A dynamic size that does not fit the program at run time: the tensor<?xf32>
// holds 5 elements, the cast asserts 4. Valid MLIR (the sizes are only known
// when it runs); kiln must stop with an error naming the size, not read or
// write out of bounds.
// MLIR: accepts

func.func @runtime_cast_size() {
  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32> -> tensor<?xf32>
  %b = tensor.cast %a : tensor<?xf32> to tensor<4xf32> // ERROR: size
  check.expect_almost_eq_const(%b, dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
