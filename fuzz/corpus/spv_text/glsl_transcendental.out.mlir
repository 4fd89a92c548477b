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
    %7 = spirv.GL.Exp %6 : vector<4xf32>
    %8 = spirv.GL.Log %7 : vector<4xf32>
    %9 = spirv.GL.Sqrt %8 : vector<4xf32>
    %10 = spirv.GL.InverseSqrt %9 : vector<4xf32>
    %11 = spirv.GL.Sin %10 : vector<4xf32>
    %12 = spirv.GL.Cos %11 : vector<4xf32>
    %13 = spirv.GL.Tan %12 : vector<4xf32>
    %14 = spirv.GL.Asin %13 : vector<4xf32>
    %15 = spirv.GL.Acos %14 : vector<4xf32>
    %16 = spirv.GL.Atan %15 : vector<4xf32>
    %17 = spirv.GL.Sinh %16 : vector<4xf32>
    %18 = spirv.GL.Cosh %17 : vector<4xf32>
    %19 = spirv.GL.Tanh %18 : vector<4xf32>
    %20 = spirv.GL.Pow %19, %6 : vector<4xf32>
    %21 = spirv.GL.Floor %20 : vector<4xf32>
    %22 = spirv.GL.Ceil %21 : vector<4xf32>
    %23 = spirv.GL.Round %22 : vector<4xf32>
    %24 = spirv.GL.RoundEven %23 : vector<4xf32>
    %25 = spirv.CompositeExtract %24[0 : i32] : vector<4xf32>
    %26 = spirv.GL.FrexpStruct %25 : f32 -> !spirv.struct<(f32, i32)>
    %27 = spirv.CompositeExtract %26[0 : i32] : !spirv.struct<(f32, i32)>
    %28 = spirv.CompositeExtract %26[1 : i32] : !spirv.struct<(f32, i32)>
    %29 = spirv.GL.Ldexp %27 : f32, %28 : i32 -> f32
    %30 = spirv.CompositeInsert %29, %24[0 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %5, %30 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
