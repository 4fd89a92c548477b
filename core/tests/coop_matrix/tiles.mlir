// Cooperative matrices (SPV_KHR_cooperative_matrix): one subgroup computes a
// 16x16 f32 tile of C = A * B + C from f16 inputs, K = 32 in two 16-deep
// steps, loading row-major tiles with a stride in elements; a second kernel
// multiplies signed i8 tiles into a saturating i32 accumulator. Elementwise
// ops, conversions and per-invocation element access act on whole matrices.
spirv.module Logical Vulkan requires #spirv.vce<v1.6, [Shader, Float16, Int8, StorageBuffer16BitAccess, StorageBuffer8BitAccess, VulkanMemoryModel, CooperativeMatrixKHR], [SPV_KHR_cooperative_matrix]> {
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
  spirv.GlobalVariable @c bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @qa bind(1, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.GlobalVariable @qc bind(1, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @tile_f16() "None" {
    %zero = spirv.Constant 0 : i32
    %k16 = spirv.Constant 16 : i32
    %k32 = spirv.Constant 32 : i32
    %k512 = spirv.Constant 512 : i32
    %a = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %b = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>
    %c = spirv.mlir.addressof @c : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %a0p = spirv.AccessChain %a[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %a1p = spirv.AccessChain %a[%zero, %k16] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %b0p = spirv.AccessChain %b[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %b1p = spirv.AccessChain %b[%zero, %k512] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f16, stride=2> [0])>, StorageBuffer>, i32, i32
    %cp = spirv.AccessChain %c[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %a0 = spirv.KHR.CooperativeMatrixLoad %a0p, %k32, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    %a1 = spirv.KHR.CooperativeMatrixLoad %a1p, %k32, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>
    %b0 = spirv.KHR.CooperativeMatrixLoad %b0p, %k32, <RowMajor> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
    %b1 = spirv.KHR.CooperativeMatrixLoad %b1p, %k32, <ColumnMajor>, <Nontemporal> : !spirv.ptr<f16, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB>
    %c0 = spirv.KHR.CooperativeMatrixLoad %cp, %k16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %p0 = spirv.KHR.CooperativeMatrixMulAdd %a0, %b0, %c0 : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %p1 = spirv.KHR.CooperativeMatrixMulAdd %a1, %b1, %p0 : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xf16, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %twice = spirv.FAdd %p1, %p1 : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %neg = spirv.FNegate %twice : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %half = spirv.FConvert %neg : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc> to !spirv.coopmatrix<16x16xf16, Subgroup, MatrixAcc>
    %back = spirv.FConvert %half : !spirv.coopmatrix<16x16xf16, Subgroup, MatrixAcc> to !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %first = spirv.CompositeExtract %back[0 : i32] : !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    %patched = spirv.CompositeInsert %first, %back[1 : i32] : f32 into !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>
    spirv.KHR.CooperativeMatrixStore %cp, %patched, %k16, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<16x16xf32, Subgroup, MatrixAcc>, i32
    spirv.Return
  }
  spirv.func @tile_i8() "None" {
    %zero = spirv.Constant 0 : i32
    %k16 = spirv.Constant 16 : i32
    %qa = spirv.mlir.addressof @qa : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %qc = spirv.mlir.addressof @qc : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %ap = spirv.AccessChain %qa[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %cp = spirv.AccessChain %qc[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %a = spirv.KHR.CooperativeMatrixLoad %ap, %k16, <RowMajor> : !spirv.ptr<i8, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xi8, Subgroup, MatrixA>
    %b = spirv.KHR.CooperativeMatrixLoad %ap, %k16, <ColumnMajor> : !spirv.ptr<i8, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xi8, Subgroup, MatrixB>
    %c = spirv.KHR.CooperativeMatrixLoad %cp, %k16, <RowMajor>, <Volatile> : !spirv.ptr<i32, StorageBuffer>, i32 -> !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>
    %r = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c, <ASigned|BSigned|CSigned|ResultSigned|AccSat> : !spirv.coopmatrix<16x16xi8, Subgroup, MatrixA>, !spirv.coopmatrix<16x16xi8, Subgroup, MatrixB> -> !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>
    %len = spirv.KHR.CooperativeMatrixLength : !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>
    %sum = spirv.IAdd %r, %c : !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>
    spirv.KHR.CooperativeMatrixStore %cp, %sum, %k16, <RowMajor> : !spirv.ptr<i32, StorageBuffer>, !spirv.coopmatrix<16x16xi32, Subgroup, MatrixAcc>, i32
    %lp = spirv.AccessChain %qc[%zero, %zero] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %lp, %len : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @tile_f16, @a, @b, @c
  spirv.EntryPoint "GLCompute" @tile_i8, @qa, @qc
  spirv.ExecutionMode @tile_f16 "LocalSize", 32, 1, 1
  spirv.ExecutionMode @tile_i8 "LocalSize", 32, 1, 1
}
