spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader, ImageQuery], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @img bind(0, 0) : !spv.ptr<!spv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
  spv.GlobalVariable @dims bind(0, 1) : !spv.ptr<!spv.struct<(vector<2xi32> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @img : !spv.ptr<!spv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>
    %1 = spv.Load "UniformConstant" %0 : !spv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
    %2 = "spv.ImageQuerySize"(%1) : (!spv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>) -> vector<2xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @dims : !spv.ptr<!spv.struct<(vector<2xi32> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3] : !spv.ptr<!spv.struct<(vector<2xi32> [0])>, StorageBuffer>, i32
    spv.Store "StorageBuffer" %5, %2 : vector<2xi32>
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main
  spv.ExecutionMode @main "LocalSize", 1, 1, 1
}
