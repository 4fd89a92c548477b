spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.SpecConstant @scale spec_id(0) = 1.500000e+00 : f32
  spirv.SpecConstant @offset spec_id(1) = 3 : i32
  spirv.SpecConstant @enabled spec_id(2) = true
  spirv.SpecConstant @unnamed_id = 7 : i32
  spirv.SpecConstantComposite @pair (@offset, @unnamed_id) : !spirv.array<2 x i32>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.mlir.referenceof @offset : i32
    %4 = spirv.IAdd %2, %3 : i32
    %5 = spirv.Constant 0 : i32
    %6 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%5, %4] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spirv.Load "StorageBuffer" %7 : f32
    %9 = spirv.mlir.referenceof @scale : f32
    %10 = spirv.FMul %8, %9 : f32
    %11 = spirv.mlir.referenceof @enabled : i1
    %12 = spirv.Select %11, %10, %8 : i1, f32
    spirv.Store "StorageBuffer" %7, %12 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
