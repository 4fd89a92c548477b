// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Arithmetic ops: the seed's direct conversions and special cases.

// CHECK-LABEL: llvm.func @int_ops
// CHECK: llvm.add %arg0, %arg1 : i32
// CHECK: llvm.sub %arg0, %arg1 : i32
// CHECK: llvm.mul %arg0, %arg1 : i32
// CHECK: llvm.udiv %arg0, %arg1 : i32
// CHECK: llvm.sdiv %arg0, %arg1 : i32
// CHECK: llvm.urem %arg0, %arg1 : i32
// CHECK: llvm.srem %arg0, %arg1 : i32
spirv.func @int_ops(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.IAdd %arg0, %arg1 : i32
  %1 = spirv.ISub %arg0, %arg1 : i32
  %2 = spirv.IMul %arg0, %arg1 : i32
  %3 = spirv.UDiv %arg0, %arg1 : i32
  %4 = spirv.SDiv %arg0, %arg1 : i32
  %5 = spirv.UMod %arg0, %arg1 : i32
  %6 = spirv.SRem %arg0, %arg1 : i32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @int_vector_ops
// CHECK: llvm.add %arg0, %arg1 : vector<4xi64>
// CHECK: llvm.mul %arg0, %arg1 : vector<4xi64>
// CHECK: llvm.sdiv %arg0, %arg1 : vector<4xi64>
spirv.func @int_vector_ops(%arg0: vector<4xi64>, %arg1: vector<4xi64>) "None" {
  %0 = spirv.IAdd %arg0, %arg1 : vector<4xi64>
  %1 = spirv.IMul %arg0, %arg1 : vector<4xi64>
  %2 = spirv.SDiv %arg0, %arg1 : vector<4xi64>
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @float_ops
// CHECK: llvm.fadd %arg0, %arg1 : f32
// CHECK: llvm.fsub %arg0, %arg1 : f32
// CHECK: llvm.fmul %arg0, %arg1 : f32
// CHECK: llvm.fdiv %arg0, %arg1 : f32
// CHECK: llvm.frem %arg0, %arg1 : f32
// CHECK: llvm.fneg %arg0 : f32
spirv.func @float_ops(%arg0: f32, %arg1: f32) "None" {
  %0 = spirv.FAdd %arg0, %arg1 : f32
  %1 = spirv.FSub %arg0, %arg1 : f32
  %2 = spirv.FMul %arg0, %arg1 : f32
  %3 = spirv.FDiv %arg0, %arg1 : f32
  %4 = spirv.FRem %arg0, %arg1 : f32
  %5 = spirv.FNegate %arg0 : f32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @float_vector_ops
// CHECK: llvm.fadd %arg0, %arg1 : vector<2xf16>
// CHECK: llvm.fdiv %arg0, %arg1 : vector<2xf16>
// CHECK: llvm.fneg %arg0 : vector<2xf16>
spirv.func @float_vector_ops(%arg0: vector<2xf16>, %arg1: vector<2xf16>) "None" {
  %0 = spirv.FAdd %arg0, %arg1 : vector<2xf16>
  %1 = spirv.FDiv %arg0, %arg1 : vector<2xf16>
  %2 = spirv.FNegate %arg0 : vector<2xf16>
  spirv.Return
}

// -----

// SNegate is `0 - x`.
// CHECK-LABEL: llvm.func @snegate
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i16) : i16
// CHECK: llvm.sub %[[ZERO]], %arg0 : i16
// CHECK: %[[VZERO:.*]] = llvm.mlir.constant(dense<0> : vector<3xi32>) : vector<3xi32>
// CHECK: llvm.sub %[[VZERO]], %arg1 : vector<3xi32>
spirv.func @snegate(%arg0: i16, %arg1: vector<3xi32>) "None" {
  %0 = spirv.SNegate %arg0 : i16
  %1 = spirv.SNegate %arg1 : vector<3xi32>
  spirv.Return
}

// -----

// SMod takes the divisor's sign: srem, plus the divisor where the signs differ.
// CHECK-LABEL: llvm.func @smod
// CHECK: %[[R:.*]] = llvm.srem %arg0, %arg1 : i32
// CHECK: %[[NZ:.*]] = llvm.icmp "ne" %[[R]], %{{.*}} : i32
// CHECK: %[[RNEG:.*]] = llvm.icmp "slt" %[[R]], %{{.*}} : i32
// CHECK: %[[BNEG:.*]] = llvm.icmp "slt" %arg1, %{{.*}} : i32
// CHECK: %[[DIFF:.*]] = llvm.xor %[[RNEG]], %[[BNEG]] : i1
// CHECK: %[[FIX:.*]] = llvm.and %[[NZ]], %[[DIFF]] : i1
// CHECK: %[[SUM:.*]] = llvm.add %[[R]], %arg1 : i32
// CHECK: llvm.select %[[FIX]], %[[SUM]], %[[R]] : i1, i32
spirv.func @smod(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.SMod %arg0, %arg1 : i32
  spirv.Return
}

// -----

// FMod likewise, with frem.
// CHECK-LABEL: llvm.func @fmod
// CHECK: %[[R:.*]] = llvm.frem %arg0, %arg1 : vector<2xf32>
// CHECK: llvm.fcmp "one" %[[R]], %{{.*}} : vector<2xf32>
// CHECK: llvm.fcmp "olt" %[[R]], %{{.*}} : vector<2xf32>
// CHECK: llvm.fcmp "olt" %arg1, %{{.*}} : vector<2xf32>
// CHECK: %[[SUM:.*]] = llvm.fadd %[[R]], %arg1 : vector<2xf32>
// CHECK: llvm.select %{{.*}}, %[[SUM]], %[[R]] : vector<2xi1>, vector<2xf32>
spirv.func @fmod(%arg0: vector<2xf32>, %arg1: vector<2xf32>) "None" {
  %0 = spirv.FMod %arg0, %arg1 : vector<2xf32>
  spirv.Return
}

// -----

// Carry, borrow and wide products give a {low, high} struct.
// CHECK-LABEL: llvm.func @extended
// CHECK: %[[S:.*]] = llvm.add %arg0, %arg1 : i32
// CHECK: %[[C:.*]] = llvm.icmp "ult" %[[S]], %arg0 : i32
// CHECK: %[[CZ:.*]] = llvm.zext %[[C]] : i1 to i32
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
// CHECK: %[[U1:.*]] = llvm.insertvalue %[[S]], %[[U]][0] : !llvm.struct<packed (i32, i32)>
// CHECK: llvm.insertvalue %[[CZ]], %[[U1]][1] : !llvm.struct<packed (i32, i32)>
// CHECK: %[[D:.*]] = llvm.sub %arg0, %arg1 : i32
// CHECK: llvm.icmp "ult" %arg0, %arg1 : i32
// CHECK: %[[WA:.*]] = llvm.zext %arg0 : i32 to i64
// CHECK: %[[WB:.*]] = llvm.zext %arg1 : i32 to i64
// CHECK: %[[P:.*]] = llvm.mul %[[WA]], %[[WB]] : i64
// CHECK: llvm.trunc %[[P]] : i64 to i32
// CHECK: %[[K32:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[H:.*]] = llvm.lshr %[[P]], %[[K32]] : i64
// CHECK: llvm.trunc %[[H]] : i64 to i32
// CHECK: llvm.sext %arg0 : i32 to i64
// CHECK: llvm.sext %arg1 : i32 to i64
spirv.func @extended(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.IAddCarry %arg0, %arg1 : !spirv.struct<(i32, i32)>
  %1 = spirv.ISubBorrow %arg0, %arg1 : !spirv.struct<(i32, i32)>
  %2 = spirv.UMulExtended %arg0, %arg1 : !spirv.struct<(i32, i32)>
  %3 = spirv.SMulExtended %arg0, %arg1 : !spirv.struct<(i32, i32)>
  spirv.Return
}

// -----

// Dot multiplies lane by lane and sums the lanes first to last.
// CHECK-LABEL: llvm.func @dot
// CHECK: %[[P:.*]] = llvm.fmul %arg0, %arg1 : vector<3xf32>
// CHECK: %[[A:.*]] = llvm.extractelement %[[P]][%{{.*}} : i32] : vector<3xf32>
// CHECK: %[[B:.*]] = llvm.extractelement %[[P]][%{{.*}} : i32] : vector<3xf32>
// CHECK: %[[AB:.*]] = llvm.fadd %[[A]], %[[B]] : f32
// CHECK: %[[C:.*]] = llvm.extractelement %[[P]][%{{.*}} : i32] : vector<3xf32>
// CHECK: llvm.fadd %[[AB]], %[[C]] : f32
spirv.func @dot(%arg0: vector<3xf32>, %arg1: vector<3xf32>) -> f32 "None" {
  %0 = spirv.Dot %arg0, %arg1 : vector<3xf32> -> f32
  spirv.ReturnValue %0 : f32
}

// -----

// VectorTimesScalar broadcasts the scalar.
// CHECK-LABEL: llvm.func @vector_times_scalar
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<2xf32>
// CHECK: llvm.insertelement %arg1, %[[U]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[SPLAT:.*]] = llvm.insertelement %arg1, %{{.*}}[%{{.*}} : i32] : vector<2xf32>
// CHECK: llvm.fmul %arg0, %[[SPLAT]] : vector<2xf32>
spirv.func @vector_times_scalar(%arg0: vector<2xf32>, %arg1: f32) "None" {
  %0 = spirv.VectorTimesScalar %arg0, %arg1 : (vector<2xf32>, f32) -> vector<2xf32>
  spirv.Return
}
