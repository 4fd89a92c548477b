// i8 loads widened to i32 (needs Int8 + StorageBuffer8BitAccess).
// run: --grid 1,1,1 --buf 0:0=i8[64]=iota --buf 0:1=i8[64]=[-3] --buf 0:2=i32[64]=0 --print 0:2
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Float16], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @i8_load(%a: memref<64xi8, #spirv.storage_class<StorageBuffer>>, %b: memref<64xi8, #spirv.storage_class<StorageBuffer>>, %out: memref<64xi32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xi8, #spirv.storage_class<StorageBuffer>>
      %y = memref.load %b[%i] : memref<64xi8, #spirv.storage_class<StorageBuffer>>
      %xs = arith.extsi %x : i8 to i32
      %yu = arith.extui %y : i8 to i32
      %ys = arith.extsi %y : i8 to i32
      %m = arith.muli %xs, %ys : i32
      %r = arith.addi %m, %yu : i32
      memref.store %r, %out[%i] : memref<64xi32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}
