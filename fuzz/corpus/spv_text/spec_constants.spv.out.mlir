spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.SpecConstant @scale spec_id(0) = 1.500000e+00 : f32
  spv.SpecConstant @offset spec_id(1) = 3 : i32
  spv.SpecConstant @enabled spec_id(2) = true
  spv.SpecConstant @unnamed_id = 7 : i32
  spv.SpecConstantComposite @pair (@offset, @unnamed_id) : !spv.array<2 x i32>
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @data bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.mlir.referenceof @offset : i32
    %4 = spv.IAdd %2, %3 : i32
    %5 = spv.Constant 0 : i32
    %6 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %7 = spv.AccessChain %6[%5, %4] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %8 = spv.Load "StorageBuffer" %7 : f32
    %9 = spv.mlir.referenceof @scale : f32
    %10 = spv.FMul %8, %9 : f32
    %11 = spv.mlir.referenceof @enabled : i1
    %12 = spv.Select %11, %10, %8 : i1, f32
    spv.Store "StorageBuffer" %7, %12 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
