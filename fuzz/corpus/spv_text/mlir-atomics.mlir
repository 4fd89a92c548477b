// run: grid=2
// Atomic add and max on the output buffer.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %pa = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %pb = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ea = spirv.AccessChain %pa[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %eb = spirv.AccessChain %pb[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %ea : i32
    %c7 = spirv.Constant 7 : i32
    %slot = spirv.BitwiseAnd %x, %c7 : i32
    %es = spirv.AccessChain %pb[%c0, %slot] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %old = spirv.AtomicIAdd <Device> <None> %es, %x : !spirv.ptr<i32, StorageBuffer>
    %c8 = spirv.Constant 8 : i32
    %es2 = spirv.AccessChain %pb[%c0, %c8] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %old2 = spirv.AtomicSMax <Device> <None> %es2, %x : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
