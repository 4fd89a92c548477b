// One subgroup computes the 16x16 f32 tile at (16, 32) of C = A * B for
// A: 64x32 f16, B: 32x64 f16 with the subgroup MMA ops, K in two 16-deep
// steps carried through an scf.for.
module attributes {gpu.container_module} {
  gpu.module @mma {
    gpu.func @tile(%a: memref<64x32xf16>, %b: memref<32x64xf16>, %c: memref<64x64xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.000000e+00 : f32
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c32 step %c16 iter_args(%sum = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %ma = gpu.subgroup_mma_load_matrix %a[%c16, %k] {leadDimension = 32 : index} : memref<64x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %mb = gpu.subgroup_mma_load_matrix %b[%k, %c32] {leadDimension = 64 : index} : memref<32x64xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %r = gpu.subgroup_mma_compute %ma, %mb, %sum : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %r : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%c16, %c32] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<64x64xf32>
      gpu.return
    }
  }
}
