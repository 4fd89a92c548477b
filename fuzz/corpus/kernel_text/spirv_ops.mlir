// SPIR-V dialect ops written directly in a gpu.func, next to the ops being
// converted: kept as written, operands renamed.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bits(%arg0: memref<64xi32>, %arg1: memref<64xvector<4xi32>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %0 = gpu.thread_id  x
      %1 = memref.load %arg0[%0] : memref<64xi32>
      %2 = spirv.BitCount %1 : i32
      %3 = spirv.GL.UMax %2, %1 : i32
      %c0_i32 = arith.constant 0 : i32
      %4 = arith.cmpi sgt, %3, %c0_i32 : i32
      %5 = spirv.GroupNonUniformBallot <Subgroup> %4 : vector<4xi32>
      %6 = spirv.GL.FindUMsb %3 : i32
      memref.store %6, %arg0[%0] : memref<64xi32>
      memref.store %5, %arg1[%0] : memref<64xvector<4xi32>>
      gpu.return
    }
  }
}
