spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int8, Int16, Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @bytes bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.GlobalVariable @halfs bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @shorts bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @bytes : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : i8
    %7 = spirv.SConvert %6 : i8 to i32
    %8 = spirv.mlir.addressof @halfs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %9 = spirv.AccessChain %8[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %10 = spirv.Load "StorageBuffer" %9 : f16
    %11 = spirv.Constant 1.500000e+00 : f16
    %12 = spirv.FMul %10, %11 : f16
    %13 = spirv.FConvert %12 : f16 to f32
    %14 = spirv.ConvertSToF %7 : i32 to f32
    %15 = spirv.FAdd %13, %14 : f32
    %16 = spirv.FConvert %15 : f32 to f16
    spirv.Store "StorageBuffer" %9, %16 : f16
    %17 = spirv.mlir.addressof @shorts : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
    %18 = spirv.AccessChain %17[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>, i32, i32
    %19 = spirv.SConvert %7 : i32 to i16
    %20 = spirv.Constant -300 : i16
    %21 = spirv.IAdd %19, %20 : i16
    spirv.Store "StorageBuffer" %18, %21 : i16
    %22 = spirv.UConvert %21 : i16 to i8
    spirv.Store "StorageBuffer" %5, %22 : i8
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
