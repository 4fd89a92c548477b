spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ubo bind(0, 0) : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
  spv.GlobalVariable @out bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 2 : i32
    %6 = spv.Constant 3 : i32
    %7 = spv.mlir.addressof @ubo : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
    %8 = spv.AccessChain %7[%3] : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32
    %9 = spv.Load "Uniform" %8 : !spv.matrix<4 x vector<4xf32>>
    %10 = spv.AccessChain %7[%4, %3] : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %11 = spv.Load "Uniform" %10 : vector<4xf32>
    %12 = spv.AccessChain %7[%4, %4] : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %13 = spv.Load "Uniform" %12 : f32
    %14 = spv.BitwiseAnd %2, %6 : i32
    %15 = spv.AccessChain %7[%5, %14] : !spv.ptr<!spv.struct<(!spv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spv.struct<(vector<4xf32> [0], f32 [16])> [64], !spv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %16 = spv.Load "Uniform" %15 : vector<4xf32>
    %17 = spv.MatrixTimesScalar %9, %13 : !spv.matrix<4 x vector<4xf32>>, f32
    %18 = spv.Transpose %17 : !spv.matrix<4 x vector<4xf32>> -> !spv.matrix<4 x vector<4xf32>>
    %19 = spv.MatrixTimesMatrix %18, %9 : !spv.matrix<4 x vector<4xf32>>, !spv.matrix<4 x vector<4xf32>> -> !spv.matrix<4 x vector<4xf32>>
    %20 = spv.CompositeExtract %19[1 : i32] : !spv.matrix<4 x vector<4xf32>>
    %21 = spv.FAdd %20, %16 : vector<4xf32>
    %22 = spv.FAdd %21, %11 : vector<4xf32>
    %23 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %24 = spv.AccessChain %23[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %24, %22 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
