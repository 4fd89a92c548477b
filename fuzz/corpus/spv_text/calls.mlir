spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @helper(%x: i32) -> i32 "None" {
    %c = spirv.Constant 3 : i32
    %y = spirv.IMul %x, %c : i32
    spirv.ReturnValue %y : i32
  }
  spirv.func @noop() "None" {
    spirv.Return
  }
  spirv.func @main() "None" {
    %c = spirv.Constant 5 : i32
    %cond = spirv.Constant true
    %v = spirv.Variable init(%c) : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %cond, ^then, ^merge
    ^then:
      %r = spirv.FunctionCall @helper(%c) : (i32) -> i32
      spirv.Store "Function" %v, %r : i32
      spirv.FunctionCall @noop() : () -> ()
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    %w = spirv.Variable : !spirv.ptr<i32, Function>
    %l = spirv.Load "Function" %v : i32
    spirv.Store "Function" %w, %l : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
