// target-env: vulkan1.0
// Function-scope variables with and without initializers, private globals
// initialized from a specialization constant, and loads/stores through them in a loop.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.SpecConstant @seed_init spec_id(4) = 42 : i32
  spirv.GlobalVariable @seed initializer(@seed_init) : !spirv.ptr<i32, Private>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %ten = spirv.Constant 10 : i32
    %mul = spirv.Constant 1103515245 : i32
    %add = spirv.Constant 12345 : i32
    %seed = spirv.mlir.addressof @seed : !spirv.ptr<i32, Private>
    spirv.Store "Private" %seed, %x : i32
    %i = spirv.Variable init(%zero) : !spirv.ptr<i32, Function>
    %acc = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %acc, %zero : i32
    spirv.mlir.loop {
      spirv.Branch ^header
    ^header:
      %iv = spirv.Load "Function" %i : i32
      %lt = spirv.SLessThan %iv, %ten : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      %s = spirv.Load "Private" %seed : i32
      %m = spirv.IMul %s, %mul : i32
      %n = spirv.IAdd %m, %add : i32
      spirv.Store "Private" %seed, %n : i32
      %a = spirv.Load "Function" %acc : i32
      %a2 = spirv.BitwiseXor %a, %n : i32
      spirv.Store "Function" %acc, %a2 : i32
      %iv2 = spirv.IAdd %iv, %one : i32
      spirv.Store "Function" %i, %iv2 : i32
      spirv.Branch ^header
    ^merge:
      spirv.mlir.merge
    }
    %r = spirv.Load "Function" %acc : i32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
