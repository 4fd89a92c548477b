// Integer arithmetic, comparisons, select and casts on i32 buffers.
module attributes {gpu.container_module} {
  gpu.module @arith_int {
    gpu.func @int_ops(%a: memref<64xi32>, %b: memref<64xi32>, %out: memref<16x64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<64xi32>
      %y = memref.load %b[%i] : memref<64xi32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      %add = arith.addi %x, %y : i32
      memref.store %add, %out[%c0, %i] : memref<16x64xi32>
      %sub = arith.subi %x, %y : i32
      memref.store %sub, %out[%c1, %i] : memref<16x64xi32>
      %mul = arith.muli %x, %y : i32
      memref.store %mul, %out[%c2, %i] : memref<16x64xi32>
      %div = arith.divsi %x, %y : i32
      memref.store %div, %out[%c3, %i] : memref<16x64xi32>
      %divu = arith.divui %x, %y : i32
      memref.store %divu, %out[%c4, %i] : memref<16x64xi32>
      %rem = arith.remsi %x, %y : i32
      memref.store %rem, %out[%c5, %i] : memref<16x64xi32>
      %and = arith.andi %x, %y : i32
      %or = arith.ori %and, %y : i32
      %xor = arith.xori %or, %x : i32
      memref.store %xor, %out[%c6, %i] : memref<16x64xi32>
      %c3i = arith.constant 3 : i32
      %shl = arith.shli %x, %c3i : i32
      %shr = arith.shrsi %shl, %c3i : i32
      %shru = arith.shrui %shr, %c3i : i32
      memref.store %shru, %out[%c7, %i] : memref<16x64xi32>
      %max = arith.maxsi %x, %y : i32
      %min = arith.minui %max, %y : i32
      memref.store %min, %out[%c8, %i] : memref<16x64xi32>
      %lt = arith.cmpi slt, %x, %y : i32
      %sel = arith.select %lt, %x, %y : i32
      memref.store %sel, %out[%c9, %i] : memref<16x64xi32>
      %ceil = arith.ceildivsi %x, %y : i32
      memref.store %ceil, %out[%c10, %i] : memref<16x64xi32>
      %floor = arith.floordivsi %x, %y : i32
      memref.store %floor, %out[%c11, %i] : memref<16x64xi32>
      %ult = arith.cmpi uge, %x, %y : i32
      %ext = arith.extui %ult : i1 to i32
      memref.store %ext, %out[%c12, %i] : memref<16x64xi32>
      %idx = arith.index_cast %i : index to i32
      %s2 = arith.addi %idx, %x : i32
      memref.store %s2, %out[%c13, %i] : memref<16x64xi32>
      %lo, %hi = arith.mului_extended %x, %y : i32
      memref.store %hi, %out[%c14, %i] : memref<16x64xi32>
      %sum, %carry = arith.addui_extended %x, %y : i32, i1
      %cext = arith.extsi %carry : i1 to i32
      %r = arith.addi %sum, %cext : i32
      memref.store %r, %out[%c15, %i] : memref<16x64xi32>
      gpu.return
    }
  }
}
