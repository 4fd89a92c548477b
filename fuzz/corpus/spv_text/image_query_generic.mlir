// target-env: vulkan1.0
// no-mlir-translate: MLIR 19 cannot spirv.Load an image; validated as SPIR-V assembly instead.
// A storage image queried with spirv.ImageQuerySize, which has no custom form
// in kiln: it is written and printed in MLIR's generic form.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, ImageQuery], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @img bind(0, 0) : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
  spirv.GlobalVariable @dims bind(0, 1) : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %p = spirv.mlir.addressof @img : !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
    %img = spirv.Load "UniformConstant" %p : !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
    %size = "spirv.ImageQuerySize"(%img) : (!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>) -> vector<2xi32>
    %zero = spirv.Constant 0 : i32
    %dims = spirv.mlir.addressof @dims : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>
    %dp = spirv.AccessChain %dims[%zero] : !spirv.ptr<!spirv.struct<(vector<2xi32> [0])>, StorageBuffer>, i32
    spirv.Store "StorageBuffer" %dp, %size : vector<2xi32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}
