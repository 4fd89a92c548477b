// Every integer arith op on scalars and vectors.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @ints(%a: memref<16xi32>, %b: memref<16xi32>, %out: memref<32xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xi32>
      %y = memref.load %b[%i] : memref<16xi32>
      %0 = arith.addi %x, %y overflow<nsw, nuw> : i32
      %1 = arith.subi %0, %y : i32
      %2 = arith.muli %1, %x overflow<nsw> : i32
      %3 = arith.divsi %2, %y : i32
      %4 = arith.divui %3, %y : i32
      %5 = arith.ceildivsi %4, %y : i32
      %6 = arith.ceildivui %5, %y : i32
      %7 = arith.floordivsi %6, %y : i32
      %8 = arith.remsi %7, %y : i32
      %9 = arith.remui %8, %y : i32
      %10 = arith.andi %9, %x : i32
      %11 = arith.ori %10, %y : i32
      %12 = arith.xori %11, %x : i32
      %c3 = arith.constant 3 : i32
      %13 = arith.shli %12, %c3 : i32
      %14 = arith.shrsi %13, %c3 : i32
      %15 = arith.shrui %14, %c3 : i32
      %16 = arith.maxsi %15, %x : i32
      %17 = arith.maxui %16, %y : i32
      %18 = arith.minsi %17, %x : i32
      %19 = arith.minui %18, %y : i32
      %sum, %carry = arith.addui_extended %19, %x : i32, i1
      %lo, %hi = arith.mului_extended %sum, %y : i32
      %slo, %shi = arith.mulsi_extended %lo, %hi : i32
      %cz = arith.extui %carry : i1 to i32
      %20 = arith.addi %shi, %cz : i32
      %big = arith.constant -2147483648 : i32
      %hex = arith.constant 0xFF : i32
      %t = arith.constant true
      %21 = arith.xori %big, %hex : i32
      %22 = arith.select %t, %20, %21 : i32
      %v = arith.constant dense<[1, 2, 3, 4]> : vector<4xi32>
      %vs = arith.constant dense<7> : vector<4xi32>
      %w = arith.muli %v, %vs : vector<4xi32>
      %vsum, %vcarry = arith.addui_extended %w, %v : vector<4xi32>, vector<4xi1>
      %vmask = arith.cmpi ult, %vsum, %vs : vector<4xi32>
      %vsel = arith.select %vmask, %vsum, %v : vector<4xi1>, vector<4xi32>
      %e = vector.extract %vsel[2] : i32 from vector<4xi32>
      %23 = arith.addi %22, %e : i32
      memref.store %23, %out[%i] : memref<32xi32>
      gpu.return
    }
  }
  func.func @main() {
    %a = memref.alloc() : memref<16xi32>
    %b = memref.alloc() : memref<16xi32>
    %out = memref.alloc() : memref<32xi32>
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@ints blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%a : memref<16xi32>, %b : memref<16xi32>, %out : memref<32xi32>)
    %p = memref.cast %out : memref<32xi32> to memref<*xi32>
    call @printMemrefI32(%p) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
