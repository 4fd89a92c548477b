spv.module Logical GLSL450 requires #spv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformBallot, GroupNonUniformArithmetic, GroupNonUniformClustered], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @data bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @masks bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 4 : i32
    %5 = spv.mlir.addressof @data : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : f32
    %8 = spv.Constant 0.000000e+00 : f32
    %9 = spv.FOrdGreaterThan %7, %8 : f32
    %10 = spv.GroupNonUniformBallot <Subgroup> %9 : vector<4xi32>
    %11 = spv.GroupNonUniformElect <Subgroup> : i1
    %12 = spv.GroupNonUniformBroadcast <Subgroup> %7, %3 : f32, i32
    %13 = spv.GroupNonUniformFAdd "Subgroup" "ClusteredReduce" %7 cluster_size(%4) : f32
    %14 = spv.GroupNonUniformIAdd "Subgroup" "ExclusiveScan" %2 : i32
    spv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|WorkgroupMemory>
    %15 = spv.FAdd %12, %13 : f32
    %16 = spv.ConvertSToF %14 : i32 to f32
    %17 = spv.FAdd %15, %16 : f32
    spv.Store "StorageBuffer" %6, %17 : f32
    spv.mlir.selection {
      spv.BranchConditional %11, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %18 = spv.mlir.addressof @masks : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
      %19 = spv.AccessChain %18[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %19, %10 : vector<4xi32>
      spv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spv.mlir.merge
    }
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
