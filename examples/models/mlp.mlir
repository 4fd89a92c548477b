// A two-layer perceptron's forward pass, MLIR 19 tensor-level syntax
// (checked by `mlir-opt-19` in kiln-examples' tests):
// logits = relu(x · w1 + b1) · w2 + b2 for a batch of 64 784-vectors,
// 128 hidden units, 10 classes. Run by `cargo run --release -p
// kiln-examples --bin mlp`.

#rows = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>

func.func @mlp(%x: tensor<64x784xf32>, %w1: tensor<784x128xf32>, %b1: tensor<128xf32>,
               %w2: tensor<128x10xf32>, %b2: tensor<10xf32>) -> tensor<64x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x128xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<64x784xf32>, tensor<784x128xf32>)
                      outs(%f1 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.generic {indexing_maps = [#rows, #cols, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<64x128xf32>, tensor<128xf32>) outs(%e1 : tensor<64x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  %e2 = tensor.empty() : tensor<64x10xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %m2 = linalg.matmul ins(%h, %w2 : tensor<64x128xf32>, tensor<128x10xf32>)
                      outs(%f2 : tensor<64x10xf32>) -> tensor<64x10xf32>
  %y = linalg.generic {indexing_maps = [#rows, #cols, #rows],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<64x10xf32>, tensor<10xf32>) outs(%e2 : tensor<64x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x10xf32>
  return %y : tensor<64x10xf32>
}
