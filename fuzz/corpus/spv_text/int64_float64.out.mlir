spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Float64], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @longs bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  spirv.GlobalVariable @doubles bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @longs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : i64
    %7 = spirv.Constant 9223372036854775807 : i64
    %8 = spirv.Constant -9223372036854775808 : i64
    %9 = spirv.Constant 1099511628211 : i64
    %10 = spirv.IMul %6, %9 : i64
    %11 = spirv.BitwiseAnd %10, %7 : i64
    %12 = spirv.BitwiseOr %11, %8 : i64
    %13 = spirv.ConvertSToF %12 : i64 to f64
    %14 = spirv.mlir.addressof @doubles : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>
    %15 = spirv.AccessChain %14[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f64, stride=8> [0])>, StorageBuffer>, i32, i32
    %16 = spirv.Load "StorageBuffer" %15 : f64
    %17 = spirv.Constant 2.7182818284590451 : f64
    %18 = spirv.Constant 4.940660e-324 : f64
    %19 = spirv.FMul %16, %17 : f64
    %20 = spirv.FAdd %19, %13 : f64
    %21 = spirv.FAdd %20, %18 : f64
    %22 = spirv.GL.Sqrt %21 : f64
    spirv.Store "StorageBuffer" %15, %22 : f64
    spirv.Store "StorageBuffer" %5, %12 : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
