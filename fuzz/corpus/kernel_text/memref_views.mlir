// memref views and shapes: 2-D subviews with static strides, casts to
// dynamic and unranked memrefs, dim, dynamic alloc/dealloc.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%m: memref<8x8xf32>, %n: index) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 4, 1]>} {
      %x = gpu.thread_id x
      %y = gpu.thread_id y
      %sub = memref.subview %m[0, 4] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
      %v = memref.load %sub[%y, %x] : memref<4x4xf32, strided<[8, 1], offset: 4>>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %sub[%y, %x] : memref<4x4xf32, strided<[8, 1], offset: 4>>
      %row = memref.subview %m[2, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 16>>
      %strided = memref.subview %m[0, 0] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2]>>
      %dynoff = memref.subview %m[%n, 0] [2, 8] [1, 1] : memref<8x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
      %r = memref.load %row[%x] : memref<8xf32, strided<[1], offset: 16>>
      %s = memref.load %strided[%x, %y] : memref<4x4xf32, strided<[16, 2]>>
      %d = memref.load %dynoff[%y, %x] : memref<2x8xf32, strided<[8, 1], offset: ?>>
      %t = arith.addf %r, %s : f32
      %u = arith.addf %t, %d : f32
      memref.store %u, %strided[%x, %y] : memref<4x4xf32, strided<[16, 2]>>
      gpu.return
    }
  }
  func.func @main() {
    %m = memref.alloc() : memref<8x8xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %dyn = memref.cast %m : memref<8x8xf32> to memref<?x?xf32>
    %rows = memref.dim %dyn, %c0 : memref<?x?xf32>
    %cols = memref.dim %dyn, %c1 : memref<?x?xf32>
    %tmp = memref.alloc(%rows, %cols) : memref<?x?xf32>
    %aligned = memref.alloc() {alignment = 64 : i64} : memref<16xi32>
    %back = memref.cast %dyn : memref<?x?xf32> to memref<8x8xf32>
    %f = arith.constant 1.0 : f32
    call @fillResource2DFloat(%dyn, %f) : (memref<?x?xf32>, f32) -> ()
    gpu.launch_func @kernels::@tile blocks in (%c1, %c1, %c1) threads in (%c4, %c4, %c1)
        args(%back : memref<8x8xf32>, %c1 : index)
    %u = memref.cast %m : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %tmp : memref<?x?xf32>
    memref.dealloc %aligned : memref<16xi32>
    return
  }
  func.func private @fillResource2DFloat(%0 : memref<?x?xf32>, %1 : f32)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
