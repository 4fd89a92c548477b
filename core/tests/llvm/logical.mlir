// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Logical ops on booleans.

// CHECK-LABEL: llvm.func @logical
// CHECK: llvm.icmp "eq" %arg0, %arg1 : i1
// CHECK: llvm.icmp "ne" %arg0, %arg1 : i1
// CHECK: %[[T:.*]] = llvm.mlir.constant(true) : i1
// CHECK: llvm.xor %arg0, %[[T]] : i1
// CHECK: llvm.and %arg0, %arg1 : i1
// CHECK: llvm.or %arg0, %arg1 : i1
spirv.func @logical(%arg0: i1, %arg1: i1) "None" {
  %0 = spirv.LogicalEqual %arg0, %arg1 : i1
  %1 = spirv.LogicalNotEqual %arg0, %arg1 : i1
  %2 = spirv.LogicalNot %arg0 : i1
  %3 = spirv.LogicalAnd %arg0, %arg1 : i1
  %4 = spirv.LogicalOr %arg0, %arg1 : i1
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @logical_vector
// CHECK: llvm.icmp "eq" %arg0, %arg1 : vector<4xi1>
// CHECK: %[[M:.*]] = llvm.mlir.constant(dense<true> : vector<4xi1>) : vector<4xi1>
// CHECK: llvm.xor %arg0, %[[M]] : vector<4xi1>
spirv.func @logical_vector(%arg0: vector<4xi1>, %arg1: vector<4xi1>) "None" {
  %0 = spirv.LogicalEqual %arg0, %arg1 : vector<4xi1>
  %1 = spirv.LogicalNot %arg0 : vector<4xi1>
  spirv.Return
}

// -----

// Select, scalar and vector conditions.
// CHECK-LABEL: llvm.func @select
// CHECK: llvm.select %arg0, %arg2, %arg3 : i1, vector<3xf32>
// CHECK: llvm.select %arg1, %arg2, %arg3 : vector<3xi1>, vector<3xf32>
spirv.func @select(%arg0: i1, %arg1: vector<3xi1>, %arg2: vector<3xf32>, %arg3: vector<3xf32>) "None" {
  %0 = spirv.Select %arg0, %arg2, %arg3 : i1, vector<3xf32>
  %1 = spirv.Select %arg1, %arg2, %arg3 : vector<3xi1>, vector<3xf32>
  spirv.Return
}

// -----

// Any / All fold the lanes with or / and (beyond the seed).
// CHECK-LABEL: llvm.func @any_all
// CHECK: %[[A0:.*]] = llvm.extractelement %arg0[%{{.*}} : i32] : vector<2xi1>
// CHECK: %[[A1:.*]] = llvm.extractelement %arg0[%{{.*}} : i32] : vector<2xi1>
// CHECK: llvm.or %[[A0]], %[[A1]] : i1
// CHECK: %[[B0:.*]] = llvm.extractelement %arg0[%{{.*}} : i32] : vector<2xi1>
// CHECK: %[[B1:.*]] = llvm.extractelement %arg0[%{{.*}} : i32] : vector<2xi1>
// CHECK: llvm.and %[[B0]], %[[B1]] : i1
spirv.func @any_all(%arg0: vector<2xi1>) "None" {
  %0 = spirv.Any %arg0 : vector<2xi1>
  %1 = spirv.All %arg0 : vector<2xi1>
  spirv.Return
}
