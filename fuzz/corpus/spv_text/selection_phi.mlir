// target-env: vulkan1.0
// An if/else whose result flows through a block argument (the dialect's OpPhi)
// of the selection's merge-side block, and a selection whose branch returns early.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %two = spirv.Constant 2 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : i32
    %odd = spirv.BitwiseAnd %v, %one : i32
    %cond = spirv.IEqual %odd, %one : i32
    %var = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %cond, ^then, ^else
    ^then:
      %a = spirv.IMul %v, %two : i32
      spirv.Branch ^join(%a : i32)
    ^else:
      %b = spirv.ISub %v, %one : i32
      spirv.Branch ^join(%b : i32)
    ^join(%r: i32):
      spirv.Store "Function" %var, %r : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    %neg = spirv.SLessThan %v, %zero : i32
    spirv.mlir.selection {
      spirv.BranchConditional %neg, ^bail, ^merge
    ^bail:
      spirv.Return
    ^merge:
      spirv.mlir.merge
    }
    %res = spirv.Load "Function" %var : i32
    spirv.Store "StorageBuffer" %p, %res : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
