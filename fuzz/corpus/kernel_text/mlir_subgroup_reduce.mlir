// A subgroup reduction MLIR 19 lowers too (used by lower_mlir.rs).
module attributes {gpu.container_module} {
  gpu.module @subgroup {
    gpu.func @reduce(%a: memref<8xf32>, %out: memref<8xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %s = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %s, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
}
