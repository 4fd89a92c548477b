// run: grid=2
// A push-constant block read with an access chain.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %pc = spirv.mlir.addressof @pc : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>
    %p0 = spirv.AccessChain %pc[%c0] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32
    %p1 = spirv.AccessChain %pc[%c1] : !spirv.ptr<!spirv.struct<(i32 [0], i32 [4])>, PushConstant>, i32
    %a = spirv.Load "PushConstant" %p0 : i32
    %b = spirv.Load "PushConstant" %p1 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : i32
    %y = spirv.IMul %x, %a : i32
    %z = spirv.BitwiseXor %y, %b : i32
    spirv.Store "StorageBuffer" %e, %z : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
