spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @src bind(0, 0) {non_writable} : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, UniformConstant>
  spirv.GlobalVariable @dst bind(0, 1) {non_readable} : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, UniformConstant>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<vector<2xsi32>, Function>
    %1 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %2 = spirv.Load "Input" %1 : vector<3xi32>
    %3 = spirv.VectorShuffle [0 : i32, 1 : i32] %2, %2 : vector<3xi32>, vector<3xi32> -> vector<2xi32>
    %4 = spirv.Bitcast %3 : vector<2xi32> to vector<2xsi32>
    spirv.Store "Function" %0, %4 : vector<2xsi32>
    %5 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %6 = spirv.mlir.addressof @src : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, UniformConstant>
    %7 = spirv.Load "UniformConstant" %6 : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>
    %8 = spirv.Load "Function" %0 : vector<2xsi32>
    %9 = "spirv.ImageRead"(%7, %8) : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, vector<2xsi32>) -> vector<4xf32>
    spirv.Store "Function" %5, %9 : vector<4xf32>
    %10 = spirv.mlir.addressof @dst : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, UniformConstant>
    %11 = spirv.Load "UniformConstant" %10 : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>
    %12 = spirv.Load "Function" %0 : vector<2xsi32>
    %13 = spirv.Load "Function" %5 : vector<4xf32>
    %14 = spirv.VectorShuffle [2 : i32, 1 : i32, 0 : i32, 3 : i32] %13, %13 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
    %15 = spirv.Constant 5.000000e-01 : f32
    %16 = spirv.VectorTimesScalar %14, %15 : (vector<4xf32>, f32) -> vector<4xf32>
    "spirv.ImageWrite"(%11, %12, %16) : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba8>, vector<2xsi32>, vector<4xf32>) -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 8, 8, 1
}
