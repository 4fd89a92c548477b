// run: grid=2
// A counted loop carrying two values through the header block arguments.
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
    %one = spirv.Constant 1 : i32
    %n = spirv.Constant 10 : i32
    %acc = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%c0, %x : i32, i32)
    ^header(%k: i32, %s: i32):
      %lt = spirv.SLessThan %k, %n : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      %t = spirv.IAdd %s, %k : i32
      %t3 = spirv.BitwiseXor %t, %c63 : i32
      spirv.Store "Function" %acc, %t3 : i32
      spirv.Branch ^continue
    ^continue:
      %k1 = spirv.IAdd %k, %one : i32
      %s1 = spirv.Load "Function" %acc : i32
      spirv.Branch ^header(%k1, %s1 : i32, i32)
    ^merge:
      spirv.mlir.merge
    }
    %r = spirv.Load "Function" %acc : i32
    spirv.Store "StorageBuffer" %eb, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
