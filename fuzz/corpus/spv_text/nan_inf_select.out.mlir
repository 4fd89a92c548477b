spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : f32
    %7 = spirv.Constant 0x7FC00000 : f32
    %8 = spirv.Constant 0x7F800000 : f32
    %9 = spirv.Constant 0xFF800000 : f32
    %10 = spirv.Constant 3.40282347E+38 : f32
    %11 = spirv.Constant 1.401300e-45 : f32
    %12 = spirv.Constant 3.14159274 : f32
    %13 = spirv.IsNan %6 : f32
    %14 = spirv.IsInf %6 : f32
    %15 = spirv.FOrdGreaterThan %6, %11 : f32
    %16 = spirv.Select %15, %10, %9 : i1, f32
    %17 = spirv.Select %14, %16, %6 : i1, f32
    %18 = spirv.Select %13, %12, %17 : i1, f32
    %19 = spirv.CompositeConstruct %18, %7, %8, %6 : (f32, f32, f32, f32) -> vector<4xf32>
    %20 = spirv.IsNan %19 : vector<4xf32>
    %21 = spirv.CompositeExtract %20[1 : i32] : vector<4xi1>
    %22 = spirv.Select %21, %18, %6 : i1, f32
    spirv.Store "StorageBuffer" %5, %22 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
