// Vectors of 2-4 elements: loads and stores, element access, splat and
// broadcast, shuffles, interleave, reductions, bitcasts and fma.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vectors(%in: memref<16xf32>, %out: memref<16xf32>, %iout: memref<4xvector<4xi32>>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %tid = gpu.thread_id x
      %c4 = arith.constant 4 : index
      %base = arith.muli %tid, %c4 : index
      %v = vector.load %in[%base] : memref<16xf32>, vector<4xf32>
      %c0i = arith.constant 0 : i32
      %e0 = vector.extractelement %v[%c0i : i32] : vector<4xf32>
      %e3 = vector.extract %v[3] : f32 from vector<4xf32>
      %ed = vector.extract %v[%tid] : f32 from vector<4xf32>
      %s = arith.addf %e0, %e3 : f32
      %s2 = arith.addf %s, %ed : f32
      %w = vector.insert %s2, %v[1] : f32 into vector<4xf32>
      %c2i = arith.constant 2 : i32
      %w2 = vector.insertelement %s, %w[%c2i : i32] : vector<4xf32>
      %sp = vector.splat %s : vector<4xf32>
      %bc = vector.broadcast %e0 : f32 to vector<4xf32>
      %fma = vector.fma %w2, %sp, %bc : vector<4xf32>
      %lo = vector.shuffle %fma, %fma [0, 1] : vector<4xf32>, vector<4xf32>
      %hi = vector.shuffle %fma, %fma [2, 3] : vector<4xf32>, vector<4xf32>
      %mix = vector.shuffle %lo, %hi [0, 3, 1, 2] : vector<2xf32>, vector<2xf32>
      %il = vector.interleave %lo, %hi : vector<2xf32> -> vector<4xf32>
      %ev, %od = vector.deinterleave %il : vector<4xf32> -> vector<2xf32>
      %pair = arith.addf %ev, %od : vector<2xf32>
      %r = vector.reduction <maxnumf>, %pair : vector<2xf32> into f32
      %acc = arith.constant 1.0 : f32
      %r2 = vector.reduction <add>, %mix, %acc fastmath<reassoc> : vector<4xf32> into f32
      %r3 = arith.addf %r, %r2 : f32
      %out4 = vector.insert %r3, %mix[0] : f32 into vector<4xf32>
      vector.store %out4, %out[%base] : memref<16xf32>, vector<4xf32>
      %bits = vector.bitcast %out4 : vector<4xf32> to vector<4xi32>
      %half = vector.bitcast %lo : vector<2xf32> to vector<4xf16>
      %h0 = vector.extract %half[0] : f16 from vector<4xf16>
      %ones = arith.constant dense<1> : vector<4xi32>
      %sum = arith.addi %bits, %ones : vector<4xi32>
      %isum = vector.reduction <xor>, %sum : vector<4xi32> into i32
      %fin = vector.insert %isum, %sum[3] : i32 into vector<4xi32>
      memref.store %fin, %iout[%tid] : memref<4xvector<4xi32>>
      gpu.return
    }
  }
  func.func @main() {
    %in = memref.alloc() : memref<16xf32>
    %out = memref.alloc() : memref<16xf32>
    %iout = memref.alloc() : memref<4xvector<4xi32>>
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@vectors blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%in : memref<16xf32>, %out : memref<16xf32>, %iout : memref<4xvector<4xi32>>)
    return
  }
}
