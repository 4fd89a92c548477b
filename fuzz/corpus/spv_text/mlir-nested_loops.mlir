// run: grid=2
// Two nested loops, the inner one inside a selection of the outer body.
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
    %four = spirv.Constant 4 : i32
    %acc = spirv.Variable init(%c0) : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^h(%c0 : i32)
    ^h(%o: i32):
      %lt = spirv.SLessThan %o, %four : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      %par = spirv.BitwiseAnd %o, %one : i32
      %even = spirv.IEqual %par, %c0 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %even, ^inner, ^skip
      ^inner:
        spirv.mlir.loop {
          spirv.Branch ^ih(%c0 : i32)
        ^ih(%n: i32):
          %ilt = spirv.SLessThan %n, %o : i32
          spirv.BranchConditional %ilt, ^ib, ^imerge
        ^ib:
          %cur = spirv.Load "Function" %acc : i32
          %p = spirv.IMul %n, %x : i32
          %q = spirv.IAdd %cur, %p : i32
          spirv.Store "Function" %acc, %q : i32
          spirv.Branch ^ic
        ^ic:
          %n1 = spirv.IAdd %n, %one : i32
          spirv.Branch ^ih(%n1 : i32)
        ^imerge:
          spirv.mlir.merge
        }
        spirv.Branch ^merge
      ^skip:
        %cur2 = spirv.Load "Function" %acc : i32
        %s2 = spirv.ISub %cur2, %o : i32
        spirv.Store "Function" %acc, %s2 : i32
        spirv.Branch ^merge
      ^merge:
        spirv.mlir.merge
      }
      spirv.Branch ^c
    ^c:
      %o1 = spirv.IAdd %o, %one : i32
      spirv.Branch ^h(%o1 : i32)
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
