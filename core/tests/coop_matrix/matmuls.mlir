// f16 matmuls for the cooperative-matrix strategy: sizes that are multiples
// of a 16x16x16 tile (f32 and f16 accumulators, a zero fill and an init
// read from memory), one that is not, and one with a fused epilogue.
func.func @mm_f32_acc(%a: tensor<64x32xf16>, %b: tensor<32x48xf16>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf16>, tensor<32x48xf16>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

func.func @mm_f16_acc_init(%a: tensor<32x64xf16>, %b: tensor<64x16xf16>, %c: tensor<32x16xf16>) -> tensor<32x16xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x16xf16>) outs(%c : tensor<32x16xf16>) -> tensor<32x16xf16>
  return %r : tensor<32x16xf16>
}

func.func @mm_unaligned(%a: tensor<12x40xf16>, %b: tensor<40x9xf16>) -> tensor<12x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x9xf32>) -> tensor<12x9xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x40xf16>, tensor<40x9xf16>) outs(%f : tensor<12x9xf32>) -> tensor<12x9xf32>
  return %r : tensor<12x9xf32>
}

func.func @mm_epilogue(%a: tensor<32x32xf16>, %b: tensor<32x32xf16>, %bias: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = linalg.add ins(%r, %bias : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
