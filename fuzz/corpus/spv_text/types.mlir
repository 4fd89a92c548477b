// Grammar shape (O1-O4) and operand/result types (T1-T5, T9, T12-T14).

spirv.module Logical GLSL450 {
  spirv.func @arith(%a: i32, %f: f32, %v: vector<2xi32>) "None" {
    %0 = "spirv.IAdd"(%a, %f) : (i32, f32) -> i32  // error: operand #1 has type f32, expected i32 (same as operand #0)
    %1 = "spirv.IAdd"(%f, %f) : (f32, f32) -> f32  // error: operand #0 has type f32, expected an integer scalar or vector
    %2 = "spirv.FAdd"(%f, %f) : (f32, f32) -> i32  // error: result has type i32, expected f32 (same as operand #0)
    %3 = "spirv.IMul"(%v, %v) : (vector<2xi32>, vector<2xi32>) -> vector<2xi32>
    %4 = "spirv.SNegate"(%f) : (f32) -> f32  // error: expected an integer scalar or vector
    %5 = "spirv.FNegate"(%a) : (i32) -> i32  // error: expected a float scalar or vector
    %6 = "spirv.BitwiseAnd"(%a, %v) : (i32, vector<2xi32>) -> i32  // error: operand #1 has type vector<2xi32>, expected i32
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @shape(%a: i32) "None" {
    %0 = "spirv.IAdd"(%a) : (i32) -> i32  // error: expected 2 operand(s), found 1
    "spirv.IAdd"(%a, %a) : (i32, i32) -> ()  // error: expected 1 result(s)
    %1 = "spirv.GL.Exp"() : () -> f32  // error: expected 1 operand(s), found 0
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @shifts(%a: i32, %v: vector<2xi32>, %s: i16) "None" {
    %0 = "spirv.ShiftLeftLogical"(%a, %s) : (i32, i16) -> i32
    %1 = "spirv.ShiftLeftLogical"(%v, %a) : (vector<2xi32>, i32) -> vector<2xi32>  // error: operand #1 has type i32 with 1 component(s), expected 2
    %2 = "spirv.BitCount"(%v) : (vector<2xi32>) -> i32  // error: the result has type i32 with 1 component(s), expected 2
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @compare(%a: i32, %f: f32, %v: vector<3xf32>, %b: i1) "None" {
    %0 = "spirv.SLessThan"(%a, %a) : (i32, i32) -> i32  // error: result has type i32, expected i1
    %1 = "spirv.FOrdLessThan"(%v, %v) : (vector<3xf32>, vector<3xf32>) -> vector<2xi1>  // error: expected vector<3xi1>
    %2 = "spirv.IEqual"(%f, %f) : (f32, f32) -> i1  // error: operand #0 has type f32, expected an integer scalar or vector
    %3 = "spirv.LogicalAnd"(%a, %a) : (i32, i32) -> i32  // error: operand #0 has type i32, expected an i1 scalar or vector
    %4 = "spirv.IsNan"(%a) : (i32) -> i1  // error: expected a float scalar or vector
    %5 = "spirv.Any"(%b) : (i1) -> i1  // error: expected a vector of i1
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @select(%b: i1, %bv: vector<2xi1>, %a: i32, %f: f32, %v: vector<3xi32>) "None" {
    %0 = "spirv.Select"(%a, %a, %a) : (i32, i32, i32) -> i32  // error: operand #0 has type i32, expected an i1 scalar or vector
    %1 = "spirv.Select"(%b, %a, %f) : (i1, i32, f32) -> i32  // error: operand #2 has type f32, expected i32 (the result type)
    %2 = "spirv.Select"(%bv, %v, %v) : (vector<2xi1>, vector<3xi32>, vector<3xi32>) -> vector<3xi32>  // error: has a vector condition of type vector<2xi1>
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @convert(%a: i32, %f: f32, %v: vector<2xf32>, %h: f16) "None" {
    %0 = "spirv.ConvertSToF"(%f) : (f32) -> f32  // error: operand #0 has type f32, expected an integer scalar or vector
    %1 = "spirv.ConvertFToS"(%v) : (vector<2xf32>) -> i32  // error: the result has type i32 with 1 component(s), expected 2
    %2 = "spirv.SConvert"(%a) : (i32) -> i32  // error: expected different bit widths
    %3 = "spirv.FConvert"(%h) : (f16) -> f32
    %4 = "spirv.Bitcast"(%a) : (i32) -> f64  // error: expected equal total bit widths
    %5 = "spirv.Bitcast"(%v) : (vector<2xf32>) -> i64
    %6 = "spirv.UConvert"(%f) : (f32) -> i64  // error: expected an integer scalar or vector
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @glsl(%a: i32, %f: f32, %v: vector<3xf32>) "None" {
    %0 = "spirv.GL.Exp"(%a) : (i32) -> i32  // error: operand #0 has type i32, expected a float scalar or vector
    %1 = "spirv.GL.SMax"(%f, %f) : (f32, f32) -> f32  // error: expected an integer scalar or vector
    %2 = "spirv.GL.FMax"(%f, %v) : (f32, vector<3xf32>) -> f32  // error: operand #1 has type vector<3xf32>, expected f32
    %3 = "spirv.GL.Length"(%v) : (vector<3xf32>) -> vector<3xf32>  // error: result has type vector<3xf32>, expected f32
    %4 = "spirv.GL.FindUMsb"(%f) : (f32) -> i32  // error: expected an integer scalar or vector
    %5 = "spirv.GL.Sqrt"(%v) : (vector<3xf32>) -> vector<3xf32>
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @extended(%a: i32, %b: i16, %v: vector<3xf32>, %f: f32) "None" {
    %0 = "spirv.IAddCarry"(%a, %a) : (i32, i32) -> i32  // error: expected a struct of two members of the operand type i32
    %1 = "spirv.IAddCarry"(%a, %b) : (i32, i16) -> !spirv.struct<(i32, i32)>  // error: operand #1 has type i16, expected i32
    %2 = "spirv.UMulExtended"(%a, %a) : (i32, i32) -> !spirv.struct<(i32, i32)>
    %3 = "spirv.Dot"(%v, %v) : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>  // error: result has type vector<3xf32>, expected f32
    %4 = "spirv.Dot"(%f, %f) : (f32, f32) -> f32  // error: expected a float vector
    %5 = "spirv.VectorTimesScalar"(%v, %a) : (vector<3xf32>, i32) -> vector<3xf32>  // error: operand #1 has type i32, expected f32
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @constants() "None" {
    %0 = "spirv.Constant"() <{value = 1 : i32}> : () -> i64  // error: result type i64 does not match the value's type i32
    %1 = "spirv.Constant"() <{value = true}> : () -> i32  // error: has a boolean value but result type i32; expected i1
    %2 = "spirv.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : vector<3xf32>}> : () -> vector<2xf32>  // error: does not match the value's type vector<3xf32>
    %3 = "spirv.Constant"() <{value = [1 : i32]}> : () -> !spirv.array<2 x i32>  // error: has 1 array element(s), expected 2
    %4 = "spirv.Constant"() <{value = [1 : i32, 2.0 : f32]}> : () -> !spirv.array<2 x i32>  // error: array element #1: result type i32 does not match the value's type f32
    %5 = "spirv.Constant"() : () -> i32  // error: requires attribute 'value'
    %6 = "spirv.Constant"() <{value = "s"}> : () -> i32  // error: attribute 'value' must be an integer, float, boolean, dense or array attribute
    %7 = "spirv.Constant"() <{value = [1 : i32, 2 : i32]}> : () -> !spirv.array<2 x i32>
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @attrs() "None" {
    "spirv.ControlBarrier"() <{execution_scope = #spirv.scope<Workgroup>, memory_scope = #spirv.scope<Workgroup>}> : () -> ()  // error: requires attribute 'memory_semantics'
    "spirv.ControlBarrier"() <{execution_scope = #spirv.storage_class<Workgroup>, memory_scope = #spirv.scope<Workgroup>, memory_semantics = #spirv.memory_semantics<None>}> : () -> ()  // error: attribute 'execution_scope' must be an enum attribute of kind Scope, found one of kind StorageClass
    "spirv.ControlBarrier"() <{execution_scope = 2 : i32, memory_scope = #spirv.scope<Workgroup>, memory_semantics = #spirv.memory_semantics<None>}> : () -> ()  // error: attribute 'execution_scope' must be an enum attribute of kind Scope, found the integer 2
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @subgroup(%a: i32, %f: f32, %b: i1) "None" {
    %0 = "spirv.GroupNonUniformIAdd"(%f) <{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}> : (f32) -> f32  // error: operand #0 has type f32, expected an integer scalar or vector
    %1 = "spirv.GroupNonUniformFAdd"(%f) <{execution_scope = #spirv.scope<Subgroup>}> : (f32) -> f32  // error: requires attribute 'group_operation'
    %2 = "spirv.GroupNonUniformFMax"(%f) <{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}> : (f32) -> i32  // error: result has type i32, expected f32 (same as the value operand)
    %3 = "spirv.GroupNonUniformBallot"(%b) <{execution_scope = #spirv.scope<Subgroup>}> : (i1) -> vector<4xi16>  // error: expected vector<4xi32>
    %4 = "spirv.GroupNonUniformElect"() <{execution_scope = #spirv.scope<Subgroup>}> : () -> i32  // error: result has type i32, expected i1
    %5 = "spirv.GroupNonUniformShuffle"(%f, %f) <{execution_scope = #spirv.scope<Subgroup>}> : (f32, f32) -> f32  // error: operand #1 (id, delta or cluster size) has type f32, expected an integer scalar
    %6 = "spirv.GroupNonUniformIAdd"(%a) <{execution_scope = #spirv.scope<Subgroup>, group_operation = #spirv.group_operation<Reduce>}> : (i32) -> i32
    spirv.Return
  }
}
