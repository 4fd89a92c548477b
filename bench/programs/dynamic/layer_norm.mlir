// layer norm over the last dimension of a tensor of dynamic shape (time it
// with --input 1024x4096xf32=... --input 4096xf32=... --input 4096xf32=...).
#x = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @main(%x: tensor<?x?xf32>, %gamma: tensor<?xf32>, %beta: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n0 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %ni = arith.index_cast %n0 : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %zero = arith.constant 0.0 : f32
  %rows0 = tensor.empty(%m0) : tensor<?xf32>
  %rows = linalg.fill ins(%zero : f32) outs(%rows0 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#x, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %sq = linalg.generic {indexing_maps = [#x, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %sum : tensor<?x?xf32>, tensor<?xf32>) outs(%rows : tensor<?xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %m = arith.divf %s, %nf : f32
    %d = arith.subf %a, %m : f32
    %dd = arith.mulf %d, %d : f32
    %r = arith.addf %dd, %acc : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %empty = tensor.empty(%m0, %n0) : tensor<?x?xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #row, #col, #col, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum, %sq, %gamma, %beta : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %s: f32, %q: f32, %g: f32, %b: f32, %o: f32):
    %eps = arith.constant 1.0e-05 : f32
    %m = arith.divf %s, %nf : f32
    %var = arith.divf %q, %nf : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %d = arith.subf %a, %m : f32
    %dn = arith.mulf %d, %r : f32
    %dg = arith.mulf %dn, %g : f32
    %y = arith.addf %dg, %b : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
