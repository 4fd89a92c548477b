// RUN: kiln opt --convert-spirv-to-llvm --split-input-file %s
// Branches, structured selection and loop, calls and returns.

// CHECK-LABEL: llvm.func @branch
// CHECK: llvm.br ^bb1
// CHECK: ^bb1:
// CHECK: llvm.br ^bb2(%arg0, %arg1 : i32, f32)
// CHECK: ^bb2(%[[A:.*]]: i32, %[[B:.*]]: f32):
// CHECK: llvm.return
// LLVM-LABEL: define void @branch
// LLVM: bb2:
// LLVM-NEXT: %v0 = phi i32 [ %arg0, %bb1 ]
// LLVM-NEXT: %v1 = phi float [ %arg1, %bb1 ]
spirv.func @branch(%arg0: i32, %arg1: f32) "None" {
  spirv.Branch ^bb1
^bb1:
  spirv.Branch ^bb2(%arg0, %arg1 : i32, f32)
^bb2(%a: i32, %b: f32):
  spirv.Return
}

// -----

// Branch weights become the cond_br's weights (and !prof metadata).
// CHECK-LABEL: llvm.func @cond_branch
// CHECK: llvm.cond_br %arg0 weights([1, 2]), ^bb1, ^bb2
// CHECK: llvm.cond_br %arg0, ^bb1, ^bb2
// LLVM-LABEL: define void @cond_branch
// LLVM: br i1 %arg0, label %bb1, label %bb2, !prof ![[W:[0-9]+]]
// LLVM: ![[W]] = !{!"branch_weights", i32 1, i32 2}
spirv.func @cond_branch(%arg0: i1) "None" {
  spirv.BranchConditional %arg0 [1, 2], ^bb1, ^bb2
^bb1:
  spirv.BranchConditional %arg0, ^bb1, ^bb2
^bb2:
  spirv.Return
}

// -----

// Both edges into one block with arguments: the second goes through a
// block of its own (one phi entry per predecessor).
// CHECK-LABEL: llvm.func @same_target
// CHECK: llvm.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2
// CHECK: ^bb1(%{{.*}}: i32):
// CHECK: ^bb2:
// CHECK-NEXT: llvm.br ^bb1(%arg2 : i32)
// LLVM-LABEL: define void @same_target
// LLVM: %v0 = phi i32 [ %arg1, %bb0 ], [ %arg2, %bb2 ]
spirv.func @same_target(%arg0: i1, %arg1: i32, %arg2: i32) "None" {
  spirv.BranchConditional %arg0, ^bb1(%arg1 : i32), ^bb1(%arg2 : i32)
^bb1(%x: i32):
  spirv.Return
}

// -----

// Selection: the header's conditional branch ends the current block, the
// other blocks follow, merge branches to the code after the construct.
// CHECK-LABEL: llvm.func @selection
// CHECK-NEXT: llvm.cond_br %arg0, ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK-NEXT: llvm.br ^bb2
// CHECK: ^bb2:
// CHECK-NEXT: llvm.br ^bb3
// CHECK: ^bb3:
// CHECK-NEXT: llvm.return
spirv.func @selection(%arg0: i1) "None" {
  spirv.mlir.selection {
    spirv.BranchConditional %arg0, ^then, ^merge
  ^then:
    spirv.Branch ^merge
  ^merge:
    spirv.mlir.merge
  }
  spirv.Return
}

// -----

// Loop: the current block branches to the header (with the induction
// variable's initial value).
// CHECK-LABEL: llvm.func @loop
// CHECK: llvm.br ^bb1(%{{.*}} : i32)
// CHECK: ^bb1(%[[IV:.*]]: i32):
// CHECK: %[[C:.*]] = llvm.icmp "slt" %[[IV]], %arg0 : i32
// CHECK: llvm.cond_br %[[C]], ^bb2, ^bb4
// CHECK: ^bb2:
// CHECK-NEXT: llvm.br ^bb3
// CHECK: ^bb3:
// CHECK: %[[NEXT:.*]] = llvm.add %[[IV]], %{{.*}} : i32
// CHECK: llvm.br ^bb1(%[[NEXT]] : i32)
// CHECK: ^bb4:
// CHECK-NEXT: llvm.br ^bb5
// CHECK: ^bb5:
// CHECK-NEXT: llvm.return
// LLVM-LABEL: define void @loop
// LLVM: bb1:
// LLVM-NEXT: %v2 = phi i32 [ 0, %bb0 ], [ %v4, %bb3 ]
spirv.func @loop(%arg0: i32) "None" {
  %zero = spirv.Constant 0 : i32
  %one = spirv.Constant 1 : i32
  spirv.mlir.loop {
    spirv.Branch ^header(%zero : i32)
  ^header(%i: i32):
    %c = spirv.SLessThan %i, %arg0 : i32
    spirv.BranchConditional %c, ^body, ^merge
  ^body:
    spirv.Branch ^continue
  ^continue:
    %n = spirv.IAdd %i, %one : i32
    spirv.Branch ^header(%n : i32)
  ^merge:
    spirv.mlir.merge
  }
  spirv.Return
}

// -----

// A selection nested in a loop.
// CHECK-LABEL: llvm.func @nested
// CHECK-COUNT-2: llvm.cond_br %arg0
spirv.func @nested(%arg0: i1) "None" {
  spirv.mlir.loop {
    spirv.Branch ^header
  ^header:
    spirv.BranchConditional %arg0, ^body, ^merge
  ^body:
    spirv.mlir.selection {
      spirv.BranchConditional %arg0, ^then, ^smerge
    ^then:
      spirv.Branch ^smerge
    ^smerge:
      spirv.mlir.merge
    }
    spirv.Branch ^header
  ^merge:
    spirv.mlir.merge
  }
  spirv.Return
}

// -----

// Calls and returns.
// CHECK-LABEL: llvm.func @callee(%arg0: i32) -> i32
// CHECK: llvm.return %arg0 : i32
// CHECK-LABEL: llvm.func @caller
// CHECK: %[[R:.*]] = llvm.call @callee(%arg0) : (i32) -> i32
// CHECK: llvm.call @void_callee() : () -> ()
// CHECK: llvm.return %[[R]] : i32
spirv.func @callee(%arg0: i32) -> i32 "None" {
  spirv.ReturnValue %arg0 : i32
}
spirv.func @void_callee() "None" {
  spirv.Return
}
spirv.func @caller(%arg0: i32) -> i32 "None" {
  %0 = spirv.FunctionCall @callee(%arg0) : (i32) -> i32
  spirv.FunctionCall @void_callee() : () -> ()
  spirv.ReturnValue %0 : i32
}

// -----

// Function control → LLVM function attributes: inlining passed through,
// Pure / Const as memory effects (MLIR 19's `readonly` / `readnone` are
// parameter attributes its mlir-translate rejects on functions).
// CHECK: llvm.func @inline_fn() attributes {passthrough = ["alwaysinline"]}
// CHECK: llvm.func @noinline_fn() attributes {passthrough = ["noinline"]}
// CHECK: llvm.func @pure_fn() attributes {memory = #llvm.memory_effects<other = read, argMem = read, inaccessibleMem = read>}
// CHECK: llvm.func @const_fn() attributes {memory = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none>}
// LLVM: define void @inline_fn() alwaysinline {
// LLVM: define void @pure_fn() memory(read) {
// LLVM: define void @const_fn() memory(none) {
spirv.func @inline_fn() "Inline" {
  spirv.Return
}
spirv.func @noinline_fn() "DontInline" {
  spirv.Return
}
spirv.func @pure_fn() "Pure" {
  spirv.Return
}
spirv.func @const_fn() "Const" {
  spirv.Return
}

// -----

// Unreachable (beyond the seed).
// CHECK-LABEL: llvm.func @unreachable
// CHECK: ^bb1:
// CHECK-NEXT: llvm.unreachable
spirv.func @unreachable() "None" {
  spirv.Return
^bb1:
  spirv.Unreachable
}
