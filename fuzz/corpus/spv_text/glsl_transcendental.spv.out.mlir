spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : vector<4xf32>
    %7 = spv.GLSL.Exp %6 : vector<4xf32>
    %8 = spv.GLSL.Log %7 : vector<4xf32>
    %9 = spv.GLSL.Sqrt %8 : vector<4xf32>
    %10 = spv.GLSL.InverseSqrt %9 : vector<4xf32>
    %11 = spv.GLSL.Sin %10 : vector<4xf32>
    %12 = spv.GLSL.Cos %11 : vector<4xf32>
    %13 = spv.GLSL.Tan %12 : vector<4xf32>
    %14 = spv.GLSL.Asin %13 : vector<4xf32>
    %15 = spv.GLSL.Acos %14 : vector<4xf32>
    %16 = spv.GLSL.Atan %15 : vector<4xf32>
    %17 = spv.GLSL.Sinh %16 : vector<4xf32>
    %18 = spv.GLSL.Cosh %17 : vector<4xf32>
    %19 = spv.GLSL.Tanh %18 : vector<4xf32>
    %20 = spv.GLSL.Pow %19, %6 : vector<4xf32>
    %21 = spv.GLSL.Floor %20 : vector<4xf32>
    %22 = spv.GLSL.Ceil %21 : vector<4xf32>
    %23 = spv.GLSL.Round %22 : vector<4xf32>
    %24 = spv.GLSL.RoundEven %23 : vector<4xf32>
    %25 = spv.CompositeExtract %24[0 : i32] : vector<4xf32>
    %26 = spv.GLSL.FrexpStruct %25 : f32 -> !spv.struct<(f32, i32)>
    %27 = spv.CompositeExtract %26[0 : i32] : !spv.struct<(f32, i32)>
    %28 = spv.CompositeExtract %26[1 : i32] : !spv.struct<(f32, i32)>
    %29 = spv.GLSL.Ldexp %27 : f32, %28 : i32 -> f32
    %30 = spv.CompositeInsert %29, %24[0 : i32] : f32 into vector<4xf32>
    spv.Store "StorageBuffer" %5, %30 : vector<4xf32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
