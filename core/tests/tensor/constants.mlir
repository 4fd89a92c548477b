// Dense and scalar constants of every element type; >100 elements print in hex.
func.func @constants() -> (tensor<2x2xf32>, tensor<3xi1>, tensor<2xf16>, tensor<2xbf16>, tensor<2xi8>, tensor<2x2xi64>, tensor<0xf32>, tensor<i32>, tensor<4xf32>, tensor<120xf32>, tensor<110xi1>, tensor<2xf64>, tensor<3xindex>, tensor<2xi16>, f32, f16) {
  %0 = arith.constant dense<[[1.0, 2.0], [3.0, 4.5]]> : tensor<2x2xf32>
  %1 = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %2 = arith.constant dense<[1.0, 65504.0]> : tensor<2xf16>
  %3 = arith.constant dense<[1.0, 3.140625]> : tensor<2xbf16>
  %4 = arith.constant dense<[-128, 127]> : tensor<2xi8>
  %5 = arith.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi64>
  %6 = arith.constant dense<> : tensor<0xf32>
  %7 = arith.constant dense<7> : tensor<i32>
  %8 = arith.constant dense<[0x7FC00000, 1.0e10, -0.0, 0xFF800000]> : tensor<4xf32>
  %9 = arith.constant dense<[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0, 10.5, 11.0, 11.5, 12.0, 12.5, 13.0, 13.5, 14.0, 14.5, 15.0, 15.5, 16.0, 16.5, 17.0, 17.5, 18.0, 18.5, 19.0, 19.5, 20.0, 20.5, 21.0, 21.5, 22.0, 22.5, 23.0, 23.5, 24.0, 24.5, 25.0, 25.5, 26.0, 26.5, 27.0, 27.5, 28.0, 28.5, 29.0, 29.5, 30.0, 30.5, 31.0, 31.5, 32.0, 32.5, 33.0, 33.5, 34.0, 34.5, 35.0, 35.5, 36.0, 36.5, 37.0, 37.5, 38.0, 38.5, 39.0, 39.5, 40.0, 40.5, 41.0, 41.5, 42.0, 42.5, 43.0, 43.5, 44.0, 44.5, 45.0, 45.5, 46.0, 46.5, 47.0, 47.5, 48.0, 48.5, 49.0, 49.5, 50.0, 50.5, 51.0, 51.5, 52.0, 52.5, 53.0, 53.5, 54.0, 54.5, 55.0, 55.5, 56.0, 56.5, 57.0, 57.5, 58.0, 58.5, 59.0, 59.5]> : tensor<120xf32>
  %10 = arith.constant dense<[true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false, false, true, false]> : tensor<110xi1>
  %11 = arith.constant dense<[0.1, -2.5e-300]> : tensor<2xf64>
  %12 = arith.constant dense<[0, 5, -1]> : tensor<3xindex>
  %13 = arith.constant dense<"0x0100FFFF"> : tensor<2xi16>
  %14 = arith.constant 0xFF800000 : f32
  %15 = arith.constant 6.103520e-05 : f16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : tensor<2x2xf32>, tensor<3xi1>, tensor<2xf16>, tensor<2xbf16>, tensor<2xi8>, tensor<2x2xi64>, tensor<0xf32>, tensor<i32>, tensor<4xf32>, tensor<120xf32>, tensor<110xi1>, tensor<2xf64>, tensor<3xindex>, tensor<2xi16>, f32, f16
}

// Tensors with no elements of any rank: MLIR prints every one as dense<>.
func.func @empty_constants() -> (tensor<2x4x0xf32>, tensor<0x3xi64>) {
  %0 = arith.constant dense<> : tensor<2x4x0xf32>
  %1 = arith.constant dense<> : tensor<0x3xi64>
  return %0, %1 : tensor<2x4x0xf32>, tensor<0x3xi64>
}
