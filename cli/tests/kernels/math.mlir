// math functions lowered to GLSL.std.450.
// run: --grid 1,1,1 --buf 0:0=f32[64]=iota --buf 0:1=f32[64]=0 --print 0:1
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, Int16, StorageBuffer8BitAccess, StorageBuffer16BitAccess, Float16], [SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  gpu.module @kernels {
    gpu.func @math(%a: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %out: memref<64xf32, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %i = gpu.global_id x
      %x0 = memref.load %a[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      %scale = arith.constant 0.0625 : f32
      %x = arith.mulf %x0, %scale : f32
      %e = math.exp %x : f32
      %s = math.sqrt %e : f32
      %t = math.tanh %x : f32
      %p = math.powf %s, %t : f32
      %f = math.fma %p, %x, %t : f32
      %fl = math.floor %f : f32
      %sn = math.sin %x : f32
      %lg = math.log %e : f32
      %a1 = arith.addf %fl, %sn : f32
      %a2 = arith.addf %a1, %lg : f32
      %ab = math.absf %a2 : f32
      %res = math.rsqrt %ab : f32
      memref.store %res, %out[%i] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}
