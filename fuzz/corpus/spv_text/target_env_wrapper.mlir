// target-env: vulkan1.1
// A builtin module carrying the target environment (resource limits, nested
// #spv. prefixes normalized), the entry-point ABI attribute kept verbatim on
// the function, other dialects' attributes kept opaque, and func.func /
// gpu.module ops next to the spirv.module skipped.
module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]>, api=Vulkan, #spv.resource_limits<max_compute_workgroup_size = [128, 128, 64], subgroup_size = 32>>, kiln.layout = #dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>>} {
  func.func @host_helper(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
  spirv.module @kernels Logical GLSL450 requires #spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]> attributes {kiln.origin = "test"} {
    spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.func @main() "None" attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 32>, workgroup_attributions = 0 : i64} {
      %gid_ptr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
      %gid = spirv.Load "Input" %gid_ptr : vector<3xi32>
      %x = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
      %zero = spirv.Constant 0 : i32
      %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %p = spirv.AccessChain %buf[%zero, %x] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %v = spirv.Load "StorageBuffer" %p : f32
      %two = spirv.Constant 2.000000e+00 : f32
      %d = spirv.FMul %v, %two : f32
      spirv.Store "StorageBuffer" %p, %d : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @main, @gid
    spirv.ExecutionMode @main "LocalSize", 32, 1, 1
  }
  gpu.module @kernels_src {
    gpu.func @main(%arg0: memref<?xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      gpu.return
    }
  }
}
