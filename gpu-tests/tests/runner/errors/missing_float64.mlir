// f64 arithmetic under a target env without Float64 cannot be emulated:
// lowering fails naming the type and the missing capability.
// ERROR: 'arith.extf': type f64 needs capability Float64

module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>
} {
  gpu.module @kernels {
    gpu.func @k(%arg0 : memref<4xf32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]> } {
      %0 = gpu.block_id x
      %v = memref.load %arg0[%0] : memref<4xf32>
      %w = arith.extf %v : f32 to f64
      %x = arith.addf %w, %w : f64
      %y = arith.truncf %x : f64 to f32
      memref.store %y, %arg0[%0] : memref<4xf32>
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
