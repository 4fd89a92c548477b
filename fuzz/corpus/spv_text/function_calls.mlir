// target-env: vulkan1.0
// Helper functions with arguments and results, function controls, argument
// attributes, and calls of void and value-returning functions.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @square(%x: f32) -> f32 "Pure" {
    %r = spirv.FMul %x, %x : f32
    spirv.ReturnValue %r : f32
  }
  spirv.func @saxpy(%a: f32, %x: f32, %y: f32) -> f32 "Inline|Const" {
    %ax = spirv.FMul %a, %x : f32
    %r = spirv.FAdd %ax, %y : f32
    spirv.ReturnValue %r : f32
  }
  spirv.func @store(%i: i32, %v: f32) "DontInline" {
    %zero = spirv.Constant 0 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %v : f32
    spirv.Return
  }
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %sq = spirv.FunctionCall @square(%v) : (f32) -> f32
    %two = spirv.Constant 2.000000e+00 : f32
    %r = spirv.FunctionCall @saxpy(%two, %sq, %v) : (f32, f32, f32) -> f32
    spirv.FunctionCall @store(%x, %r) : (i32, f32) -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 128, 1, 1
}
