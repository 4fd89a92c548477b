spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @params : !spv.ptr<!spv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
  spv.GlobalVariable @data bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.Constant 2 : i32
    %6 = spv.mlir.addressof @params : !spv.ptr<!spv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>
    %7 = spv.AccessChain %6[%3] : !spv.ptr<!spv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %8 = spv.Load "PushConstant" %7 : f32
    %9 = spv.AccessChain %6[%4] : !spv.ptr<!spv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %10 = spv.Load "PushConstant" %9 : i32
    %11 = spv.AccessChain %6[%5] : !spv.ptr<!spv.struct<(f32 [0], i32 [4], vector<2xf32> [8])>, PushConstant>, i32
    %12 = spv.Load "PushConstant" %11 : vector<2xf32>
    %13 = spv.CompositeExtract %12[0 : i32] : vector<2xf32>
    %14 = spv.CompositeExtract %12[1 : i32] : vector<2xf32>
    %15 = spv.ULessThan %2, %10 : i32
    spv.mlir.selection {
      spv.BranchConditional %15, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %16 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %17 = spv.AccessChain %16[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %18 = spv.Load "StorageBuffer" %17 : f32
      %19 = spv.FMul %18, %8 : f32
      %20 = spv.GLSL.FClamp %19, %13, %14 : f32
      spv.Store "StorageBuffer" %17, %20 : f32
      spv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spv.mlir.merge
    }
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 256, 1, 1
}
