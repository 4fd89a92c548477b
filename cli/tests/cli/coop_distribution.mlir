// kiln's CPU runner's cooperative matrices (kiln_core llvm/convert/coop.rs),
// run by cli/tests/cli/coop_cpu_cli.rs with subgroups of 8 invocations:
// * the distribution: a 5x5 i32 matrix loaded row-major from `in`, each
//   invocation writing its components (CompositeExtract 0..3) to
//   out[lane * 4 + i] and OpCooperativeMatrixLength to out[32 + lane], then
//   the matrix doubled and stored column-major at out[40..65];
// * OpCooperativeMatrixMulAddKHR on integers: signed i8 A (4x8), B (8x4)
//   read as unsigned, signed i32 C (4x4) at qc[0..16]; the result with
//   SaturatingAccumulation stored at qc[16..32], without it at qc[32..48];
// * OpMatrixTimesScalar and OpFNegate on a 2x4 f32 matrix from f[0..8],
//   stored at f[8..16].
spirv.module Logical Vulkan requires #spirv.vce<v1.6, [Shader, Int8, StorageBuffer8BitAccess, VulkanMemoryModel, CooperativeMatrixKHR, GroupNonUniform], [SPV_KHR_cooperative_matrix]> {
  spirv.GlobalVariable @lane_id built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @qa bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.GlobalVariable @qb bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
  spirv.GlobalVariable @qc bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @f bind(0, 5) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %c3 = spirv.Constant 3 : i32
    %c4 = spirv.Constant 4 : i32
    %c5 = spirv.Constant 5 : i32
    %c8 = spirv.Constant 8 : i32
    %c16 = spirv.Constant 16 : i32
    %c32 = spirv.Constant 32 : i32
    %c40 = spirv.Constant 40 : i32
    %in = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %out = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %qa = spirv.mlir.addressof @qa : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %qb = spirv.mlir.addressof @qb : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>
    %qc = spirv.mlir.addressof @qc : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %inp = spirv.AccessChain %in[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %m = spirv.KHR.CooperativeMatrixLoad %inp, %c5, <RowMajor> : !spirv.ptr<i32, StorageBuffer>, i32 -> !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %lidp = spirv.mlir.addressof @lane_id : !spirv.ptr<i32, Input>
    %lane = spirv.Load "Input" %lidp : i32
    %base = spirv.IMul %lane, %c4 : i32
    %e0 = spirv.CompositeExtract %m[0 : i32] : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %x0 = spirv.IAdd %base, %c0 : i32
    %p0 = spirv.AccessChain %out[%c0, %x0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p0, %e0 : i32
    %e1 = spirv.CompositeExtract %m[1 : i32] : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %x1 = spirv.IAdd %base, %c1 : i32
    %p1 = spirv.AccessChain %out[%c0, %x1] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p1, %e1 : i32
    %e2 = spirv.CompositeExtract %m[2 : i32] : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %x2 = spirv.IAdd %base, %c2 : i32
    %p2 = spirv.AccessChain %out[%c0, %x2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p2, %e2 : i32
    %e3 = spirv.CompositeExtract %m[3 : i32] : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %x3 = spirv.IAdd %base, %c3 : i32
    %p3 = spirv.AccessChain %out[%c0, %x3] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p3, %e3 : i32
    %len = spirv.KHR.CooperativeMatrixLength : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %li = spirv.IAdd %lane, %c32 : i32
    %lp = spirv.AccessChain %out[%c0, %li] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %lp, %len : i32
    %m2 = spirv.IAdd %m, %m : !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>
    %o40 = spirv.AccessChain %out[%c0, %c40] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.KHR.CooperativeMatrixStore %o40, %m2, %c5, <ColumnMajor> : !spirv.ptr<i32, StorageBuffer>, !spirv.coopmatrix<5x5xi32, Subgroup, MatrixAcc>, i32
    %ap = spirv.AccessChain %qa[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %bp = spirv.AccessChain %qb[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i8, stride=1> [0])>, StorageBuffer>, i32, i32
    %cp = spirv.AccessChain %qc[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %r1p = spirv.AccessChain %qc[%c0, %c16] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %r2p = spirv.AccessChain %qc[%c0, %c32] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %a = spirv.KHR.CooperativeMatrixLoad %ap, %c8, <RowMajor> : !spirv.ptr<i8, StorageBuffer>, i32 -> !spirv.coopmatrix<4x8xi8, Subgroup, MatrixA>
    %b = spirv.KHR.CooperativeMatrixLoad %bp, %c4, <RowMajor> : !spirv.ptr<i8, StorageBuffer>, i32 -> !spirv.coopmatrix<8x4xi8, Subgroup, MatrixB>
    %c = spirv.KHR.CooperativeMatrixLoad %cp, %c4, <RowMajor> : !spirv.ptr<i32, StorageBuffer>, i32 -> !spirv.coopmatrix<4x4xi32, Subgroup, MatrixAcc>
    %r1 = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c, <ASigned|CSigned|ResultSigned|AccSat> : !spirv.coopmatrix<4x8xi8, Subgroup, MatrixA>, !spirv.coopmatrix<8x4xi8, Subgroup, MatrixB> -> !spirv.coopmatrix<4x4xi32, Subgroup, MatrixAcc>
    %r2 = spirv.KHR.CooperativeMatrixMulAdd %a, %b, %c, <ASigned|CSigned> : !spirv.coopmatrix<4x8xi8, Subgroup, MatrixA>, !spirv.coopmatrix<8x4xi8, Subgroup, MatrixB> -> !spirv.coopmatrix<4x4xi32, Subgroup, MatrixAcc>
    spirv.KHR.CooperativeMatrixStore %r1p, %r1, %c4, <RowMajor> : !spirv.ptr<i32, StorageBuffer>, !spirv.coopmatrix<4x4xi32, Subgroup, MatrixAcc>, i32
    spirv.KHR.CooperativeMatrixStore %r2p, %r2, %c4, <RowMajor> : !spirv.ptr<i32, StorageBuffer>, !spirv.coopmatrix<4x4xi32, Subgroup, MatrixAcc>, i32
    %f = spirv.mlir.addressof @f : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %fp = spirv.AccessChain %f[%c0, %c0] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %f8p = spirv.AccessChain %f[%c0, %c8] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %half = spirv.Constant 0.5 : f32
    %fm = spirv.KHR.CooperativeMatrixLoad %fp, %c4, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, i32 -> !spirv.coopmatrix<2x4xf32, Subgroup, MatrixAcc>
    %fs = spirv.MatrixTimesScalar %fm, %half : !spirv.coopmatrix<2x4xf32, Subgroup, MatrixAcc>, f32
    %fn = spirv.FNegate %fs : !spirv.coopmatrix<2x4xf32, Subgroup, MatrixAcc>
    spirv.KHR.CooperativeMatrixStore %f8p, %fn, %c4, <RowMajor> : !spirv.ptr<f32, StorageBuffer>, !spirv.coopmatrix<2x4xf32, Subgroup, MatrixAcc>, i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @lane_id, @in, @out, @qa, @qb, @qc, @f
  spirv.ExecutionMode @main "LocalSize", 8, 1, 1
}
