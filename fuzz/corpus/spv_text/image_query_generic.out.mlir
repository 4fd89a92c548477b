spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, ImageQuery], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @img bind(0, 0) : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
  spirv.GlobalVariable @dims bind(0, 1) : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @img : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
    %1 = spirv.Load "UniformConstant" %0 : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
    %2 = "spirv.ImageQuerySize"(%1) : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>) -> vector<2xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @dims : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3] : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %5, %2 : vector<2xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
