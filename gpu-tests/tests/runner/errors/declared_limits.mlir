// The declared spirv.target_env bounds what the compiler may use, limits
// included: a workgroup of 256 invocations does not fit MLIR's default
// max_compute_workgroup_invocations of 128, although the device allows it.
// ERROR: kernel @k: workgroup size 256 in dimension x is outside 1..=128 (max_compute_workgroup_size)

module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<256xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [256, 1, 1]> } {
      %0 = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %arg0[%0] : memref<256xf32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<256xf32>
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : memref<256xf32>)
    return
  }
}
