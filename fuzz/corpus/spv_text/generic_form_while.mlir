// target-env: vulkan1.0
// The whole module in MLIR's generic form (mlir-opt-19 --mlir-print-op-generic).
"builtin.module"() ({
  "spirv.module"() <{addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>, sym_name = "__spv__kernels", vce_triple = #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>}> ({
    "spirv.GlobalVariable"() <{sym_name = "__builtin__LocalInvocationId__", type = !spirv.ptr<vector<3xi32>, Input>}> {built_in = "LocalInvocationId"} : () -> ()
    "spirv.GlobalVariable"() <{binding = 0 : i32, descriptor_set = 0 : i32, sym_name = "k_arg_0", type = !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.GlobalVariable"() <{binding = 1 : i32, descriptor_set = 0 : i32, sym_name = "k_arg_1", type = !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.GlobalVariable"() <{binding = 2 : i32, descriptor_set = 0 : i32, sym_name = "k_arg_2", type = !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = () -> (), sym_name = "k"}> ({
      %11 = "spirv.mlir.addressof"() <{variable = @k_arg_2}> : () -> !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %12 = "spirv.mlir.addressof"() <{variable = @k_arg_1}> : () -> !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %13 = "spirv.mlir.addressof"() <{variable = @k_arg_0}> : () -> !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %14 = "spirv.mlir.addressof"() <{variable = @__builtin__LocalInvocationId__}> : () -> !spirv.ptr<vector<3xi32>, Input>
      %15 = "spirv.Load"(%14) : (!spirv.ptr<vector<3xi32>, Input>) -> vector<3xi32>
      %16 = "spirv.CompositeExtract"(%15) <{indices = [0 : i32]}> : (vector<3xi32>) -> i32
      %17 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %18 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %19 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %20 = "spirv.AccessChain"(%13, %17, %16) : (!spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32) -> !spirv.ptr<f32, StorageBuffer>
      %21 = "spirv.Load"(%20) : (!spirv.ptr<f32, StorageBuffer>) -> f32
      %22 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %23 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %24 = "spirv.Constant"() <{value = 32 : i32}> : () -> i32
      %25 = "spirv.Variable"() <{storage_class = #spirv.storage_class<Function>}> : () -> !spirv.ptr<i32, Function>
      "spirv.mlir.loop"() <{loop_control = #spirv.loop_control<None>}> ({
        "spirv.Branch"(%23)[^bb1] : (i32) -> ()
      ^bb1(%35: i32):  // 2 preds: ^bb0, ^bb2
        %36 = "spirv.SLessThan"(%35, %24) : (i32, i32) -> i1
        "spirv.Store"(%25, %35) : (!spirv.ptr<i32, Function>, i32) -> ()
        "spirv.BranchConditional"(%36, %35)[^bb2, ^bb3] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
      ^bb2(%37: i32):  // pred: ^bb1
        %38 = "spirv.IAdd"(%37, %23) : (i32, i32) -> i32
        "spirv.Branch"(%38)[^bb1] : (i32) -> ()
      ^bb3:  // pred: ^bb1
        "spirv.mlir.merge"() : () -> ()
      }) : () -> ()
      %26 = "spirv.Load"(%25) : (!spirv.ptr<i32, Function>) -> i32
      %27 = "spirv.SLessThan"(%26, %24) : (i32, i32) -> i1
      %28 = "spirv.Variable"() <{storage_class = #spirv.storage_class<Function>}> : () -> !spirv.ptr<i32, Function>
      "spirv.mlir.selection"() <{selection_control = #spirv.selection_control<None>}> ({
        "spirv.BranchConditional"(%27)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()
      ^bb1:  // pred: ^bb0
        "spirv.Store"(%28, %26) : (!spirv.ptr<i32, Function>, i32) -> ()
        "spirv.Branch"()[^bb3] : () -> ()
      ^bb2:  // pred: ^bb0
        %34 = "spirv.ISub"(%23, %26) : (i32, i32) -> i32
        "spirv.Store"(%28, %34) : (!spirv.ptr<i32, Function>, i32) -> ()
        "spirv.Branch"()[^bb3] : () -> ()
      ^bb3:  // 2 preds: ^bb1, ^bb2
        "spirv.mlir.merge"() : () -> ()
      }) : () -> ()
      %29 = "spirv.Load"(%28) : (!spirv.ptr<i32, Function>) -> i32
      %30 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %31 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %32 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %33 = "spirv.AccessChain"(%11, %30, %16) : (!spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32) -> !spirv.ptr<i32, StorageBuffer>
      "spirv.Store"(%33, %29) : (!spirv.ptr<i32, StorageBuffer>, i32) -> ()
      "spirv.Return"() : () -> ()
    }) {workgroup_attributions = 1 : i64} : () -> ()
    "spirv.EntryPoint"() <{execution_model = #spirv.execution_model<GLCompute>, fn = @k, interface = [@__builtin__LocalInvocationId__]}> : () -> ()
    "spirv.ExecutionMode"() <{execution_mode = #spirv.execution_mode<LocalSize>, fn = @k, values = [64 : i32, 1 : i32, 1 : i32]}> : () -> ()
  }) : () -> ()
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<?xf32, #spirv.storage_class<StorageBuffer>>, memref<?xf32, #spirv.storage_class<StorageBuffer>>, memref<?xi32, #spirv.storage_class<StorageBuffer>>) -> ()}> ({
    ^bb0(%arg0: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %arg1: memref<?xf32, #spirv.storage_class<StorageBuffer>>, %arg2: memref<?xi32, #spirv.storage_class<StorageBuffer>>, %arg3: memref<64xf32, #spirv.storage_class<Workgroup>>):
      %0 = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %1 = "memref.load"(%arg0, %0) : (memref<?xf32, #spirv.storage_class<StorageBuffer>>, index) -> f32
      %2 = "arith.constant"() <{value = 0 : index}> : () -> index
      %3 = "arith.constant"() <{value = 1 : i32}> : () -> i32
      %4 = "arith.constant"() <{value = 32 : i32}> : () -> i32
      %5 = "scf.while"(%3) ({
      ^bb0(%arg5: i32):
        %10 = "arith.cmpi"(%arg5, %4) <{predicate = 2 : i64}> : (i32, i32) -> i1
        "scf.condition"(%10, %arg5) : (i1, i32) -> ()
      }, {
      ^bb0(%arg4: i32):
        %9 = "arith.addi"(%arg4, %3) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
        "scf.yield"(%9) : (i32) -> ()
      }) : (i32) -> i32
      %6 = "arith.cmpi"(%5, %4) <{predicate = 2 : i64}> : (i32, i32) -> i1
      %7 = "scf.if"(%6) ({
        "scf.yield"(%5) : (i32) -> ()
      }, {
        %8 = "arith.subi"(%3, %5) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
        "scf.yield"(%8) : (i32) -> ()
      }) : (i1) -> i32
      "memref.store"(%7, %arg2, %0) : (i32, memref<?xi32, #spirv.storage_class<StorageBuffer>>, index) -> ()
      "gpu.return"() : () -> ()
    }) {gpu.kernel, spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>, sym_name = "k", workgroup_attributions = 1 : i64} : () -> ()
    "gpu.module_end"() : () -> ()
  }) : () -> ()
}) {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} : () -> ()

