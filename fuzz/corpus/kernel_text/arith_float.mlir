// Float arithmetic, comparisons, min/max and conversions.
module attributes {gpu.container_module} {
  gpu.module @arith_float {
    gpu.func @float_ops(%a: memref<32xf32>, %b: memref<32xf32>, %out: memref<8x32xf32>, %iout: memref<32xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<32xf32>
      %y = memref.load %b[%i] : memref<32xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %add = arith.addf %x, %y : f32
      memref.store %add, %out[%c0, %i] : memref<8x32xf32>
      %sub = arith.subf %x, %y : f32
      %mul = arith.mulf %sub, %y : f32
      memref.store %mul, %out[%c1, %i] : memref<8x32xf32>
      %div = arith.divf %x, %y : f32
      memref.store %div, %out[%c2, %i] : memref<8x32xf32>
      %neg = arith.negf %x : f32
      %rem = arith.remf %neg, %y : f32
      memref.store %rem, %out[%c3, %i] : memref<8x32xf32>
      %mx = arith.maximumf %x, %y : f32
      %mn = arith.minnumf %mx, %add : f32
      memref.store %mn, %out[%c4, %i] : memref<8x32xf32>
      %lt = arith.cmpf olt, %x, %y : f32
      %s = arith.select %lt, %x, %y : f32
      memref.store %s, %out[%c5, %i] : memref<8x32xf32>
      %fi = arith.fptosi %x : f32 to i32
      %back = arith.sitofp %fi : i32 to f32
      memref.store %back, %out[%c6, %i] : memref<8x32xf32>
      %uno = arith.cmpf uno, %x, %y : f32
      %ui = arith.uitofp %uno : i1 to f32
      memref.store %ui, %out[%c7, %i] : memref<8x32xf32>
      %bits = arith.bitcast %x : f32 to i32
      memref.store %bits, %iout[%i] : memref<32xi32>
      gpu.return
    }
  }
}
