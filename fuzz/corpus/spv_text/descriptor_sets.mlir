// target-env: vulkan1.0
// Buffers spread over several descriptor sets and bindings, a uniform buffer
// and storage buffers with different element types.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lhs bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @rhs bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @idx bind(1, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @cfg bind(1, 3) : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
  spirv.GlobalVariable @out bind(2, 5) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @gather() "None" {
    %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
    %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %zero = spirv.Constant 0 : i32
    %one = spirv.Constant 1 : i32
    %idx = spirv.mlir.addressof @idx : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ip = spirv.AccessChain %idx[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %j = spirv.Load "StorageBuffer" %ip : i32
    %lhs = spirv.mlir.addressof @lhs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %rhs = spirv.mlir.addressof @rhs : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %lp = spirv.AccessChain %lhs[%zero, %j] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %rp = spirv.AccessChain %rhs[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %l = spirv.Load "StorageBuffer" %lp : f32
    %r = spirv.Load "StorageBuffer" %rp : f32
    %cfg = spirv.mlir.addressof @cfg : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>
    %wp = spirv.AccessChain %cfg[%zero] : !spirv.ptr<!spirv.struct<(vector<4xf32> [0], i32 [16])>, Uniform>, i32
    %w = spirv.Load "Uniform" %wp : vector<4xf32>
    %w0 = spirv.CompositeExtract %w[0 : i32] : vector<4xf32>
    %w1 = spirv.CompositeExtract %w[1 : i32] : vector<4xf32>
    %a = spirv.FMul %l, %w0 : f32
    %b = spirv.FMul %r, %w1 : f32
    %s = spirv.FAdd %a, %b : f32
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %op = spirv.AccessChain %out[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %op, %s : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @gather, @gid
  spirv.ExecutionMode @gather "LocalSize", 128, 1, 1
}
