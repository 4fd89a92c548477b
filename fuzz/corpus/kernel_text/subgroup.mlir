// Subgroup reduction and shuffle: GroupNonUniform* when the env has the
// capabilities, workgroup-memory fallback otherwise.
module attributes {gpu.container_module} {
  gpu.module @subgroup {
    gpu.func @reduce(%a: memref<8xf32>, %ia: memref<8xi32>, %out: memref<8xf32>, %iout: memref<8xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %s = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %s, %out[%i] : memref<8xf32>
      %y = memref.load %ia[%i] : memref<8xi32>
      %m = gpu.subgroup_reduce maxsi %y : (i32) -> i32
      %c1 = arith.constant 1 : i32
      %c8 = arith.constant 8 : i32
      %sh, %valid = gpu.shuffle xor %y, %c1, %c8 : i32
      %r = arith.addi %m, %sh : i32
      memref.store %r, %iout[%i] : memref<8xi32>
      gpu.return
    }
  }
}
