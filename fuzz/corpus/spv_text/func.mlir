// Functions (F1-F6): signature, entry block, terminators, returns.

spirv.module Logical GLSL450 {
  "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = () -> (i32, i32), sym_name = "two"}> ({  // error: has 2 results in its function type
    spirv.Return
  }) : () -> ()
}

// -----

spirv.module Logical GLSL450 {
  "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = i32, sym_name = "notfn"}> ({  // error: attribute 'function_type' must be a function type, found i32
    spirv.Return
  }) : () -> ()
  "spirv.func"() <{function_control = #spirv.function_control<None>, sym_name = "notype"}> ({  // error: requires attribute 'function_type'
    spirv.Return
  }) : () -> ()
  "spirv.func"() <{function_control = #spirv.storage_class<Function>, function_type = () -> (), sym_name = "ctl"}> ({  // error: attribute 'function_control' must be an enum attribute of kind FunctionControl
    spirv.Return
  }) : () -> ()
}

// -----

spirv.module Logical GLSL450 {
  "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = (i32) -> (), sym_name = "args"}> ({
  ^bb0(%x: f32):  // error: entry block argument #0 has type f32, expected i32 from the function type
    spirv.Return
  }) : () -> ()
}

// -----

spirv.module Logical GLSL450 {
  "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = (i32, i32) -> (), sym_name = "count"}> ({
  ^bb0(%x: i32):  // error: entry block has 1 argument(s), expected 2 to match the function type
    spirv.Return
  }) : () -> ()
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @ret_void() -> i32 "None" {
    spirv.Return  // error: returns no value, but function @ret_void returns i32; expected spirv.ReturnValue
  }
  spirv.func @ret_value(%a: i32) "None" {
    spirv.ReturnValue %a : i32  // error: returns a value, but function @ret_value has no result; expected spirv.Return
  }
  spirv.func @ret_type(%a: f32) -> i32 "None" {
    spirv.ReturnValue %a : f32  // error: returns a value of type f32, expected i32 (the result type of function @ret_type)
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @mid() "None" {
    spirv.Return  // error: is a terminator but is followed by 1 more op(s) in block ^bb0
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @missing(%a: i32) "None" {
    %0 = spirv.IAdd %a, %a : i32  // error: is the last op of block ^bb0 but not a terminator
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @missing_in_selection(%c: i1) "None" {
    spirv.mlir.selection {
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      %0 = spirv.Constant 0 : i32  // error: is the last op of block ^bb1 but not a terminator
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @unreachable() "None" {
    spirv.Unreachable  // error: cannot be used in the entry block of a region
  }
  spirv.func @dead_block() "None" {
    spirv.Return
  ^bb1:
    spirv.Unreachable
  }
}
