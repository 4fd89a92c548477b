spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader, Int64, Float64], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @longs bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  spv.GlobalVariable @doubles bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f64, stride=8> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @longs : !spv.ptr<!spv.struct<(!spv.rtarray<i64, stride=8> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i64, stride=8> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : i64
    %7 = spv.Constant 9223372036854775807 : i64
    %8 = spv.Constant -9223372036854775808 : i64
    %9 = spv.Constant 1099511628211 : i64
    %10 = spv.IMul %6, %9 : i64
    %11 = spv.BitwiseAnd %10, %7 : i64
    %12 = spv.BitwiseOr %11, %8 : i64
    %13 = spv.ConvertSToF %12 : i64 to f64
    %14 = spv.mlir.addressof @doubles : !spv.ptr<!spv.struct<(!spv.rtarray<f64, stride=8> [0])>, StorageBuffer>
    %15 = spv.AccessChain %14[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f64, stride=8> [0])>, StorageBuffer>, i32, i32
    %16 = spv.Load "StorageBuffer" %15 : f64
    %17 = spv.Constant 2.7182818284590451 : f64
    %18 = spv.Constant 4.940660e-324 : f64
    %19 = spv.FMul %16, %17 : f64
    %20 = spv.FAdd %19, %13 : f64
    %21 = spv.FAdd %20, %18 : f64
    %22 = spv.GLSL.Sqrt %21 : f64
    spv.Store "StorageBuffer" %15, %22 : f64
    spv.Store "StorageBuffer" %5, %12 : i64
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
