module attributes {gpu.container_module, kiln.layout = #dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>>, spv.target_env = #spv.target_env<#spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spv.resource_limits<max_compute_workgroup_size = [128, 128, 64], subgroup_size = 32>>} {
  spv.module @kernels Logical GLSL450 requires #spv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {kiln.origin = "test"} {
    spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @buf bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spv.func @main() "None" attributes {spv.entry_point_abi = #spv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 32>, workgroup_attributions = 0 : i64} {
      %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
      %1 = spv.Load "Input" %0 : vector<3xi32>
      %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
      %3 = spv.Constant 0 : i32
      %4 = spv.mlir.addressof @buf : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %5 = spv.AccessChain %4[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %6 = spv.Load "StorageBuffer" %5 : f32
      %7 = spv.Constant 2.000000e+00 : f32
      %8 = spv.FMul %6, %7 : f32
      spv.Store "StorageBuffer" %5, %8 : f32
      spv.Return
    }
    spv.EntryPoint "GLCompute" @main, @gid
    spv.ExecutionMode @main "LocalSize", 32, 1, 1
  }
}
