// A 3-D grid of 3-D workgroups: every id and dimension query.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ids(%out: memref<4x4x4xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [2, 2, 2]>,
                    known_block_size = array<i32: 2, 2, 2>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %ix = gpu.global_id x
      %iy = gpu.global_id y
      %iz = gpu.global_id z
      %0 = arith.muli %bx, %dx : index
      %x = arith.addi %0, %tx : index
      %1 = arith.muli %by, %dy : index
      %y = arith.addi %1, %ty : index
      %2 = arith.muli %bz, %dz : index
      %z = arith.addi %2, %tz : index
      %3 = arith.muli %gx, %gy : index
      %4 = arith.muli %3, %gz : index
      %5 = arith.addi %4, %ix : index
      %6 = arith.addi %5, %iy : index
      %7 = arith.addi %6, %iz : index
      %v = arith.index_cast %7 : index to i32
      memref.store %v, %out[%x, %y, %z] : memref<4x4x4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %out = memref.alloc() : memref<4x4x4xi32>
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0 : i32
    %d = memref.cast %out : memref<4x4x4xi32> to memref<?x?x?xi32>
    call @fillResource3DInt(%d, %zero) : (memref<?x?x?xi32>, i32) -> ()
    gpu.launch_func @kernels::@ids blocks in (%c2, %c2, %c2) threads in (%c2, %c2, %c2)
        args(%out : memref<4x4x4xi32>)
    %u = memref.cast %out : memref<4x4x4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @fillResource3DInt(%0 : memref<?x?x?xi32>, %1 : i32)
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
