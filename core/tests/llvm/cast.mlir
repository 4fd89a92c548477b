// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Casts: the direct conversions and the width special cases.

// CHECK-LABEL: llvm.func @float_int
// CHECK: llvm.fptoui %arg0 : f32 to i32
// CHECK: llvm.fptosi %arg0 : f32 to i64
// CHECK: llvm.sitofp %arg1 : i32 to f64
// CHECK: llvm.uitofp %arg1 : i32 to f16
spirv.func @float_int(%arg0: f32, %arg1: i32) "None" {
  %0 = spirv.ConvertFToU %arg0 : f32 to i32
  %1 = spirv.ConvertFToS %arg0 : f32 to i64
  %2 = spirv.ConvertSToF %arg1 : i32 to f64
  %3 = spirv.ConvertUToF %arg1 : i32 to f16
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @float_int_vector
// CHECK: llvm.fptosi %arg0 : vector<4xf32> to vector<4xi32>
// CHECK: llvm.uitofp %arg1 : vector<2xi64> to vector<2xf32>
spirv.func @float_int_vector(%arg0: vector<4xf32>, %arg1: vector<2xi64>) "None" {
  %0 = spirv.ConvertFToS %arg0 : vector<4xf32> to vector<4xi32>
  %1 = spirv.ConvertUToF %arg1 : vector<2xi64> to vector<2xf32>
  spirv.Return
}

// -----

// FConvert / SConvert / UConvert: extend when the result is wider,
// truncate when it is narrower.
// CHECK-LABEL: llvm.func @widths
// CHECK: llvm.fpext %arg0 : f32 to f64
// CHECK: llvm.fptrunc %arg0 : f32 to f16
// CHECK: llvm.sext %arg1 : i16 to i64
// CHECK: llvm.trunc %arg1 : i16 to i8
// CHECK: llvm.zext %arg1 : i16 to i32
// CHECK: llvm.trunc %arg1 : i16 to i8
spirv.func @widths(%arg0: f32, %arg1: i16) "None" {
  %0 = spirv.FConvert %arg0 : f32 to f64
  %1 = spirv.FConvert %arg0 : f32 to f16
  %2 = spirv.SConvert %arg1 : i16 to i64
  %3 = spirv.SConvert %arg1 : i16 to i8
  %4 = spirv.UConvert %arg1 : i16 to i32
  %5 = spirv.UConvert %arg1 : i16 to i8
  spirv.Return
}

// -----

// CHECK-LABEL: llvm.func @widths_vector
// CHECK: llvm.fpext %arg0 : vector<2xf16> to vector<2xf32>
// CHECK: llvm.zext %arg1 : vector<3xi8> to vector<3xi32>
spirv.func @widths_vector(%arg0: vector<2xf16>, %arg1: vector<3xi8>) "None" {
  %0 = spirv.FConvert %arg0 : vector<2xf16> to vector<2xf32>
  %1 = spirv.UConvert %arg1 : vector<3xi8> to vector<3xi32>
  spirv.Return
}

// -----

// Bitcast keeps the bits; between pointers it is the operand itself.
// CHECK-LABEL: llvm.func @bitcasts
// CHECK: llvm.bitcast %arg0 : f32 to i32
// CHECK: llvm.bitcast %arg1 : vector<2xi32> to i64
// CHECK: llvm.bitcast %arg1 : vector<2xi32> to vector<4xi16>
// CHECK-NOT: llvm.bitcast %arg2
// CHECK: llvm.return %arg2 : !llvm.ptr
spirv.func @bitcasts(%arg0: f32, %arg1: vector<2xi32>, %arg2: !spirv.ptr<f32, Function>) -> !spirv.ptr<i32, Function> "None" {
  %0 = spirv.Bitcast %arg0 : f32 to i32
  %1 = spirv.Bitcast %arg1 : vector<2xi32> to i64
  %2 = spirv.Bitcast %arg1 : vector<2xi32> to vector<4xi16>
  %3 = spirv.Bitcast %arg2 : !spirv.ptr<f32, Function> to !spirv.ptr<i32, Function>
  spirv.ReturnValue %3 : !spirv.ptr<i32, Function>
}

// -----

// Pointer/integer conversions and QuantizeToF16 (beyond the seed).
// CHECK-LABEL: llvm.func @ptr_int
// CHECK: llvm.ptrtoint %arg0 : !llvm.ptr to i64
// CHECK: llvm.inttoptr %arg1 : i64 to !llvm.ptr
// CHECK: %[[H:.*]] = llvm.fptrunc %arg2 : f32 to f16
// CHECK: llvm.fpext %[[H]] : f16 to f32
spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Int64, Float16], []> {
  spirv.func @ptr_int(%arg0: !spirv.ptr<f32, CrossWorkgroup>, %arg1: i64, %arg2: f32) "None" {
    %0 = spirv.ConvertPtrToU %arg0 : !spirv.ptr<f32, CrossWorkgroup> to i64
    %1 = spirv.ConvertUToPtr %arg1 : i64 to !spirv.ptr<f32, CrossWorkgroup>
    %2 = spirv.QuantizeToF16 %arg2 : f32 to f32
    spirv.Return
  }
}
