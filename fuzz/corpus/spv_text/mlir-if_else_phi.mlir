// Not run: lavapipe fails to create a pipeline from the original binary
// (ERROR_UNKNOWN for the join block inside the selection), and from the
// import alike.
// An if/else joining in a block with an argument, then a second selection right after the first.
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
    %var = spirv.Variable init(%c0) : !spirv.ptr<i32, Function>
    %one = spirv.Constant 1 : i32
    %odd = spirv.BitwiseAnd %x, %one : i32
    %isodd = spirv.IEqual %odd, %one : i32
    spirv.mlir.selection {
      spirv.BranchConditional %isodd, ^t, ^f
    ^t:
      %three = spirv.Constant 3 : i32
      %a1 = spirv.IMul %x, %three : i32
      spirv.Branch ^join(%a1 : i32)
    ^f:
      %b1 = spirv.ShiftRightArithmetic %x, %one : i32, i32
      spirv.Branch ^join(%b1 : i32)
    ^join(%r: i32):
      spirv.Store "Function" %var, %r : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    %v = spirv.Load "Function" %var : i32
    %big = spirv.SGreaterThan %v, %c63 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %big, ^t, ^merge
    ^t:
      %w = spirv.ISub %v, %c63 : i32
      spirv.Store "Function" %var, %w : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    %out = spirv.Load "Function" %var : i32
    spirv.Store "StorageBuffer" %eb, %out : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
