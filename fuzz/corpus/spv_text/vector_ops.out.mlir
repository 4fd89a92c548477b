spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.CompositeExtract %1[1 : i32] : vector<3xi32>
    %4 = spirv.Constant 0 : i32
    %5 = spirv.Constant 3 : i32
    %6 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%4, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %8 = spirv.Load "StorageBuffer" %7 : vector<4xf32>
    %9 = spirv.Constant dense<[1.000000e+00, -2.000000e+00, 3.250000e+00, 0.000000e+00]> : vector<4xf32>
    %10 = spirv.Constant dense<5.000000e-01> : vector<4xf32>
    %11 = spirv.FAdd %8, %9 : vector<4xf32>
    %12 = spirv.FMul %11, %10 : vector<4xf32>
    %13 = spirv.CompositeExtract %12[0 : i32] : vector<4xf32>
    %14 = spirv.CompositeExtract %12[3 : i32] : vector<4xf32>
    %15 = spirv.CompositeConstruct %13, %14 : (f32, f32) -> vector<2xf32>
    %16 = spirv.VectorShuffle [0 : i32, 1 : i32, 0 : i32, 1 : i32] %15, %15 : vector<2xf32>, vector<2xf32> -> vector<4xf32>
    %17 = spirv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %12, %16 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
    %18 = spirv.Dot %17, %12 : vector<4xf32> -> f32
    %19 = spirv.VectorTimesScalar %17, %18 : (vector<4xf32>, f32) -> vector<4xf32>
    %20 = spirv.BitwiseAnd %3, %5 : i32
    %21 = spirv.VectorExtractDynamic %19[%20] : vector<4xf32>, i32
    %22 = spirv.VectorInsertDynamic %21, %19[%4] : vector<4xf32>, i32
    %23 = spirv.CompositeInsert %18, %22[3 : i32] : f32 into vector<4xf32>
    spirv.Store "StorageBuffer" %7, %23 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 16, 4, 1
}
