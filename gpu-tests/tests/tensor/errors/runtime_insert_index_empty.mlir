// A tensor.insert into a tensor with a dimension of size 0, at an index
// read from tensor data (the random-program tester's seed 10361): every
// index into an empty dimension is out of bounds. Valid MLIR; kiln must
// stop with an error naming the op and its line, as the reference
// evaluator does. It returned the empty tensor: the insert's kernel has
// no element to run for, so its index check never ran.
// MLIR: accepts

func.func @runtime_insert_index_empty() {
  %a = util.unfoldable_constant dense<[[], [], []]> : tensor<3x0xi16>
  %t = flow.tensor.dynamic_constant dense<[0]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %k = arith.constant -3 : i16
  %r = tensor.insert %k into %a[%c2, %i] : tensor<3x0xi16> // ERROR: index out of bounds
  check.expect_eq_const(%r, dense<[[], [], []]> : tensor<3x0xi16>) : tensor<3x0xi16>
  return
}
