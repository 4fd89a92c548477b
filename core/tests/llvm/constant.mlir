// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Constants: scalars and vectors become llvm.mlir.constant (signedness
// dropped); arrays and structs are built member by member.

// CHECK-LABEL: llvm.func @scalars
// CHECK: llvm.mlir.constant(0 : i8) : i8
// CHECK: llvm.mlir.constant(-5 : i32) : i32
// CHECK: llvm.mlir.constant(7 : i16) : i16
// CHECK: llvm.mlir.constant(true) : i1
// CHECK: llvm.mlir.constant(false) : i1
// CHECK: llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK: llvm.mlir.constant(-2.500000e-01 : f64) : f64
// CHECK: llvm.mlir.constant(1.000000e+00 : f16) : f16
// CHECK: llvm.mlir.constant(0x7FC00000 : f32) : f32
spirv.func @scalars() "None" {
  %0 = spirv.Constant 0 : i8
  %1 = spirv.Constant -5 : si32
  %2 = spirv.Constant 7 : ui16
  %3 = spirv.Constant true
  %4 = spirv.Constant false
  %5 = spirv.Constant 1.5 : f32
  %6 = spirv.Constant -0.25 : f64
  %7 = spirv.Constant 1.0 : f16
  %8 = spirv.Constant 0x7FC00000 : f32
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @vectors
// CHECK: llvm.mlir.constant(dense<[2, 3, 4]> : vector<3xi32>) : vector<3xi32>
// CHECK: llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK: llvm.mlir.constant(dense<[true, false]> : vector<2xi1>) : vector<2xi1>
// LLVM-LABEL: define void @vectors
// LLVM-NOT: llvm.mlir
spirv.func @vectors() "None" {
  %0 = spirv.Constant dense<[2, 3, 4]> : vector<3xui32>
  %1 = spirv.Constant dense<1.0> : vector<4xf32>
  %2 = spirv.Constant dense<[true, false]> : vector<2xi1>
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @aggregates
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.array<2 x i32>
// CHECK: %[[A:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[U1:.*]] = llvm.insertvalue %[[A]], %[[U]][0] : !llvm.array<2 x i32>
// CHECK: %[[B:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.insertvalue %[[B]], %[[U1]][1] : !llvm.array<2 x i32>
// CHECK: %[[N:.*]] = llvm.mlir.undef : !llvm.array<2 x vector<2xf32>>
// CHECK: %[[V0:.*]] = llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>) : vector<2xf32>
// CHECK: %[[N1:.*]] = llvm.insertvalue %[[V0]], %[[N]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK: %[[V1:.*]] = llvm.mlir.constant(dense<3.000000e+00> : vector<2xf32>) : vector<2xf32>
// CHECK: llvm.insertvalue %[[V1]], %[[N1]][1] : !llvm.array<2 x vector<2xf32>>
spirv.func @aggregates() "None" {
  %0 = spirv.Constant [1 : i32, 2 : i32] : !spirv.array<2 x i32>
  %1 = spirv.Constant [dense<[1.0, 2.0]> : vector<2xf32>, dense<3.0> : vector<2xf32>] : !spirv.array<2 x vector<2xf32>>
  spirv.Return
}

// -----

// Spec constants (beyond the seed): referenceof gives the default value.
// CHECK-LABEL: llvm.func @spec_defaults
// CHECK: llvm.mlir.constant(42 : i32) : i32
// CHECK: llvm.mlir.constant(true) : i1
// CHECK: llvm.mlir.constant(dense<[42, 3]> : vector<2xi32>) : vector<2xi32>
spirv.module Logical GLSL450 {
  spirv.SpecConstant @sc_int spec_id(7) = 42 : i32
  spirv.SpecConstant @sc_bool = true
  spirv.SpecConstant @sc_three = 3 : i32
  spirv.SpecConstantComposite @sc_vec (@sc_int, @sc_three) : vector<2xi32>
  spirv.func @spec_defaults() "None" {
    %0 = spirv.mlir.referenceof @sc_int : i32
    %1 = spirv.mlir.referenceof @sc_bool : i1
    %2 = spirv.mlir.referenceof @sc_vec : vector<2xi32>
    spirv.Return
  }
}
