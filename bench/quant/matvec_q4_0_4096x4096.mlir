// GGUF Q4_0 matvec, 4096x4096: 4-bit codes packed two per byte (element j of a
// block of 32 in the low nibble of byte j, j + 16 in the high one), one f16
// scale per block; the dequantization is fused into the matvec's loads.
// Stored weight bytes: 8388608 (codes) + 1048576 (scales) = 9437184.
func.func @q4_0_matvec(%p: tensor<4096x2048xi8>, %d: tensor<4096x128xf16>, %x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, (d1 floordiv 32) * 16 + d1 mod 16)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %d : tensor<4096x2048xi8>, tensor<4096x128xf16>) outs(%e : tensor<4096x4096xf32>) {
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
  } -> tensor<4096x4096xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4096xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %y = linalg.matvec ins(%w, %x : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%acc : tensor<4096xf32>) -> tensor<4096xf32>
  return %y : tensor<4096xf32>
}

// The same 4-bit weights read as 32-bit words (tensor<4096x512xi32>: element
// k of a row in bits 4 (k mod 8) .. 4 (k mod 8) + 3 of word k / 8), scales as
// above: the same stored bytes; on lavapipe a 32-bit tensor is read through a
// texel buffer (a SIMD gather), a byte tensor through storage-buffer loads.
func.func @q4_words_matvec(%p: tensor<4096x512xi32>, %d: tensor<4096x128xf16>, %x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096x4096xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1 floordiv 8)>, affine_map<(d0, d1) -> (d0, d1 floordiv 32)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %d : tensor<4096x512xi32>, tensor<4096x128xf16>) outs(%e : tensor<4096x4096xf32>) {
  ^bb0(%pv: i32, %dv: f16, %o: f32):
    %k = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %c4 = arith.constant 4 : index
    %in = arith.remui %k, %c8 : index
    %sh = arith.muli %in, %c4 : index
    %shi = arith.index_cast %sh : index to i32
    %v = arith.shrui %pv, %shi : i32
    %m = arith.constant 15 : i32
    %c = arith.andi %v, %m : i32
    %eight = arith.constant 8 : i32
    %s = arith.subi %c, %eight : i32
    %sf = arith.sitofp %s : i32 to f32
    %df = arith.extf %dv : f16 to f32
    %r = arith.mulf %sf, %df : f32
    linalg.yield %r : f32
  } -> tensor<4096x4096xf32>
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4096xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e2 : tensor<4096xf32>) -> tensor<4096xf32>
  %y = linalg.matvec ins(%w, %x : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%acc : tensor<4096xf32>) -> tensor<4096xf32>
  return %y : tensor<4096xf32>
}

// The device's read bandwidth in the same run, by kiln's own reduction:
// the sum of 2359296 f32 = 9437184 bytes, the 4-bit matvec's stored bytes
// (kiln's sum reached 1.2x the hand-written GLSL read-sum in bench/results.txt).
func.func @read_sum_same_bytes(%a: tensor<2359296xf32>) -> tensor<f32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.reduce ins(%a : tensor<2359296xf32>) outs(%acc : tensor<f32>) dimensions = [0]
    (%x: f32, %y: f32) {
      %r = arith.addf %x, %y : f32
      linalg.yield %r : f32
    }
  return %s : tensor<f32>
}
