spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lhs bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @rhs bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @idx bind(1, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @cfg bind(1, 3) : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
  spirv.GlobalVariable @out bind(2, 5) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @gather() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.mlir.addressof @idx : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : i32
    %8 = spirv.mlir.addressof @lhs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %9 = spirv.mlir.addressof @rhs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %10 = spirv.AccessChain %8[%3, %7] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %11 = spirv.AccessChain %9[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %12 = spirv.Load "StorageBuffer" %10 : f32
    %13 = spirv.Load "StorageBuffer" %11 : f32
    %14 = spirv.mlir.addressof @cfg : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
    %15 = spirv.AccessChain %14[%3] : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>, i32
    %16 = spirv.Load "Uniform" %15 : vector<4xf32>
    %17 = spirv.CompositeExtract %16[0 : i32] : vector<4xf32>
    %18 = spirv.CompositeExtract %16[1 : i32] : vector<4xf32>
    %19 = spirv.FMul %12, %17 : f32
    %20 = spirv.FMul %13, %18 : f32
    %21 = spirv.FAdd %19, %20 : f32
    %22 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %23 = spirv.AccessChain %22[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %23, %21 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @gather, @gid
  spirv.ExecutionMode @gather "LocalSize", 128, 1, 1
}
