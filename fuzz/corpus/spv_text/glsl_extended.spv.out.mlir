spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : vector<4xf32>
    %7 = spv.GLSL.Exp2 %6 : vector<4xf32>
    %8 = spv.GLSL.Log2 %7 : vector<4xf32>
    %9 = spv.GLSL.Atan2 %8, %6 : vector<4xf32>
    %10 = spv.GLSL.Trunc %9 : vector<4xf32>
    %11 = spv.GLSL.Fract %10 : vector<4xf32>
    %12 = spv.GLSL.Step %11, %6 : vector<4xf32>
    %13 = spv.GLSL.SmoothStep %11, %6, %12 : vector<4xf32>
    %14 = spv.GLSL.NMin %13, %6 : vector<4xf32>
    %15 = spv.GLSL.NMax %14, %6 : vector<4xf32>
    %16 = spv.GLSL.Radians %15 : vector<4xf32>
    %17 = spv.GLSL.Degrees %16 : vector<4xf32>
    %18 = spv.GLSL.Asinh %17 : vector<4xf32>
    %19 = spv.VectorShuffle [0 : i32, 1 : i32, 2 : i32] %18, %18 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %20 = spv.VectorShuffle [1 : i32, 2 : i32, 3 : i32] %6, %6 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %21 = spv.GLSL.Cross %19, %20 : vector<3xf32>
    %22 = spv.GLSL.Normalize %21 : vector<3xf32>
    %23 = spv.GLSL.Reflect %22, %19 : vector<3xf32>
    %24 = spv.GLSL.Length %23 : vector<3xf32> -> f32
    %25 = spv.GLSL.Distance %19, %20 : vector<3xf32>, vector<3xf32> -> f32
    %26 = spv.CompositeConstruct %24, %25 : (f32, f32) -> vector<2xf32>
    %27 = spv.GLSL.PackHalf2x16 %26 : vector<2xf32> -> i32
    %28 = spv.GLSL.FindSMsb %27 : i32
    %29 = spv.GLSL.FindILsb %28 : i32
    %30 = spv.GLSL.UnpackHalf2x16 %29 : i32 -> vector<2xf32>
    %31 = spv.CompositeExtract %30[0 : i32] : vector<2xf32>
    %32 = spv.CompositeInsert %31, %6[3 : i32] : f32 into vector<4xf32>
    spv.Store "StorageBuffer" %5, %32 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
