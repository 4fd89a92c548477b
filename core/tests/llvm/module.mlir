// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Module-level ops.

// spirv.module becomes the builtin module (its name kept); EntryPoint is
// dropped; ExecutionMode becomes a constant struct {mode, values...}.
// CHECK: module @kernels {
// CHECK: llvm.mlir.global external constant @__spv__main_execution_mode_info_17() {addr_space = 0 : i32} : !llvm.struct<(i32, array<3 x i32>)> {
// CHECK: %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, array<3 x i32>)>
// CHECK: %[[M:.*]] = llvm.mlir.constant(17 : i32) : i32
// CHECK: %[[S0:.*]] = llvm.insertvalue %[[M]], %[[U]][0] : !llvm.struct<(i32, array<3 x i32>)>
// CHECK: %[[X:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK: %[[S1:.*]] = llvm.insertvalue %[[X]], %[[S0]][1, 0] : !llvm.struct<(i32, array<3 x i32>)>
// CHECK: llvm.insertvalue %{{.*}}, %[[S1]][1, 1] : !llvm.struct<(i32, array<3 x i32>)>
// CHECK: llvm.return %{{.*}} : !llvm.struct<(i32, array<3 x i32>)>
// CHECK: llvm.func @main()
// CHECK-NOT: EntryPoint
// LLVM: @__spv__main_execution_mode_info_17 = constant { i32, [3 x i32] } { i32 17, [3 x i32] [i32 32, i32 1, i32 1] }
spirv.module @kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}

// -----

// An execution mode without values: {mode}.
// CHECK: llvm.mlir.global external constant @__spv__empty_execution_mode_info_31() {addr_space = 0 : i32} : !llvm.struct<(i32)>
spirv.module Logical OpenCL requires #spirv.vce<v1.0, [Kernel], []> {
  spirv.func @empty() "None" {
    spirv.Return
  }
  spirv.EntryPoint "Kernel" @empty
  spirv.ExecutionMode @empty "ContractionOff"
}

// -----

// spirv ops directly in a builtin module are one spirv.module.
// CHECK: module {
// CHECK: llvm.mlir.global private @p() {addr_space = 0 : i32} : i32
// CHECK: llvm.func @loose()
module {
  spirv.GlobalVariable @p : !spirv.ptr<i32, Private>
  spirv.func @loose() "None" {
    spirv.Return
  }
}

// -----

// Function declarations.
// CHECK: llvm.func @external(i32, !llvm.ptr) -> f32
// LLVM: declare float @external(i32, ptr)
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Linkage], []> {
  spirv.func @external(%arg0: i32, %arg1: !spirv.ptr<f32, Function>) -> f32 "None" attributes {linkage_attributes = #spirv.linkage_attributes<linkage_name = "external", linkage_type = <Import>>}
}
