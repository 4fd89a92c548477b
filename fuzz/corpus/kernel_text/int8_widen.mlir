// i8 arithmetic through widening, as MLIR's addi8.mlir does.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_addi(%arg0 : memref<8xi8>, %arg1 : memref<8xi8>, %arg2 : memref<8xi32>)
      kernel attributes { spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %x = gpu.block_id x
      %0 = memref.load %arg0[%x] : memref<8xi8>
      %1 = memref.load %arg1[%x] : memref<8xi8>
      %2 = arith.addi %0, %1 : i8
      %3 = arith.extui %2 : i8 to i32
      %4 = arith.extsi %0 : i8 to i32
      %5 = arith.addi %3, %4 : i32
      %6 = arith.trunci %5 : i32 to i16
      %7 = arith.extsi %6 : i16 to i32
      memref.store %7, %arg2[%x] : memref<8xi32>
      gpu.return
    }
  }

  func.func @main() {
    %arg0 = memref.alloc() : memref<8xi8>
    %arg1 = memref.alloc() : memref<8xi8>
    %arg2 = memref.alloc() : memref<8xi32>
    %value0 = arith.constant 0 : i32
    %value1 = arith.constant 1 : i8
    %value2 = arith.constant 2 : i8
    %arg3 = memref.cast %arg0 : memref<8xi8> to memref<?xi8>
    %arg4 = memref.cast %arg1 : memref<8xi8> to memref<?xi8>
    %arg5 = memref.cast %arg2 : memref<8xi32> to memref<?xi32>
    call @fillResource1DInt8(%arg3, %value1) : (memref<?xi8>, i8) -> ()
    call @fillResource1DInt8(%arg4, %value2) : (memref<?xi8>, i8) -> ()
    call @fillResource1DInt(%arg5, %value0) : (memref<?xi32>, i32) -> ()

    %cst1 = arith.constant 1 : index
    %cst8 = arith.constant 8 : index
    gpu.launch_func @kernels::@kernel_addi
        blocks in (%cst8, %cst1, %cst1) threads in (%cst1, %cst1, %cst1)
        args(%arg0 : memref<8xi8>, %arg1 : memref<8xi8>, %arg2 : memref<8xi32>)
    %arg6 = memref.cast %arg5 : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%arg6) : (memref<*xi32>) -> ()
    return
  }
  func.func private @fillResource1DInt8(%0 : memref<?xi8>, %1 : i8)
  func.func private @fillResource1DInt(%0 : memref<?xi32>, %1 : i32)
  func.func private @printMemrefI32(%ptr : memref<*xi32>)
}
