// Subgroup operations: reductions (also uniform), shuffles of every mode,
// lane/subgroup ids and sizes.
module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle], []>, #spirv.resource_limits<subgroup_size = 32>>
} {
  gpu.module @kernels {
    gpu.func @subgroups(%in: memref<64xf32>, %out: memref<64xf32>, %iout: memref<64xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1], subgroup_size = 32>} {
      %tid = gpu.thread_id x upper_bound 64
      %lane = gpu.lane_id
      %lane2 = gpu.lane_id upper_bound 32
      %sg = gpu.subgroup_id : index
      %sgs = gpu.subgroup_size : index
      %nsg = gpu.num_subgroups : index
      %sgu = gpu.subgroup_size upper_bound 64 : index
      %v = memref.load %in[%tid] : memref<64xf32>
      %sum = gpu.subgroup_reduce add %v : (f32) -> f32
      %mx = gpu.subgroup_reduce maxnumf %sum uniform : (f32) -> f32
      %mn = gpu.subgroup_reduce minimumf %mx : (f32) -> f32
      %one = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %x, %xv = gpu.shuffle xor %mn, %one, %width : f32
      %u, %uv = gpu.shuffle up %x, %one, %width : f32
      %d, %dv = gpu.shuffle down %u, %one, %width : f32
      %s, %sv = gpu.shuffle idx %d, %one, %width : f32
      %ok = arith.andi %xv, %uv : i1
      %ok2 = arith.andi %dv, %sv : i1
      %ok3 = arith.andi %ok, %ok2 : i1
      %r = arith.select %ok3, %s, %v : f32
      memref.store %r, %out[%tid] : memref<64xf32>
      %li = arith.index_cast %lane : index to i32
      %isum = gpu.subgroup_reduce add %li : (i32) -> i32
      %imax = gpu.subgroup_reduce maxsi %isum : (i32) -> i32
      %iand = gpu.subgroup_reduce and %imax uniform : (i32) -> i32
      %a = arith.index_cast %sg : index to i32
      %b = arith.index_cast %sgs : index to i32
      %c = arith.index_cast %nsg : index to i32
      %e = arith.index_cast %sgu : index to i32
      %f = arith.index_cast %lane2 : index to i32
      %t0 = arith.addi %iand, %a : i32
      %t1 = arith.addi %t0, %b : i32
      %t2 = arith.addi %t1, %c : i32
      %t3 = arith.addi %t2, %e : i32
      %t4 = arith.addi %t3, %f : i32
      %vv = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
      %vr = gpu.subgroup_reduce mul %vv : (vector<2xf32>) -> vector<2xf32>
      memref.store %t4, %iout[%tid] : memref<64xi32>
      gpu.return
    }
  }
  func.func @main() {
    %in = memref.alloc() : memref<64xf32>
    %out = memref.alloc() : memref<64xf32>
    %iout = memref.alloc() : memref<64xi32>
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@subgroups blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<64xf32>, %out : memref<64xf32>, %iout : memref<64xi32>)
    return
  }
}
