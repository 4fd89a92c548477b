// Named linalg ops: contractions, convolutions, poolings, fill, copy and
// the elementwise named ops, with mixed element types.
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %v: tensor<8xf32>, %w: tensor<4xf32>,
                        %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x4xf32>, %bv: tensor<2x8xf32>)
    -> (tensor<4x4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<f32>, tensor<2x4x4xf32>, tensor<8x8xf32>, tensor<4x4xf32>, tensor<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e44 = tensor.empty() : tensor<4x4xf32>
  %f44 = linalg.fill ins(%zero : f32) outs(%e44 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f44 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %mv = linalg.matvec ins(%a, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %vm = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %e0 = tensor.empty() : tensor<f32>
  %d = linalg.dot ins(%v, %v : tensor<8xf32>, tensor<8xf32>) outs(%e0 : tensor<f32>) -> tensor<f32>
  %eb = tensor.empty() : tensor<2x4x4xf32>
  %bmm = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x4xf32>) outs(%eb : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %e88 = tensor.empty() : tensor<8x8xf32>
  %ta = linalg.matmul_transpose_a ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e88 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %tb = linalg.matmul_transpose_b ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e44 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e24 = tensor.empty() : tensor<2x4xf32>
  %bmv = linalg.batch_matvec ins(%ba, %bv : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%e24 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %mm, %mv, %vm, %d, %bmm, %ta, %tb, %bmv : tensor<4x4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<f32>, tensor<2x4x4xf32>, tensor<8x8xf32>, tensor<4x4xf32>, tensor<2x4xf32>
}

func.func @mixed_types(%a: tensor<3x5xi8>, %b: tensor<5x2xi8>, %h: tensor<3x5xf16>, %g: tensor<5x2xf16>) -> (tensor<3x2xi32>, tensor<3x2xf32>) {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x2xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<3x2xi32>) -> tensor<3x2xi32>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xi8>, tensor<5x2xi8>) outs(%z : tensor<3x2xi32>) -> tensor<3x2xi32>
  %ef = tensor.empty() : tensor<3x2xf32>
  %rf = linalg.matmul ins(%h, %g : tensor<3x5xf16>, tensor<5x2xf16>) outs(%ef : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r, %rf : tensor<3x2xi32>, tensor<3x2xf32>
}

func.func @convolutions(%img: tensor<1x9x9x3xf32>, %hwcf: tensor<3x3x3x2xf32>, %nchw: tensor<1x3x9x9xf32>, %fchw: tensor<2x3x3x3xf32>,
                        %dw: tensor<3x3x3xf32>, %win: tensor<2x2xf32>)
    -> (tensor<1x3x3x2xf32>, tensor<1x2x5x5xf32>, tensor<1x7x7x3xf32>, tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) {
  %e1 = tensor.empty() : tensor<1x3x3x2xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>} ins(%img, %hwcf : tensor<1x9x9x3xf32>, tensor<3x3x3x2xf32>) outs(%e1 : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %e2 = tensor.empty() : tensor<1x2x5x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%nchw, %fchw : tensor<1x3x9x9xf32>, tensor<2x3x3x3xf32>) outs(%e2 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %e3 = tensor.empty() : tensor<1x7x7x3xf32>
  %c3 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %dw : tensor<1x9x9x3xf32>, tensor<3x3x3xf32>) outs(%e3 : tensor<1x7x7x3xf32>) -> tensor<1x7x7x3xf32>
  %e4 = tensor.empty() : tensor<1x8x8x3xf32>
  %p1 = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %win : tensor<1x9x9x3xf32>, tensor<2x2xf32>) outs(%e4 : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %e5 = tensor.empty() : tensor<1x4x4x3xf32>
  %p2 = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%img, %win : tensor<1x9x9x3xf32>, tensor<2x2xf32>) outs(%e5 : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %p3 = linalg.pooling_nhwc_min {strides = dense<[2, 2]> : tensor<2xi64>} ins(%img, %win : tensor<1x9x9x3xf32>, tensor<2x2xf32>) outs(%e5 : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %c1, %c2, %c3, %p1, %p2, %p3 : tensor<1x3x3x2xf32>, tensor<1x2x5x5xf32>, tensor<1x7x7x3xf32>, tensor<1x8x8x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>
}

func.func @elementwise_named(%x: tensor<4xf32>, %y: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %add = linalg.add ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %exp = linalg.exp ins(%add : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %max = linalg.max ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %neg = linalg.negf ins(%exp : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %cp = linalg.copy ins(%neg : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %add, %exp, %max, %neg, %cp : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}
