// conv2d NHWC 1x56x56x64 with HWCF 3x3x64x64 filters, stride 1, no padding:
// 1x54x54x64 out, 2 * 54 * 54 * 64 * 3 * 3 * 64 FLOP per call.
func.func @main(%in: tensor<1x56x56x64xf32>, %filter: tensor<3x3x64x64xf32>) -> tensor<1x54x54x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x54x54x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  %out = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %filter : tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>)
      outs(%acc : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  return %out : tensor<1x54x54x64xf32>
}
