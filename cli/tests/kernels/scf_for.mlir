// A loop with iter_args: acc = acc * 0.5 + a[i] * k, 10 times.
// run: --grid 2,1,1 --buf 0:0=f32[64]=iota --buf 0:1=f32[64]=0 --print 0:1
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Float16], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @scf_for(%a: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %out: memref<64xf32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %half = arith.constant 0.5 : f32
      %zero = arith.constant 0.0 : f32
      %r:2 = scf.for %k = %c0 to %c10 step %c1 iter_args(%acc = %zero, %cnt = %c0) -> (f32, index) {
        %ki = arith.index_cast %k : index to i32
        %kf = arith.sitofp %ki : i32 to f32
        %t = arith.mulf %x, %kf : f32
        %h = arith.mulf %acc, %half : f32
        %n = arith.addf %h, %t : f32
        %c = arith.addi %cnt, %c1 : index
        scf.yield %n, %c : f32, index
      }
      %ci = arith.index_cast %r#1 : index to i32
      %cf = arith.sitofp %ci : i32 to f32
      %res = arith.addf %r#0, %cf : f32
      memref.store %res, %out[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}
