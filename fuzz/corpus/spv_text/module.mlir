// Module structure (M1-M5) and closedness to other dialects.

spirv.module Logical GLSL450 {
  spirv.func @f() "None" {
    %0 = "arith.constant"() {value = 1 : i32} : () -> i32  // error: is not a SPIR-V dialect op
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  "gpu.barrier"() : () -> ()  // error: is not a SPIR-V dialect op
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @f() "None" {
    spirv.mlir.selection {
      %c = spirv.Constant true
      spirv.BranchConditional %c, ^bb1, ^bb2
    ^bb1:
      "test.op"() : () -> ()  // error: is not a SPIR-V dialect op
      spirv.Branch ^bb2
    ^bb2:
      spirv.mlir.merge
    }
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  %c = spirv.Constant 1 : i32  // error: cannot appear directly in spirv.module
}

// -----

spirv.module Logical GLSL450 {
  spirv.Return  // error: cannot appear directly in spirv.module
}

// -----

"spirv.module"() <{addressing_model = #spirv.memory_model<GLSL450>, memory_model = #spirv.memory_model<GLSL450>}> ({  // error: attribute 'addressing_model' must be an enum attribute of kind AddressingModel
  spirv.GlobalVariable @g : !spirv.ptr<f32, Private>
}) : () -> ()

// -----

"spirv.module"() <{addressing_model = #spirv.addressing_model<Logical>}> ({  // error: requires attribute 'memory_model'
  spirv.GlobalVariable @g : !spirv.ptr<f32, Private>
}) : () -> ()

// -----

spirv.module Logical GLSL450 {
  spirv.func @f() "None" {
    spirv.GlobalVariable @g : !spirv.ptr<f32, Private>  // error: module-level op and cannot appear inside a function
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @outer() "None" {
    spirv.func @inner() "None" {  // error: functions cannot be nested
      spirv.Return
    }
    spirv.Return
  }
}
