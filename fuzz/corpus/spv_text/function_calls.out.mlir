spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @square(%arg0: f32) -> f32 "Pure" {
    %0 = spirv.FMul %arg0, %arg0 : f32
    spirv.ReturnValue %0 : f32
  }
  spirv.func @saxpy(%arg0: f32, %arg1: f32, %arg2: f32) -> f32 "Inline|Const" {
    %0 = spirv.FMul %arg0, %arg1 : f32
    %1 = spirv.FAdd %0, %arg2 : f32
    spirv.ReturnValue %1 : f32
  }
  spirv.func @store(%arg0: i32, %arg1: f32) "DontInline" {
    %0 = spirv.Constant 0 : i32
    %1 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %2 = spirv.AccessChain %1[%0, %arg0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %2, %arg1 : f32
    spirv.Return
  }
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spirv.Load "StorageBuffer" %5 : f32
    %7 = spirv.FunctionCall @square(%6) : (f32) -> f32
    %8 = spirv.Constant 2.000000e+00 : f32
    %9 = spirv.FunctionCall @saxpy(%8, %7, %6) : (f32, f32, f32) -> f32
    spirv.FunctionCall @store(%2, %9) : (i32, f32) -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 128, 1, 1
}
