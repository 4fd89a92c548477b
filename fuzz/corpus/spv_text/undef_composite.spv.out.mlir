spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @out bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 3 : i32
    %5 = spv.Undef : vector<4xf32>
    %6 = spv.ConvertUToF %2 : i32 to f32
    %7 = spv.CompositeInsert %6, %5[0 : i32] : f32 into vector<4xf32>
    %8 = spv.CompositeInsert %6, %7[1 : i32] : f32 into vector<4xf32>
    %9 = spv.Constant [1.000000e+00 : f32, 2.000000e+00 : f32, 4.000000e+00 : f32, 8.000000e+00 : f32] : !spv.array<4 x f32>
    %10 = spv.CompositeExtract %9[2 : i32] : !spv.array<4 x f32>
    %11 = spv.CompositeInsert %10, %8[2 : i32] : f32 into vector<4xf32>
    %12 = spv.Undef : !spv.struct<(f32, vector<4xf32>)>
    %13 = spv.CompositeInsert %11, %12[1 : i32] : vector<4xf32> into !spv.struct<(f32, vector<4xf32>)>
    %14 = spv.CompositeInsert %10, %13[0 : i32] : f32 into !spv.struct<(f32, vector<4xf32>)>
    %15 = spv.CompositeExtract %14[1 : i32, 2 : i32] : !spv.struct<(f32, vector<4xf32>)>
    %16 = spv.Variable : !spv.ptr<!spv.array<4 x f32>, Function>
    spv.Store "Function" %16, %9 : !spv.array<4 x f32>
    %17 = spv.BitwiseAnd %2, %4 : i32
    %18 = spv.AccessChain %16[%17] : !spv.ptr<!spv.array<4 x f32>, Function>, i32
    %19 = spv.Load "Function" %18 : f32
    %20 = spv.FAdd %15, %19 : f32
    %21 = spv.mlir.addressof @out : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %22 = spv.AccessChain %21[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %22, %20 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
