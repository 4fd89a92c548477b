spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @count(%n: i32, %flag: i1) -> () "None" {
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %var = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.loop {
      spirv.Branch ^header(%zero : i32)
    ^header(%i: i32):
      spirv.mlir.selection {
        spirv.BranchConditional %flag, ^then, ^smerge
      ^then:
        spirv.Store "Function" %var, %i : i32
        spirv.Branch ^smerge
      ^smerge:
        spirv.mlir.merge
      }
      %cmp = spirv.SLessThan %i, %n : i32
      spirv.BranchConditional %cmp, ^continue, ^merge
    ^continue:
      %i2 = spirv.IAdd %i, %one : i32
      spirv.Branch ^header(%i2 : i32)
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
