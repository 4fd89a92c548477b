spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader, Int8, Int16, Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @bytes bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spv.GlobalVariable @halfs bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spv.GlobalVariable @shorts bind(0, 2) : !spv.ptr<!spv.struct<(!spv.rtarray<i16, stride=2> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @bytes : !spv.ptr<!spv.struct<(!spv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : i8
    %7 = spv.SConvert %6 : i8 to i32
    %8 = spv.mlir.addressof @halfs : !spv.ptr<!spv.struct<(!spv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %9 = spv.AccessChain %8[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %10 = spv.Load "StorageBuffer" %9 : f16
    %11 = spv.Constant 1.500000e+00 : f16
    %12 = spv.FMul %10, %11 : f16
    %13 = spv.FConvert %12 : f16 to f32
    %14 = spv.ConvertSToF %7 : i32 to f32
    %15 = spv.FAdd %13, %14 : f32
    %16 = spv.FConvert %15 : f32 to f16
    spv.Store "StorageBuffer" %9, %16 : f16
    %17 = spv.mlir.addressof @shorts : !spv.ptr<!spv.struct<(!spv.rtarray<i16, stride=2> [0])>, StorageBuffer>
    %18 = spv.AccessChain %17[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i16, stride=2> [0])>, StorageBuffer>, i32, i32
    %19 = spv.SConvert %7 : i32 to i16
    %20 = spv.Constant -300 : i16
    %21 = spv.IAdd %19, %20 : i16
    spv.Store "StorageBuffer" %18, %21 : i16
    %22 = spv.UConvert %21 : i16 to i8
    spv.Store "StorageBuffer" %5, %22 : i8
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
