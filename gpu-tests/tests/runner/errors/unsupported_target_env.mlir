// A spirv.target_env the device cannot satisfy (no Vulkan device has the
// OpenCL `Kernel` capability) is refused before compiling, naming what is
// missing.
// ERROR: gpu.module @kernels: the device cannot satisfy its spirv.target_env: missing capability Kernel

module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Kernel], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<4xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]> } {
      %0 = gpu.block_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %arg0[%0] : memref<4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<4xf32>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
}
