// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Comparisons: icmp / fcmp with the seed's predicates.

// CHECK-LABEL: llvm.func @int_compare
// CHECK: llvm.icmp "eq" %arg0, %arg1 : i32
// CHECK: llvm.icmp "ne" %arg0, %arg1 : i32
// CHECK: llvm.icmp "sgt" %arg0, %arg1 : i32
// CHECK: llvm.icmp "sge" %arg0, %arg1 : i32
// CHECK: llvm.icmp "slt" %arg0, %arg1 : i32
// CHECK: llvm.icmp "sle" %arg0, %arg1 : i32
// CHECK: llvm.icmp "ugt" %arg0, %arg1 : i32
// CHECK: llvm.icmp "uge" %arg0, %arg1 : i32
// CHECK: llvm.icmp "ult" %arg0, %arg1 : i32
// CHECK: llvm.icmp "ule" %arg0, %arg1 : i32
spirv.func @int_compare(%arg0: i32, %arg1: i32) "None" {
  %0 = spirv.IEqual %arg0, %arg1 : i32
  %1 = spirv.INotEqual %arg0, %arg1 : i32
  %2 = spirv.SGreaterThan %arg0, %arg1 : i32
  %3 = spirv.SGreaterThanEqual %arg0, %arg1 : i32
  %4 = spirv.SLessThan %arg0, %arg1 : i32
  %5 = spirv.SLessThanEqual %arg0, %arg1 : i32
  %6 = spirv.UGreaterThan %arg0, %arg1 : i32
  %7 = spirv.UGreaterThanEqual %arg0, %arg1 : i32
  %8 = spirv.ULessThan %arg0, %arg1 : i32
  %9 = spirv.ULessThanEqual %arg0, %arg1 : i32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @int_compare_vector
// CHECK: llvm.icmp "eq" %arg0, %arg1 : vector<4xi64>
// CHECK: llvm.icmp "ult" %arg0, %arg1 : vector<4xi64>
spirv.func @int_compare_vector(%arg0: vector<4xi64>, %arg1: vector<4xi64>) "None" {
  %0 = spirv.IEqual %arg0, %arg1 : vector<4xi64>
  %1 = spirv.ULessThan %arg0, %arg1 : vector<4xi64>
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @float_compare
// CHECK: llvm.fcmp "oeq" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ogt" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "oge" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "olt" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ole" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "one" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ueq" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ugt" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "uge" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ult" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "ule" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "une" %arg0, %arg1 : f32
spirv.func @float_compare(%arg0: f32, %arg1: f32) "None" {
  %0 = spirv.FOrdEqual %arg0, %arg1 : f32
  %1 = spirv.FOrdGreaterThan %arg0, %arg1 : f32
  %2 = spirv.FOrdGreaterThanEqual %arg0, %arg1 : f32
  %3 = spirv.FOrdLessThan %arg0, %arg1 : f32
  %4 = spirv.FOrdLessThanEqual %arg0, %arg1 : f32
  %5 = spirv.FOrdNotEqual %arg0, %arg1 : f32
  %6 = spirv.FUnordEqual %arg0, %arg1 : f32
  %7 = spirv.FUnordGreaterThan %arg0, %arg1 : f32
  %8 = spirv.FUnordGreaterThanEqual %arg0, %arg1 : f32
  %9 = spirv.FUnordLessThan %arg0, %arg1 : f32
  %10 = spirv.FUnordLessThanEqual %arg0, %arg1 : f32
  %11 = spirv.FUnordNotEqual %arg0, %arg1 : f32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @float_compare_vector
// CHECK: llvm.fcmp "ole" %arg0, %arg1 : vector<2xf64>
// CHECK: llvm.fcmp "une" %arg0, %arg1 : vector<2xf64>
spirv.func @float_compare_vector(%arg0: vector<2xf64>, %arg1: vector<2xf64>) "None" {
  %0 = spirv.FOrdLessThanEqual %arg0, %arg1 : vector<2xf64>
  %1 = spirv.FUnordNotEqual %arg0, %arg1 : vector<2xf64>
  spirv.Return
}

// -----

// Float classification (beyond the seed).
// CHECK-LABEL: llvm.func @classify
// CHECK: llvm.fcmp "uno" %arg0, %arg0 : f32
// CHECK: %[[A:.*]] = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
// CHECK: llvm.fcmp "oeq" %[[A]], %[[INF]] : f32
// CHECK: %[[B:.*]] = llvm.intr.fabs(%arg0) : (f32) -> f32
// CHECK: llvm.fcmp "olt" %[[B]], %{{.*}} : f32
// CHECK: llvm.fcmp "ord" %arg0, %arg1 : f32
// CHECK: llvm.fcmp "uno" %arg0, %arg1 : f32
// CHECK: %[[BITS:.*]] = llvm.bitcast %arg0 : f32 to i32
// CHECK: llvm.icmp "slt" %[[BITS]], %{{.*}} : i32
spirv.func @classify(%arg0: f32, %arg1: f32) "None" {
  %0 = spirv.IsNan %arg0 : f32
  %1 = spirv.IsInf %arg0 : f32
  %2 = spirv.IsFinite %arg0 : f32
  %3 = spirv.Ordered %arg0, %arg1 : f32
  %4 = spirv.Unordered %arg0, %arg1 : f32
  %5 = spirv.SignBitSet %arg0 : f32
  spirv.Return
}
