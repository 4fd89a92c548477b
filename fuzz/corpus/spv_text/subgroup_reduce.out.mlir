module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {
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
      %14 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %10 : f32
      %15 = spirv.GroupNonUniformFMax "Subgroup" "Reduce" %14 : f32
      %16 = spirv.Constant 0 : i32
      %17 = spirv.Constant 0 : i32
      %18 = spirv.Constant 1 : i32
      %19 = spirv.AccessChain %1[%16, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %19, %15 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @k, @__builtin__LocalInvocationId__
    spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  }
}
