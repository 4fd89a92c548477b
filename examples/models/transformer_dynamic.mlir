// The pre-norm transformer block of transformer.mlir with the sequence
// length dynamic (`?`), as a framework exports a model for any number of
// tokens: width 256, 4 heads of 64, MLP width 1024. The attention's
// scores are `4 x ? x ?`, its softmax runs over rows of dynamic length
// and its second batch_matmul reduces over the sequence. MLIR 19 syntax
// (checked by `mlir-opt-19` in kiln-examples' tests).

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @block(%x: tensor<?x256xf32>,
                 %ln1_g: tensor<256xf32>, %ln1_b: tensor<256xf32>,
                 %wq: tensor<256x256xf32>, %wk: tensor<256x256xf32>, %wv: tensor<256x256xf32>, %wo: tensor<256x256xf32>,
                 %ln2_g: tensor<256xf32>, %ln2_b: tensor<256xf32>,
                 %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>, %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>) -> tensor<?x256xf32> {
  %c0 = arith.constant 0 : index
  %seq = tensor.dim %x, %c0 : tensor<?x256xf32>
  %zero = arith.constant 0.0 : f32
  %rows0 = tensor.empty(%seq) : tensor<?xf32>
  %rows = linalg.fill ins(%zero : f32) outs(%rows0 : tensor<?xf32>) -> tensor<?xf32>
  %sd = tensor.empty(%seq) : tensor<?x256xf32>
  %sd0 = linalg.fill ins(%zero : f32) outs(%sd : tensor<?x256xf32>) -> tensor<?x256xf32>
  // ln1: layer norm of %x over the width.
  %ln1_sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x256xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %ln1_sq = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %ln1_sum : tensor<?x256xf32>, tensor<?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %sum: f32, %acc: f32):
    %n = arith.constant 256.0 : f32
    %m = arith.divf %sum, %n : f32
    %d = arith.subf %a, %m : f32
    %dd = arith.mulf %d, %d : f32
    %s = arith.addf %dd, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %ln1 = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ln1_sum, %ln1_sq, %ln1_g, %ln1_b : tensor<?x256xf32>, tensor<?xf32>, tensor<?xf32>, tensor<256xf32>, tensor<256xf32>) outs(%sd : tensor<?x256xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %o: f32):
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %m = arith.divf %sum, %n : f32
    %var = arith.divf %sq, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %dn = arith.mulf %d, %r : f32
    %dg = arith.mulf %dn, %g : f32
    %y = arith.addf %dg, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x256xf32>
  // Attention: projections, heads split, scores, softmax, values.
  %q = linalg.matmul ins(%ln1, %wq : tensor<?x256xf32>, tensor<256x256xf32>) outs(%sd0 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %q3 = tensor.expand_shape %q [[0], [1, 2]] output_shape [%seq, 4, 64] : tensor<?x256xf32> into tensor<?x4x64xf32>
  %k = linalg.matmul ins(%ln1, %wk : tensor<?x256xf32>, tensor<256x256xf32>) outs(%sd0 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [%seq, 4, 64] : tensor<?x256xf32> into tensor<?x4x64xf32>
  %v = linalg.matmul ins(%ln1, %wv : tensor<?x256xf32>, tensor<256x256xf32>) outs(%sd0 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %v3 = tensor.expand_shape %v [[0], [1, 2]] output_shape [%seq, 4, 64] : tensor<?x256xf32> into tensor<?x4x64xf32>
  %qh_e = tensor.empty(%seq) : tensor<4x?x64xf32>
  %qh = linalg.transpose ins(%q3 : tensor<?x4x64xf32>) outs(%qh_e : tensor<4x?x64xf32>) permutation = [1, 0, 2]
  %kh_e = tensor.empty(%seq) : tensor<4x64x?xf32>
  %kh = linalg.transpose ins(%k3 : tensor<?x4x64xf32>) outs(%kh_e : tensor<4x64x?xf32>) permutation = [1, 2, 0]
  %vh = linalg.transpose ins(%v3 : tensor<?x4x64xf32>) outs(%qh_e : tensor<4x?x64xf32>) permutation = [1, 0, 2]
  %sc_e = tensor.empty(%seq, %seq) : tensor<4x?x?xf32>
  %sc_z = linalg.fill ins(%zero : f32) outs(%sc_e : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %sc = linalg.batch_matmul ins(%qh, %kh : tensor<4x?x64xf32>, tensor<4x64x?xf32>) outs(%sc_z : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %scaled = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%sc : tensor<4x?x?xf32>) outs(%sc_e : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %y = arith.mulf %a, %scale : f32
    linalg.yield %y : f32
  } -> tensor<4x?x?xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<4x?x?xf32>) outs(%sc_e : tensor<4x?x?xf32>) -> tensor<4x?x?xf32>
  %ov_z = linalg.fill ins(%zero : f32) outs(%qh_e : tensor<4x?x64xf32>) -> tensor<4x?x64xf32>
  %ov = linalg.batch_matmul ins(%p, %vh : tensor<4x?x?xf32>, tensor<4x?x64xf32>) outs(%ov_z : tensor<4x?x64xf32>) -> tensor<4x?x64xf32>
  %ot_e = tensor.empty(%seq) : tensor<?x4x64xf32>
  %ot = linalg.transpose ins(%ov : tensor<4x?x64xf32>) outs(%ot_e : tensor<?x4x64xf32>) permutation = [1, 0, 2]
  %oc = tensor.collapse_shape %ot [[0], [1, 2]] : tensor<?x4x64xf32> into tensor<?x256xf32>
  %proj = linalg.matmul ins(%oc, %wo : tensor<?x256xf32>, tensor<256x256xf32>) outs(%sd0 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %res1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %proj : tensor<?x256xf32>, tensor<?x256xf32>) outs(%sd : tensor<?x256xf32>) {
  ^bb0(%r0: f32, %r1: f32, %o: f32):
    %y = arith.addf %r0, %r1 : f32
    linalg.yield %y : f32
  } -> tensor<?x256xf32>
  // ln2: layer norm of %res1 over the width.
  %ln2_sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%res1 : tensor<?x256xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %ln2_sq = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%res1, %ln2_sum : tensor<?x256xf32>, tensor<?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %sum: f32, %acc: f32):
    %n = arith.constant 256.0 : f32
    %m = arith.divf %sum, %n : f32
    %d = arith.subf %a, %m : f32
    %dd = arith.mulf %d, %d : f32
    %s = arith.addf %dd, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %ln2 = linalg.generic {indexing_maps = [#id2, #row, #row, #col, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%res1, %ln2_sum, %ln2_sq, %ln2_g, %ln2_b : tensor<?x256xf32>, tensor<?xf32>, tensor<?xf32>, tensor<256xf32>, tensor<256xf32>) outs(%sd : tensor<?x256xf32>) {
  ^bb0(%a: f32, %sum: f32, %sq: f32, %g: f32, %b: f32, %o: f32):
    %n = arith.constant 256.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %m = arith.divf %sum, %n : f32
    %var = arith.divf %sq, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %dn = arith.mulf %d, %r : f32
    %dg = arith.mulf %dn, %g : f32
    %y = arith.addf %dg, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x256xf32>
  // MLP: GELU(LN2(a)·w1 + b1)·w2 + b2, plus the residual.
  %h_e = tensor.empty(%seq) : tensor<?x1024xf32>
  %h_z = linalg.fill ins(%zero : f32) outs(%h_e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %h = linalg.matmul ins(%ln2, %w1 : tensor<?x256xf32>, tensor<256x1024xf32>) outs(%h_z : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  %g = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<?x1024xf32>, tensor<1024xf32>) outs(%h_e : tensor<?x1024xf32>) {
  ^bb0(%u0: f32, %b: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.797884583 : f32
    %kc = arith.constant 0.044715 : f32
    %u = arith.addf %u0, %b : f32
    %u2 = arith.mulf %u, %u : f32
    %u3 = arith.mulf %u2, %u : f32
    %ku3 = arith.mulf %kc, %u3 : f32
    %in = arith.addf %u, %ku3 : f32
    %cin = arith.mulf %c, %in : f32
    %t = math.tanh %cin : f32
    %t1 = arith.addf %one, %t : f32
    %hu = arith.mulf %half, %u : f32
    %y = arith.mulf %hu, %t1 : f32
    linalg.yield %y : f32
  } -> tensor<?x1024xf32>
  %m2 = linalg.matmul ins(%g, %w2 : tensor<?x1024xf32>, tensor<1024x256xf32>) outs(%sd0 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%res1, %m2, %b2 : tensor<?x256xf32>, tensor<?x256xf32>, tensor<256xf32>) outs(%sd : tensor<?x256xf32>) {
  ^bb0(%r0: f32, %r1: f32, %b: f32, %o: f32):
    %s = arith.addf %r0, %r1 : f32
    %y = arith.addf %s, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x256xf32>
  return %y : tensor<?x256xf32>
}
