// Integer arithmetic: add, mul, shifts, division, comparison + select.
// run: --grid 4,1,1 --buf 0:0=i32[64]=iota --buf 0:1=i32[64]=[3] --buf 0:2=i32[64]=0 --print 0:2
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Float16], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @arith_int(%a: memref<64xi32, #spirv.storage_class<StorageBuffer>>, %b: memref<64xi32, #spirv.storage_class<StorageBuffer>>, %out: memref<64xi32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1]>} {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xi32, #spirv.storage_class<StorageBuffer>>
      %y = memref.load %b[%i] : memref<64xi32, #spirv.storage_class<StorageBuffer>>
      %c1 = arith.constant 1 : i32
      %c7 = arith.constant 7 : i32
      %s = arith.addi %x, %y : i32
      %m = arith.muli %s, %c7 : i32
      %sh = arith.shli %m, %c1 : i32
      %d = arith.divsi %sh, %y : i32
      %r = arith.remsi %x, %y : i32
      %lt = arith.cmpi slt, %d, %m : i32
      %sel = arith.select %lt, %d, %r : i32
      %x2 = arith.xori %sel, %x : i32
      %res = arith.subi %x2, %c7 : i32
      memref.store %res, %out[%i] : memref<64xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}
