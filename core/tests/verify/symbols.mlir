// Symbols (Y1-Y6), global variables (G1-G4), specialization constants (G5, G6).

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @v : !spirv.ptr<f32, Private>
  spirv.GlobalVariable @v : !spirv.ptr<f32, Private>  // error: redefines symbol '@v'
  spirv.func @v() "None" {  // error: redefines symbol '@v'
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @w : !spirv.ptr<f32, Function>  // error: storage class cannot be 'Function'
  "spirv.GlobalVariable"() <{sym_name = "x", type = f32}> : () -> ()  // error: attribute 'type' must be a pointer type, found f32
  "spirv.GlobalVariable"() <{sym_name = "y"}> : () -> ()  // error: requires attribute 'type'
  "spirv.GlobalVariable"() <{type = !spirv.ptr<f32, Private>}> : () -> ()  // error: requires attribute 'sym_name'
}

// -----

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @private bind(0, 0) : !spirv.ptr<f32, Private>
  spirv.GlobalVariable @pc bind(0, 1) : !spirv.ptr<!spirv.struct<(f32 [0])>, PushConstant>
  "spirv.GlobalVariable"() <{binding = 0 : i32, sym_name = "z", type = !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>}> : () -> ()
  "spirv.GlobalVariable"() <{binding = -1 : i32, descriptor_set = 0 : i32, sym_name = "n", type = !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>}> : () -> ()  // error: attribute 'binding' must be non-negative
  spirv.GlobalVariable @ok bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0])>, StorageBuffer>
  spirv.GlobalVariable @uniform bind(1, 0) : !spirv.ptr<!spirv.struct<(f32 [0])>, Uniform>
}

// -----

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @id built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Private>  // error: is a built-in with storage class Private; expected Input or Output
  spirv.GlobalVariable @ok built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @typo built_in("GlobalInvocationID") : !spirv.ptr<vector<3xi32>, Input>  // error: attribute 'built_in' names 'GlobalInvocationID', which is not a BuiltIn
}

// -----

spirv.module Logical GLSL450 {
  spirv.SpecConstant @s = 1 : i32
  spirv.GlobalVariable @a : !spirv.ptr<f32, Private>
  "spirv.GlobalVariable"() <{initializer = @f, sym_name = "b", type = !spirv.ptr<f32, Private>}> : () -> ()  // error: references '@f', which is a spirv.func
  "spirv.GlobalVariable"() <{initializer = @s, sym_name = "c", type = !spirv.ptr<f32, Private>}> : () -> ()  // error: initializer has type i32, expected the pointee type f32
  "spirv.GlobalVariable"() <{initializer = @missing, sym_name = "d", type = !spirv.ptr<f32, Private>}> : () -> ()  // error: references undefined symbol '@missing'
  spirv.func @f() "None" {
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @g : !spirv.ptr<f32, Private>
  spirv.SpecConstant @s = 1 : i32
  spirv.func @f() "None" {
    %0 = spirv.mlir.addressof @g : !spirv.ptr<i32, Private>  // error: result type !spirv.ptr<i32, Private> does not match the type !spirv.ptr<f32, Private> of @g
    %1 = spirv.mlir.addressof @f : !spirv.ptr<f32, Private>  // error: references '@f', which is a spirv.func; expected a spirv.GlobalVariable
    %2 = spirv.mlir.addressof @nope : !spirv.ptr<f32, Private>  // error: references undefined symbol '@nope'
    %3 = spirv.mlir.referenceof @s : i64  // error: result type i64 does not match the type i32 of @s
    %4 = spirv.mlir.referenceof @g : i32  // error: which is a spirv.GlobalVariable; expected a spirv.SpecConstant
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @callee(%a: i32) -> i32 "None" {
    spirv.ReturnValue %a : i32
  }
  spirv.func @void() "None" {
    spirv.Return
  }
  spirv.func @caller(%x: i32, %y: f32) "None" {
    %0 = spirv.FunctionCall @nope(%x) : (i32) -> i32  // error: references undefined symbol '@nope'
    %1 = "spirv.FunctionCall"(%y) <{callee = @callee}> : (f32) -> i32  // error: operand #0 has type f32, expected i32 (parameter #0 of @callee)
    %2 = "spirv.FunctionCall"(%x, %x) <{callee = @callee}> : (i32, i32) -> i32  // error: passes 2 argument(s), but @callee takes 1
    %3 = "spirv.FunctionCall"(%x) <{callee = @callee}> : (i32) -> f32  // error: has result type f32, but @callee returns i32
    %4 = "spirv.FunctionCall"() <{callee = @void}> : () -> i32  // error: has result type i32, but @void returns no result
    "spirv.FunctionCall"(%x) <{callee = @callee}> : (i32) -> ()  // error: has no result, but @callee returns i32
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.SpecConstant @c = 1 : i32
  spirv.func @params(%a: i32) "None" {
    spirv.Return
  }
  spirv.func @main() "None" {
    spirv.Return
  }
  spirv.func @other() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @missing  // error: references undefined symbol '@missing'
  spirv.EntryPoint "GLCompute" @params
  spirv.EntryPoint "GLCompute" @main, @c  // error: references '@c', which is a spirv.SpecConstant; expected a spirv.GlobalVariable
  spirv.ExecutionMode @missing "LocalSize", 1, 1, 1  // error: references undefined symbol '@missing'
  spirv.ExecutionMode @other "LocalSize", 1, 1, 1  // error: applies to @other, which is not the function of any spirv.EntryPoint
  spirv.ExecutionMode @main "LocalSize", 1, 1, 1
}

// -----

spirv.module Logical GLSL450 {
  spirv.SpecConstant @a = 1 : i32
  spirv.SpecConstant @b = 1.0 : f32
  spirv.SpecConstantComposite @two (@a, @a) : !spirv.array<2 x i32>
  spirv.SpecConstantComposite @short (@a) : !spirv.array<2 x i32>  // error: has 1 constituent(s), expected 2
  spirv.SpecConstantComposite @mixed (@a, @b) : !spirv.array<2 x i32>  // error: constituent #1 (@b) has type f32, expected i32
  spirv.SpecConstantComposite @scalar (@a) : i32  // error: attribute 'type' must be a composite type
  spirv.SpecConstantComposite @huge (@a) : !spirv.array<2147483647 x i32>  // error: has 1 constituent(s), expected 2147483647
  "spirv.SpecConstant"() <{default_value = "x", sym_name = "str"}> : () -> ()  // error: attribute 'default_value' must be a scalar bool, integer or float
}
