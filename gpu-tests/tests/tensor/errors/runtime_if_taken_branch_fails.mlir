// An scf.if whose condition is read from tensor data (true on this input)
// takes the branch that slices at an offset read from tensor data, past the
// end of the tensor (4 elements from offset 6 of 8). Valid MLIR; the taken
// branch fails the call, naming the op and its line (the branch not taken
// computes nothing that can fail: scf_tensor.mlir runs both inputs).
// MLIR: accepts

func.func @runtime_if_taken_branch_fails() {
  %x = util.unfoldable_constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %p = util.unfoldable_constant dense<[1, 6]> : tensor<2xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %f = tensor.extract %p[%c0] : tensor<2xi64>
  %q = tensor.extract %p[%c1] : tensor<2xi64>
  %c = arith.cmpi ne, %f, %z : i64
  %o = arith.index_cast %q : i64 to index
  %r = scf.if %c -> (tensor<4xi32>) {
    %s = tensor.extract_slice %x[%o] [4] [1] : tensor<8xi32> to tensor<4xi32> // ERROR: 'tensor.extract_slice' op size out of bounds
    scf.yield %s : tensor<4xi32>
  } else {
    %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xi32> to tensor<4xi32>
    scf.yield %s : tensor<4xi32>
  }
  check.expect_eq_const(%r, dense<[1, 2, 3, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}
