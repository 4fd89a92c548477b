// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Barriers and subgroup operations (beyond the seed): calls of the
// runtime (kiln_core::llvm::abi); in this ABI the context is null.

// CHECK-LABEL: llvm.func @barriers
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @__kiln_barrier(%[[NULL]]) : (!llvm.ptr) -> ()
// CHECK: llvm.fence acq_rel
// CHECK: llvm.fence seq_cst
// CHECK-NOT: llvm.fence
// CHECK: llvm.func @__kiln_barrier(!llvm.ptr)
spirv.func @barriers() "None" {
  spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
  spirv.MemoryBarrier <Device>, <AcquireRelease|UniformMemory>
  spirv.MemoryBarrier <Workgroup>, <SequentiallyConsistent>
  spirv.MemoryBarrier <Workgroup>, <None>
  spirv.Return
}

// -----

// A subgroup barrier is a subgroup rendezvous (code 50).
// CHECK-LABEL: llvm.func @subgroup_barrier
// CHECK: %[[OP:.*]] = llvm.mlir.constant(50 : i32) : i32
// CHECK: llvm.call @__kiln_subgroup(%{{.*}}, %{{.*}}, %[[OP]], {{.*}}) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, !llvm.ptr, i32, !llvm.ptr) -> ()
spirv.func @subgroup_barrier() "None" {
  spirv.ControlBarrier <Subgroup>, <Subgroup>, <AcquireRelease|SubgroupMemory>
  spirv.Return
}

// -----

// A reduction: the value through a stack slot (allocated in the entry
// block), op IAdd (20), group operation Reduce (0), element i32 (4), one lane.
// CHECK-LABEL: llvm.func @reduce
// CHECK: %[[OUT:.*]] = llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr
// CHECK: %[[IN:.*]] = llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr
// CHECK: llvm.store %arg0, %[[IN]] : i32, !llvm.ptr
// CHECK: %[[CTX:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[CODE:.*]] = llvm.mlir.constant(20 : i32) : i32
// CHECK-NEXT: %[[GOP:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[CLU:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[ELEM:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: %[[LANES:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @__kiln_subgroup(%[[CTX]], %[[SITE]], %[[CODE]], %[[GOP]], %[[CLU]], %[[ELEM]], %[[LANES]], %[[IN]], %{{.*}}, %[[OUT]])
// CHECK: llvm.load %[[OUT]] : !llvm.ptr -> i32
spirv.func @reduce(%arg0: i32) -> i32 "None" {
  %0 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %arg0 : i32
  spirv.ReturnValue %0 : i32
}

// -----

// Each call site has its own number; scans and clustered reductions pass
// their group operation and cluster size.
// CHECK-LABEL: llvm.func @arith
// CHECK-COUNT-16: llvm.call @__kiln_subgroup
// CHECK: %[[INC:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @__kiln_subgroup(%{{.*}}, %{{.*}}, %{{.*}}, %[[INC]],
// CHECK: %[[EXC:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @__kiln_subgroup(%{{.*}}, %{{.*}}, %{{.*}}, %[[EXC]],
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(18 : i32) : i32
// CHECK: %[[CLU:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: llvm.call @__kiln_subgroup(%{{.*}}, %[[SITE]], %{{.*}}, %[[CLU]], %[[FOUR]],
spirv.func @arith(%i: i32, %f: f32, %b: i1, %v: vector<4xf32>) "None" {
  %0 = spirv.GroupNonUniformIAdd "Subgroup" "Reduce" %i : i32
  %1 = spirv.GroupNonUniformFAdd "Subgroup" "Reduce" %f : f32
  %2 = spirv.GroupNonUniformIMul "Subgroup" "Reduce" %i : i32
  %3 = spirv.GroupNonUniformFMul "Subgroup" "Reduce" %f : f32
  %4 = spirv.GroupNonUniformSMin "Subgroup" "Reduce" %i : i32
  %5 = spirv.GroupNonUniformUMin "Subgroup" "Reduce" %i : i32
  %6 = spirv.GroupNonUniformFMin "Subgroup" "Reduce" %f : f32
  %7 = spirv.GroupNonUniformSMax "Subgroup" "Reduce" %i : i32
  %8 = spirv.GroupNonUniformUMax "Subgroup" "Reduce" %i : i32
  %9 = spirv.GroupNonUniformFMax "Subgroup" "Reduce" %f : f32
  %10 = spirv.GroupNonUniformBitwiseAnd "Subgroup" "Reduce" %i : i32
  %11 = spirv.GroupNonUniformBitwiseOr "Subgroup" "Reduce" %i : i32
  %12 = spirv.GroupNonUniformBitwiseXor "Subgroup" "Reduce" %i : i32
  %13 = spirv.GroupNonUniformLogicalAnd "Subgroup" "Reduce" %b : i1
  %14 = spirv.GroupNonUniformLogicalOr "Subgroup" "Reduce" %b : i1
  %15 = spirv.GroupNonUniformLogicalXor "Subgroup" "Reduce" %b : i1
  %16 = spirv.GroupNonUniformIAdd "Subgroup" "InclusiveScan" %i : i32
  %17 = spirv.GroupNonUniformFAdd "Subgroup" "ExclusiveScan" %v : vector<4xf32>
  %four = spirv.Constant 4 : i32
  %18 = spirv.GroupNonUniformIAdd "Subgroup" "ClusteredReduce" %i cluster_size(%four) : i32
  spirv.Return
}

// -----

// Booleans go through bytes: zext before, icmp ne 0 after.
// CHECK-LABEL: llvm.func @vote
// CHECK: %[[E:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK: llvm.icmp "ne" %[[E]], %{{.*}} : i8
// CHECK: %[[B:.*]] = llvm.zext %arg0 : i1 to i8
// CHECK: llvm.store %[[B]], %{{.*}} : i8, !llvm.ptr
spirv.func @vote(%arg0: i1, %arg1: i32) "None" {
  %0 = spirv.GroupNonUniformElect <Subgroup> : i1
  %1 = spirv.GroupNonUniformAll <Subgroup> %arg0 : i1
  %2 = spirv.GroupNonUniformAny <Subgroup> %arg0 : i1
  %3 = spirv.GroupNonUniformAllEqual <Subgroup> %arg1 : i32
  spirv.Return
}

// -----

// Ballots, broadcasts, shuffles and quad ops pass their extra operand as an i32.
// CHECK-LABEL: llvm.func @movement
// CHECK-COUNT-5: llvm.call @__kiln_subgroup
// CHECK: %[[ID:.*]] = llvm.zext %arg2 : i16 to i32
// CHECK: llvm.call @__kiln_subgroup(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ID]], %{{.*}})
// CHECK-COUNT-3: llvm.call @__kiln_subgroup
// CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr -> vector<4xi32>
spirv.func @movement(%arg0: f32, %arg1: i32, %arg2: i16, %arg3: i1) "None" {
  %0 = spirv.GroupNonUniformBroadcast <Subgroup> %arg0, %arg1 : f32, i32
  %1 = spirv.GroupNonUniformBroadcastFirst <Subgroup> %arg0 : f32
  %2 = spirv.GroupNonUniformShuffle <Subgroup> %arg0, %arg1 : f32, i32
  %3 = spirv.GroupNonUniformShuffleXor <Subgroup> %arg0, %arg1 : f32, i32
  %4 = spirv.GroupNonUniformShuffleUp <Subgroup> %arg0, %arg1 : f32, i32
  %5 = spirv.GroupNonUniformShuffleDown <Subgroup> %arg0, %arg2 : f32, i16
  %6 = "spirv.GroupNonUniformQuadBroadcast"(%arg0, %arg1) <{execution_scope = #spirv.scope<Subgroup>}> : (f32, i32) -> f32
  %7 = "spirv.GroupNonUniformQuadSwap"(%arg0, %arg1) <{execution_scope = #spirv.scope<Subgroup>}> : (f32, i32) -> f32
  %b = spirv.GroupNonUniformBallot <Subgroup> %arg3 : vector<4xi32>
  %8 = "spirv.GroupNonUniformInverseBallot"(%b) <{execution_scope = #spirv.scope<Subgroup>}> : (vector<4xi32>) -> i1
  %9 = "spirv.GroupNonUniformBallotBitExtract"(%b, %arg1) <{execution_scope = #spirv.scope<Subgroup>}> : (vector<4xi32>, i32) -> i1
  %10 = "spirv.GroupNonUniformBallotBitCount"(%b) <{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}> : (vector<4xi32>) -> i32
  %11 = spirv.GroupNonUniformBallotFindLSB <Subgroup> %b : vector<4xi32>, i32
  %12 = spirv.GroupNonUniformBallotFindMSB <Subgroup> %b : vector<4xi32>, i32
  spirv.Return
}

// -----

// ERROR: only the subgroup scope
spirv.func @workgroup_scope(%arg0: i32) "None" {
  %0 = spirv.GroupNonUniformIAdd "Workgroup" "Reduce" %arg0 : i32
  spirv.Return
}

// -----

// ERROR: only workgroup, subgroup and invocation scopes
spirv.func @device_barrier() "None" {
  spirv.ControlBarrier <Device>, <Device>, <AcquireRelease>
  spirv.Return
}
