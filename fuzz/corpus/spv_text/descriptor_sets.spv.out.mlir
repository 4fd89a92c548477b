spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @lhs bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @rhs bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @idx bind(1, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @cfg bind(1, 3) : !spv.ptr<!spv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
  spv.GlobalVariable @out bind(2, 5) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @gather() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.mlir.addressof @idx : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : i32
    %8 = spv.mlir.addressof @lhs : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %9 = spv.mlir.addressof @rhs : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %10 = spv.AccessChain %8[%3, %7] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %11 = spv.AccessChain %9[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %12 = spv.Load "StorageBuffer" %10 : f32
    %13 = spv.Load "StorageBuffer" %11 : f32
    %14 = spv.mlir.addressof @cfg : !spv.ptr<!spv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
    %15 = spv.AccessChain %14[%3] : !spv.ptr<!spv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>, i32
    %16 = spv.Load "Uniform" %15 : vector<4xf32>
    %17 = spv.CompositeExtract %16[0 : i32] : vector<4xf32>
    %18 = spv.CompositeExtract %16[1 : i32] : vector<4xf32>
    %19 = spv.FMul %12, %17 : f32
    %20 = spv.FMul %13, %18 : f32
    %21 = spv.FAdd %19, %20 : f32
    %22 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %23 = spv.AccessChain %22[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %23, %21 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @gather, @gid
  spv.ExecutionMode @gather "LocalSize", 128, 1, 1
}
