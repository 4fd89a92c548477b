// target-env: vulkan1.2
// Decorations folded into ops as attributes: NoSignedWrap / NoUnsignedWrap
// (SPIR-V 1.4) and RelaxedPrecision, plus discardable attributes on functions.
spirv.module Logical GLSL450 requires #spirv.vce<v1.4, [Shader], []> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @floats bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" attributes {kiln.note = "decorations", kiln.priority = 2 : i32} {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %ints = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %ints[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %i = spirv.Load "StorageBuffer" %ip : i32
    %a = spirv.IAdd %i, %one {no_signed_wrap} : i32
    %b = spirv.IMul %a, %x {no_signed_wrap, no_unsigned_wrap} : i32
    %c = spirv.ISub %b, %one {no_unsigned_wrap} : i32
    spirv.Store "StorageBuffer" %ip, %c : i32
    %floats = spirv.mlir.addressof @floats : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %fp = spirv.AccessChain %floats[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %f = spirv.Load "StorageBuffer" %fp : f32
    %g = spirv.FMul %f, %f {relaxed_precision} : f32
    spirv.Store "StorageBuffer" %fp, %g : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid, @ints, @floats
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
