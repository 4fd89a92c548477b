// target-env: vulkan1.1
// 8- and 16-bit storage buffer access with the storage extensions, widened
// to 32 bits for arithmetic.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int8, Int16, Float16, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @bytes bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.GlobalVariable @halfs bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @shorts bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %bytes = spirv.mlir.addressof @bytes : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %bp = spirv.AccessChain %bytes[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %b = spirv.Load "StorageBuffer" %bp : i8
    %bi = spirv.SConvert %b : i8 to i32
    %halfs = spirv.mlir.addressof @halfs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %hp = spirv.AccessChain %halfs[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %h = spirv.Load "StorageBuffer" %hp : f16
    %hc = spirv.Constant 1.500000e+00 : f16
    %hm = spirv.FMul %h, %hc : f16
    %hf = spirv.FConvert %hm : f16 to f32
    %bf = spirv.ConvertSToF %bi : i32 to f32
    %sum = spirv.FAdd %hf, %bf : f32
    %sh = spirv.FConvert %sum : f32 to f16
    spirv.Store "StorageBuffer" %hp, %sh : f16
    %shorts = spirv.mlir.addressof @shorts : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>
    %sp = spirv.AccessChain %shorts[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i16, stride=2> [0])>, StorageBuffer>, i32, i32
    %s16 = spirv.SConvert %bi : i32 to i16
    %k = spirv.Constant -300 : i16
    %s2 = spirv.IAdd %s16, %k : i16
    spirv.Store "StorageBuffer" %sp, %s2 : i16
    %b2 = spirv.UConvert %s2 : i16 to i8
    spirv.Store "StorageBuffer" %bp, %b2 : i8
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
