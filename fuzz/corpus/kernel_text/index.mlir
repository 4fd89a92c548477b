// The index dialect.
module attributes {gpu.container_module} {
  gpu.module @idx {
    gpu.func @index_ops(%out: memref<32xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %i = gpu.thread_id x
      %c3 = index.constant 3
      %a = index.add %i, %c3
      %m = index.mul %a, %c3
      %d = index.divs %m, %c3
      %r = index.remu %m, %c3
      %s = index.sub %d, %r
      %mx = index.maxs %s, %c3
      %sh = index.shl %mx, %c3
      %x = index.xor %sh, %i
      %lt = index.cmp slt(%x, %c3)
      %v = index.casts %x : index to i32
      %z = arith.constant 0 : i32
      %sel = arith.select %lt, %z, %v : i32
      memref.store %sel, %out[%i] : memref<32xi32>
      gpu.return
    }
  }
}
