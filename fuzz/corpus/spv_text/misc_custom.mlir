spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Matrix], []> {
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=16> [0, NonWritable], !spirv.matrix<3 x vector<3xf32>> [64, ColMajor, MatrixStride=16])>, StorageBuffer>
  spirv.GlobalVariable @b : !spirv.ptr<!spirv.struct<ident, (f32, i32)>, Private>
  spirv.GlobalVariable @c : !spirv.ptr<!spirv.rtarray<i32, stride=4>, Private>
  spirv.GlobalVariable @img bind(0,1) : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
  spirv.SpecConstant @sc spec_id(3) = 42 : i32
  spirv.SpecConstant @sc2 = true
  spirv.SpecConstantComposite @scc (@sc, @sc) : !spirv.array<2 x i32>
  spirv.func @f(%arg0: i32 {spirv.decoration = #spirv.decoration<Restrict>}, %arg1: f32) -> i32 "Inline|Pure" attributes {foo = 1 : i32} {
    %0 = spirv.mlir.referenceof @sc : i32
    %1 = spirv.IAdd %arg0, %0 : i32
    %2 = spirv.Constant dense<[1.0, 2.0]> : vector<2xf32>
    %3 = spirv.Constant 1.5 : f32
    %4 = spirv.Constant [1 : i32, 2 : i32] : !spirv.array<2 x i32>
    %c = spirv.Constant true
    spirv.BranchConditional %c [5, 10], ^bb1, ^bb2(%1 : i32)
  ^bb1:
    spirv.ReturnValue %1 : i32
  ^bb2(%x: i32):
    %5 = spirv.FunctionCall @g(%x) : (i32) -> i32
    spirv.Branch ^bb3(%5 : i32)
  ^bb3(%y: i32):
    %6 = spirv.ISub %y, %1 {NoSignedWrap} : i32
    spirv.ReturnValue %6 : i32
  }
  spirv.func @g(%arg0: i32) -> i32 "None" {
    %k = spirv.Constant 7 : i32
    %v = spirv.Variable init(%k) : !spirv.ptr<i32, Function>
    %l = spirv.Load "Function" %v ["Volatile"] : i32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %e = spirv.IMul %l, %l : i32
    spirv.ReturnValue %l : i32
  }
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
