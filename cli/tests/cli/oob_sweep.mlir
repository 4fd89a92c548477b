// Out-of-range indices and sizes over every op that takes them, one function
// each (the faulty op marked `// BAD`), and in-bounds controls: read by
// oob_sweep_cli.rs, which runs the file on lavapipe, the CPU runner and the
// reference evaluator and wants one verdict from all three.
#map = affine_map<(d0) -> (d0)>
func.func @extract_index_past_end() {
  %a = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> -> tensor<?xf32>
  %i = util.unfoldable_constant 4 : index
  %v = tensor.extract %a[%i] : tensor<?xf32> // BAD
  %e = tensor.empty() : tensor<1xf32>
  %s = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  check.expect_eq_const(%s, dense<0.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
func.func @extract_index_negative() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = util.unfoldable_constant -1 : index
  %v = tensor.extract %a[%i] : tensor<4xf32> // BAD
  %e = tensor.empty() : tensor<1xf32>
  %s = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  check.expect_eq_const(%s, dense<0.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
func.func @extract_device_index_past_end() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %ix = util.unfoldable_constant dense<[5]> : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %i32 = tensor.extract %ix[%c0] : tensor<1xi32>
  %i = arith.index_cast %i32 : i32 to index
  %v = tensor.extract %a[%i] : tensor<4xf32> // BAD
  %e = tensor.empty() : tensor<1xf32>
  %s = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  check.expect_eq_const(%s, dense<0.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
func.func @insert_index_past_end() {
  %a = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi32> -> tensor<?xi32>
  %i = util.unfoldable_constant 3 : index
  %x = arith.constant 9 : i32
  %r = tensor.insert %x into %a[%i] : tensor<?xi32> // BAD
  %s = tensor.cast %r : tensor<?xi32> to tensor<3xi32>
  check.expect_eq_const(%s, dense<[1, 2, 3]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @insert_device_index_past_end() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %ix = util.unfoldable_constant dense<[7]> : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %i32 = tensor.extract %ix[%c0] : tensor<1xi32>
  %i = arith.index_cast %i32 : i32 to index
  %x = arith.constant 9 : i32
  %r = tensor.insert %x into %a[%i] : tensor<3xi32> // BAD
  check.expect_eq_const(%r, dense<[1, 2, 3]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @extract_slice_offset_past_end() {
  %a = flow.tensor.dynamic_constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32> -> tensor<?xi32>
  %o = util.unfoldable_constant 4 : index
  %r = tensor.extract_slice %a[%o] [3] [1] : tensor<?xi32> to tensor<3xi32> // BAD
  check.expect_eq_const(%r, dense<[5, 6, 0]> : tensor<3xi32>) : tensor<3xi32>
  return
}
func.func @extract_slice_size_past_end() {
  %a = util.unfoldable_constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %n = util.unfoldable_constant 8 : index
  %r = tensor.extract_slice %a[1] [%n] [1] : tensor<6xi32> to tensor<?xi32> // BAD
  %s = tensor.cast %r : tensor<?xi32> to tensor<8xi32>
  check.expect_eq_const(%s, dense<0> : tensor<8xi32>) : tensor<8xi32>
  return
}
func.func @insert_slice_source_shorter() {
  %src = flow.tensor.dynamic_constant dense<[1.0, 2.0]> : tensor<2xf32> -> tensor<?xf32>
  %dst = util.unfoldable_constant dense<0.0> : tensor<8xf32>
  %n = util.unfoldable_constant 4 : index
  %r = tensor.insert_slice %src into %dst[0] [%n] [1] : tensor<?xf32> into tensor<8xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<8xf32>) : tensor<8xf32>
  return
}
func.func @insert_slice_source_longer() {
  %src = flow.tensor.dynamic_constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32> -> tensor<?xf32>
  %dst = util.unfoldable_constant dense<0.0> : tensor<8xf32>
  %n = util.unfoldable_constant 4 : index
  %r = tensor.insert_slice %src into %dst[0] [%n] [1] : tensor<?xf32> into tensor<8xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<8xf32>) : tensor<8xf32>
  return
}
func.func @insert_slice_offset_past_end() {
  %src = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %dst = util.unfoldable_constant dense<0.0> : tensor<8xf32>
  %o = util.unfoldable_constant 6 : index
  %r = tensor.insert_slice %src into %dst[%o] [3] [1] : tensor<3xf32> into tensor<8xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<8xf32>) : tensor<8xf32>
  return
}
func.func @pad_negative_amount() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %lo = util.unfoldable_constant -2 : index
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[%lo] high[0] { // BAD
  ^bb0(%i: index):
    tensor.yield %z : f32
  } : tensor<3xf32> to tensor<?xf32>
  %s = tensor.cast %p : tensor<?xf32> to tensor<1xf32>
  check.expect_eq_const(%s, dense<0.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
func.func @concat_other_dim_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1> : tensor<2x3xi32> -> tensor<?x?xi32>
  %b = flow.tensor.dynamic_constant dense<2> : tensor<2x4xi32> -> tensor<?x?xi32>
  %r = tensor.concat dim(0) %a, %b : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi32> // BAD
  %s = tensor.cast %r : tensor<?x?xi32> to tensor<4x3xi32>
  check.expect_eq_const(%s, dense<0> : tensor<4x3xi32>) : tensor<4x3xi32>
  return
}
func.func @gather_index_past_end() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32> // BAD
    linalg.yield %v : f32
  } -> tensor<3xf32>
  check.expect_eq_const(%r, dense<0.0> : tensor<3xf32>) : tensor<3xf32>
  return
}
func.func @matmul_reduction_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<3x4xf32> -> tensor<?x?xf32>
  %b = flow.tensor.dynamic_constant dense<1.0> : tensor<5x2xf32> -> tensor<?x?xf32>
  %c = util.unfoldable_constant dense<0.0> : tensor<3x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<3x2xf32>) -> tensor<3x2xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<3x2xf32>) : tensor<3x2xf32>
  return
}
func.func @batch_matmul_reduction_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<2x3x4xf32> -> tensor<?x?x?xf32>
  %b = flow.tensor.dynamic_constant dense<1.0> : tensor<2x5x2xf32> -> tensor<?x?x?xf32>
  %c = util.unfoldable_constant dense<0.0> : tensor<2x3x2xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%c : tensor<2x3x2xf32>) -> tensor<2x3x2xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}
func.func @dot_reduction_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<4xf32> -> tensor<?xf32>
  %b = flow.tensor.dynamic_constant dense<1.0> : tensor<5xf32> -> tensor<?xf32>
  %c = util.unfoldable_constant dense<0.0> : tensor<f32>
  %r = linalg.dot ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%c : tensor<f32>) -> tensor<f32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<f32>) : tensor<f32>
  return
}
func.func @matvec_reduction_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1.0> : tensor<3x4xf32> -> tensor<?x?xf32>
  %b = flow.tensor.dynamic_constant dense<1.0> : tensor<5xf32> -> tensor<?xf32>
  %c = util.unfoldable_constant dense<0.0> : tensor<3xf32>
  %r = linalg.matvec ins(%a, %b : tensor<?x?xf32>, tensor<?xf32>) outs(%c : tensor<3xf32>) -> tensor<3xf32> // BAD
  check.expect_eq_const(%r, dense<0.0> : tensor<3xf32>) : tensor<3xf32>
  return
}
func.func @transpose_shape_mismatch() {
  %a = flow.tensor.dynamic_constant dense<1> : tensor<2x3xi32> -> tensor<?x?xi32>
  %o = flow.tensor.dynamic_constant dense<0> : tensor<2x3xi32> -> tensor<?x?xi32>
  %r = linalg.transpose ins(%a : tensor<?x?xi32>) outs(%o : tensor<?x?xi32>) permutation = [1, 0] // BAD
  %s = tensor.cast %r : tensor<?x?xi32> to tensor<2x3xi32>
  check.expect_eq_const(%s, dense<0> : tensor<2x3xi32>) : tensor<2x3xi32>
  return
}
func.func @gather_in_bounds() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 1]> : tensor<3xi32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  check.expect_eq_const(%r, dense<[10.0, 40.0, 20.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
func.func @extract_device_index_in_bounds() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %ix = util.unfoldable_constant dense<[3]> : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %i32 = tensor.extract %ix[%c0] : tensor<1xi32>
  %i = arith.index_cast %i32 : i32 to index
  %v = tensor.extract %a[%i] : tensor<4xf32>
  %e = tensor.empty() : tensor<1xf32>
  %s = linalg.fill ins(%v : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  check.expect_eq_const(%s, dense<4.0> : tensor<1xf32>) : tensor<1xf32>
  return
}
// tm_tensor.scatter (PyTorch's index_put): an index outside its dim fails the
// call at the scatter's line (PyTorch's rule); negative indices too, which
// torch-mlir passes through unchanged.
func.func @tm_tensor_scatter_index_past_end() {
  %o = util.unfoldable_constant dense<[0, 10, 20, 30]> : tensor<4xi32>
  %u = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
  %i = util.unfoldable_constant dense<[[1], [4]]> : tensor<2x1xi64>
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<2xi32>, tensor<2x1xi64>) outs(%o : tensor<4xi32>) { // BAD
  ^bb0(%a: i32, %b: i32):
    tm_tensor.yield %a : i32
  } -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[0, 1, 20, 30]> : tensor<4xi32>) : tensor<4xi32>
  return
}
func.func @tm_tensor_scatter_index_negative() {
  %o = util.unfoldable_constant dense<[[0, 1], [2, 3], [4, 5]]> : tensor<3x2xi32>
  %u = util.unfoldable_constant dense<[[7, 8]]> : tensor<1x2xi32>
  %i = util.unfoldable_constant dense<[[-1]]> : tensor<1x1xi32>
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<1x2xi32>, tensor<1x1xi32>) outs(%o : tensor<3x2xi32>) { // BAD
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tm_tensor.yield %s : i32
  } -> tensor<3x2xi32>
  check.expect_eq_const(%r, dense<[[0, 1], [2, 3], [4, 5]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}
func.func @tm_tensor_scatter_in_bounds() {
  %o = util.unfoldable_constant dense<[0, 10, 20, 30]> : tensor<4xi32>
  %u = util.unfoldable_constant dense<[1, 2, 5]> : tensor<3xi32>
  %i = util.unfoldable_constant dense<[[1], [3], [1]]> : tensor<3x1xi64>
  %r = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%u, %i : tensor<3xi32>, tensor<3x1xi64>) outs(%o : tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tm_tensor.yield %s : i32
  } -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[0, 16, 20, 32]> : tensor<4xi32>) : tensor<4xi32>
  return
}
// iree_linalg_ext.scatter (what StableHLO's scatter lowers to) keeps XLA's
// rule, which JAX's `.at[].set` relies on: an update whose index is out of
// range is dropped, the others apply.
func.func @iree_scatter_index_out_of_range_is_dropped() {
  %o = util.unfoldable_constant dense<[0, 10, 20, 30]> : tensor<4xi32>
  %u = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %i = util.unfoldable_constant dense<[[2], [4], [-1]]> : tensor<3x1xi32>
  %r = iree_linalg_ext.scatter dimension_map = [0] unique_indices(false) ins(%u, %i : tensor<3xi32>, tensor<3x1xi32>) outs(%o : tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    iree_linalg_ext.yield %a : i32
  } -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[0, 10, 1, 30]> : tensor<4xi32>) : tensor<4xi32>
  return
}
// Out-of-bounds ops no live op reads (indices computed from tensor data, so
// no host check sees them): MLIR's tensor and linalg ops are pure, an unused
// one may be erased, and every backend drops it and passes.
func.func @dead_extract_result_unused() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %t = flow.tensor.dynamic_constant dense<[6]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%el : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const(%b, dense<[5, 6, 7, 8]> : tensor<4xi32>) : tensor<4xi32>
  return
}
func.func @dead_extract_into_an_input_the_region_ignores() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %t = flow.tensor.dynamic_constant dense<[6]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%el : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%f, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %q, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  check.expect_eq_const(%g, dense<[10.0, 12.0, 14.0, 16.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
func.func @dead_gather_into_an_input_the_region_ignores() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%r, %b : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %q, %q : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  check.expect_eq_const(%g, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
func.func @dead_gather_into_two_generics_that_ignore_it() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%r, %b : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %q, %q : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %h = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%r, %g : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %q, %q : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  check.expect_eq_const(%h, dense<[4.0, 8.0, 12.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
// The same fault where a live op reads it: every backend stops at it.
func.func @extract_device_index_through_a_read_input() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[5.0, 6.0, 7.0, 8.0]> : tensor<4xf32>
  %t = flow.tensor.dynamic_constant dense<[6]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32> // BAD
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%el : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%f, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  check.expect_eq_const(%g, dense<[10.0, 12.0, 14.0, 16.0]> : tensor<4xf32>) : tensor<4xf32>
  return
}
// Issue 31 §2, the splits reasoned from the code (each split the engines on
// main). An element index the host reads back from tensor data because it is
// also a size: the kernel that computes the extract checks it, as it checks
// an index computed on the device, so a dead extract at it is dropped.
func.func @dead_extract_at_an_index_that_is_also_a_size() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %t = flow.tensor.dynamic_constant dense<[5]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32>
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%i) : tensor<?xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = tensor.cast %f : tensor<?xf32> to tensor<5xf32>
  check.expect_eq_const(%s, dense<1.0> : tensor<5xf32>) : tensor<5xf32>
  return
}
func.func @dead_extract_at_an_index_that_is_also_a_slice_size() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %t = flow.tensor.dynamic_constant dense<[4]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32>
  %s = tensor.extract_slice %b[0] [%i] [1] : tensor<6xi32> to tensor<?xi32>
  %c = tensor.cast %s : tensor<?xi32> to tensor<4xi32>
  check.expect_eq_const(%c, dense<[1, 2, 3, 4]> : tensor<4xi32>) : tensor<4xi32>
  return
}
// The same index read by a live extract: every backend stops at it.
func.func @extract_index_read_back_past_end() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %t = flow.tensor.dynamic_constant dense<[5]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32> // BAD
  %e = tensor.empty(%i) : tensor<?xf32>
  %f = linalg.fill ins(%el : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = tensor.cast %f : tensor<?xf32> to tensor<5xf32>
  check.expect_eq_const(%s, dense<0.0> : tensor<5xf32>) : tensor<5xf32>
  return
}
// An element read back to size an op nothing reads: sizes are computed and
// checked for every op, so its index out of bounds stops every backend.
func.func @extract_index_read_back_past_end_sizing_a_dead_op() {
  %b = util.unfoldable_constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %t = flow.tensor.dynamic_constant dense<[7]> : tensor<1xi64> -> tensor<?xi64>
  %s = flow.tensor.dynamic_constant dense<[1, 2, 3]> : tensor<3xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %j64 = tensor.extract %t[%c0] : tensor<?xi64>
  %j = arith.index_cast %j64 : i64 to index
  %x64 = tensor.extract %s[%j] : tensor<?xi64> // BAD
  %x = arith.index_cast %x64 : i64 to index
  %e = tensor.empty(%x) : tensor<?xf32>
  check.expect_eq_const(%b, dense<[5, 6, 7, 8]> : tensor<4xi32>) : tensor<4xi32>
  return
}
// A gather read in part (a slice that leaves out its bad element, the
// destination of an insert_slice that overwrites it): a live op is computed
// whole, so every backend stops at the bad index.
func.func @gather_index_past_end_sliced_away() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32> // BAD
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %s = tensor.extract_slice %r[0] [2] [1] : tensor<3xf32> to tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%s : tensor<2xf32>) outs(%e2 : tensor<2xf32>) {
  ^bb0(%p: f32, %o: f32):
    %t = arith.addf %p, %p : f32
    linalg.yield %t : f32
  } -> tensor<2xf32>
  check.expect_eq_const(%g, dense<[20.0, 80.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
func.func @gather_index_past_end_sliced_away_through_a_generic() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[9, 0, 3]> : tensor<3xi32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32> // BAD
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %n = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%r : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%p: f32, %o: f32):
    %t = arith.negf %p : f32
    linalg.yield %t : f32
  } -> tensor<3xf32>
  %s = tensor.extract_slice %n[1] [2] [1] : tensor<3xf32> to tensor<2xf32>
  check.expect_eq_const(%s, dense<[-10.0, -40.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
func.func @gather_index_past_end_overwritten_by_insert_slice() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %src = util.unfoldable_constant dense<[1.0]> : tensor<1xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32> // BAD
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %w = tensor.insert_slice %src into %r[2] [1] [1] : tensor<1xf32> into tensor<3xf32>
  check.expect_eq_const(%w, dense<[10.0, 40.0, 1.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
// A poisoned value passed to a function that never reads it: the compiler
// inlines the call, and the reference evaluator carries the poison into the
// callee; where the callee reads it, every backend stops at the fault.
func.func private @ignores_its_first_argument(%x: f32, %b: tensor<4xi32>) -> tensor<4xi32> {
  return %b : tensor<4xi32>
}
func.func private @returns_its_first_argument(%x: tensor<3xf32>, %b: tensor<4xi32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
func.func @dead_call_argument_the_callee_ignores() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = util.unfoldable_constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %t = flow.tensor.dynamic_constant dense<[6]> : tensor<1xi64> -> tensor<?xi64>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<?xi64>
  %i = arith.index_cast %x : i64 to index
  %el = tensor.extract %a[%i] : tensor<3xf32>
  %r = func.call @ignores_its_first_argument(%el, %b) : (f32, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[5, 6, 7, 8]> : tensor<4xi32>) : tensor<4xi32>
  return
}
func.func @gather_index_past_end_returned_by_a_callee() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %e = tensor.empty() : tensor<3xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32> // BAD
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %r = func.call @returns_its_first_argument(%g, %b) : (tensor<3xf32>, tensor<4xi32>) -> tensor<3xf32>
  check.expect_eq_const(%r, dense<[10.0, 40.0, 0.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}
func.func private @ignores_its_first_tensor(%x: tensor<3xf32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  return %b : tensor<4xi32>
}
func.func @dead_gather_passed_to_a_callee_that_ignores_it() {
  %table = flow.tensor.dynamic_constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32> -> tensor<?xf32>
  %idx = util.unfoldable_constant dense<[0, 3, 9]> : tensor<3xi32>
  %b = util.unfoldable_constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %e = tensor.empty() : tensor<3xf32>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%idx : tensor<3xi32>) outs(%e : tensor<3xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %r = func.call @ignores_its_first_tensor(%g, %b) : (tensor<3xf32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%r, dense<[5, 6, 7, 8]> : tensor<4xi32>) : tensor<4xi32>
  return
}
