spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @data bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @square(%arg0: f32) -> f32 "Pure" {
    %0 = spv.FMul %arg0, %arg0 : f32
    spv.ReturnValue %0 : f32
  }
  spv.func @saxpy(%arg0: f32, %arg1: f32, %arg2: f32) -> f32 "Inline|Const" {
    %0 = spv.FMul %arg0, %arg1 : f32
    %1 = spv.FAdd %0, %arg2 : f32
    spv.ReturnValue %1 : f32
  }
  spv.func @store(%arg0: i32, %arg1: f32) "DontInline" {
    %0 = spv.Constant 0 : i32
    %1 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %2 = spv.AccessChain %1[%0, %arg0] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spv.Store "StorageBuffer" %2, %arg1 : f32
    spv.Return
  }
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %6 = spv.Load "StorageBuffer" %5 : f32
    %7 = spv.FunctionCall @square(%6) : (f32) -> f32
    %8 = spv.Constant 2.000000e+00 : f32
    %9 = spv.FunctionCall @saxpy(%8, %7, %6) : (f32, f32, f32) -> f32
    spv.FunctionCall @store(%2, %9) : (i32, f32) -> ()
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 128, 1, 1
}
