// layer norm over the last dimension of 1024x4096 f32, written as
// linalg.generics as a framework lowers it: the row sums, the row sums of
// squared deviations from the mean, then (x - mean) / sqrt(var + eps) *
// gamma + beta.
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<1024x4096xf32>, %gamma: tensor<4096xf32>,
                %beta: tensor<4096xf32>) -> tensor<1024x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %rows0 = tensor.empty() : tensor<1024xf32>
  %rows = linalg.fill ins(%zero : f32) outs(%rows0 : tensor<1024xf32>) -> tensor<1024xf32>
  %sum = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x4096xf32>) outs(%rows : tensor<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %sq = linalg.generic {indexing_maps = [#x, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<1024x4096xf32>, tensor<1024xf32>) outs(%rows : tensor<1024xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %n = arith.constant 4096.0 : f32
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    %dd = arith.mulf %d, %d : f32
    %r = arith.addf %dd, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1024xf32>
  %empty = tensor.empty() : tensor<1024x4096xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #row, #col, #col, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %gamma, %beta : tensor<1024x4096xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<4096xf32>, tensor<4096xf32>)
      outs(%empty : tensor<1024x4096xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %n = arith.constant 4096.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %m = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %dn = arith.mulf %d, %r : f32
    %dg = arith.mulf %dn, %g : f32
    %y = arith.addf %dg, %b : f32
    linalg.yield %y : f32
  } -> tensor<1024x4096xf32>
  return %y : tensor<1024x4096xf32>
}
