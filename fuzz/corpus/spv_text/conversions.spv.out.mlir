spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader, Int64, Int16, Float64, Float16], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ints bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @floats bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : i32
    %7 = spv.mlir.addressof @floats : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %8 = spv.AccessChain %7[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spv.Load "StorageBuffer" %8 : f32
    %10 = spv.SConvert %6 : i32 to i64
    %11 = spv.UConvert %6 : i32 to i64
    %12 = spv.IAdd %10, %11 : i64
    %13 = spv.SConvert %12 : i64 to i16
    %14 = spv.UConvert %13 : i16 to i32
    %15 = spv.ConvertSToF %14 : i32 to f32
    %16 = spv.ConvertUToF %6 : i32 to f64
    %17 = spv.FConvert %9 : f32 to f64
    %18 = spv.FAdd %17, %16 : f64
    %19 = spv.FConvert %18 : f64 to f16
    %20 = spv.FConvert %19 : f16 to f32
    %21 = spv.ConvertFToS %20 : f32 to i32
    %22 = spv.ConvertFToU %15 : f32 to i32
    %23 = spv.Bitcast %9 : f32 to i32
    %24 = spv.BitwiseXor %23, %21 : i32
    %25 = spv.BitwiseXor %24, %22 : i32
    %26 = spv.Bitcast %25 : i32 to f32
    %27 = spv.Bitcast %12 : i64 to vector<2xi32>
    %28 = spv.CompositeExtract %27[0 : i32] : vector<2xi32>
    spv.Store "StorageBuffer" %5, %28 : i32
    spv.Store "StorageBuffer" %8, %26 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
