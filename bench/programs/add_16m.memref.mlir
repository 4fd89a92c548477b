// add, 16M f32, as a memref-level kernel kiln lowers today: c = a + b,
// 1,024 invocations per workgroup, one vector<4xf32> per invocation,
// 4,096 workgroups (`kiln bench bench/programs/add_16m.memref.mlir
// --grid 4096,1,1 --input 16777216xf32=1 --input 16777216xf32=2
// --input 16777216xf32=0`). Compare with the hand-written GLSL add row.
gpu.module @add {
  gpu.func @add(%a: memref<16777216xf32>, %b: memref<16777216xf32>, %c: memref<16777216xf32>) kernel
      attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1024, 1, 1]>} {
    %wg = gpu.block_id x
    %t = gpu.thread_id x
    %c1024 = arith.constant 1024 : index
    %c4 = arith.constant 4 : index
    %first = arith.muli %wg, %c1024 : index
    %gid = arith.addi %first, %t : index
    %i = arith.muli %gid, %c4 : index
    %x = vector.load %a[%i] : memref<16777216xf32>, vector<4xf32>
    %y = vector.load %b[%i] : memref<16777216xf32>, vector<4xf32>
    %s = arith.addf %x, %y : vector<4xf32>
    vector.store %s, %c[%i] : memref<16777216xf32>, vector<4xf32>
    gpu.return
  }
}
