// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Bitwise, bit-count and shift ops.

// CHECK-LABEL: llvm.func @bitwise
// CHECK: llvm.and %arg0, %arg1 : i32
// CHECK: llvm.or %arg0, %arg1 : i32
// CHECK: llvm.xor %arg0, %arg1 : i32
// CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: llvm.xor %arg0, %[[M]] : i32
spirv.func @bitwise(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.BitwiseAnd %arg0, %arg1 : i32
  %1 = spirv.BitwiseOr %arg0, %arg1 : i32
  %2 = spirv.BitwiseXor %arg0, %arg1 : i32
  %3 = spirv.Not %arg0 : i32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @bitwise_vector
// CHECK: llvm.and %arg0, %arg1 : vector<2xi64>
// CHECK: %[[M:.*]] = llvm.mlir.constant(dense<-1> : vector<2xi64>) : vector<2xi64>
// CHECK: llvm.xor %arg0, %[[M]] : vector<2xi64>
spirv.func @bitwise_vector(%arg0: vector<2xi64>, %arg1: vector<2xi64>) "None" {
  %0 = spirv.BitwiseAnd %arg0, %arg1 : vector<2xi64>
  %1 = spirv.Not %arg0 : vector<2xi64>
  spirv.Return
}

// -----

// BitCount and BitReverse are intrinsics.
// CHECK-LABEL: llvm.func @bit_count_reverse
// CHECK: llvm.intr.ctpop(%arg0) : (i32) -> i32
// CHECK: llvm.intr.ctpop(%arg1) : (vector<4xi32>) -> vector<4xi32>
// CHECK: llvm.intr.bitreverse(%arg0) : (i32) -> i32
// LLVM-LABEL: define void @bit_count_reverse
// LLVM: call i32 @llvm.ctpop.i32(i32 %arg0)
// LLVM: call <4 x i32> @llvm.ctpop.v4i32(<4 x i32> %arg1)
// LLVM: call i32 @llvm.bitreverse.i32(i32 %arg0)
// LLVM-DAG: declare i32 @llvm.ctpop.i32(i32)
// LLVM-DAG: declare <4 x i32> @llvm.ctpop.v4i32(<4 x i32>)
spirv.func @bit_count_reverse(%arg0: i32, %arg1: vector<4xi32>) "None" {
  %0 = spirv.BitCount %arg0 : i32
  %1 = spirv.BitCount %arg1 : vector<4xi32>
  %2 = spirv.BitReverse %arg0 : i32
  spirv.Return
}

// -----

// BitFieldInsert: mask outside [offset, offset + count), keep the base's
// bits there, or in the shifted insert (the seed's pattern).
// CHECK-LABEL: llvm.func @bitfield_insert
// CHECK: %[[M1:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[T0:.*]] = llvm.shl %[[M1]], %arg3 : i32
// CHECK: %[[T1:.*]] = llvm.xor %[[T0]], %[[M1]] : i32
// CHECK: %[[T2:.*]] = llvm.shl %[[T1]], %arg2 : i32
// CHECK: %[[MASK:.*]] = llvm.xor %[[T2]], %[[M1]] : i32
// CHECK: %[[KEPT:.*]] = llvm.and %arg0, %[[MASK]] : i32
// CHECK: %[[SH:.*]] = llvm.shl %arg1, %arg2 : i32
// CHECK: llvm.or %[[KEPT]], %[[SH]] : i32
spirv.func @bitfield_insert(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: i32) "None" {
  %0 = spirv.BitFieldInsert %arg0, %arg1, %arg2, %arg3 : i32, i32, i32
  spirv.Return
}

// -----

// BitFieldSExtract: shift left so the field's top bit is the sign, then
// arithmetic shift right.
// CHECK-LABEL: llvm.func @bitfield_sextract
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[T0:.*]] = llvm.add %arg2, %arg1 : i32
// CHECK: %[[T1:.*]] = llvm.sub %[[SIZE]], %[[T0]] : i32
// CHECK: %[[L:.*]] = llvm.shl %arg0, %[[T1]] : i32
// CHECK: %[[T2:.*]] = llvm.add %arg1, %[[T1]] : i32
// CHECK: llvm.ashr %[[L]], %[[T2]] : i32
spirv.func @bitfield_sextract(%arg0: i32, %arg1: i32, %arg2: i32) "None" {
  %0 = spirv.BitFieldSExtract %arg0, %arg1, %arg2 : i32, i32, i32
  spirv.Return
}

// -----

// BitFieldUExtract with narrower offset and count on a vector base: they
// are broadcast and zero-extended first.
// CHECK-LABEL: llvm.func @bitfield_uextract_vector
// CHECK: %[[OU:.*]] = llvm.mlir.undef : vector<2xi8>
// CHECK: llvm.insertelement %arg1, %[[OU]][%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[OV:.*]] = llvm.insertelement %arg1, %{{.*}}[%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[OFF:.*]] = llvm.zext %[[OV]] : vector<2xi8> to vector<2xi32>
// CHECK: llvm.insertelement %arg2, %{{.*}}[%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[CV:.*]] = llvm.insertelement %arg2, %{{.*}}[%{{.*}} : i32] : vector<2xi8>
// CHECK: %[[CNT:.*]] = llvm.zext %[[CV]] : vector<2xi8> to vector<2xi32>
// CHECK: %[[M1:.*]] = llvm.mlir.constant(dense<-1> : vector<2xi32>) : vector<2xi32>
// CHECK: %[[T0:.*]] = llvm.shl %[[M1]], %[[CNT]] : vector<2xi32>
// CHECK: %[[MASK:.*]] = llvm.xor %[[T0]], %[[M1]] : vector<2xi32>
// CHECK: %[[SH:.*]] = llvm.lshr %arg0, %[[OFF]] : vector<2xi32>
// CHECK: llvm.and %[[SH]], %[[MASK]] : vector<2xi32>
spirv.func @bitfield_uextract_vector(%arg0: vector<2xi32>, %arg1: i8, %arg2: i8) "None" {
  %0 = spirv.BitFieldUExtract %arg0, %arg1, %arg2 : vector<2xi32>, i8, i8
  spirv.Return
}

// -----

// Shifts of equal widths convert directly.
// CHECK-LABEL: llvm.func @shifts
// CHECK: llvm.shl %arg0, %arg1 : i32
// CHECK: llvm.lshr %arg0, %arg1 : i32
// CHECK: llvm.ashr %arg0, %arg1 : i32
spirv.func @shifts(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.ShiftLeftLogical %arg0, %arg1 : i32, i32
  %1 = spirv.ShiftRightLogical %arg0, %arg1 : i32, i32
  %2 = spirv.ShiftRightArithmetic %arg0, %arg1 : i32, i32
  spirv.Return
}

// -----

// A narrower shift is zero-extended (sign-extended when it is signed).
// CHECK-LABEL: llvm.func @shift_widths
// CHECK: %[[Z:.*]] = llvm.zext %arg1 : i16 to i32
// CHECK: llvm.ashr %arg0, %[[Z]] : i32
// CHECK: %[[S:.*]] = llvm.sext %arg2 : i16 to i32
// CHECK: llvm.shl %arg0, %[[S]] : i32
// CHECK: %[[V:.*]] = llvm.zext %arg4 : vector<2xi8> to vector<2xi64>
// CHECK: llvm.lshr %arg3, %[[V]] : vector<2xi64>
spirv.func @shift_widths(%arg0: i32, %arg1: i16, %arg2: si16, %arg3: vector<2xi64>, %arg4: vector<2xi8>) "None" {
  %0 = spirv.ShiftRightArithmetic %arg0, %arg1 : i32, i16
  %1 = spirv.ShiftLeftLogical %arg0, %arg2 : i32, si16
  %2 = spirv.ShiftRightLogical %arg3, %arg4 : vector<2xi64>, vector<2xi8>
  spirv.Return
}
