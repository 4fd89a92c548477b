// A prefill's projection with GGUF Q4_0 weights: 64 rows of activations x
// a 2048x2048 weight matrix (linalg.matmul_transpose_b, the decode
// example's prefill form), the dequantization fused into the matmul's
// loads; beside it the same matmul with f16 weights. Stored weight bytes:
// Q4_0 2,359,296 (codes 2,097,152 + scales 262,144), f16 8,388,608.
func.func @q4_0_matmul(%a: tensor<64x2048xf32>, %p: tensor<2048x1024xi8>, %d: tensor<2048x64xf16>) -> tensor<64x2048xf32> {
  %e = tensor.empty() : tensor<2048x2048xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 16 + d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %d : tensor<2048x1024xi8>, tensor<2048x64xf16>) outs(%e : tensor<2048x2048xf32>) {
  ^bb0(%pv: i8, %dv: f16, %o: f32):
    %k = linalg.index 1 : index
    %c32 = arith.constant 32 : index
    %c16 = arith.constant 16 : index
    %c4 = arith.constant 4 : index
    %in = arith.remui %k, %c32 : index
    %hi = arith.divui %in, %c16 : index
    %sh = arith.muli %hi, %c4 : index
    %shi = arith.index_cast %sh : index to i8
    %v = arith.shrui %pv, %shi : i8
    %m = arith.constant 15 : i8
    %c = arith.andi %v, %m : i8
    %ci = arith.extui %c : i8 to i32
    %c8 = arith.constant 8 : i32
    %s = arith.subi %ci, %c8 : i32
    %sf = arith.sitofp %s : i32 to f32
    %df = arith.extf %dv : f16 to f32
    %r = arith.mulf %sf, %df : f32
    linalg.yield %r : f32
  } -> tensor<2048x2048xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x2048xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  %y = linalg.matmul_transpose_b ins(%a, %w : tensor<64x2048xf32>, tensor<2048x2048xf32>) outs(%acc : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  return %y : tensor<64x2048xf32>
}

// The same projection with f16 weights (the decode example's f16 form).
func.func @f16_matmul(%a: tensor<64x2048xf32>, %w: tensor<2048x2048xf16>) -> tensor<64x2048xf32> {
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x2048xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  %y = linalg.matmul_transpose_b ins(%a, %w : tensor<64x2048xf32>, tensor<2048x2048xf16>) outs(%acc : tensor<64x2048xf32>) -> tensor<64x2048xf32>
  return %y : tensor<64x2048xf32>
}
