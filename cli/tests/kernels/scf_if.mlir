// scf.if with results, nested in another if.
// run: --grid 2,1,1 --buf 0:0=f32[64]=iota --buf 0:1=f32[64]=0 --print 0:1
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Float16], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @scf_if(%a: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %out: memref<64xf32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      %c20 = arith.constant 20.0 : f32
      %c40 = arith.constant 40.0 : f32
      %lt = arith.cmpf olt, %x, %c20 : f32
      %r = scf.if %lt -> f32 {
        %n = arith.negf %x : f32
        scf.yield %n : f32
      } else {
        %gt = arith.cmpf ogt, %x, %c40 : f32
        %inner = scf.if %gt -> f32 {
          %d = arith.mulf %x, %x : f32
          scf.yield %d : f32
        } else {
          %s = arith.subf %x, %c20 : f32
          scf.yield %s : f32
        }
        scf.yield %inner : f32
      }
      memref.store %r, %out[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}
