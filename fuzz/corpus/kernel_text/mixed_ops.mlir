module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<8xf32>, %arg1: vector<4xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %t = gpu.thread_id x
      %t2 = gpu.thread_id y upper_bound 4
      %l = gpu.lane_id
      %ss = gpu.subgroup_size : index
      %v = memref.load %arg0[%t] : memref<8xf32>
      %r = gpu.subgroup_reduce add %v : (f32) -> f32
      %r2 = gpu.subgroup_reduce add %v uniform : (f32) -> f32
      %c1 = arith.constant 1 : i32
      %c4 = arith.constant 4 : i32
      %s, %valid = gpu.shuffle xor %v, %c1, %c4 : f32
      %f = arith.addf %v, %r fastmath<fast> : f32
      %g = arith.addi %c1, %c4 overflow<nsw> : i32
      %cmp = arith.cmpi slt, %c1, %c4 : i32
      %sum, %carry = arith.addui_extended %c1, %c4 : i32, i1
      %lo, %hi = arith.mului_extended %c1, %c4 : i32
      %cv = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
      %sh = vector.shuffle %cv, %cv [0, 3] : vector<2xf32>, vector<2xf32>
      %red = vector.reduction <add>, %arg1 : vector<4xf32> into f32
      %e = vector.extract %arg1[0] : f32 from vector<4xf32>
      %il = vector.interleave %cv, %cv : vector<2xf32> -> vector<4xf32>
      %d1, %d2 = vector.deinterleave %il : vector<4xf32> -> vector<2xf32>
      %x = "arith.addi"(%c1, %c4) : (i32, i32) -> i32
      %ic = index.cmp slt(%n, %n)
      %ia = index.add %n, %n
      %ik = index.constant 4
      %fo = scf.for %i = %n to %n step %n iter_args(%acc = %v) -> (f32) {
        %q = arith.addf %acc, %acc : f32
        scf.yield %q : f32
      }
      %ifr = scf.if %cmp -> (i32) {
        scf.yield %c1 : i32
      } else {
        scf.yield %c4 : i32
      }
      %wr = scf.while (%a = %c1) : (i32) -> i32 {
        %cc = arith.cmpi slt, %a, %c4 : i32
        scf.condition(%cc) %a : i32
      } do {
      ^bb0(%b: i32):
        scf.yield %b : i32
      }
      gpu.barrier
      gpu.return
    }
  }
  func.func private @fillResource1DFloat(%0 : memref<?xf32>, %1 : f32)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m = memref.alloc() : memref<8xf32>
    %sv = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
    %mc = memref.cast %m : memref<8xf32> to memref<?xf32>
    %cf = arith.constant 1.5 : f32
    call @fillResource1DFloat(%mc, %cf) : (memref<?xf32>, f32) -> ()
    %vv = arith.constant dense<0.0> : vector<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<8xf32>, %vv : vector<4xf32>, %c1 : index)
    return
  }
}
