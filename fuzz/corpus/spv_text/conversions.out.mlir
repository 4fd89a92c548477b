spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Int16, Float64, Float16], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : i32
    %7 = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %8 = spirv.AccessChain %7[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spirv.Load "StorageBuffer" %8 : f32
    %10 = spirv.SConvert %6 : i32 to i64
    %11 = spirv.UConvert %6 : i32 to i64
    %12 = spirv.IAdd %10, %11 : i64
    %13 = spirv.SConvert %12 : i64 to i16
    %14 = spirv.UConvert %13 : i16 to i32
    %15 = spirv.ConvertSToF %14 : i32 to f32
    %16 = spirv.ConvertUToF %6 : i32 to f64
    %17 = spirv.FConvert %9 : f32 to f64
    %18 = spirv.FAdd %17, %16 : f64
    %19 = spirv.FConvert %18 : f64 to f16
    %20 = spirv.FConvert %19 : f16 to f32
    %21 = spirv.ConvertFToS %20 : f32 to i32
    %22 = spirv.ConvertFToU %15 : f32 to i32
    %23 = spirv.Bitcast %9 : f32 to i32
    %24 = spirv.BitwiseXor %23, %21 : i32
    %25 = spirv.BitwiseXor %24, %22 : i32
    %26 = spirv.Bitcast %25 : i32 to f32
    %27 = spirv.Bitcast %12 : i64 to vector<2xi32>
    %28 = spirv.CompositeExtract %27[0 : i32] : vector<2xi32>
    spirv.Store "StorageBuffer" %5, %28 : i32
    spirv.Store "StorageBuffer" %8, %26 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
