// target-env: vulkan1.1
// Subgroup ballot, elect and broadcast, with a subgroup-scope barrier and a
// clustered reduction.
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformBallot, GroupNonUniformArithmetic, GroupNonUniformClustered], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @data bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @masks bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %four = spirv.Constant 4 : i32
    %data = spirv.mlir.addressof @data : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %data[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %v = spirv.Load "StorageBuffer" %p : f32
    %fzero = spirv.Constant 0.000000e+00 : f32
    %pos = spirv.FOrdGreaterThan %v, %fzero : f32
    %mask = spirv.GroupNonUniformBallot <Subgroup> %pos : vector<4xi32>
    %leader = spirv.GroupNonUniformElect <Subgroup> : i1
    %first = spirv.GroupNonUniformBroadcast <Subgroup> %v, %zero : f32, i32
    %csum = spirv.GroupNonUniformFAdd "Subgroup" "ClusteredReduce" %v cluster_size(%four) : f32
    %isum = spirv.GroupNonUniformIAdd "Subgroup" "ExclusiveScan" %x : i32
    spirv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|WorkgroupMemory>
    %r0 = spirv.FAdd %first, %csum : f32
    %fi = spirv.ConvertSToF %isum : i32 to f32
    %r = spirv.FAdd %r0, %fi : f32
    spirv.Store "StorageBuffer" %p, %r : f32
    spirv.mlir.selection {
      spirv.BranchConditional %leader, ^write, ^merge
    ^write:
      %masks = spirv.mlir.addressof @masks : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>
      %mp = spirv.AccessChain %masks[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xi32>, stride=16> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %mp, %mask : vector<4xi32>
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
