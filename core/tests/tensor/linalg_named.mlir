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

// The NCHW poolings and depthwise convolution torch-mlir emits.
func.func @nchw_convolutions(%nchw: tensor<1x3x9x9xf32>, %chw: tensor<3x3x3xf32>, %win: tensor<2x2xf32>)
    -> (tensor<1x3x4x4xf32>, tensor<1x3x8x4xf32>, tensor<1x3x4x5xf32>) {
  %e1 = tensor.empty() : tensor<1x3x4x4xf32>
  %p1 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%nchw, %win : tensor<1x3x9x9xf32>, tensor<2x2xf32>) outs(%e1 : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %e2 = tensor.empty() : tensor<1x3x8x4xf32>
  %p2 = linalg.pooling_nchw_sum {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%nchw, %win : tensor<1x3x9x9xf32>, tensor<2x2xf32>) outs(%e2 : tensor<1x3x8x4xf32>) -> tensor<1x3x8x4xf32>
  %e3 = tensor.empty() : tensor<1x3x4x5xf32>
  %c1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%nchw, %chw : tensor<1x3x9x9xf32>, tensor<3x3x3xf32>) outs(%e3 : tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  return %p1, %p2, %c1 : tensor<1x3x4x4xf32>, tensor<1x3x8x4xf32>, tensor<1x3x4x5xf32>
}

// 1-D and 3-D convolutions and poolings (strides and dilations of one and
// three values).
func.func @convolutions_1d_3d(%a: tensor<1x2x9xf32>, %f1: tensor<4x2x3xf32>, %w1: tensor<3xf32>,
                              %b: tensor<1x2x5x5x5xf32>, %f3: tensor<4x2x2x2x2xf32>,
                              %c: tensor<1x5x5x5x2xf32>, %w3: tensor<2x2x2xf32>)
    -> (tensor<1x4x3xf32>, tensor<1x2x7xf32>, tensor<1x2x5xf32>, tensor<1x4x4x4x2xf32>, tensor<1x4x4x4x2xf32>, tensor<1x4x3x4x2xf32>) {
  %o1 = tensor.empty() : tensor<1x4x3xf32>
  %0 = linalg.conv_1d_ncw_fcw {dilations = dense<2> : vector<1xi64>, strides = dense<2> : vector<1xi64>} ins(%a, %f1 : tensor<1x2x9xf32>, tensor<4x2x3xf32>) outs(%o1 : tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
  %po1 = tensor.empty() : tensor<1x2x7xf32>
  %1 = linalg.pooling_ncw_max {dilations = dense<1> : vector<1xi64>, strides = dense<1> : vector<1xi64>} ins(%a, %w1 : tensor<1x2x9xf32>, tensor<3xf32>) outs(%po1 : tensor<1x2x7xf32>) -> tensor<1x2x7xf32>
  %po2 = tensor.empty() : tensor<1x2x5xf32>
  %2 = linalg.pooling_ncw_sum {dilations = dense<2> : tensor<1xi64>} ins(%a, %w1 : tensor<1x2x9xf32>, tensor<3xf32>) outs(%po2 : tensor<1x2x5xf32>) -> tensor<1x2x5xf32>
  %o3 = tensor.empty() : tensor<1x4x4x4x2xf32>
  %3 = linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<[1, 1, 2]> : vector<3xi64>} ins(%b, %f3 : tensor<1x2x5x5x5xf32>, tensor<4x2x2x2x2xf32>) outs(%o3 : tensor<1x4x4x4x2xf32>) -> tensor<1x4x4x4x2xf32>
  %po3 = tensor.empty() : tensor<1x4x4x4x2xf32>
  %4 = linalg.pooling_ndhwc_sum {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%c, %w3 : tensor<1x5x5x5x2xf32>, tensor<2x2x2xf32>) outs(%po3 : tensor<1x4x4x4x2xf32>) -> tensor<1x4x4x4x2xf32>
  %po4 = tensor.empty() : tensor<1x4x3x4x2xf32>
  %5 = linalg.pooling_ndhwc_max {dilations = dense<[1, 2, 1]> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%c, %w3 : tensor<1x5x5x5x2xf32>, tensor<2x2x2xf32>) outs(%po4 : tensor<1x4x3x4x2xf32>) -> tensor<1x4x3x4x2xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x4x3xf32>, tensor<1x2x7xf32>, tensor<1x2x5xf32>, tensor<1x4x4x4x2xf32>, tensor<1x4x4x4x2xf32>, tensor<1x4x3x4x2xf32>
}
