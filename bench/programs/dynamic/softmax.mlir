// softmax over the rows of a tensor of dynamic shape (time it with
// --input 1024x4096xf32=...): a row per subgroup on lavapipe where the
// row fits a subgroup's loop budget at run time, a workgroup per row past it.
func.func @main(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
