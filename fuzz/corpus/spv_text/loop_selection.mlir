spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @sum(%n: i32) -> i32 "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %var = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%zero, %zero : i32, i32)
    ^header(%i: i32, %acc: i32):
      %cmp = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %cmp, ^body, ^merge
    ^body:
      %two = spirv.Constant 2 : i32
      %rem = spirv.SMod %i, %two : i32
      %even = spirv.IEqual %rem, %zero : i32
      spirv.mlir.selection {
        spirv.BranchConditional %even, ^then, ^else
      ^then:
        spirv.Store "Function" %var, %i : i32
        spirv.Branch ^smerge
      ^else:
        spirv.Store "Function" %var, %one : i32
        spirv.Branch ^smerge
      ^smerge:
        spirv.mlir.merge
      }
      %v = spirv.Load "Function" %var : i32
      %acc2 = spirv.IAdd %acc, %v : i32
      spirv.Branch ^continue(%acc2 : i32)
    ^continue(%a: i32):
      %i2 = spirv.IAdd %i, %one : i32
      spirv.Branch ^header(%i2, %a : i32, i32)
    ^merge:
      spirv.mlir.merge
    }
    %r = spirv.Load "Function" %var : i32
    spirv.ReturnValue %r : i32
  }
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
