spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @params : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 1 : i32
    %5 = spirv.Constant 2 : i32
    %6 = spirv.mlir.addressof @params : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
    %7 = spirv.AccessChain %6[%3] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %8 = spirv.Load "PushConstant" %7 : f32
    %9 = spirv.AccessChain %6[%4] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %10 = spirv.Load "PushConstant" %9 : i32
    %11 = spirv.AccessChain %6[%5] : !spirv.ptr<!spirv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %12 = spirv.Load "PushConstant" %11 : vector<2xf32>
    %13 = spirv.CompositeExtract %12[0 : i32] : vector<2xf32>
    %14 = spirv.CompositeExtract %12[1 : i32] : vector<2xf32>
    %15 = spirv.ULessThan %2, %10 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %15, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %16 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %17 = spirv.AccessChain %16[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %18 = spirv.Load "StorageBuffer" %17 : f32
      %19 = spirv.FMul %18, %8 : f32
      %20 = spirv.GL.FClamp %19, %13, %14 : f32
      spirv.Store "StorageBuffer" %17, %20 : f32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 256, 1, 1
}
