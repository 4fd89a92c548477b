// Successors and block arguments (B1-B4), structured control flow (C1-C4).

spirv.module Logical GLSL450 {
  spirv.func @f(%a: i32, %f: f32) "None" {
    spirv.Branch ^bb1(%a : i32)  // error: successor #0 (^bb1) takes 0 argument(s), but 1 were passed
  ^bb1:
    spirv.Branch ^bb2(%f : f32)  // error: argument #0 of successor #0 has type f32, expected i32 (the type of ^bb2's argument #0)
  ^bb2(%x: i32):
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @to_entry(%c: i1) "None" {
    spirv.mlir.selection {
    ^bb0:
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      spirv.Branch ^bb0  // error: successor #0 is the entry block ^bb0 of its region; the entry block of a region cannot have predecessors
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @cond(%i: i32) "None" {
    "spirv.BranchConditional"(%i)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()  // error: condition has type i32, expected i1
  ^bb1:
    spirv.Return
  ^bb2:
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @weights(%c: i1) "None" {
    "spirv.BranchConditional"(%c)[^bb1, ^bb2] <{branch_weights = [1 : i32, 2 : i32, 3 : i32], operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()  // error: expected exactly two branch weights, found 3
  ^bb1:
    spirv.Return
  ^bb2:
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @no_merge(%c: i1) "None" {
    spirv.mlir.selection {  // error: last block must be the merge block with only one 'spirv.mlir.merge' op
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      spirv.Branch ^bb2
    ^bb2:
      spirv.Return
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @merge_only() "None" {
    spirv.mlir.selection {  // error: must have a selection header block before the merge block
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @bad_header() "None" {
    spirv.mlir.selection {  // error: selection header block (the first block) must end in spirv.BranchConditional or spirv.Switch, found spirv.Branch
      spirv.Branch ^bb1
    ^bb1:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @merge_with_more(%c: i1) "None" {
    spirv.mlir.selection {  // error: last block must be the merge block with only one 'spirv.mlir.merge' op
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      spirv.Branch ^bb2
    ^bb2:
      %0 = spirv.Constant 0 : i32
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @merge_outside() "None" {
    spirv.mlir.merge  // error: expected parent op to be 'spirv.mlir.selection' or 'spirv.mlir.loop'
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @early_merge(%c: i1) "None" {
    spirv.mlir.selection {
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      spirv.mlir.merge  // error: can only be used as the terminator of the last (merge) block
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @short_loop() "None" {
    spirv.mlir.loop {  // error: must have an entry block, a loop header block, a loop continue block and a merge block (at least 4 blocks), found 3 block(s)
      spirv.Branch ^bb1
    ^bb1:
      spirv.Branch ^bb2
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @loop_entry(%c: i1) "None" {
    spirv.mlir.loop {  // error: entry block must only have one 'spirv.Branch' op to the second (loop header) block
      %0 = spirv.Constant 0 : i32
      spirv.Branch ^bb1
    ^bb1:
      spirv.BranchConditional %c, ^bb2, ^bb3
    ^bb2:
      spirv.Branch ^bb1
    ^bb3:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @loop_continue(%c: i1) "None" {
    spirv.mlir.loop {  // error: second to last block must be the loop continue block that branches to the loop header block
      spirv.Branch ^bb1
    ^bb1:
      spirv.BranchConditional %c, ^bb2, ^bb3
    ^bb2:
      spirv.Branch ^bb3
    ^bb3:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @loop_back_edge(%c: i1) "None" {
    spirv.mlir.loop {  // error: can only have the entry and loop continue block branching to the loop header block, but ^bb2 branches to it
      spirv.Branch ^bb1
    ^bb1:
      spirv.BranchConditional %c, ^bb2, ^bb4
    ^bb2:
      spirv.BranchConditional %c, ^bb1, ^bb3
    ^bb3:
      spirv.Branch ^bb1
    ^bb4:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @dominance(%c: i1) "None" {
    spirv.BranchConditional %c, ^bb1, ^bb2
  ^bb1:
    %x = spirv.Constant 1 : i32
    spirv.Branch ^bb2
  ^bb2:
    %y = spirv.SNegate %x : i32  // error: operand #0 does not dominate this use
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @switch(%f: f32, %i: i32) "None" {
    "spirv.Switch"(%f)[^bb1, ^bb2] <{literals = dense<1> : vector<1xi32>, operandSegmentSizes = array<i32: 1, 0, 0>, case_operand_segments = array<i32: 0>}> : (f32) -> ()  // error: selector has type f32, expected an integer scalar
  ^bb1:
    spirv.Return
  ^bb2:
    spirv.Return
  }
}
