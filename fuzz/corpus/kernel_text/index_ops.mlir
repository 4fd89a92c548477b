// The index dialect: constants, arithmetic, comparisons and casts.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @index_math(%out: memref<8xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %tid = gpu.thread_id x
      %c3 = index.constant 3
      %cm = index.constant -2
      %0 = index.add %tid, %c3
      %1 = index.sub %0, %cm
      %2 = index.mul %1, %c3
      %3 = index.divs %2, %c3
      %4 = index.divu %3, %c3
      %5 = index.ceildivs %4, %c3
      %6 = index.ceildivu %5, %c3
      %7 = index.floordivs %6, %c3
      %8 = index.rems %7, %c3
      %9 = index.remu %8, %c3
      %10 = index.maxs %9, %tid
      %11 = index.maxu %10, %c3
      %12 = index.mins %11, %tid
      %13 = index.minu %12, %c3
      %14 = index.shl %13, %c3
      %15 = index.shrs %14, %c3
      %16 = index.shru %15, %c3
      %17 = index.and %16, %tid
      %18 = index.or %17, %c3
      %19 = index.xor %18, %tid
      %lt = index.cmp slt(%19, %c3)
      %ge = index.cmp uge(%19, %tid)
      %both = arith.ori %lt, %ge : i1
      %20 = arith.select %both, %19, %tid : index
      %i = index.casts %20 : index to i32
      %j = index.castu %i : i32 to index
      %k = index.castu %j : index to i32
      %l = index.casts %k : i32 to index
      %m = arith.index_cast %l : index to i32
      memref.store %m, %out[%tid] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %out = memref.alloc() : memref<8xi32>
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @kernels::@index_math blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%out : memref<8xi32>)
    return
  }
}
