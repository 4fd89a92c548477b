// scf.for with iter_args, scf.if with results, scf.while, nesting.
module attributes {gpu.container_module} {
  gpu.module @scf {
    gpu.func @loops(%a: memref<64xf32>, %out: memref<64xf32>, %iout: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %j = arith.addi %i, %k : index
        %c63 = arith.constant 63 : index
        %jj = arith.minui %j, %c63 : index
        %v = memref.load %a[%jj] : memref<64xf32>
        %pos = arith.cmpf ogt, %v, %zero : f32
        %add = scf.if %pos -> (f32) {
          %n = arith.addf %acc, %v : f32
          scf.yield %n : f32
        } else {
          scf.yield %acc : f32
        }
        scf.yield %add : f32
      }
      memref.store %sum, %out[%i] : memref<64xf32>
      %start = arith.index_cast %i : index to i32
      %one = arith.constant 1 : i32
      %zi = arith.constant 0 : i32
      %steps:2 = scf.while (%n = %start, %count = %zi) : (i32, i32) -> (i32, i32) {
        %more = arith.cmpi sgt, %n, %one : i32
        scf.condition(%more) %n, %count : i32, i32
      } do {
      ^bb0(%n2: i32, %c2: i32):
        %half = arith.shrsi %n2, %one : i32
        %inc = arith.addi %c2, %one : i32
        scf.yield %half, %inc : i32, i32
      }
      %odd = arith.andi %start, %one : i32
      %isodd = arith.cmpi eq, %odd, %one : i32
      scf.if %isodd {
        %neg = arith.subi %zi, %steps#1 : i32
        memref.store %neg, %iout[%i] : memref<64xi32>
      } else {
        memref.store %steps#1, %iout[%i] : memref<64xi32>
      }
      gpu.return
    }
  }
}
