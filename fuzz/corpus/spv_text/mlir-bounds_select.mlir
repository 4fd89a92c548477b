// run: grid=2
// An elementwise op guarded by a selection whose else branch is empty.
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
    %c32 = spirv.Constant 32 : i32
    %lt = spirv.SLessThan %x, %c32 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %lt, ^then, ^merge
    ^then:
      %two = spirv.Constant 2 : i32
      %y = spirv.IMul %x, %two : i32
      spirv.Store "StorageBuffer" %eb, %y : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
