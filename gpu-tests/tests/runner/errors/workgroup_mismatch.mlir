// `threads in (...)` must be the kernel's workgroup size: Vulkan fixes it
// in the pipeline.
// ERROR: kernel @kernels::@k: launched with threads in [8, 1, 1] but compiled with workgroup size [4, 1, 1]

module attributes { gpu.container_module } {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<8xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]> } {
      %0 = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %arg0[%0] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %a = memref.alloc() : memref<8xf32>
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
}
