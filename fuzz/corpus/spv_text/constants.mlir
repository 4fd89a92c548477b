spirv.module Logical GLSL450 requires #spirv.vce<v1.5, [Shader, Float16, Float64, Int64, Int8, Int16], []> {
  spirv.func @main() "None" {
    %h = spirv.Constant 1.5 : f16
    %d = spirv.Constant -2.25 : f64
    %l = spirv.Constant -3 : i64
    %sb = spirv.Constant -1 : si8
    %ub = spirv.Constant 255 : ui8
    %ss = spirv.Constant -2 : si16
    %splat = spirv.Constant dense<2> : vector<4xi32>
    %fv = spirv.Constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
    %hv = spirv.Constant dense<0.5> : vector<2xf16>
    %bv = spirv.Constant dense<[true, false]> : vector<2xi1>
    %arr = spirv.Constant [1 : i32, 2 : i32, 3 : i32] : !spirv.array<3 x i32>
    %f = spirv.Constant false
    %var = spirv.Variable init(%arr) : !spirv.ptr<!spirv.array<3 x i32>, Function>
    %hvar = spirv.Variable : !spirv.ptr<f16, Function>
    spirv.Store "Function" %hvar, %h : f16
    %lvar = spirv.Variable : !spirv.ptr<i64, Function>
    spirv.Store "Function" %lvar, %l : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
