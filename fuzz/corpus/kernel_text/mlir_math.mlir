// math ops MLIR 19's convert-math-to-spirv handles (used by lower_mlir.rs).
module attributes {gpu.container_module} {
  gpu.module @math {
    gpu.func @math_ops(%a: memref<16xf32>, %out: memref<8x16xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %e = math.exp %x : f32
      memref.store %e, %out[%c0, %i] : memref<8x16xf32>
      %ax = math.absf %x : f32
      %l = math.log %ax : f32
      memref.store %l, %out[%c1, %i] : memref<8x16xf32>
      %sq = math.sqrt %ax : f32
      memref.store %sq, %out[%c2, %i] : memref<8x16xf32>
      %rs = math.rsqrt %ax : f32
      memref.store %rs, %out[%c3, %i] : memref<8x16xf32>
      %th = math.tanh %x : f32
      memref.store %th, %out[%c4, %i] : memref<8x16xf32>
      %s = math.sin %x : f32
      memref.store %s, %out[%c5, %i] : memref<8x16xf32>
      %f = math.fma %x, %x, %x : f32
      memref.store %f, %out[%c6, %i] : memref<8x16xf32>
      %fl = math.floor %x : f32
      memref.store %fl, %out[%c7, %i] : memref<8x16xf32>
      gpu.return
    }
  }
}
