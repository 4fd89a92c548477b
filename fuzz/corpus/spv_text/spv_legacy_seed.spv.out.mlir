spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @src bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @dst bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @src : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : f32
    %7 = spv.GLSL.Exp %6 : f32
    %8 = spv.GLSL.Sqrt %7 : f32
    %9 = spv.GLSL.Log %8 : f32
    %10 = spv.Constant 5.000000e-01 : f32
    %11 = spv.GLSL.FMax %9, %10 : f32
    %12 = spv.CompositeConstruct %11, %7, %8, %9 : (f32, f32, f32, f32) -> vector<4xf32>
    %13 = spv.mlir.addressof @dst : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %14 = spv.AccessChain %13[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %14, %12 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
