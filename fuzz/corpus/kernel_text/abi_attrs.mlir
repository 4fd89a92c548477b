// Explicit ABI attributes: interface_var_abi on kernel arguments (with and
// without a storage class), entry_point_abi with several entries, and a
// target env with resource limits.
module attributes {
  gpu.container_module,
  spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Float16, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]>, api=Vulkan, #spirv.resource_limits<max_compute_workgroup_invocations = 256, max_compute_workgroup_size = [256 : i32, 256 : i32, 64 : i32]>>
} {
  gpu.module @abi_kernels {
    gpu.func @scale(%buf: memref<16xf16> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>},
                    %factor: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), StorageBuffer>}) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [16, 1, 1], subgroup_size = 16, target_width = 32>} {
      %i = gpu.global_id x
      %h = memref.load %buf[%i] : memref<16xf16>
      %f = arith.extf %h : f16 to f32
      %g = arith.mulf %f, %factor : f32
      %k = arith.truncf %g : f32 to f16
      memref.store %k, %buf[%i] : memref<16xf16>
      gpu.return
    }
    gpu.func @helper(%x: i64) -> i64 {
      %c = arith.constant 1 : i64
      %y = arith.addi %x, %c : i64
      gpu.return %y : i64
    }
  }
  func.func @compute(%a: f32, %b: f32) -> (f32, f32) {
    %s = arith.addf %a, %b : f32
    %d = arith.subf %a, %b : f32
    return %s, %d : f32, f32
  }
  func.func @main() {
    %buf = memref.alloc() : memref<16xf16>
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %s, %d = call @compute(%one, %two) : (f32, f32) -> (f32, f32)
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @abi_kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%buf : memref<16xf16>, %s : f32)
    return
  }
}
