// 2-D and strided access, subview, cast, dynamic shapes, workgroup
// memory (attribution and alloc) with barriers, private alloca.
module attributes {gpu.container_module} {
  gpu.module @mem {
    gpu.func @transpose(%in: memref<8x8xf32>, %out: memref<8x8xf32>, %dyn: memref<?xf32>) workgroup(%tile: memref<8x8xf32, #gpu.address_space<workgroup>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 8, 1]>} {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %v = memref.load %in[%y, %x] : memref<8x8xf32>
      memref.store %v, %tile[%y, %x] : memref<8x8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = memref.load %tile[%x, %y] : memref<8x8xf32, #gpu.address_space<workgroup>>
      %sub = memref.subview %out[2, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 16>>
      %c4 = arith.constant 4 : index
      %row = arith.remui %y, %c4 : index
      memref.store %t, %sub[%row, %x] : memref<4x8xf32, strided<[8, 1], offset: 16>>
      %scratch = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
      %lin = arith.muli %y, %c4 : index
      memref.store %t, %scratch[%lin] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %p = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
      %c0 = arith.constant 0 : index
      memref.store %t, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      %w = memref.load %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      %d = memref.cast %dyn : memref<?xf32> to memref<?xf32>
      %n = memref.dim %d, %c0 : memref<?xf32>
      %last = arith.subi %n, %c4 : index
      memref.store %w, %d[%last] : memref<?xf32>
      gpu.return
    }
  }
}
