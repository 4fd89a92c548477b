// target-env: vulkan1.1
// no-mlir-translate: spirv.Switch and the <Subgroup> <Reduce> group syntax are MLIR 20's;
// validated by hand-written SPIR-V assembly of the same kernel.
// A structured switch with a default, cases sharing nothing, a case taking a
// block argument (an OpPhi), and a subgroup reduction in MLIR 20's syntax.
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %two = spirv.Constant 2 : i32
    %three = spirv.Constant 3 : i32
    %ten = spirv.Constant 10 : i32
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : i32
    %sel = spirv.BitwiseAnd %v, %three : i32
    %var = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.Switch %sel : i32, [
        default: ^other,
        0: ^zero_case,
        1: ^scaled(%v : i32),
        2: ^scaled_x
      ]
    ^zero_case:
      spirv.Store "Function" %var, %ten : i32
      spirv.Branch ^merge
    ^scaled(%a: i32):
      %d = spirv.IMul %a, %two : i32
      spirv.Store "Function" %var, %d : i32
      spirv.Branch ^merge
    ^scaled_x:
      %dx = spirv.IMul %x, %two : i32
      spirv.Store "Function" %var, %dx : i32
      spirv.Branch ^merge
    ^other:
      spirv.Store "Function" %var, %v : i32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    %r = spirv.Load "Function" %var : i32
    %s = spirv.GroupNonUniformIAdd <Subgroup> <Reduce> %r : i32 -> i32
    spirv.Store "StorageBuffer" %p, %s : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
