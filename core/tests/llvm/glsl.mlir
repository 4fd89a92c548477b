// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// GLSL.std.450 ops.

// Direct conversions to intrinsics.
// CHECK-LABEL: llvm.func @direct_unary
// CHECK: llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK: llvm.intr.ceil(%arg0) : (f32) -> f32
// CHECK: llvm.intr.floor(%arg0) : (f32) -> f32
// CHECK: llvm.intr.trunc(%arg0) : (f32) -> f32
// CHECK: llvm.intr.round(%arg0) : (f32) -> f32
// CHECK: llvm.intr.roundeven(%arg0) : (f32) -> f32
// CHECK: llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK: llvm.intr.sin(%arg0) : (f32) -> f32
// CHECK: llvm.intr.cos(%arg0) : (f32) -> f32
// CHECK: llvm.intr.exp(%arg0) : (f32) -> f32
// CHECK: llvm.intr.exp2(%arg0) : (f32) -> f32
// CHECK: llvm.intr.log(%arg0) : (f32) -> f32
// CHECK: llvm.intr.log2(%arg0) : (f32) -> f32
spirv.func @direct_unary(%arg0: f32) "None" {
  %0 = spirv.GL.FAbs %arg0 : f32
  %1 = spirv.GL.Ceil %arg0 : f32
  %2 = spirv.GL.Floor %arg0 : f32
  %3 = spirv.GL.Trunc %arg0 : f32
  %4 = spirv.GL.Round %arg0 : f32
  %5 = spirv.GL.RoundEven %arg0 : f32
  %6 = spirv.GL.Sqrt %arg0 : f32
  %7 = spirv.GL.Sin %arg0 : f32
  %8 = spirv.GL.Cos %arg0 : f32
  %9 = spirv.GL.Exp %arg0 : f32
  %10 = spirv.GL.Exp2 %arg0 : f32
  %11 = spirv.GL.Log %arg0 : f32
  %12 = spirv.GL.Log2 %arg0 : f32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @direct_binary
// CHECK: llvm.intr.pow(%arg0, %arg1) : (vector<3xf16>, vector<3xf16>) -> vector<3xf16>
// CHECK: llvm.intr.minnum(%arg0, %arg1) : (vector<3xf16>, vector<3xf16>) -> vector<3xf16>
// CHECK: llvm.intr.maxnum(%arg0, %arg1) : (vector<3xf16>, vector<3xf16>) -> vector<3xf16>
// CHECK: llvm.intr.minnum(%arg0, %arg1) : (vector<3xf16>, vector<3xf16>) -> vector<3xf16>
// CHECK: llvm.intr.maxnum(%arg0, %arg1) : (vector<3xf16>, vector<3xf16>) -> vector<3xf16>
// CHECK: llvm.intr.fma(%arg0, %arg1, %arg0) : (vector<3xf16>, vector<3xf16>, vector<3xf16>) -> vector<3xf16>
spirv.func @direct_binary(%arg0: vector<3xf16>, %arg1: vector<3xf16>) "None" {
  %0 = spirv.GL.Pow %arg0, %arg1 : vector<3xf16>
  %1 = spirv.GL.FMin %arg0, %arg1 : vector<3xf16>
  %2 = spirv.GL.FMax %arg0, %arg1 : vector<3xf16>
  %3 = spirv.GL.NMin %arg0, %arg1 : vector<3xf16>
  %4 = spirv.GL.NMax %arg0, %arg1 : vector<3xf16>
  %5 = spirv.GL.Fma %arg0, %arg1, %arg0 : vector<3xf16>
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @integer
// CHECK: llvm.intr.smin(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: llvm.intr.umin(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: llvm.intr.umax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: "llvm.intr.abs"(%arg0) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK: %[[LO:.*]] = llvm.intr.smin(%arg0, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.intr.smax(%[[LO]], %{{.*}}) : (i32, i32) -> i32
// LLVM-LABEL: define void @integer
// LLVM: call i32 @llvm.abs.i32(i32 %arg0, i1 false)
// LLVM: declare i32 @llvm.abs.i32(i32, i1 immarg)
spirv.func @integer(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.GL.SMin %arg0, %arg1 : i32
  %1 = spirv.GL.SMax %arg0, %arg1 : i32
  %2 = spirv.GL.UMin %arg0, %arg1 : i32
  %3 = spirv.GL.UMax %arg0, %arg1 : i32
  %4 = spirv.GL.SAbs %arg0 : i32
  %5 = spirv.GL.SSign %arg0 : i32
  spirv.Return
}

// -----

// The seed's special cases.
// CHECK-LABEL: llvm.func @special
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: %[[SQ:.*]] = llvm.intr.sqrt(%arg0) : (f32) -> f32
// CHECK: llvm.fdiv %[[ONE]], %[[SQ]] : f32
// CHECK: %[[S:.*]] = llvm.intr.sin(%arg0) : (f32) -> f32
// CHECK: %[[C:.*]] = llvm.intr.cos(%arg0) : (f32) -> f32
// CHECK: llvm.fdiv %[[S]], %[[C]] : f32
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK: %[[X2:.*]] = llvm.fmul %[[TWO]], %arg0 : f32
// CHECK: %[[E:.*]] = llvm.intr.exp(%[[X2]]) : (f32) -> f32
// CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: %[[NUM:.*]] = llvm.fsub %[[E]], %[[ONE2]] : f32
// CHECK: %[[DEN:.*]] = llvm.fadd %[[E]], %[[ONE2]] : f32
// CHECK: llvm.fdiv %[[NUM]], %[[DEN]] : f32
spirv.func @special(%arg0: f32) "None" {
  %0 = spirv.GL.InverseSqrt %arg0 : f32
  %1 = spirv.GL.Tan %arg0 : f32
  %2 = spirv.GL.Tanh %arg0 : f32
  spirv.Return
}

// -----

// Sign, fract, angles, clamps, mix, step (formulas, beyond the seed).
// CHECK-LABEL: llvm.func @formulas
// CHECK: llvm.fcmp "ogt" %arg0, %{{.*}} : f32
// CHECK: llvm.fcmp "olt" %arg0, %{{.*}} : f32
// CHECK: %[[FL:.*]] = llvm.intr.floor(%arg0) : (f32) -> f32
// CHECK: llvm.fsub %arg0, %[[FL]] : f32
// CHECK: %[[K:.*]] = llvm.mlir.constant(0.01745329{{[0-9]*}} : f32) : f32
// CHECK: llvm.fmul %arg0, %[[K]] : f32
// CHECK: llvm.mlir.constant(57.2957{{[0-9]*}} : f32) : f32
// CHECK: %[[MX:.*]] = llvm.intr.maxnum(%arg0, %arg1) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[MX]], %arg2) : (f32, f32) -> f32
// CHECK: %[[D:.*]] = llvm.fsub %arg1, %arg0 : f32
// CHECK: %[[T:.*]] = llvm.fmul %arg2, %[[D]] : f32
// CHECK: llvm.fadd %arg0, %[[T]] : f32
// CHECK: %[[LT:.*]] = llvm.fcmp "olt" %arg1, %arg0 : f32
// CHECK: llvm.select %[[LT]], %{{.*}}, %{{.*}} : i1, f32
spirv.func @formulas(%arg0: f32, %arg1: f32, %arg2: f32) "None" {
  %0 = spirv.GL.FSign %arg0 : f32
  %1 = spirv.GL.Fract %arg0 : f32
  %2 = spirv.GL.Radians %arg0 : f32
  %3 = spirv.GL.Degrees %arg0 : f32
  %4 = spirv.GL.FClamp %arg0, %arg1, %arg2 : f32
  %5 = spirv.GL.FMix %arg0 : f32, %arg1 : f32, %arg2 : f32 -> f32
  %6 = spirv.GL.Step %arg0, %arg1 : f32
  spirv.Return
}

// -----

// Integer clamps and smoothstep.
// CHECK-LABEL: llvm.func @clamps
// CHECK: %[[A:.*]] = llvm.intr.umax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: llvm.intr.umin(%[[A]], %arg2) : (i32, i32) -> i32
// CHECK: %[[B:.*]] = llvm.intr.smax(%arg0, %arg1) : (i32, i32) -> i32
// CHECK: llvm.intr.smin(%[[B]], %arg2) : (i32, i32) -> i32
// CHECK: llvm.fsub %arg5, %arg3 : vector<2xf32>
// CHECK: llvm.fsub %arg4, %arg3 : vector<2xf32>
// CHECK: llvm.fdiv
// CHECK: llvm.intr.maxnum
// CHECK: llvm.intr.minnum
spirv.func @clamps(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: vector<2xf32>, %arg4: vector<2xf32>, %arg5: vector<2xf32>) "None" {
  %0 = spirv.GL.UClamp %arg0, %arg1, %arg2 : i32
  %1 = spirv.GL.SClamp %arg0, %arg1, %arg2 : i32
  %2 = spirv.GL.SmoothStep %arg3, %arg4, %arg5 : vector<2xf32>
  spirv.Return
}

// -----

// Geometry: length, distance, normalize, cross, reflect, faceforward, refract.
// CHECK-LABEL: llvm.func @geometry
// CHECK: %[[P:.*]] = llvm.fmul %arg0, %arg0 : vector<3xf32>
// CHECK: llvm.intr.sqrt
// CHECK: %[[D:.*]] = llvm.fsub %arg0, %arg1 : vector<3xf32>
// CHECK: llvm.fmul %[[D]], %[[D]] : vector<3xf32>
// CHECK: llvm.fdiv %arg0, %{{.*}} : vector<3xf32>
// CHECK: llvm.shufflevector %arg0, %arg0 [1, 2, 0] : vector<3xf32>
// CHECK: llvm.shufflevector %arg1, %arg1 [2, 0, 1] : vector<3xf32>
// CHECK: llvm.fsub
// CHECK: llvm.fneg %arg0 : vector<3xf32>
// CHECK: llvm.select %{{.*}}, %arg0, %{{.*}} : i1, vector<3xf32>
spirv.func @geometry(%arg0: vector<3xf32>, %arg1: vector<3xf32>, %eta: f32) "None" {
  %0 = spirv.GL.Length %arg0 : vector<3xf32> -> f32
  %1 = spirv.GL.Distance %arg0, %arg1 : vector<3xf32>, vector<3xf32> -> f32
  %2 = spirv.GL.Normalize %arg0 : vector<3xf32>
  %3 = spirv.GL.Cross %arg0, %arg1 : vector<3xf32>
  %4 = spirv.GL.Reflect %arg0, %arg1 : vector<3xf32>
  %5 = spirv.GL.FaceForward %arg0, %arg1, %arg1 : vector<3xf32>
  %6 = "spirv.GL.Refract"(%arg0, %arg1, %eta) : (vector<3xf32>, vector<3xf32>, f32) -> vector<3xf32>
  spirv.Return
}

// -----

// Bit search: cttz / ctlz with -1 when no bit is found.
// CHECK-LABEL: llvm.func @find_bits
// CHECK: %[[TZ:.*]] = "llvm.intr.cttz"(%arg0) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: %[[Z:.*]] = llvm.icmp "eq" %arg0, %{{.*}} : i32
// CHECK: llvm.select %[[Z]], %{{.*}}, %[[TZ]] : i1, i32
// CHECK: %[[NEG:.*]] = llvm.icmp "slt" %arg0, %{{.*}} : i32
// CHECK: %[[INV:.*]] = llvm.xor %arg0, %{{.*}} : i32
// CHECK: %[[Y:.*]] = llvm.select %[[NEG]], %[[INV]], %arg0 : i1, i32
// CHECK: %[[LZ:.*]] = "llvm.intr.ctlz"(%[[Y]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: %[[TOP:.*]] = llvm.mlir.constant(31 : i32) : i32
// CHECK: llvm.sub %[[TOP]], %[[LZ]] : i32
// CHECK: "llvm.intr.ctlz"(%arg0) <{is_zero_poison = false}> : (i32) -> i32
spirv.func @find_bits(%arg0: i32) "None" {
  %0 = spirv.GL.FindILsb %arg0 : i32
  %1 = spirv.GL.FindSMsb %arg0 : i32
  %2 = spirv.GL.FindUMsb %arg0 : i32
  spirv.Return
}

// -----

// Ops without an LLVM intrinsic call libm, lane by lane for vectors.
// CHECK-DAG: llvm.func @asinf(f32) -> f32
// CHECK-DAG: llvm.func @acos(f64) -> f64
// CHECK-DAG: llvm.func @atan2f(f32, f32) -> f32
// CHECK-DAG: llvm.func @ldexpf(f32, i32) -> f32
// CHECK-LABEL: llvm.func @libm
// CHECK: llvm.call @asinf(%arg0) : (f32) -> f32
// CHECK: llvm.call @acos(%arg1) : (f64) -> f64
// CHECK: llvm.call @atanf
// CHECK: llvm.call @sinhf
// CHECK: llvm.call @coshf
// CHECK: llvm.call @asinhf
// CHECK: llvm.call @acoshf
// CHECK: llvm.call @atanhf
// CHECK: llvm.call @atan2f(%arg0, %arg0) : (f32, f32) -> f32
// CHECK: %[[L0:.*]] = llvm.extractelement %arg2[%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[R0:.*]] = llvm.call @asinf(%[[L0]]) : (f32) -> f32
// CHECK: llvm.insertelement %[[R0]], %{{.*}}[%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[L1:.*]] = llvm.extractelement %arg2[%{{.*}} : i32] : vector<2xf32>
// CHECK: llvm.call @asinf(%[[L1]]) : (f32) -> f32
// CHECK: llvm.call @ldexpf(%arg0, %arg3) : (f32, i32) -> f32
// CHECK: %[[H:.*]] = llvm.fpext %arg4 : f16 to f32
// CHECK: %[[HR:.*]] = llvm.call @sinhf(%[[H]]) : (f32) -> f32
// CHECK: llvm.fptrunc %[[HR]] : f32 to f16
spirv.func @libm(%arg0: f32, %arg1: f64, %arg2: vector<2xf32>, %arg3: i32, %arg4: f16) "None" {
  %0 = spirv.GL.Asin %arg0 : f32
  %1 = spirv.GL.Acos %arg1 : f64
  %2 = spirv.GL.Atan %arg0 : f32
  %3 = spirv.GL.Sinh %arg0 : f32
  %4 = spirv.GL.Cosh %arg0 : f32
  %5 = spirv.GL.Asinh %arg0 : f32
  %6 = spirv.GL.Acosh %arg0 : f32
  %7 = spirv.GL.Atanh %arg0 : f32
  %8 = spirv.GL.Atan2 %arg0, %arg0 : f32
  %9 = spirv.GL.Asin %arg2 : vector<2xf32>
  %10 = spirv.GL.Ldexp %arg0 : f32, %arg3 : i32 -> f32
  %11 = spirv.GL.Sinh %arg4 : f16
  spirv.Return
}

// -----

// ModfStruct: {fraction, whole number}.
// CHECK-LABEL: llvm.func @modf
// CHECK: %[[W:.*]] = llvm.intr.trunc(%arg0) : (f32) -> f32
// CHECK: %[[F:.*]] = llvm.fsub %arg0, %[[W]] : f32
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<packed (f32, f32)>
// CHECK: %[[S:.*]] = llvm.insertvalue %[[F]], %[[U]][0] : !llvm.struct<packed (f32, f32)>
// CHECK: llvm.insertvalue %[[W]], %[[S]][1] : !llvm.struct<packed (f32, f32)>
spirv.func @modf(%arg0: f32) "None" {
  %0 = spirv.GL.ModfStruct %arg0 : f32 -> !spirv.struct<(f32, f32)>
  spirv.Return
}

// -----

// FrexpStruct: llvm.frexp's literal struct, moved into the packed one.
// CHECK-LABEL: llvm.func @frexp
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.frexp.f64.i32"(%arg0) : (f64) -> !llvm.struct<(f64, i32)>
// CHECK: %[[M:.*]] = llvm.extractvalue %[[R]][0] : !llvm.struct<(f64, i32)>
// CHECK: %[[E:.*]] = llvm.extractvalue %[[R]][1] : !llvm.struct<(f64, i32)>
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<packed (f64, i32)>
// CHECK: %[[S:.*]] = llvm.insertvalue %[[M]], %[[U]][0] : !llvm.struct<packed (f64, i32)>
// CHECK: llvm.insertvalue %[[E]], %[[S]][1] : !llvm.struct<packed (f64, i32)>
spirv.func @frexp(%arg0: f64) "None" {
  %0 = spirv.GL.FrexpStruct %arg0 : f64 -> !spirv.struct<(f64, i32)>
  spirv.Return
}

// -----

// ERROR: 'spirv.GL.PackHalf2x16' has no conversion to LLVM
spirv.func @pack(%arg0: vector<2xf32>) "None" {
  %0 = spirv.GL.PackHalf2x16 %arg0 : vector<2xf32> -> i32
  spirv.Return
}
