// target-env: vulkan1.0
// Numeric conversions between 16/32/64-bit integers and floats, and bitcasts.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64, Int16, Float64, Float16], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %ints = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %ints[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spirv.Load "StorageBuffer" %ip : i32
    %floats = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %fp = spirv.AccessChain %floats[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %f = spirv.Load "StorageBuffer" %fp : f32
    %i64 = spirv.SConvert %i : i32 to i64
    %u64 = spirv.UConvert %i : i32 to i64
    %sum64 = spirv.IAdd %i64, %u64 : i64
    %i16 = spirv.SConvert %sum64 : i64 to i16
    %back = spirv.UConvert %i16 : i16 to i32
    %sf = spirv.ConvertSToF %back : i32 to f32
    %uf = spirv.ConvertUToF %i : i32 to f64
    %d = spirv.FConvert %f : f32 to f64
    %dd = spirv.FAdd %d, %uf : f64
    %h = spirv.FConvert %dd : f64 to f16
    %hf = spirv.FConvert %h : f16 to f32
    %fs = spirv.ConvertFToS %hf : f32 to i32
    %fu = spirv.ConvertFToU %sf : f32 to i32
    %bits = spirv.Bitcast %f : f32 to i32
    %x1 = spirv.BitwiseXor %bits, %fs : i32
    %x2 = spirv.BitwiseXor %x1, %fu : i32
    %vf = spirv.Bitcast %x2 : i32 to f32
    %vi = spirv.Bitcast %sum64 : i64 to vector<2xi32>
    %lo = spirv.CompositeExtract %vi[0 : i32] : vector<2xi32>
    spirv.Store "StorageBuffer" %ip, %lo : i32
    spirv.Store "StorageBuffer" %fp, %vf : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
