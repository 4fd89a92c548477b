// i8 buffers: native with Int8 + StorageBuffer8BitAccess, packed into i32
// words otherwise.
module attributes {gpu.container_module} {
  gpu.module @bytes {
    gpu.func @add_i8(%a: memref<16xi8>, %b: memref<16xi8>, %out: memref<16xi8>, %wide: memref<16xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xi8>
      %y = memref.load %b[%i] : memref<16xi8>
      %s = arith.addi %x, %y : i8
      memref.store %s, %out[%i] : memref<16xi8>
      %xs = arith.extsi %x : i8 to i32
      %yu = arith.extui %y : i8 to i32
      %w = arith.addi %xs, %yu : i32
      memref.store %w, %wide[%i] : memref<16xi32>
      gpu.return
    }
  }
}
