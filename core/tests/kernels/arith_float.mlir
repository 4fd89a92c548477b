// Float arith: binary ops with fastmath flags, comparisons, select, casts.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @floats(%a: memref<8xf32>, %b: memref<8xf32>, %out: memref<8xf32>, %ints: memref<8xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = memref.load %b[%i] : memref<8xf32>
      %0 = arith.addf %x, %y fastmath<fast> : f32
      %1 = arith.subf %0, %y fastmath<nnan,ninf> : f32
      %2 = arith.mulf %1, %x : f32
      %3 = arith.divf %2, %y : f32
      %4 = arith.remf %3, %y : f32
      %5 = arith.negf %4 fastmath<contract> : f32
      %6 = arith.maximumf %5, %x : f32
      %7 = arith.minimumf %6, %y : f32
      %8 = arith.maxnumf %7, %x : f32
      %9 = arith.minnumf %8, %y : f32
      %c = arith.cmpf olt, %9, %x : f32
      %u = arith.cmpf uno, %9, %9 fastmath<fast> : f32
      %both = arith.andi %c, %u : i1
      %10 = arith.select %both, %9, %x : f32
      %h = arith.truncf %10 : f32 to f16
      %d = arith.extf %h : f16 to f64
      %back = arith.truncf %d : f64 to f32
      %si = arith.fptosi %back : f32 to i32
      %ui = arith.fptoui %back : f32 to i32
      %s2 = arith.sitofp %si : i32 to f32
      %u2 = arith.uitofp %ui : i32 to f32
      %bits = arith.bitcast %s2 : f32 to i32
      %fb = arith.bitcast %bits : i32 to f32
      %11 = arith.addf %fb, %u2 : f32
      %nan = arith.constant 0x7FC00000 : f32
      %tiny = arith.constant 1.0e-07 : f32
      %neg = arith.constant -2.5 : f32
      %half = arith.constant 5.000000e-01 : f16
      %hf = arith.extf %half : f16 to f32
      %12 = arith.maximumf %11, %nan : f32
      %13 = arith.addf %12, %tiny : f32
      %14 = arith.mulf %13, %neg : f32
      %15 = arith.addf %14, %hf : f32
      memref.store %15, %out[%i] : memref<8xf32>
      %ii = arith.index_cast %i : index to i32
      %ic = arith.index_castui %ii : i32 to index
      %iv = arith.index_cast %ic : index to i32
      memref.store %iv, %ints[%i] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %a = memref.alloc() : memref<8xf32>
    %b = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<8xf32>
    %ints = memref.alloc() : memref<8xi32>
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %ca = memref.cast %a : memref<8xf32> to memref<?xf32>
    %cb = memref.cast %b : memref<8xf32> to memref<?xf32>
    call @fillResource1DFloat(%ca, %one) : (memref<?xf32>, f32) -> ()
    call @fillResource1DFloat(%cb, %two) : (memref<?xf32>, f32) -> ()
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@floats blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%a : memref<8xf32>, %b : memref<8xf32>, %out : memref<8xf32>, %ints : memref<8xi32>)
    %p = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%p) : (memref<*xf32>) -> ()
    return
  }
  func.func private @fillResource1DFloat(%0 : memref<?xf32>, %1 : f32)
  func.func private @printMemrefF32(%ptr : memref<*xf32>)
}
