// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Ops without a conversion are errors naming the op; nothing is dropped.

// ERROR: 'spirv.GroupIAdd' has no conversion to LLVM
spirv.func @group_iadd(%arg0: i32) "None" {
  %0 = spirv.GroupIAdd <Workgroup> <Reduce> %arg0 : i32
  spirv.Return
}

// -----

// ERROR: 'spirv.KHR.SubgroupBallot' has no conversion to LLVM
spirv.func @khr_ballot(%arg0: i1) "None" {
  %0 = spirv.KHR.SubgroupBallot %arg0 : vector<4xi32>
  spirv.Return
}

// -----

// ERROR: 'spirv.GL.UnpackHalf2x16' has no conversion to LLVM
spirv.func @unpack(%arg0: i32) "None" {
  %0 = spirv.GL.UnpackHalf2x16 %arg0 : i32 -> vector<2xf32>
  spirv.Return
}

// -----

// ERROR: !spirv.matrix<2 x vector<2xf32>> has no conversion to LLVM: matrix types have no LLVM conversion
spirv.func @matrix_times(%arg0: !spirv.matrix<2 x vector<2xf32>>, %arg1: f32) "None" {
  %0 = spirv.MatrixTimesScalar %arg0, %arg1 : !spirv.matrix<2 x vector<2xf32>>, f32
  spirv.Return
}

// -----

// ERROR: 'spirv.Kill' has no conversion to LLVM
spirv.func @kill() "None" {
  spirv.Kill
}

// -----

// An op that converts, for contrast.
// CHECK-LABEL: llvm.func @fine
// CHECK: llvm.return
spirv.func @fine() "None" {
  spirv.Return
}
