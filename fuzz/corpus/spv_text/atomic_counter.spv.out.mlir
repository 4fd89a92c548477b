module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spv.resource_limits<>>} {
  spv.module @__spv__kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @k_arg_0 bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @k_arg_1 bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @k_arg_2 bind(0, 2) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    spv.func @k() "None" attributes {workgroup_attributions = 1 : i64} {
      %0 = spv.mlir.addressof @k_arg_2 : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %1 = spv.mlir.addressof @k_arg_1 : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %2 = spv.mlir.addressof @k_arg_0 : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %3 = spv.mlir.addressof @__builtin__LocalInvocationId__ : !spv.ptr<vector<3xi32>, Input>
      %4 = spv.Load "Input" %3 : vector<3xi32>
      %5 = spv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spv.Constant 0 : i32
      %7 = spv.Constant 0 : i32
      %8 = spv.Constant 1 : i32
      %9 = spv.AccessChain %2[%6, %5] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %10 = spv.Load "StorageBuffer" %9 : f32
      %11 = spv.Constant 0 : i32
      %12 = spv.Constant 1 : i32
      %13 = spv.Constant 32 : i32
      %14 = spv.Constant 0 : i32
      %15 = spv.Constant 0 : i32
      %16 = spv.Constant 1 : i32
      %17 = spv.AccessChain %0[%14, %11] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %18 = spv.AtomicIAdd <Device> <AcquireRelease> %17, %12 : !spv.ptr<i32, StorageBuffer>
      %19 = spv.Constant 0 : i32
      %20 = spv.Constant 0 : i32
      %21 = spv.Constant 1 : i32
      %22 = spv.AccessChain %0[%19, %5] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %22, %18 : i32
      spv.Return
    }
    spv.EntryPoint "GLCompute" @k, @__builtin__LocalInvocationId__
    spv.ExecutionMode @k "LocalSize", 64, 1, 1
  }
}
