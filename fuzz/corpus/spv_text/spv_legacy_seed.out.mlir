spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @src bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @dst bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @src : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : f32
    %7 = spirv.GL.Exp %6 : f32
    %8 = spirv.GL.Sqrt %7 : f32
    %9 = spirv.GL.Log %8 : f32
    %10 = spirv.Constant 5.000000e-01 : f32
    %11 = spirv.GL.FMax %9, %10 : f32
    %12 = spirv.CompositeConstruct %11, %7, %8, %9 : (f32, f32, f32, f32) -> vector<4xf32>
    %13 = spirv.mlir.addressof @dst : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %14 = spirv.AccessChain %13[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %14, %12 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
