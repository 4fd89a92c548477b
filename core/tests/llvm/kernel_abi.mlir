// RUN: kiln opt --convert-spirv-to-llvm --llvm-abi=kernel --split-input-file %s
// The kernel ABI (kiln_core::llvm::abi): every function takes the
// invocation context; variables live where the context says.

// A buffer is a slot: its base pointer is loaded from the slot table
// (context offset 0, 8 bytes per slot). A dynamic index is bounds-checked
// against the slot's size (table at offset 8); an access that does not
// fit goes to the scratch bytes (offset 40 for loads, 48 for stores)
// after a report through __kiln_oob with the slot number.
// CHECK-LABEL: llvm.func internal @copy(%arg0: !llvm.ptr)
// CHECK: %[[T0:.*]] = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[IN:.*]] = llvm.load %[[T0]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[T1:.*]] = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[OFF8:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T1]][%[[OFF8]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[OUT:.*]] = llvm.load %[[AT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P:.*]] = llvm.getelementptr %[[IN]][%{{.*}}, 0, %{{.*}}] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.struct<(array<0 x f32>)>
// CHECK: %[[SIZES:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[SIZE:.*]] = llvm.load %[[SIZES]] : !llvm.ptr -> i64
// CHECK-NEXT: %[[PI:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK-NEXT: %[[BI:.*]] = llvm.ptrtoint %[[IN]] : !llvm.ptr to i64
// CHECK: %[[O:.*]] = llvm.sub %[[PI]], %[[BI]] : i64
// CHECK: %[[INSIDE:.*]] = llvm.icmp "ult" %[[O]], %[[SIZE]] : i64
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[FITS:.*]] = llvm.icmp "uge" %{{.*}}, %[[FOUR]] : i64
// CHECK: %[[OK:.*]] = llvm.and %[[INSIDE]], %[[FITS]] : i1
// CHECK: %[[RS:.*]] = llvm.mlir.constant(40 : i64) : i64
// CHECK: %[[Q:.*]] = llvm.select %[[OK]], %[[P]], %{{.*}} : i1, !llvm.ptr
// CHECK: llvm.cond_br %[[OK]] weights([1048576, 1]), ^[[CONT:bb[0-9]+]], ^[[REPORT:bb[0-9]+]]
// CHECK: ^[[CONT]]:
// CHECK: llvm.load %[[Q]] : !llvm.ptr -> f32
// CHECK: llvm.mlir.constant(48 : i64) : i64
// CHECK: ^[[REPORT]]:
// CHECK: llvm.call @__kiln_oob(%arg0, %{{.*}}, %[[O]], %[[FOUR]]) : (!llvm.ptr, i32, i64, i64) -> ()
// CHECK-LABEL: llvm.func @__kiln_entry_copy(%arg0: !llvm.ptr)
// CHECK: llvm.call @copy(%arg0) : (!llvm.ptr) -> ()
// CHECK: llvm.func @__kiln_oob(!llvm.ptr, i32, i64, i64)
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @copy() "None" {
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %a = spirv.mlir.addressof @in : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %b = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %pa = spirv.AccessChain %a[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %pb = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    spirv.Store "StorageBuffer" %pb, %x : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @copy, @gid
  spirv.ExecutionMode @copy "LocalSize", 64, 1, 1
}

// -----

// Built-ins are read from the context (GlobalInvocationId at 56,
// SubgroupSize at 56 + 64 = 120); a constant access chain is not checked.
// The context holds them at 4-byte offsets: a vector built-in is loaded
// with the alignment of its element (LLVM's own for <3 x i32> is 16, and
// an aligned vector load of LocalInvocationId at 68 faulted).
// CHECK-LABEL: llvm.func internal @builtins(%arg0: !llvm.ptr)
// CHECK: %[[G:.*]] = llvm.mlir.constant(56 : i64) : i64
// CHECK: %[[GP:.*]] = llvm.getelementptr %arg0[%[[G]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.load %[[GP]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
// CHECK: %[[S:.*]] = llvm.mlir.constant(120 : i64) : i64
// CHECK: %[[SP:.*]] = llvm.getelementptr %arg0[%[[S]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.load %[[SP]] : !llvm.ptr -> i32
// CHECK-NOT: __kiln_oob
// CHECK: llvm.return
spirv.module Logical GLSL450 requires #spirv.vce<v1.3, [Shader, GroupNonUniform], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @sgs built_in("SubgroupSize") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>
  spirv.func @builtins() "None" {
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %s = spirv.mlir.addressof @sgs : !spirv.ptr<i32, Input>
    %n = spirv.Load "Input" %s : i32
    %c0 = spirv.Constant 0 : i32
    %c2 = spirv.Constant 2 : i32
    %o = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>
    %p = spirv.AccessChain %o[%c0, %c2] : !spirv.ptr<!spirv.struct<(!spirv.array<4 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %p, %n : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @builtins, @gid, @sgs
  spirv.ExecutionMode @builtins "LocalSize", 8, 1, 1
}

// -----

// Workgroup variables sit in the workgroup block (context offset 16),
// private ones in the invocation's block (offset 24) at 16-byte aligned
// offsets; the entry wrapper stores private initializers first. Barriers
// pass the context; so do calls.
// CHECK-LABEL: llvm.func internal @helper(%arg0: !llvm.ptr, %arg1: i32) -> i32
// CHECK: %[[WGF:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[WGP:.*]] = llvm.getelementptr %arg0[%[[WGF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[WG:.*]] = llvm.load %[[WGP]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK: llvm.getelementptr %[[WG]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.call @__kiln_barrier(%arg0) : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func internal @main(%arg0: !llvm.ptr)
// CHECK: llvm.call @helper(%arg0, %{{.*}}) : (!llvm.ptr, i32) -> i32
// CHECK-LABEL: llvm.func @__kiln_entry_main(%arg0: !llvm.ptr)
// CHECK: %[[PF:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK: %[[PP:.*]] = llvm.getelementptr %arg0[%[[PF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[PRIV:.*]] = llvm.load %[[PP]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SEVEN:.*]] = llvm.mlir.constant(7 : i32) : i32
// CHECK: llvm.store %[[SEVEN]], %[[PRIV]] : i32, !llvm.ptr
// CHECK: llvm.call @main(%arg0) : (!llvm.ptr) -> ()
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.SpecConstant @seven = 7 : i32
  spirv.GlobalVariable @counter initializer(@seven) : !spirv.ptr<i32, Private>
  spirv.GlobalVariable @a : !spirv.ptr<!spirv.array<16 x f32>, Workgroup>
  spirv.GlobalVariable @b : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>
  spirv.func @helper(%x: i32) -> i32 "None" {
    %b = spirv.mlir.addressof @b : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>
    %p = spirv.AccessChain %b[%x] : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>, i32
    %v = spirv.Load "Workgroup" %p : i32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.ReturnValue %v : i32
  }
  spirv.func @main() "None" {
    %c = spirv.mlir.addressof @counter : !spirv.ptr<i32, Private>
    %v = spirv.Load "Private" %c : i32
    %r = spirv.FunctionCall @helper(%v) : (i32) -> i32
    spirv.Store "Private" %c, %r : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 4, 1, 1
}

// -----

// Integer division cannot trap: a zero divisor (or INT_MIN / -1) divides by one.
// CHECK-LABEL: llvm.func internal @div(%arg0: !llvm.ptr, %arg1: i32, %arg2: i32) -> i32
// CHECK: %[[Z:.*]] = llvm.icmp "eq" %arg2, %{{.*}} : i32
// CHECK: %[[MIN:.*]] = llvm.icmp "eq" %arg1, %{{.*}} : i32
// CHECK: %[[M1:.*]] = llvm.icmp "eq" %arg2, %{{.*}} : i32
// CHECK: %[[OV:.*]] = llvm.and %[[MIN]], %[[M1]] : i1
// CHECK: %[[BAD:.*]] = llvm.or %[[Z]], %[[OV]] : i1
// CHECK: %[[D:.*]] = llvm.select %[[BAD]], %{{.*}}, %arg2 : i1, i32
// CHECK: llvm.sdiv %arg1, %[[D]] : i32
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @div(%a: i32, %b: i32) -> i32 "None" {
    %0 = spirv.SDiv %a, %b : i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// Tanh without overflow: copysign(1 - 2 / (exp(2|x|) + 1), x).
// CHECK-LABEL: llvm.func internal @tanh(%arg0: !llvm.ptr, %arg1: f32) -> f32
// CHECK: %[[A:.*]] = llvm.intr.fabs(%arg1) : (f32) -> f32
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK: %[[X2:.*]] = llvm.fmul %[[TWO]], %[[A]] : f32
// CHECK: %[[E:.*]] = llvm.intr.exp(%[[X2]]) : (f32) -> f32
// CHECK: %[[DEN:.*]] = llvm.fadd %[[E]], %{{.*}} : f32
// CHECK: %[[Q:.*]] = llvm.fdiv %[[TWO]], %[[DEN]] : f32
// CHECK: %[[T:.*]] = llvm.fsub %{{.*}}, %[[Q]] : f32
// CHECK: llvm.intr.copysign(%[[T]], %arg1) : (f32, f32) -> f32
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @tanh(%x: f32) -> f32 "None" {
    %0 = spirv.GL.Tanh %x : f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// A pointer of unknown origin into a buffer is checked at run time.
// CHECK-LABEL: llvm.func internal @unknown(%arg0: !llvm.ptr, %arg1: !llvm.ptr)
// CHECK: %[[Q:.*]] = llvm.call @__kiln_check_ptr(%arg0, %arg1, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i32) -> !llvm.ptr
// CHECK: llvm.load %[[Q]] : !llvm.ptr -> f32
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, VariablePointersStorageBuffer], [SPV_KHR_variable_pointers]> {
  spirv.func @unknown(%p: !spirv.ptr<f32, StorageBuffer>) -> f32 "None" {
    %0 = spirv.Load "StorageBuffer" %p : f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// An array of descriptors (a buffer larger than maxStorageBufferRange,
// bound in chunks) takes one slot per descriptor: @in's three are slots
// 0-2, @out is slot 3. An access chain selects a descriptor with a
// constant (the access chain loads its base pointer; the addressof alone
// loads nothing): chunk 2's base pointer is slot 2's (table offset 16),
// and a dynamic index is checked against slot 2's size (sizes table
// offset 16).
// CHECK-LABEL: llvm.func internal @chunked(%arg0: !llvm.ptr)
// CHECK: %[[T2:.*]] = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[OFF24:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK-NEXT: %[[AT2:.*]] = llvm.getelementptr %[[T2]][%[[OFF24]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[OUT:.*]] = llvm.load %[[AT2]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[T:.*]] = llvm.load %arg0 : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[OFF16:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[T]][%[[OFF16]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[IN:.*]] = llvm.load %[[AT]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P:.*]] = llvm.getelementptr %[[IN]][%{{.*}}, 0, %{{.*}}] : (!llvm.ptr, i32, i32) -> !llvm.ptr, !llvm.struct<(array<0 x f32>)>
// CHECK: %[[SIZES:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[SOFF:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT: %[[SAT:.*]] = llvm.getelementptr %[[SIZES]][%[[SOFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[SIZE:.*]] = llvm.load %[[SAT]] : !llvm.ptr -> i64
// CHECK-NEXT: %[[PI:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK-NEXT: %[[BI:.*]] = llvm.ptrtoint %[[IN]] : !llvm.ptr to i64
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @chunked() "None" {
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c2 = spirv.Constant 2 : i32
    %a = spirv.mlir.addressof @in : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
    %b = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %pa = spirv.AccessChain %a[%c2, %c0, %i] : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>, i32, i32, i32
    %pb = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    spirv.Store "StorageBuffer" %pb, %x : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @chunked, @gid
  spirv.ExecutionMode @chunked "LocalSize", 64, 1, 1
}

// -----

// ERROR: selects a descriptor of an array of descriptors with a non-constant index
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @dynamic() "None" {
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %a = spirv.mlir.addressof @in : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
    %b = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %pa = spirv.AccessChain %a[%i, %c0, %i] : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>, i32, i32, i32
    %pb = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    spirv.Store "StorageBuffer" %pb, %x : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @dynamic, @gid
  spirv.ExecutionMode @dynamic "LocalSize", 64, 1, 1
}

// -----

// ERROR: selects descriptor 3 of an array of 3
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @in bind(0, 0) : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
  spirv.GlobalVariable @out bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @past() "None" {
    %g = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %v = spirv.Load "Input" %g : vector<3xi32>
    %i = spirv.CompositeExtract %v[0 : i32] : vector<3xi32>
    %c0 = spirv.Constant 0 : i32
    %c3 = spirv.Constant 3 : i32
    %a = spirv.mlir.addressof @in : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>
    %b = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %pa = spirv.AccessChain %a[%c3, %c0, %i] : !spirv.ptr<!spirv.array<3 x !spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>>, StorageBuffer>, i32, i32, i32
    %pb = spirv.AccessChain %b[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %x = spirv.Load "StorageBuffer" %pa : f32
    spirv.Store "StorageBuffer" %pb, %x : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @past, @gid
  spirv.ExecutionMode @past "LocalSize", 64, 1, 1
}

// -----

// ERROR: an Input variable that is not a built-in
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.GlobalVariable @in : !spirv.ptr<f32, Input>
}

// -----

// ERROR: has no LocalSize execution mode or WorkgroupSize built-in
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], []> {
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
}
