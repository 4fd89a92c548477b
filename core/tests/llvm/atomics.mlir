// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Atomics (beyond the seed): read-modify-write → atomicrmw, compare and
// exchange → cmpxchg, loads and stores → atomic load / store; the memory
// semantics give the ordering.

// CHECK-LABEL: llvm.func @rmw
// CHECK: llvm.atomicrmw add %arg0, %arg1 acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw sub %arg0, %arg1 monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw min %arg0, %arg1 acquire : !llvm.ptr, i32
// CHECK: llvm.atomicrmw umin %arg0, %arg1 release : !llvm.ptr, i32
// CHECK: llvm.atomicrmw max %arg0, %arg1 seq_cst : !llvm.ptr, i32
// CHECK: llvm.atomicrmw umax %arg0, %arg1 acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _and %arg0, %arg1 acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _or %arg0, %arg1 acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _xor %arg0, %arg1 acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw xchg %arg0, %arg1 acq_rel : !llvm.ptr, i32
// LLVM-LABEL: define void @rmw
// LLVM: atomicrmw add ptr %arg0, i32 %arg1 acq_rel
// LLVM: atomicrmw and ptr %arg0, i32 %arg1 acq_rel
spirv.func @rmw(%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32) "None" {
  %0 = spirv.AtomicIAdd <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %1 = spirv.AtomicISub <Device> <None> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %2 = spirv.AtomicSMin <Device> <Acquire> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %3 = spirv.AtomicUMin <Device> <Release> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %4 = spirv.AtomicSMax <Device> <SequentiallyConsistent> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %5 = spirv.AtomicUMax <Workgroup> <AcquireRelease|WorkgroupMemory> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %6 = spirv.AtomicAnd <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %7 = spirv.AtomicOr <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %8 = spirv.AtomicXor <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  %9 = spirv.AtomicExchange <Device> <AcquireRelease> %arg0, %arg1 : !spirv.ptr<i32, StorageBuffer>
  spirv.Return
}

// -----

// Increment / decrement add or subtract one.
// CHECK-LABEL: llvm.func @inc_dec
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.atomicrmw add %arg0, %[[ONE]] monotonic : !llvm.ptr, i64
// CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.atomicrmw sub %arg0, %[[ONE2]] monotonic : !llvm.ptr, i64
spirv.func @inc_dec(%arg0: !spirv.ptr<i64, Workgroup>) "None" {
  %0 = spirv.AtomicIIncrement <Workgroup> <None> %arg0 : !spirv.ptr<i64, Workgroup>
  %1 = spirv.AtomicIDecrement <Workgroup> <None> %arg0 : !spirv.ptr<i64, Workgroup>
  spirv.Return
}

// -----

// Compare-exchange: the old value is the result's first member; a
// release failure ordering is weakened to monotonic.
// CHECK-LABEL: llvm.func @cmpxchg
// CHECK: %[[P:.*]] = llvm.cmpxchg %arg0, %arg2, %arg1 acq_rel monotonic : !llvm.ptr, i32
// CHECK: llvm.extractvalue %[[P]][0] : !llvm.struct<(i32, i1)>
// LLVM-LABEL: define void @cmpxchg
// LLVM: cmpxchg ptr %arg0, i32 %arg2, i32 %arg1 acq_rel monotonic
spirv.func @cmpxchg(%arg0: !spirv.ptr<i32, StorageBuffer>, %arg1: i32, %arg2: i32) "None" {
  %0 = spirv.AtomicCompareExchange <Device> <AcquireRelease> <Release> %arg0, %arg1, %arg2 : !spirv.ptr<i32, StorageBuffer>
  spirv.Return
}

// -----

// Atomic loads and stores, and float atomics (SPV_EXT_shader_atomic_float).
// CHECK-LABEL: llvm.func @load_store_float
// CHECK: llvm.load %arg0 atomic acquire {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: llvm.store %arg1, %arg0 atomic release {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK: llvm.atomicrmw fadd %arg0, %arg1 monotonic : !llvm.ptr, f32
// LLVM-LABEL: define void @load_store_float
// LLVM: load atomic float, ptr %arg0 acquire, align 4
// LLVM: store atomic float %arg1, ptr %arg0 release, align 4
spirv.func @load_store_float(%arg0: !spirv.ptr<f32, StorageBuffer>, %arg1: f32) "None" {
  %0 = spirv.AtomicLoad <Device> <Acquire> %arg0 : !spirv.ptr<f32, StorageBuffer>
  spirv.AtomicStore <Device> <Release> %arg0, %arg1 : !spirv.ptr<f32, StorageBuffer>
  %1 = spirv.EXT.AtomicFAdd <Device> <None> %arg0, %arg1 : !spirv.ptr<f32, StorageBuffer>
  spirv.Return
}
