spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : f32
    %7 = spv.Constant 0x7FC00000 : f32
    %8 = spv.Constant 0x7F800000 : f32
    %9 = spv.Constant 0xFF800000 : f32
    %10 = spv.Constant 3.40282347E+38 : f32
    %11 = spv.Constant 1.401300e-45 : f32
    %12 = spv.Constant 3.14159274 : f32
    %13 = spv.IsNan %6 : f32
    %14 = spv.IsInf %6 : f32
    %15 = spv.FOrdGreaterThan %6, %11 : f32
    %16 = spv.Select %15, %10, %9 : i1, f32
    %17 = spv.Select %14, %16, %6 : i1, f32
    %18 = spv.Select %13, %12, %17 : i1, f32
    %19 = spv.CompositeConstruct %18, %7, %8, %6 : (f32, f32, f32, f32) -> vector<4xf32>
    %20 = spv.IsNan %19 : vector<4xf32>
    %21 = spv.CompositeExtract %20[1 : i32] : vector<4xi1>
    %22 = spv.Select %21, %18, %6 : i1, f32
    spv.Store "StorageBuffer" %5, %22 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
