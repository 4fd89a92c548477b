// Pointers, access chains, composites, variables and atomics (T6-T8, T10, T11).

spirv.module Logical GLSL450 {
  spirv.func @load_store(%a: i32, %p: !spirv.ptr<f32, Function>, %f: f32) "None" {
    %0 = "spirv.Load"(%a) : (i32) -> i32  // error: operand #0 has type i32, expected a pointer
    %1 = "spirv.Load"(%p) : (!spirv.ptr<f32, Function>) -> i32  // error: result has type i32, expected f32 (the pointee type of operand #0)
    "spirv.Store"(%p, %a) : (!spirv.ptr<f32, Function>, i32) -> ()  // error: operand #1 has type i32, expected f32 (the pointee type of operand #0)
    %2 = "spirv.Load"(%p) <{storage_class = #spirv.storage_class<Private>}> : (!spirv.ptr<f32, Function>) -> f32  // error: attribute 'storage_class' is Private, but the pointer's storage class is Function
    %3 = "spirv.Store"(%p, %f) : (!spirv.ptr<f32, Function>, f32) -> f32  // error: expected 0 result(s)
    %4 = "spirv.Load"(%p) <{memory_access = #spirv.memory_access<Aligned>}> : (!spirv.ptr<f32, Function>) -> f32  // error: attribute 'memory_access' sets Aligned but attribute 'alignment' holding its literal operand is missing
    %5 = "spirv.Load"(%p) <{alignment = 4 : i32, memory_access = #spirv.memory_access<Aligned>}> : (!spirv.ptr<f32, Function>) -> f32
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.GlobalVariable @buf bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>
  spirv.func @chains(%i: i32, %f: f32) "None" {
    %buf = spirv.mlir.addressof @buf : !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %c2 = spirv.Constant 2 : i32
    %c0_64 = spirv.Constant 0 : i64
    %0 = "spirv.AccessChain"(%buf, %c0, %i) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32, i32) -> !spirv.ptr<f32, StorageBuffer>
    %1 = "spirv.AccessChain"(%buf, %c0, %i) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32, i32) -> !spirv.ptr<f32, Function>  // error: result has type !spirv.ptr<f32, Function>, expected !spirv.ptr<f32, StorageBuffer>
    %2 = "spirv.AccessChain"(%buf, %i) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32) -> !spirv.ptr<i32, StorageBuffer>  // error: index #0 indexes into !spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])> and must be an integer spirv.Constant
    %3 = "spirv.AccessChain"(%buf, %c2) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32) -> !spirv.ptr<i32, StorageBuffer>  // error: index #0 is 2, out of range for
    %4 = "spirv.AccessChain"(%buf, %c0, %i, %i) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32, i32, i32) -> !spirv.ptr<f32, StorageBuffer>  // error: index #2 indexes into f32, which is not a composite
    %5 = "spirv.AccessChain"(%buf, %c0_64) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i64) -> !spirv.ptr<!spirv.array<4 x f32, stride=4>, StorageBuffer>
    %6 = "spirv.AccessChain"(%buf, %c0, %f) : (!spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=4> [0], i32 [16])>, StorageBuffer>, i32, f32) -> !spirv.ptr<f32, StorageBuffer>  // error: index #1 has type f32, expected an integer scalar
    %7 = "spirv.AccessChain"(%f, %c0) : (f32, i32) -> !spirv.ptr<f32, StorageBuffer>  // error: operand #0 has type f32, expected a pointer
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @composites(%v: vector<3xf32>, %f: f32, %a: i32, %s: !spirv.struct<(f32, i32)>, %v2: vector<2xf32>) "None" {
    %0 = "spirv.CompositeExtract"(%v) <{indices = [3 : i32]}> : (vector<3xf32>) -> f32  // error: index #0 is 3, out of range for vector<3xf32> with 3 constituent(s)
    %1 = "spirv.CompositeExtract"(%s) <{indices = [1 : i32]}> : (!spirv.struct<(f32, i32)>) -> f32  // error: result has type f32, expected i32 (the type the indices reach)
    %2 = "spirv.CompositeExtract"(%f) <{indices = [0 : i32]}> : (f32) -> f32  // error: index #0 cannot index into f32
    %3 = "spirv.CompositeInsert"(%a, %v) <{indices = [0 : i32]}> : (i32, vector<3xf32>) -> vector<3xf32>  // error: operand #0 has type i32, expected f32 (the type the indices reach in operand #1)
    %4 = "spirv.CompositeInsert"(%f, %v) <{indices = [0 : i32]}> : (f32, vector<3xf32>) -> vector<3xf32>
    %5 = "spirv.CompositeConstruct"(%f, %f) : (f32, f32) -> vector<3xf32>  // error: constituents have 2 component(s) in all, expected 3
    %6 = "spirv.CompositeConstruct"(%v2, %f) : (vector<2xf32>, f32) -> vector<3xf32>
    %7 = "spirv.CompositeConstruct"(%a, %a) : (i32, i32) -> !spirv.struct<(f32, i32)>  // error: operand #0 has type i32, expected f32 (the result's constituent type)
    %8 = "spirv.CompositeConstruct"(%a) : (i32) -> !spirv.array<2 x i32>  // error: has 1 constituent(s), expected 2
    %9 = "spirv.VectorShuffle"(%v, %v2) <{components = [0 : i32, 4 : i32, 5 : i32]}> : (vector<3xf32>, vector<2xf32>) -> vector<3xf32>  // error: component #2 selects 5, but the operands have 5 components in all
    %10 = "spirv.VectorShuffle"(%v, %v2) <{components = [0 : i32, 1 : i32]}> : (vector<3xf32>, vector<2xf32>) -> vector<3xf32>  // error: expected a vector of f32 with 2 component(s)
    %11 = "spirv.VectorExtractDynamic"(%v, %a) : (vector<3xf32>, i32) -> i32  // error: result has type i32, expected f32 (the vector's element type)
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @variables(%a: i32) "None" {
    %c = spirv.Constant 1 : i32
    %f = spirv.Constant 1.0 : f32
    %0 = spirv.Variable : !spirv.ptr<f32, Private>  // error: has storage class Private; it can only model function-level variables
    %1 = "spirv.Variable"(%f) <{storage_class = #spirv.storage_class<Function>}> : (f32) -> !spirv.ptr<i32, Function>  // error: operand #0 has type f32, expected i32 (the pointee type of the result)
    %2 = "spirv.Variable"(%a) <{storage_class = #spirv.storage_class<Function>}> : (i32) -> !spirv.ptr<i32, Function>  // error: initializer must be the result of a spirv.Constant
    %3 = "spirv.Variable"() <{binding = 0 : i32, storage_class = #spirv.storage_class<Function>}> : () -> !spirv.ptr<i32, Function>  // error: cannot have 'binding' attribute (only allowed in spirv.GlobalVariable)
    %4 = "spirv.Variable"() : () -> !spirv.ptr<i32, Function>  // error: requires attribute 'storage_class'
    %5 = spirv.Variable init(%c) : !spirv.ptr<i32, Function>
    spirv.Return
  }
}

// -----

spirv.module Logical GLSL450 {
  spirv.func @atomics(%p: !spirv.ptr<f32, StorageBuffer>, %q: !spirv.ptr<i32, StorageBuffer>, %a: i32, %f: f32) "None" {
    %0 = "spirv.AtomicIAdd"(%p, %f) <{memory_scope = #spirv.scope<Device>, semantics = #spirv.memory_semantics<None>}> : (!spirv.ptr<f32, StorageBuffer>, f32) -> f32  // error: operand #0 points to f32, expected a pointer to an integer scalar
    %1 = "spirv.AtomicIAdd"(%q, %f) <{memory_scope = #spirv.scope<Device>, semantics = #spirv.memory_semantics<None>}> : (!spirv.ptr<i32, StorageBuffer>, f32) -> i32  // error: operand #1 has type f32, expected i32 (the pointee type of operand #0)
    %2 = "spirv.AtomicIAdd"(%q, %a) <{memory_scope = #spirv.scope<Device>, semantics = #spirv.memory_semantics<None>}> : (!spirv.ptr<i32, StorageBuffer>, i32) -> i32
    %3 = "spirv.AtomicIAdd"(%q, %a) <{semantics = #spirv.memory_semantics<None>}> : (!spirv.ptr<i32, StorageBuffer>, i32) -> i32  // error: requires attribute 'memory_scope'
    spirv.Return
  }
}
