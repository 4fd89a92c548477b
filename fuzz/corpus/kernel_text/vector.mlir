// vector ops of 2-4 lanes.
module attributes {gpu.container_module} {
  gpu.module @vec {
    gpu.func @vector_ops(%a: memref<64xf32>, %out: memref<64xf32>, %sums: memref<16xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %i = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %i, %c4 : index
      %v = vector.load %a[%base] : memref<64xf32>, vector<4xf32>
      %two = arith.constant 2.0 : f32
      %s = vector.splat %two : vector<4xf32>
      %m = arith.mulf %v, %s : vector<4xf32>
      %sh = vector.shuffle %m, %v [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
      %e = vector.extract %sh[1] : f32 from vector<4xf32>
      %ins = vector.insert %e, %sh [0] : f32 into vector<4xf32>
      %b = vector.broadcast %e : f32 to vector<4xf32>
      %f = vector.fma %ins, %b, %v : vector<4xf32>
      vector.store %f, %out[%base] : memref<64xf32>, vector<4xf32>
      %r = vector.reduction <add>, %f : vector<4xf32> into f32
      memref.store %r, %sums[%i] : memref<16xf32>
      gpu.return
    }
  }
}
