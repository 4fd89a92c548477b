spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.CompositeExtract %1[1 : i32] : vector<3xi32>
    %4 = spv.Constant 0 : i32
    %5 = spv.Constant 3 : i32
    %6 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %7 = spv.AccessChain %6[%4, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %8 = spv.Load "StorageBuffer" %7 : vector<4xf32>
    %9 = spv.Constant dense<[1.000000e+00, -2.000000e+00, 3.250000e+00, 0.000000e+00]> : vector<4xf32>
    %10 = spv.Constant dense<5.000000e-01> : vector<4xf32>
    %11 = spv.FAdd %8, %9 : vector<4xf32>
    %12 = spv.FMul %11, %10 : vector<4xf32>
    %13 = spv.CompositeExtract %12[0 : i32] : vector<4xf32>
    %14 = spv.CompositeExtract %12[3 : i32] : vector<4xf32>
    %15 = spv.CompositeConstruct %13, %14 : (f32, f32) -> vector<2xf32>
    %16 = spv.VectorShuffle [0 : i32, 1 : i32, 0 : i32, 1 : i32] %15, %15 : vector<2xf32>, vector<2xf32> -> vector<4xf32>
    %17 = spv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %12, %16 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
    %18 = spv.Dot %17, %12 : vector<4xf32> -> f32
    %19 = spv.VectorTimesScalar %17, %18 : (vector<4xf32>, f32) -> vector<4xf32>
    %20 = spv.BitwiseAnd %3, %5 : i32
    %21 = spv.VectorExtractDynamic %19[%20] : vector<4xf32>, i32
    %22 = spv.VectorInsertDynamic %21, %19[%4] : vector<4xf32>, i32
    %23 = spv.CompositeInsert %18, %22[3 : i32] : f32 into vector<4xf32>
    spv.Store "StorageBuffer" %7, %23 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 16, 4, 1
}
