// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Type conversion (the seed's type tables), seen through function signatures.

// Scalars: signedness is dropped.
// CHECK: llvm.func @scalars(%arg0: i8, %arg1: i16, %arg2: i32, %arg3: i64, %arg4: i1, %arg5: f16, %arg6: f32, %arg7: f64)
spirv.func @scalars(%arg0: si8, %arg1: ui16, %arg2: i32, %arg3: i64, %arg4: i1, %arg5: f16, %arg6: f32, %arg7: f64) "None" {
  spirv.Return
}

// -----

// Vectors stay vectors; pointers are opaque whatever their storage class.
// CHECK: llvm.func @vectors_pointers(%arg0: vector<4xi32>, %arg1: vector<2xf64>, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: !llvm.ptr)
spirv.func @vectors_pointers(%arg0: vector<4xui32>, %arg1: vector<2xf64>, %arg2: !spirv.ptr<f32, Function>, %arg3: !spirv.ptr<i32, Workgroup>, %arg4: !spirv.ptr<vector<4xf32>, StorageBuffer>) "None" {
  spirv.Return
}

// -----

// Arrays with natural (or no) stride; runtime arrays are zero-length arrays.
// CHECK: llvm.func @arrays(%arg0: !llvm.array<16 x f32>, %arg1: !llvm.array<4 x vector<3xf32>>, %arg2: !llvm.array<2 x array<3 x i8>>, %arg3: !llvm.ptr)
// CHECK-LABEL: llvm.func @rtarray
// CHECK: llvm.getelementptr %arg0[%{{.*}}, %{{.*}}] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.array<0 x i64>
spirv.func @arrays(%arg0: !spirv.array<16 x f32, stride=4>, %arg1: !spirv.array<4 x vector<3xf32>, stride=16>, %arg2: !spirv.array<2 x !spirv.array<3 x i8>>, %arg3: !spirv.ptr<!spirv.rtarray<i64>, StorageBuffer>) "None" {
  spirv.Return
}
spirv.func @rtarray(%arg0: !spirv.ptr<!spirv.rtarray<i64, stride=8>, StorageBuffer>, %i: i32) "None" {
  %0 = spirv.AccessChain %arg0[%i] : !spirv.ptr<!spirv.rtarray<i64, stride=8>, StorageBuffer>, i32
  spirv.Return
}

// -----

// Structs: no offsets → packed; natural offsets → padded; offsets back to
// back → packed.
// CHECK: llvm.func @structs(%arg0: !llvm.struct<packed (i8, i32)>, %arg1: !llvm.struct<(i8, i32)>, %arg2: !llvm.struct<packed (i8, i32)>, %arg3: !llvm.struct<(f32, vector<3xf32>, f32)>)
spirv.func @structs(%arg0: !spirv.struct<(i8, i32)>, %arg1: !spirv.struct<(i8 [0], i32 [4])>, %arg2: !spirv.struct<(i8 [0], i32 [1])>, %arg3: !spirv.struct<(f32 [0], vector<3xf32> [16], f32 [32])>) "None" {
  spirv.Return
}

// -----

// Nested and identified structs.
// CHECK: llvm.func @nested(%arg0: !llvm.struct<(array<4 x i32>, struct<packed (f32, f32)>)>)
spirv.func @nested(%arg0: !spirv.struct<(!spirv.array<4 x i32, stride=4> [0], !spirv.struct<(f32, f32)> [16])>) "None" {
  spirv.Return
}

// -----

// ERROR: member #1 is at offset 8 but an LLVM struct puts it at 4
spirv.func @unnatural_offset(%arg0: !spirv.struct<(i8 [0], i32 [8])>) "None" {
  spirv.Return
}

// -----

// ERROR: stride 16 is not the natural stride 4 of its element
spirv.func @unnatural_stride(%arg0: !spirv.array<4 x f32, stride=16>) "None" {
  spirv.Return
}

// -----

// ERROR: matrix types have no LLVM conversion
spirv.func @matrix(%arg0: !spirv.matrix<3 x vector<3xf32>>) "None" {
  spirv.Return
}
