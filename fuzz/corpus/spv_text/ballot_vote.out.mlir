spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformBallot, GroupNonUniformArithmetic, GroupNonUniformClustered], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @masks bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 4 : i32
    %5 = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : f32
    %8 = spirv.Constant 0.000000e+00 : f32
    %9 = spirv.FOrdGreaterThan %7, %8 : f32
    %10 = spirv.GroupNonUniformBallot <Subgroup> %9 : vector<4xi32>
    %11 = spirv.GroupNonUniformElect <Subgroup> : i1
    %12 = spirv.GroupNonUniformBroadcast <Subgroup> %7, %3 : f32, i32
    %13 = spirv.GroupNonUniformFAdd "Subgroup" "ClusteredReduce" %7 cluster_size(%4) : f32
    %14 = spirv.GroupNonUniformIAdd "Subgroup" "ExclusiveScan" %2 : i32
    spirv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|WorkgroupMemory>
    %15 = spirv.FAdd %12, %13 : f32
    %16 = spirv.ConvertSToF %14 : i32 to f32
    %17 = spirv.FAdd %15, %16 : f32
    spirv.Store "StorageBuffer" %6, %17 : f32
    spirv.mlir.selection {
      spirv.BranchConditional %11, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %18 = spirv.mlir.addressof @masks : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
      %19 = spirv.AccessChain %18[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %19, %10 : vector<4xi32>
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
