// target-env: vulkan1.1
// A 2-D loop nest (matrix-vector product over a 16x16 tile) with a selection
// inside the inner loop.
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @mat bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @vec bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @res bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %n = spirv.Constant 16 : i32
    %fzero = spirv.Constant 0.000000e+00 : f32
    %mat = spirv.mlir.addressof @mat : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>
    %vec = spirv.mlir.addressof @vec : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %res = spirv.mlir.addressof @res : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>
    %acc = spirv.Variable : !spirv.ptr<f32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%zero : i32)
    ^header(%i: i32):
      %lt = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %lt, ^body, ^merge
    ^body:
      spirv.Store "Function" %acc, %fzero : f32
      spirv.mlir.loop {
        spirv.Branch ^inner(%zero : i32)
      ^inner(%j: i32):
        %jlt = spirv.SLessThan %j, %n : i32
        spirv.BranchConditional %jlt, ^ibody, ^imerge
      ^ibody:
        %row = spirv.IMul %i, %n : i32
        %k = spirv.IAdd %row, %j : i32
        %mp = spirv.AccessChain %mat[%zero, %k] : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %m = spirv.Load "StorageBuffer" %mp : f32
        %vp = spirv.AccessChain %vec[%zero, %j] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
        %v = spirv.Load "StorageBuffer" %vp : f32
        %nz = spirv.FUnordNotEqual %m, %fzero : f32
        spirv.mlir.selection {
          spirv.BranchConditional %nz, ^add, ^skip
        ^add:
          %prod = spirv.FMul %m, %v : f32
          %old = spirv.Load "Function" %acc : f32
          %new = spirv.FAdd %old, %prod : f32
          spirv.Store "Function" %acc, %new : f32
          spirv.Branch ^skip
        ^skip:
          spirv.mlir.merge
        }
        %j1 = spirv.IAdd %j, %one : i32
        spirv.Branch ^inner(%j1 : i32)
      ^imerge:
        spirv.mlir.merge
      }
      %sum = spirv.Load "Function" %acc : f32
      %rp = spirv.AccessChain %res[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.array<16 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %rp, %sum : f32
      %i1 = spirv.IAdd %i, %one : i32
      spirv.Branch ^header(%i1 : i32)
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
