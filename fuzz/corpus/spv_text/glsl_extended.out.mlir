spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : vector<4xf32>
    %7 = spirv.GL.Exp2 %6 : vector<4xf32>
    %8 = spirv.GL.Log2 %7 : vector<4xf32>
    %9 = spirv.GL.Atan2 %8, %6 : vector<4xf32>
    %10 = spirv.GL.Trunc %9 : vector<4xf32>
    %11 = spirv.GL.Fract %10 : vector<4xf32>
    %12 = spirv.GL.Step %11, %6 : vector<4xf32>
    %13 = spirv.GL.SmoothStep %11, %6, %12 : vector<4xf32>
    %14 = spirv.GL.NMin %13, %6 : vector<4xf32>
    %15 = spirv.GL.NMax %14, %6 : vector<4xf32>
    %16 = spirv.GL.Radians %15 : vector<4xf32>
    %17 = spirv.GL.Degrees %16 : vector<4xf32>
    %18 = spirv.GL.Asinh %17 : vector<4xf32>
    %19 = spirv.VectorShuffle [0 : i32, 1 : i32, 2 : i32] %18, %18 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %20 = spirv.VectorShuffle [1 : i32, 2 : i32, 3 : i32] %6, %6 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %21 = spirv.GL.Cross %19, %20 : vector<3xf32>
    %22 = spirv.GL.Normalize %21 : vector<3xf32>
    %23 = spirv.GL.Reflect %22, %19 : vector<3xf32>
    %24 = spirv.GL.Length %23 : vector<3xf32> -> f32
    %25 = spirv.GL.Distance %19, %20 : vector<3xf32>, vector<3xf32> -> f32
    %26 = spirv.CompositeConstruct %24, %25 : (f32, f32) -> vector<2xf32>
    %27 = spirv.GL.PackHalf2x16 %26 : vector<2xf32> -> i32
    %28 = spirv.GL.FindSMsb %27 : i32
    %29 = spirv.GL.FindILsb %28 : i32
    %30 = spirv.GL.UnpackHalf2x16 %29 : i32 -> vector<2xf32>
    %31 = spirv.CompositeExtract %30[0 : i32] : vector<2xf32>
    %32 = spirv.CompositeInsert %31, %6[3 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %5, %32 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
