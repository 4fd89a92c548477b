// A dense_resource whose blob the file does not hold (no
// {-# dialect_resources #-} entry of that name): MLIR reads it (the blob may
// come later), kiln cannot run it and names the resource.
// MLIR: accepts

func.func @dense_resource_missing_blob() {
  %c = arith.constant dense_resource<missing_blob> : tensor<2xf32> // ERROR: resource 'missing_blob' is not in the file's dialect_resources section
  check.expect_almost_eq_const(%c, dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
  return
}
