// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Memory ops (MLIR ABI: globals are LLVM globals).

// Variables are allocas; an initializer is stored after.
// CHECK-LABEL: llvm.func @variables
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.alloca %[[ONE]] x vector<3xf32> : (i32) -> !llvm.ptr
// CHECK: %[[C:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[P:.*]] = llvm.alloca %[[ONE2]] x i64 : (i32) -> !llvm.ptr
// CHECK: llvm.store %[[C]], %[[P]] : i64, !llvm.ptr
spirv.func @variables() "None" {
  %0 = spirv.Variable : !spirv.ptr<vector<3xf32>, Function>
  %c = spirv.Constant 0 : i64
  %1 = spirv.Variable init(%c) : !spirv.ptr<i64, Function>
  spirv.Return
}

// -----

// Load / Store with the memory access attributes.
// CHECK-LABEL: llvm.func @load_store
// CHECK: llvm.load %arg0 : !llvm.ptr -> f32
// CHECK: llvm.load %arg0 {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: llvm.load volatile %arg0 : !llvm.ptr -> f32
// CHECK: llvm.load %arg0 {nontemporal} : !llvm.ptr -> f32
// CHECK: llvm.store %arg1, %arg0 : f32, !llvm.ptr
// CHECK: llvm.store %arg1, %arg0 {alignment = 8 : i64} : f32, !llvm.ptr
// CHECK: llvm.store volatile %arg1, %arg0 : f32, !llvm.ptr
// CHECK: llvm.store %arg1, %arg0 {nontemporal} : f32, !llvm.ptr
// CHECK: llvm.load volatile %arg0 {alignment = 16 : i64} : !llvm.ptr -> f32
// LLVM-LABEL: define void @load_store
// LLVM: load float, ptr %arg0, align 4
// LLVM: load volatile float, ptr %arg0
// LLVM: load float, ptr %arg0, !nontemporal ![[NT:[0-9]+]]
// LLVM: store float %arg1, ptr %arg0, align 8
// LLVM: ![[NT]] = !{i32 1}
spirv.func @load_store(%arg0: !spirv.ptr<f32, Function>, %arg1: f32) "None" {
  %0 = spirv.Load "Function" %arg0 : f32
  %1 = spirv.Load "Function" %arg0 ["Aligned", 4] : f32
  %2 = spirv.Load "Function" %arg0 ["Volatile"] : f32
  %3 = spirv.Load "Function" %arg0 ["Nontemporal"] : f32
  spirv.Store "Function" %arg0, %arg1 : f32
  spirv.Store "Function" %arg0, %arg1 ["Aligned", 8] : f32
  spirv.Store "Function" %arg0, %arg1 ["Volatile"] : f32
  spirv.Store "Function" %arg0, %arg1 ["Nontemporal"] : f32
  %4 = spirv.Load "Function" %arg0 ["Volatile|Aligned", 16] : f32
  spirv.Return
}

// -----

// AccessChain: getelementptr with the seed's leading zero; struct members
// as constants, other indices as values.
// CHECK-LABEL: llvm.func @access_chain
// CHECK: %[[V:.*]] = llvm.alloca %{{.*}} x !llvm.struct<packed (f32, array<4 x f32>)> : (i32) -> !llvm.ptr
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.getelementptr %[[V]][%[[Z]], 1, %arg0] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.struct<packed (f32, array<4 x f32>)>
spirv.func @access_chain(%arg0: i32) "None" {
  %i1 = spirv.Constant 1 : i32
  %var = spirv.Variable : !spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x f32>)>, Function>
  %el = spirv.AccessChain %var[%i1, %arg0] : !spirv.ptr<!spirv.struct<(f32, !spirv.array<4 x f32>)>, Function>, i32, i32
  spirv.Return
}

// -----

// Into a vector component and a runtime array.
// CHECK-LABEL: llvm.func @access_chain_vector_rtarray
// CHECK: llvm.getelementptr %arg0[%{{.*}}, %arg2] : (!llvm.ptr, i32, i64) -> !llvm.ptr, vector<4xf32>
// CHECK: llvm.getelementptr %arg1[%{{.*}}, 0, %arg2] : (!llvm.ptr, i32, i64) -> !llvm.ptr, !llvm.struct<(array<0 x i32>)>
spirv.func @access_chain_vector_rtarray(%arg0: !spirv.ptr<vector<4xf32>, Function>, %arg1: !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, %arg2: i64) "None" {
  %0 = spirv.AccessChain %arg0[%arg2] : !spirv.ptr<vector<4xf32>, Function>, i64
  %c0 = spirv.Constant 0 : i32
  %1 = spirv.AccessChain %arg1[%c0, %arg2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i64
  spirv.Return
}

// -----

// PtrAccessChain: the first index steps over whole pointees (beyond the seed).
// CHECK-LABEL: llvm.func @ptr_access_chain
// CHECK: llvm.getelementptr %arg0[%arg1, 2] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, i32, f32)>
spirv.module Physical64 OpenCL requires #spirv.vce<v1.0, [Kernel, Addresses, Int64], []> {
  spirv.func @ptr_access_chain(%arg0: !spirv.ptr<!spirv.struct<(i32 [0], i32 [4], f32 [8])>, CrossWorkgroup>, %arg1: i64) "None" {
    %c2 = spirv.Constant 2 : i32
    %0 = "spirv.PtrAccessChain"(%arg0, %arg1, %c2) : (!spirv.ptr<!spirv.struct<(i32 [0], i32 [4], f32 [8])>, CrossWorkgroup>, i64, i32) -> !spirv.ptr<f32, CrossWorkgroup>
    spirv.Return
  }
}

// -----

// CopyMemory loads the pointee and stores it (beyond the seed).
// CHECK-LABEL: llvm.func @copy_memory
// CHECK: %[[V:.*]] = llvm.load %arg1 {alignment = 4 : i64} : !llvm.ptr -> !llvm.array<4 x i32>
// CHECK: llvm.store %[[V]], %arg0 {alignment = 4 : i64} : !llvm.array<4 x i32>, !llvm.ptr
spirv.func @copy_memory(%arg0: !spirv.ptr<!spirv.array<4 x i32>, Function>, %arg1: !spirv.ptr<!spirv.array<4 x i32>, Function>) "None" {
  spirv.CopyMemory "Function" %arg0, "Function" %arg1 ["Aligned", 4] : !spirv.array<4 x i32>
  spirv.Return
}

// -----

// Global variables and addressof: private linkage for Private, external
// otherwise, constant for Input; a bound variable is named after its set
// and binding (MLIR's spirv-cpu-runner convention).
// CHECK: llvm.mlir.global private @struct() {addr_space = 0 : i32} : !llvm.struct<packed (f32, array<10 x f32>)>
// CHECK: llvm.mlir.global external constant @input() {addr_space = 0 : i32} : f32
// CHECK: llvm.mlir.global external @buffer_descriptor_set0_binding1() {addr_space = 0 : i32} : !llvm.struct<(array<0 x f32>)>
// CHECK: llvm.mlir.global external @shared() {addr_space = 0 : i32} : !llvm.array<16 x i32>
// CHECK-LABEL: llvm.func @globals
// CHECK: %[[S:.*]] = llvm.mlir.addressof @struct : !llvm.ptr
// CHECK: %[[I:.*]] = llvm.mlir.addressof @input : !llvm.ptr
// CHECK: llvm.load %[[I]] : !llvm.ptr -> f32
// LLVM: @struct = private global <{ float, [10 x float] }> undef
// LLVM: @input = external constant float
// LLVM: @buffer_descriptor_set0_binding1 = external global { [0 x float] }
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @struct : !spirv.ptr<!spirv.struct<(f32, !spirv.array<10 x f32>)>, Private>
  spirv.GlobalVariable @input : !spirv.ptr<f32, Input>
  spirv.GlobalVariable @buffer bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @shared : !spirv.ptr<!spirv.array<16 x i32>, Workgroup>
  spirv.func @globals() "None" {
    %0 = spirv.mlir.addressof @struct : !spirv.ptr<!spirv.struct<(f32, !spirv.array<10 x f32>)>, Private>
    %1 = spirv.mlir.addressof @input : !spirv.ptr<f32, Input>
    %2 = spirv.Load "Input" %1 : f32
    spirv.Return
  }
}

// -----

// A global initialized from a spec constant.
// CHECK: llvm.mlir.global private @init(3.000000e+00 : f32) {addr_space = 0 : i32} : f32
spirv.module Logical GLSL450 {
  spirv.SpecConstant @three = 3.0 : f32
  spirv.GlobalVariable @init initializer(@three) : !spirv.ptr<f32, Private>
}
