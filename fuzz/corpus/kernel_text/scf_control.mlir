// scf.for with iter_args and i32 induction variables, scf.if with and
// without results, scf.while with before/after regions.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @control(%data: memref<64xf32>, %out: memref<4xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %base = arith.muli %tid, %c16 : index
      %sum, %max = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %zero, %m = %zero) -> (f32, f32) {
        %idx = arith.addi %base, %k : index
        %v = memref.load %data[%idx] : memref<64xf32>
        %acc2 = arith.addf %acc, %v : f32
        %m2 = arith.maximumf %m, %v : f32
        scf.yield %acc2, %m2 : f32, f32
      }
      %big = arith.cmpf ogt, %sum, %max : f32
      %sel = scf.if %big -> (f32) {
        scf.yield %sum : f32
      } else {
        %neg = arith.negf %sum : f32
        scf.yield %neg : f32
      }
      scf.if %big {
        memref.store %sel, %data[%base] : memref<64xf32>
      }
      %i0 = arith.constant 0 : i32
      %i1 = arith.constant 1 : i32
      %i10 = arith.constant 10 : i32
      %count = scf.for %j = %i0 to %i10 step %i1 iter_args(%c = %i0) -> (i32) : i32 {
        %c2 = arith.addi %c, %j : i32
        scf.yield %c2 : i32
      }
      scf.for %j = %c0 to %c16 step %c1 {
        memref.store %zero, %data[%j] : memref<64xf32>
      }
      %res:2 = scf.while (%a = %i1, %steps = %i0) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi slt, %a, %count : i32
        scf.condition(%more) %a, %steps : i32, i32
      } do {
      ^bb0(%a2: i32, %s2: i32):
        %twice = arith.shli %a2, %i1 : i32
        %s3 = arith.addi %s2, %i1 : i32
        scf.yield %twice, %s3 : i32, i32
      }
      memref.store %res#1, %out[%tid] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %data = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<4xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %f = arith.constant 1.5 : f32
    scf.for %i = %c0 to %c64 step %c1 {
      %fi = arith.index_cast %i : index to i32
      %ff = arith.sitofp %fi : i32 to f32
      %v = arith.mulf %ff, %f : f32
      memref.store %v, %data[%i] : memref<64xf32>
    }
    gpu.launch_func @kernels::@control blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%data : memref<64xf32>, %out : memref<4xi32>)
    %p = memref.cast %out : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
