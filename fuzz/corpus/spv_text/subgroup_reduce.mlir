// target-env: vulkan1.1
// gpu.subgroup_reduce lowered to GroupNonUniformFAdd/FMax (MLIR 19 string syntax).
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniformArithmetic], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @k_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    spirv.func @k() "None" attributes {workgroup_attributions = 1 : i64} {
      %k_arg_2_addr = spirv.mlir.addressof @k_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %k_arg_1_addr = spirv.mlir.addressof @k_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %k_arg_0_addr = spirv.mlir.addressof @k_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %__builtin__LocalInvocationId___addr = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %__builtin__LocalInvocationId___addr : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %cst0_i32 = spirv.Constant 0 : i32
      %cst0_i32_0 = spirv.Constant 0 : i32
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %k_arg_0_addr[%cst0_i32, %1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %3 = spirv.Load "StorageBuffer" %2 : f32
      %cst0_i32_1 = spirv.Constant 0 : i32
      %cst1_i32_2 = spirv.Constant 1 : i32
      %cst32_i32 = spirv.Constant 32 : i32
      %4 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %3 : f32
      %5 = spirv.GroupNonUniformFMax "Subgroup" "Reduce" %4 : f32
      %cst0_i32_3 = spirv.Constant 0 : i32
      %cst0_i32_4 = spirv.Constant 0 : i32
      %cst1_i32_5 = spirv.Constant 1 : i32
      %6 = spirv.AccessChain %k_arg_1_addr[%cst0_i32_3, %1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %6, %5 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @k, @__builtin__LocalInvocationId__
    spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  }
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %arg1: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %arg2: memref<?xi32, #spirv.storage_class<StorageBuffer>>) workgroup(%arg3 : memref<64xf32, #spirv.storage_class<Workgroup>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %thread_id_x = gpu.thread_id  x
      %0 = memref.load %arg0[%thread_id_x] : memref<?xf32, #spirv.storage_class<StorageBuffer>>
      %c0 = arith.constant 0 : index
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %1 = gpu.subgroup_reduce  add %0 : (f32) -> f32
      %2 = gpu.subgroup_reduce  maximumf %1 : (f32) -> f32
      memref.store %2, %arg1[%thread_id_x] : memref<?xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

