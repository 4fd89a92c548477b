module attributes {gpu.container_module, kiln.layout = #dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>>, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spirv.resource_limits<max_compute_workgroup_size = [128, 128, 64], subgroup_size = 32>>} {
  spirv.module @kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {kiln.origin = "test"} {
    spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.func @main() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 32>, workgroup_attributions = 0 : i64} {
      %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
      %1 = spirv.Load "Input" %0 : vector<3xi32>
      %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
      %3 = spirv.Constant 0 : i32
      %4 = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %5 = spirv.AccessChain %4[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %6 = spirv.Load "StorageBuffer" %5 : f32
      %7 = spirv.Constant 2.000000e+00 : f32
      %8 = spirv.FMul %6, %7 : f32
      spirv.Store "StorageBuffer" %5, %8 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @main, @gid
    spirv.ExecutionMode @main "LocalSize", 32, 1, 1
  }
}
