// run: grid=2
// A loop whose body returns early from inside a selection.
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
    %n = spirv.Constant 16 : i32
    spirv.Store "StorageBuffer" %eb, %c0 : i32
    spirv.mlir.loop {
      spirv.Branch ^h(%c0 : i32)
    ^h(%k: i32):
      %lt = spirv.SLessThan %k, %n : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      %sum = spirv.IAdd %x, %k : i32
      %m = spirv.BitwiseAnd %sum, %c63 : i32
      %hit = spirv.IEqual %m, %c0 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %hit, ^ret, ^smerge
      ^ret:
        spirv.Store "StorageBuffer" %eb, %k : i32
        spirv.Return
      ^smerge:
        spirv.mlir.merge
      }
      spirv.Branch ^c
    ^c:
      %k1 = spirv.IAdd %k, %one : i32
      spirv.Branch ^h(%k1 : i32)
    ^merge:
      spirv.mlir.merge
    }
    %neg = spirv.SNegate %x : i32
    spirv.Store "StorageBuffer" %eb, %neg : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
