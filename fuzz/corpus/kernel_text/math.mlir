// math ops -> GLSL.std.450 (and expansions).
module attributes {gpu.container_module} {
  gpu.module @math {
    gpu.func @math_ops(%a: memref<16xf32>, %out: memref<24x16xf32>, %ia: memref<16xi32>, %iout: memref<4x16xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
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
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %c17 = arith.constant 17 : index
      %c18 = arith.constant 18 : index
      %c19 = arith.constant 19 : index
      %c20 = arith.constant 20 : index
      %c21 = arith.constant 21 : index
      %c22 = arith.constant 22 : index
      %c23 = arith.constant 23 : index
      %e = math.exp %x : f32
      memref.store %e, %out[%c0, %i] : memref<24x16xf32>
      %e2 = math.exp2 %x : f32
      memref.store %e2, %out[%c1, %i] : memref<24x16xf32>
      %ax = math.absf %x : f32
      %l = math.log %ax : f32
      memref.store %l, %out[%c2, %i] : memref<24x16xf32>
      %l2 = math.log2 %ax : f32
      memref.store %l2, %out[%c3, %i] : memref<24x16xf32>
      %sq = math.sqrt %ax : f32
      memref.store %sq, %out[%c4, %i] : memref<24x16xf32>
      %rs = math.rsqrt %ax : f32
      memref.store %rs, %out[%c5, %i] : memref<24x16xf32>
      %th = math.tanh %x : f32
      memref.store %th, %out[%c6, %i] : memref<24x16xf32>
      %s = math.sin %x : f32
      memref.store %s, %out[%c7, %i] : memref<24x16xf32>
      %co = math.cos %x : f32
      memref.store %co, %out[%c8, %i] : memref<24x16xf32>
      %p = math.powf %ax, %x : f32
      memref.store %p, %out[%c9, %i] : memref<24x16xf32>
      %f = math.fma %x, %x, %x : f32
      memref.store %f, %out[%c10, %i] : memref<24x16xf32>
      %fl = math.floor %x : f32
      memref.store %fl, %out[%c11, %i] : memref<24x16xf32>
      %ce = math.ceil %x : f32
      memref.store %ce, %out[%c12, %i] : memref<24x16xf32>
      %ro = math.round %x : f32
      memref.store %ro, %out[%c13, %i] : memref<24x16xf32>
      %cs = math.copysign %ax, %x : f32
      memref.store %cs, %out[%c14, %i] : memref<24x16xf32>
      %re = math.roundeven %x : f32
      memref.store %re, %out[%c15, %i] : memref<24x16xf32>
      %tr = math.trunc %x : f32
      memref.store %tr, %out[%c16, %i] : memref<24x16xf32>
      %ta = math.tan %x : f32
      memref.store %ta, %out[%c17, %i] : memref<24x16xf32>
      %at = math.atan %x : f32
      memref.store %at, %out[%c18, %i] : memref<24x16xf32>
      %at2 = math.atan2 %x, %ax : f32
      memref.store %at2, %out[%c19, %i] : memref<24x16xf32>
      %em1 = math.expm1 %x : f32
      memref.store %em1, %out[%c20, %i] : memref<24x16xf32>
      %l1p = math.log1p %ax : f32
      memref.store %l1p, %out[%c21, %i] : memref<24x16xf32>
      %l10 = math.log10 %ax : f32
      memref.store %l10, %out[%c22, %i] : memref<24x16xf32>
      %er = math.erf %x : f32
      memref.store %er, %out[%c23, %i] : memref<24x16xf32>
      %y = memref.load %ia[%i] : memref<16xi32>
      %ab = math.absi %y : i32
      memref.store %ab, %iout[%c0, %i] : memref<4x16xi32>
      %lz = math.ctlz %y : i32
      memref.store %lz, %iout[%c1, %i] : memref<4x16xi32>
      %tz = math.cttz %y : i32
      memref.store %tz, %iout[%c2, %i] : memref<4x16xi32>
      %pc = math.ctpop %y : i32
      memref.store %pc, %iout[%c3, %i] : memref<4x16xi32>
      gpu.return
    }
  }
}
