// run: grid=2
// Helper functions with arguments and results, one called twice.
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
    %y = spirv.FunctionCall @twice(%x) : (i32) -> i32
    %z = spirv.FunctionCall @clamp63(%y) : (i32) -> i32
    %w = spirv.FunctionCall @twice(%z) : (i32) -> i32
    spirv.Store "StorageBuffer" %eb, %w : i32
    spirv.Return
  }
  spirv.func @twice(%v: i32) -> i32 "Pure" {
    %t = spirv.IAdd %v, %v : i32
    spirv.ReturnValue %t : i32
  }
  spirv.func @clamp63(%v: i32) -> i32 "None" {
    %c63 = spirv.Constant 63 : i32
    %gt = spirv.SGreaterThan %v, %c63 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %gt, ^big, ^merge
    ^big:
      spirv.ReturnValue %c63 : i32
    ^merge:
      spirv.mlir.merge
    }
    spirv.ReturnValue %v : i32
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
