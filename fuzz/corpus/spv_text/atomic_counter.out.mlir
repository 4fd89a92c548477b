module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @k_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    spirv.func @k() "None" attributes {workgroup_attributions = 1 : i64} {
      %0 = spirv.mlir.addressof @k_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @k_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @k_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %4 = spirv.Load "Input" %3 : vector<3xi32>
      %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spirv.Constant 0 : i32
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 1 : i32
      %9 = spirv.AccessChain %2[%6, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %10 = spirv.Load "StorageBuffer" %9 : f32
      %11 = spirv.Constant 0 : i32
      %12 = spirv.Constant 1 : i32
      %13 = spirv.Constant 32 : i32
      %14 = spirv.Constant 0 : i32
      %15 = spirv.Constant 0 : i32
      %16 = spirv.Constant 1 : i32
      %17 = spirv.AccessChain %0[%14, %11] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %18 = spirv.AtomicIAdd <Device> <AcquireRelease> %17, %12 : !spirv.ptr<i32, StorageBuffer>
      %19 = spirv.Constant 0 : i32
      %20 = spirv.Constant 0 : i32
      %21 = spirv.Constant 1 : i32
      %22 = spirv.AccessChain %0[%19, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %22, %18 : i32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @k, @__builtin__LocalInvocationId__
    spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  }
}
