spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ubo bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 2 : i32
    %6 = spirv.Constant 3 : i32
    %7 = spirv.mlir.addressof @ubo : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>
    %8 = spirv.AccessChain %7[%3] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32
    %9 = spirv.Load "Uniform" %8 : !spirv.matrix<4 x vector<4xf32>>
    %10 = spirv.AccessChain %7[%4, %3] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %11 = spirv.Load "Uniform" %10 : vector<4xf32>
    %12 = spirv.AccessChain %7[%4, %4] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %13 = spirv.Load "Uniform" %12 : f32
    %14 = spirv.BitwiseAnd %2, %6 : i32
    %15 = spirv.AccessChain %7[%5, %14] : !spirv.ptr<!spirv.struct<(!spirv.matrix<4 x vector<4xf32>> [0, ColMajor, MatrixStride=16], !spirv.struct<(vector<4xf32> [0], f32 [16])> [64], !spirv.array<4 x vector<4xf32>, stride=16> [96])>, Uniform>, i32, i32
    %16 = spirv.Load "Uniform" %15 : vector<4xf32>
    %17 = spirv.MatrixTimesScalar %9, %13 : !spirv.matrix<4 x vector<4xf32>>, f32
    %18 = spirv.Transpose %17 : !spirv.matrix<4 x vector<4xf32>> -> !spirv.matrix<4 x vector<4xf32>>
    %19 = spirv.MatrixTimesMatrix %18, %9 : !spirv.matrix<4 x vector<4xf32>>, !spirv.matrix<4 x vector<4xf32>> -> !spirv.matrix<4 x vector<4xf32>>
    %20 = spirv.CompositeExtract %19[1 : i32] : !spirv.matrix<4 x vector<4xf32>>
    %21 = spirv.FAdd %20, %16 : vector<4xf32>
    %22 = spirv.FAdd %21, %11 : vector<4xf32>
    %23 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %24 = spirv.AccessChain %23[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %24, %22 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
