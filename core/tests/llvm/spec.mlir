// RUN: kiln opt --convert-spirv-to-llvm --spec=7=1000 --spec=2=1069547520 %s
// A value given for a spec_id replaces the default (raw bits: 1.5f is
// 0x3FC00000 = 1069547520); constants without that id keep theirs.

// CHECK-LABEL: llvm.func @spec_given
// CHECK: llvm.mlir.constant(1000 : i32) : i32
// CHECK: llvm.mlir.constant(1.500000e+00 : f32) : f32
// CHECK: llvm.mlir.constant(9 : i32) : i32
spirv.module Logical GLSL450 {
  spirv.SpecConstant @a spec_id(7) = 42 : i32
  spirv.SpecConstant @b spec_id(2) = 0.5 : f32
  spirv.SpecConstant @c spec_id(3) = 9 : i32
  spirv.func @spec_given() "None" {
    %0 = spirv.mlir.referenceof @a : i32
    %1 = spirv.mlir.referenceof @b : f32
    %2 = spirv.mlir.referenceof @c : i32
    spirv.Return
  }
}
