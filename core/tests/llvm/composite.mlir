// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Composite ops.

// Vectors: extractelement / insertelement with a constant index.
// CHECK-LABEL: llvm.func @vector_composite
// CHECK: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.extractelement %arg0[%[[I1]] : i32] : vector<4xf32>
// CHECK: %[[I3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.insertelement %arg1, %arg0[%[[I3]] : i32] : vector<4xf32>
spirv.func @vector_composite(%arg0: vector<4xf32>, %arg1: f32) "None" {
  %0 = spirv.CompositeExtract %arg0[1 : i32] : vector<4xf32>
  %1 = spirv.CompositeInsert %arg1, %arg0[3 : i32] : f32 into vector<4xf32>
  spirv.Return
}

// -----

// Structs and arrays: extractvalue / insertvalue with the whole path.
// CHECK-LABEL: llvm.func @aggregate_composite
// CHECK: llvm.extractvalue %arg0[1, 2] : !llvm.struct<packed (f32, array<4 x i32>)>
// CHECK: llvm.insertvalue %arg1, %arg0[1, 0] : !llvm.struct<packed (f32, array<4 x i32>)>
spirv.func @aggregate_composite(%arg0: !spirv.struct<(f32, !spirv.array<4 x i32>)>, %arg1: i32) "None" {
  %0 = spirv.CompositeExtract %arg0[1 : i32, 2 : i32] : !spirv.struct<(f32, !spirv.array<4 x i32>)>
  %1 = spirv.CompositeInsert %arg1, %arg0[1 : i32, 0 : i32] : i32 into !spirv.struct<(f32, !spirv.array<4 x i32>)>
  spirv.Return
}

// -----

// A path through a struct into a vector lane is split where it reaches the vector.
// CHECK-LABEL: llvm.func @mixed_path
// CHECK: %[[V:.*]] = llvm.extractvalue %arg0[1] : !llvm.struct<packed (i32, vector<2xf32>)>
// CHECK: llvm.extractelement %[[V]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[W:.*]] = llvm.extractvalue %arg0[1] : !llvm.struct<packed (i32, vector<2xf32>)>
// CHECK: %[[W2:.*]] = llvm.insertelement %arg1, %[[W]][%{{.*}} : i32] : vector<2xf32>
// CHECK: llvm.insertvalue %[[W2]], %arg0[1] : !llvm.struct<packed (i32, vector<2xf32>)>
spirv.func @mixed_path(%arg0: !spirv.struct<(i32, vector<2xf32>)>, %arg1: f32) "None" {
  %0 = spirv.CompositeExtract %arg0[1 : i32, 0 : i32] : !spirv.struct<(i32, vector<2xf32>)>
  %1 = spirv.CompositeInsert %arg1, %arg0[1 : i32, 1 : i32] : f32 into !spirv.struct<(i32, vector<2xf32>)>
  spirv.Return
}

// -----

// CompositeConstruct (beyond the seed): lane by lane, vectors from
// smaller vectors, and aggregates member by member.
// CHECK-LABEL: llvm.func @construct
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<3xi32>
// CHECK: %[[A:.*]] = llvm.insertelement %arg0, %[[U]][%{{.*}} : i32] : vector<3xi32>
// CHECK: %[[B:.*]] = llvm.insertelement %arg0, %[[A]][%{{.*}} : i32] : vector<3xi32>
// CHECK: llvm.insertelement %arg1, %[[B]][%{{.*}} : i32] : vector<3xi32>
// CHECK: %[[U4:.*]] = llvm.mlir.undef : vector<4xi32>
// CHECK: llvm.extractelement %arg2[%{{.*}} : i32] : vector<2xi32>
// CHECK: llvm.insertelement %{{.*}}, %[[U4]][%{{.*}} : i32] : vector<4xi32>
// CHECK: %[[S:.*]] = llvm.mlir.undef : !llvm.struct<packed (i32, vector<2xi32>)>
// CHECK: %[[S1:.*]] = llvm.insertvalue %arg0, %[[S]][0] : !llvm.struct<packed (i32, vector<2xi32>)>
// CHECK: llvm.insertvalue %arg2, %[[S1]][1] : !llvm.struct<packed (i32, vector<2xi32>)>
// CHECK: %[[R:.*]] = llvm.mlir.undef : !llvm.array<2 x i32>
// CHECK: %[[R1:.*]] = llvm.insertvalue %arg0, %[[R]][0] : !llvm.array<2 x i32>
// CHECK: llvm.insertvalue %arg1, %[[R1]][1] : !llvm.array<2 x i32>
spirv.func @construct(%arg0: i32, %arg1: i32, %arg2: vector<2xi32>) "None" {
  %0 = spirv.CompositeConstruct %arg0, %arg0, %arg1 : (i32, i32, i32) -> vector<3xi32>
  %1 = spirv.CompositeConstruct %arg2, %arg2 : (vector<2xi32>, vector<2xi32>) -> vector<4xi32>
  %2 = spirv.CompositeConstruct %arg0, %arg2 : (i32, vector<2xi32>) -> !spirv.struct<(i32, vector<2xi32>)>
  %3 = spirv.CompositeConstruct %arg0, %arg1 : (i32, i32) -> !spirv.array<2 x i32>
  spirv.Return
}

// -----

// VectorExtractDynamic / VectorInsertDynamic (beyond the seed).
// CHECK-LABEL: llvm.func @dynamic
// CHECK: llvm.extractelement %arg0[%arg1 : i32] : vector<8xf16>
// CHECK: llvm.insertelement %arg2, %arg0[%arg3 : i64] : vector<8xf16>
spirv.func @dynamic(%arg0: vector<8xf16>, %arg1: i32, %arg2: f16, %arg3: i64) "None" {
  %0 = spirv.VectorExtractDynamic %arg0[%arg1] : vector<8xf16>, i32
  %1 = spirv.VectorInsertDynamic %arg2, %arg0[%arg3] : vector<8xf16>, i64
  spirv.Return
}

// -----

// VectorShuffle: shufflevector; 0xFFFFFFFF is an undefined lane; operands
// of different widths are widened first.
// CHECK-LABEL: llvm.func @shuffle
// CHECK: llvm.shufflevector %arg0, %arg1 [0, 5, -1, 2] : vector<4xi32>
// CHECK: %[[W:.*]] = llvm.shufflevector %arg2, %arg2 [0, 1, -1, -1] : vector<2xi32>
// CHECK: llvm.shufflevector %arg0, %[[W]] [4, 0, 5] : vector<4xi32>
// LLVM-LABEL: define void @shuffle
// LLVM: shufflevector <4 x i32> %arg0, <4 x i32> %arg1, <4 x i32> <i32 0, i32 5, i32 poison, i32 2>
spirv.func @shuffle(%arg0: vector<4xi32>, %arg1: vector<4xi32>, %arg2: vector<2xi32>) "None" {
  %0 = spirv.VectorShuffle [0 : i32, 5 : i32, 0xFFFFFFFF : i32, 2 : i32] %arg0, %arg1 : vector<4xi32>, vector<4xi32> -> vector<4xi32>
  %1 = spirv.VectorShuffle [4 : i32, 0 : i32, 5 : i32] %arg0, %arg2 : vector<4xi32>, vector<2xi32> -> vector<3xi32>
  spirv.Return
}
