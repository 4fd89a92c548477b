"builtin.module"() ({
  "spirv.module"() <{addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>, vce_triple = #spirv.vce<v1.0, [Shader, Matrix], []>}> ({
    "spirv.GlobalVariable"() <{binding = 0 : i32, descriptor_set = 0 : i32, sym_name = "a", type = !spirv.ptr<!spirv.struct<(!spirv.array<4 x f32, stride=16> [0, NonWritable], !spirv.matrix<3 x vector<3xf32>> [64, ColMajor, MatrixStride=16])>, StorageBuffer>}> : () -> ()
    "spirv.GlobalVariable"() <{sym_name = "b", type = !spirv.ptr<!spirv.struct<ident, (f32, i32)>, Private>}> : () -> ()
    "spirv.GlobalVariable"() <{sym_name = "c", type = !spirv.ptr<!spirv.rtarray<i32, stride=4>, Private>}> : () -> ()
    "spirv.GlobalVariable"() <{binding = 1 : i32, descriptor_set = 0 : i32, sym_name = "img", type = !spirv.ptr<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>, UniformConstant>}> : () -> ()
    "spirv.SpecConstant"() <{default_value = 42 : i32, sym_name = "sc"}> {spec_id = 3 : i64} : () -> ()
    "spirv.SpecConstant"() <{default_value = true, sym_name = "sc2"}> : () -> ()
    "spirv.SpecConstantComposite"() <{constituents = [@sc, @sc], sym_name = "scc", type = !spirv.array<2 x i32>}> : () -> ()
    "spirv.func"() <{arg_attrs = [{spirv.decoration = #spirv.decoration<Restrict>}, {}], function_control = #spirv.function_control<Inline|Pure>, function_type = (i32, f32) -> i32, sym_name = "f"}> ({
    ^bb0(%arg1: i32, %arg2: f32):
      %4 = "spirv.mlir.referenceof"() <{spec_const = @sc}> : () -> i32
      %5 = "spirv.IAdd"(%arg1, %4) : (i32, i32) -> i32
      %6 = "spirv.Constant"() <{value = dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>}> : () -> vector<2xf32>
      %7 = "spirv.Constant"() <{value = 1.500000e+00 : f32}> : () -> f32
      %8 = "spirv.Constant"() <{value = [1 : i32, 2 : i32]}> : () -> !spirv.array<2 x i32>
      %9 = "spirv.Constant"() <{value = true}> : () -> i1
      "spirv.BranchConditional"(%9, %5)[^bb1, ^bb2] <{branch_weights = [5 : i32, 10 : i32], operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, i32) -> ()
    ^bb1:  // pred: ^bb0
      "spirv.ReturnValue"(%5) : (i32) -> ()
    ^bb2(%10: i32):  // pred: ^bb0
      %11 = "spirv.FunctionCall"(%10) <{callee = @g}> : (i32) -> i32
      "spirv.Branch"(%11)[^bb3] : (i32) -> ()
    ^bb3(%12: i32):  // pred: ^bb2
      %13 = "spirv.ISub"(%12, %5) {NoSignedWrap} : (i32, i32) -> i32
      "spirv.ReturnValue"(%13) : (i32) -> ()
    }) {foo = 1 : i32} : () -> ()
    "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = (i32) -> i32, sym_name = "g"}> ({
    ^bb0(%arg0: i32):
      %0 = "spirv.Constant"() <{value = 7 : i32}> : () -> i32
      %1 = "spirv.Variable"(%0) <{storage_class = #spirv.storage_class<Function>}> : (i32) -> !spirv.ptr<i32, Function>
      %2 = "spirv.Load"(%1) <{memory_access = #spirv.memory_access<Volatile>}> : (!spirv.ptr<i32, Function>) -> i32
      "spirv.ControlBarrier"() <{execution_scope = #spirv.scope<Workgroup>, memory_scope = #spirv.scope<Workgroup>, memory_semantics = #spirv.memory_semantics<AcquireRelease|WorkgroupMemory>}> : () -> ()
      %3 = "spirv.IMul"(%2, %2) : (i32, i32) -> i32
      "spirv.ReturnValue"(%2) : (i32) -> ()
    }) : () -> ()
    "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = () -> (), sym_name = "main"}> ({
      "spirv.Return"() : () -> ()
    }) : () -> ()
    "spirv.EntryPoint"() <{execution_model = #spirv.execution_model<GLCompute>, fn = @main, interface = []}> : () -> ()
    "spirv.ExecutionMode"() <{execution_mode = #spirv.execution_mode<LocalSize>, fn = @main, values = [1 : i32, 1 : i32, 1 : i32]}> : () -> ()
  }) : () -> ()
}) : () -> ()

