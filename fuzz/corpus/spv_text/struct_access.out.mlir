spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @particles bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 2 : i32
    %6 = spirv.mlir.addressof @particles : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%3] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32
    %8 = spirv.Load "StorageBuffer" %7 : i32
    %9 = spirv.AccessChain %6[%4, %2, %3] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %10 = spirv.AccessChain %6[%4, %2, %4] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %11 = spirv.AccessChain %6[%4, %2, %5, %3] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    %12 = spirv.AccessChain %6[%4, %2, %5] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32
    %13 = spirv.Load "StorageBuffer" %9 : vector<4xf32>
    %14 = spirv.Load "StorageBuffer" %10 : vector<4xf32>
    %15 = spirv.Load "StorageBuffer" %11 : f32
    %16 = spirv.Load "StorageBuffer" %12 : !spirv.struct<(f32 [0], i32 [4])>
    %17 = spirv.CompositeExtract %16[1 : i32] : !spirv.struct<(f32 [0], i32 [4])>
    %18 = spirv.ConvertSToF %8 : i32 to f32
    %19 = spirv.VectorTimesScalar %14, %18 : (vector<4xf32>, f32) -> vector<4xf32>
    %20 = spirv.FMul %15, %18 : f32
    %21 = spirv.VectorTimesScalar %19, %20 : (vector<4xf32>, f32) -> vector<4xf32>
    %22 = spirv.FAdd %13, %21 : vector<4xf32>
    spirv.Store "StorageBuffer" %9, %22 : vector<4xf32>
    %23 = spirv.IAdd %17, %4 : i32
    %24 = spirv.AccessChain %6[%4, %2, %5, %4] : !spirv.ptr<!spirv.struct<(i32 [0], !spirv.rtarray<!spirv.struct<(vector<4xf32> [0], vector<4xf32> [16], !spirv.struct<(f32 [0], i32 [4])> [32])>, stride=48> [16])>, StorageBuffer>, i32, i32, i32, i32
    spirv.Store "StorageBuffer" %24, %23 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
