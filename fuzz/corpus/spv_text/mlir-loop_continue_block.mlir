// run: grid=2
// A loop whose continue block does work before the back edge and whose
// body holds two selections in a row.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %acc = spirv.Variable : !spirv.ptr<i32, Function>
    %gp = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %g3 = spirv.Load "Input" %gp : vector<3xi32>
    %g = spirv.CompositeExtract %g3[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %c12 = spirv.Constant 12 : i32
    %c63 = spirv.Constant 63 : i32
    %i = spirv.BitwiseAnd %g, %c63 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %e = spirv.AccessChain %buf[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %e : i32
    spirv.Store "Function" %acc, %x : i32
    spirv.mlir.loop {
      spirv.Branch ^h(%c0 : i32)
    ^h(%k: i32):
      %lt = spirv.SLessThan %k, %c12 : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      %a = spirv.Load "Function" %acc : i32
      %odd = spirv.BitwiseAnd %a, %c1 : i32
      %isodd = spirv.IEqual %odd, %c1 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %isodd, ^t, ^m
      ^t:
        %a3 = spirv.IMul %a, %c2 : i32
        spirv.Store "Function" %acc, %a3 : i32
        spirv.Branch ^m
      ^m:
        spirv.mlir.merge
      }
      %b = spirv.Load "Function" %acc : i32
      %big = spirv.SGreaterThan %b, %c63 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %big, ^t, ^m
      ^t:
        %b2 = spirv.ShiftRightArithmetic %b, %c1 : i32, i32
        spirv.Store "Function" %acc, %b2 : i32
        spirv.Branch ^m
      ^m:
        spirv.mlir.merge
      }
      spirv.Branch ^cont
    ^cont:
      %c = spirv.Load "Function" %acc : i32
      %c5 = spirv.IAdd %c, %k : i32
      spirv.Store "Function" %acc, %c5 : i32
      %k1 = spirv.IAdd %k, %c1 : i32
      spirv.Branch ^h(%k1 : i32)
    ^merge:
      spirv.mlir.merge
    }
    %r = spirv.Load "Function" %acc : i32
    spirv.Store "StorageBuffer" %e, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
