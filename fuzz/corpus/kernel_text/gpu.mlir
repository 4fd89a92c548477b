// GPU ids: thread/block ids, block and grid dims, global ids, barrier.
module attributes {gpu.container_module} {
  gpu.module @ids {
    gpu.func @ids(%out: memref<4x4x8xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 2, 1]>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %gx = gpu.grid_dim x
      %gid = gpu.global_id x
      %lin = arith.muli %ty, %dx : index
      %l = arith.addi %lin, %tx : index
      %g = arith.muli %by, %gx : index
      %blk = arith.addi %g, %bx : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %li = arith.index_cast %l : index to i32
      %bi = arith.index_cast %blk : index to i32
      %gi = arith.index_cast %gid : index to i32
      %gd = arith.index_cast %gx : index to i32
      memref.store %li, %out[%c0, %blk, %l] : memref<4x4x8xi32>
      memref.store %bi, %out[%c1, %blk, %l] : memref<4x4x8xi32>
      gpu.barrier
      memref.store %gi, %out[%c2, %blk, %l] : memref<4x4x8xi32>
      memref.store %gd, %out[%c3, %blk, %l] : memref<4x4x8xi32>
      gpu.return
    }
  }
}
