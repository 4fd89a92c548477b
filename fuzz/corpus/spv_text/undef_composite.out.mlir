spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 3 : i32
    %5 = spirv.Undef : vector<4xf32>
    %6 = spirv.ConvertUToF %2 : i32 to f32
    %7 = spirv.CompositeInsert %6, %5[0 : i32] : f32 into vector<4xf32>
    %8 = spirv.CompositeInsert %6, %7[1 : i32] : f32 into vector<4xf32>
    %9 = spirv.Constant [1.000000e+00 : f32, 2.000000e+00 : f32, 4.000000e+00 : f32, 8.000000e+00 : f32] : !spirv.array<4 x f32>
    %10 = spirv.CompositeExtract %9[2 : i32] : !spirv.array<4 x f32>
    %11 = spirv.CompositeInsert %10, %8[2 : i32] : f32 into vector<4xf32>
    %12 = spirv.Undef : !spirv.struct<(f32, vector<4xf32>)>
    %13 = spirv.CompositeInsert %11, %12[1 : i32] : vector<4xf32> into !spirv.struct<(f32, vector<4xf32>)>
    %14 = spirv.CompositeInsert %10, %13[0 : i32] : f32 into !spirv.struct<(f32, vector<4xf32>)>
    %15 = spirv.CompositeExtract %14[1 : i32, 2 : i32] : !spirv.struct<(f32, vector<4xf32>)>
    %16 = spirv.Variable : !spirv.ptr<!spirv.array<4 x f32>, Function>
    spirv.Store "Function" %16, %9 : !spirv.array<4 x f32>
    %17 = spirv.BitwiseAnd %2, %4 : i32
    %18 = spirv.AccessChain %16[%17] : !spirv.ptr<!spirv.array<4 x f32>, Function>, i32
    %19 = spirv.Load "Function" %18 : f32
    %20 = spirv.FAdd %15, %19 : f32
    %21 = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %22 = spirv.AccessChain %21[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %22, %20 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
