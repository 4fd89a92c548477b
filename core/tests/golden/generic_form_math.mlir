// target-env: vulkan1.0
// The whole module in MLIR's generic form (mlir-opt-19 --mlir-print-op-generic).
"builtin.module"() ({
  "spirv.module"() <{addressing_model = #spirv.addressing_model<Logical>, memory_model = #spirv.memory_model<GLSL450>, sym_name = "__spv__kernels", vce_triple = #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>}> ({
    "spirv.GlobalVariable"() <{sym_name = "__builtin__GlobalInvocationId__", type = !spirv.ptr<vector<3xi32>, Input>}> {built_in = "GlobalInvocationId"} : () -> ()
    "spirv.GlobalVariable"() <{binding = 0 : i32, descriptor_set = 0 : i32, sym_name = "math_arg_0", type = !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.GlobalVariable"() <{binding = 1 : i32, descriptor_set = 0 : i32, sym_name = "math_arg_1", type = !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.GlobalVariable"() <{binding = 2 : i32, descriptor_set = 0 : i32, sym_name = "math_arg_2", type = !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>}> : () -> ()
    "spirv.func"() <{function_control = #spirv.function_control<None>, function_type = () -> (), sym_name = "math"}> ({
      %72 = "spirv.mlir.addressof"() <{variable = @math_arg_2}> : () -> !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %73 = "spirv.mlir.addressof"() <{variable = @math_arg_1}> : () -> !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %74 = "spirv.mlir.addressof"() <{variable = @math_arg_0}> : () -> !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %75 = "spirv.mlir.addressof"() <{variable = @__builtin__GlobalInvocationId__}> : () -> !spirv.ptr<vector<3xi32>, Input>
      %76 = "spirv.Load"(%75) : (!spirv.ptr<vector<3xi32>, Input>) -> vector<3xi32>
      %77 = "spirv.CompositeExtract"(%76) <{indices = [0 : i32]}> : (vector<3xi32>) -> i32
      %78 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %79 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %80 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %81 = "spirv.AccessChain"(%74, %78, %77) : (!spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32) -> !spirv.ptr<f32, StorageBuffer>
      %82 = "spirv.Load"(%81) : (!spirv.ptr<f32, StorageBuffer>) -> f32
      %83 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %84 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %85 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %86 = "spirv.AccessChain"(%72, %83, %77) : (!spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32) -> !spirv.ptr<i32, StorageBuffer>
      %87 = "spirv.Load"(%86) : (!spirv.ptr<i32, StorageBuffer>) -> i32
      %88 = "spirv.GL.Exp"(%82) : (f32) -> f32
      %89 = "spirv.GL.Log"(%88) : (f32) -> f32
      %90 = "spirv.GL.Sqrt"(%89) : (f32) -> f32
      %91 = "spirv.GL.InverseSqrt"(%90) : (f32) -> f32
      %92 = "spirv.GL.Tanh"(%91) : (f32) -> f32
      %93 = "spirv.GL.Sin"(%92) : (f32) -> f32
      %94 = "spirv.GL.Cos"(%93) : (f32) -> f32
      %95 = "spirv.Constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %96 = "spirv.FOrdLessThan"(%94, %95) : (f32, f32) -> i1
      %97 = "spirv.GL.FAbs"(%94) : (f32) -> f32
      %98 = "spirv.ConvertFToS"(%82) : (f32) -> i32
      %99 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %100 = "spirv.BitwiseAnd"(%98, %99) : (i32, i32) -> i32
      %101 = "spirv.IEqual"(%100, %99) : (i32, i32) -> i1
      %102 = "spirv.GL.Pow"(%97, %82) : (f32, f32) -> f32
      %103 = "spirv.FNegate"(%102) : (f32) -> f32
      %104 = "spirv.LogicalAnd"(%96, %101) : (i1, i1) -> i1
      %105 = "spirv.Select"(%104, %103, %102) : (i1, f32, f32) -> f32
      %106 = "spirv.GL.Fma"(%105, %82, %94) : (f32, f32, f32) -> f32
      %107 = "spirv.GL.FAbs"(%106) : (f32) -> f32
      %108 = "spirv.GL.Floor"(%107) : (f32) -> f32
      %109 = "spirv.GL.Ceil"(%108) : (f32) -> f32
      %110 = "spirv.Constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %111 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %112 = "spirv.Constant"() <{value = 5.000000e-01 : f32}> : () -> f32
      %113 = "spirv.GL.FAbs"(%109) : (f32) -> f32
      %114 = "spirv.GL.Floor"(%113) : (f32) -> f32
      %115 = "spirv.FSub"(%113, %114) : (f32, f32) -> f32
      %116 = "spirv.FOrdGreaterThanEqual"(%115, %112) : (f32, f32) -> i1
      %117 = "spirv.Select"(%116, %111, %110) : (i1, f32, f32) -> f32
      %118 = "spirv.FAdd"(%114, %117) : (f32, f32) -> f32
      %119 = "spirv.Constant"() <{value = -2147483648 : i32}> : () -> i32
      %120 = "spirv.Constant"() <{value = 2147483647 : i32}> : () -> i32
      %121 = "spirv.Bitcast"(%118) : (f32) -> i32
      %122 = "spirv.Bitcast"(%109) : (f32) -> i32
      %123 = "spirv.BitwiseAnd"(%121, %120) : (i32, i32) -> i32
      %124 = "spirv.BitwiseAnd"(%122, %119) : (i32, i32) -> i32
      %125 = "spirv.BitwiseOr"(%123, %124) : (i32, i32) -> i32
      %126 = "spirv.Bitcast"(%125) : (i32) -> f32
      %127 = "spirv.GL.RoundEven"(%126) : (f32) -> f32
      %128 = "spirv.Constant"() <{value = -2147483648 : i32}> : () -> i32
      %129 = "spirv.Constant"() <{value = 2147483647 : i32}> : () -> i32
      %130 = "spirv.Bitcast"(%127) : (f32) -> i32
      %131 = "spirv.Bitcast"(%82) : (f32) -> i32
      %132 = "spirv.BitwiseAnd"(%130, %129) : (i32, i32) -> i32
      %133 = "spirv.BitwiseAnd"(%131, %128) : (i32, i32) -> i32
      %134 = "spirv.BitwiseOr"(%132, %133) : (i32, i32) -> i32
      %135 = "spirv.Bitcast"(%134) : (i32) -> f32
      %136 = "spirv.GL.Exp"(%135) : (f32) -> f32
      %137 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %138 = "spirv.FSub"(%136, %137) : (f32, f32) -> f32
      %139 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %140 = "spirv.FAdd"(%139, %138) : (f32, f32) -> f32
      %141 = "spirv.GL.Log"(%140) : (f32) -> f32
      %142 = "spirv.IsNan"(%141) : (f32) -> i1
      %143 = "spirv.IsNan"(%141) : (f32) -> i1
      %144 = "spirv.LogicalOr"(%142, %143) : (i1, i1) -> i1
      %145 = "spirv.Select"(%144, %82, %141) : (i1, f32, f32) -> f32
      %146 = "spirv.GL.SAbs"(%87) : (i32) -> i32
      %147 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %148 = "spirv.Constant"() <{value = 31 : i32}> : () -> i32
      %149 = "spirv.Constant"() <{value = 32 : i32}> : () -> i32
      %150 = "spirv.GL.FindUMsb"(%146) : (i32) -> i32
      %151 = "spirv.ISub"(%148, %150) : (i32, i32) -> i32
      %152 = "spirv.ISub"(%149, %146) : (i32, i32) -> i32
      %153 = "spirv.ULessThanEqual"(%146, %147) : (i32, i32) -> i1
      %154 = "spirv.Select"(%153, %152, %151) : (i1, i32, i32) -> i32
      %155 = "spirv.ConvertSToF"(%154) : (i32) -> f32
      %156 = "spirv.FAdd"(%145, %155) : (f32, f32) -> f32
      %157 = "spirv.ConvertSToF"(%87) : (i32) -> f32
      %158 = "spirv.FAdd"(%156, %157) : (f32, f32) -> f32
      %159 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %160 = "spirv.Constant"() <{value = 0 : i32}> : () -> i32
      %161 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %162 = "spirv.AccessChain"(%73, %159, %77) : (!spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32) -> !spirv.ptr<f32, StorageBuffer>
      "spirv.Store"(%162, %158) : (!spirv.ptr<f32, StorageBuffer>, f32) -> ()
      "spirv.Return"() : () -> ()
    }) {workgroup_attributions = 0 : i64} : () -> ()
    "spirv.EntryPoint"() <{execution_model = #spirv.execution_model<GLCompute>, fn = @math, interface = [@__builtin__GlobalInvocationId__]}> : () -> ()
    "spirv.ExecutionMode"() <{execution_mode = #spirv.execution_mode<LocalSize>, fn = @math, values = [64 : i32, 1 : i32, 1 : i32]}> : () -> ()
  }) : () -> ()
  "gpu.module"() <{sym_name = "kernels"}> ({
    "gpu.func"() <{function_type = (memref<64xf32>, memref<64xf32>, memref<64xi32>) -> ()}> ({
    ^bb0(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xi32>):
      %0 = "gpu.global_id"() <{dimension = #gpu<dim x>}> : () -> index
      %1 = "memref.load"(%arg0, %0) : (memref<64xf32>, index) -> f32
      %2 = "memref.load"(%arg2, %0) : (memref<64xi32>, index) -> i32
      %3 = "spirv.GL.Exp"(%1) : (f32) -> f32
      %4 = "spirv.GL.Log"(%3) : (f32) -> f32
      %5 = "spirv.GL.Sqrt"(%4) : (f32) -> f32
      %6 = "spirv.GL.InverseSqrt"(%5) : (f32) -> f32
      %7 = "spirv.GL.Tanh"(%6) : (f32) -> f32
      %8 = "spirv.GL.Sin"(%7) : (f32) -> f32
      %9 = "spirv.GL.Cos"(%8) : (f32) -> f32
      %10 = "spirv.Constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %11 = "spirv.FOrdLessThan"(%9, %10) : (f32, f32) -> i1
      %12 = "spirv.GL.FAbs"(%9) : (f32) -> f32
      %13 = "spirv.ConvertFToS"(%1) : (f32) -> i32
      %14 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %15 = "spirv.BitwiseAnd"(%13, %14) : (i32, i32) -> i32
      %16 = "spirv.IEqual"(%15, %14) : (i32, i32) -> i1
      %17 = "spirv.GL.Pow"(%12, %1) : (f32, f32) -> f32
      %18 = "spirv.FNegate"(%17) : (f32) -> f32
      %19 = "spirv.LogicalAnd"(%11, %16) : (i1, i1) -> i1
      %20 = "spirv.Select"(%19, %18, %17) : (i1, f32, f32) -> f32
      %21 = "spirv.GL.Fma"(%20, %1, %9) : (f32, f32, f32) -> f32
      %22 = "spirv.GL.FAbs"(%21) : (f32) -> f32
      %23 = "spirv.GL.Floor"(%22) : (f32) -> f32
      %24 = "spirv.GL.Ceil"(%23) : (f32) -> f32
      %25 = "spirv.Constant"() <{value = 0.000000e+00 : f32}> : () -> f32
      %26 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %27 = "spirv.Constant"() <{value = 5.000000e-01 : f32}> : () -> f32
      %28 = "spirv.GL.FAbs"(%24) : (f32) -> f32
      %29 = "spirv.GL.Floor"(%28) : (f32) -> f32
      %30 = "spirv.FSub"(%28, %29) : (f32, f32) -> f32
      %31 = "spirv.FOrdGreaterThanEqual"(%30, %27) : (f32, f32) -> i1
      %32 = "spirv.Select"(%31, %26, %25) : (i1, f32, f32) -> f32
      %33 = "spirv.FAdd"(%29, %32) : (f32, f32) -> f32
      %34 = "spirv.Constant"() <{value = -2147483648 : i32}> : () -> i32
      %35 = "spirv.Constant"() <{value = 2147483647 : i32}> : () -> i32
      %36 = "spirv.Bitcast"(%33) : (f32) -> i32
      %37 = "spirv.Bitcast"(%24) : (f32) -> i32
      %38 = "spirv.BitwiseAnd"(%36, %35) : (i32, i32) -> i32
      %39 = "spirv.BitwiseAnd"(%37, %34) : (i32, i32) -> i32
      %40 = "spirv.BitwiseOr"(%38, %39) : (i32, i32) -> i32
      %41 = "spirv.Bitcast"(%40) : (i32) -> f32
      %42 = "spirv.GL.RoundEven"(%41) : (f32) -> f32
      %43 = "spirv.Constant"() <{value = -2147483648 : i32}> : () -> i32
      %44 = "spirv.Constant"() <{value = 2147483647 : i32}> : () -> i32
      %45 = "spirv.Bitcast"(%42) : (f32) -> i32
      %46 = "spirv.Bitcast"(%1) : (f32) -> i32
      %47 = "spirv.BitwiseAnd"(%45, %44) : (i32, i32) -> i32
      %48 = "spirv.BitwiseAnd"(%46, %43) : (i32, i32) -> i32
      %49 = "spirv.BitwiseOr"(%47, %48) : (i32, i32) -> i32
      %50 = "spirv.Bitcast"(%49) : (i32) -> f32
      %51 = "spirv.GL.Exp"(%50) : (f32) -> f32
      %52 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %53 = "spirv.FSub"(%51, %52) : (f32, f32) -> f32
      %54 = "spirv.Constant"() <{value = 1.000000e+00 : f32}> : () -> f32
      %55 = "spirv.FAdd"(%54, %53) : (f32, f32) -> f32
      %56 = "spirv.GL.Log"(%55) : (f32) -> f32
      %57 = "arith.cmpf"(%56, %56) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (f32, f32) -> i1
      %58 = "arith.select"(%57, %1, %56) : (i1, f32, f32) -> f32
      %59 = "spirv.GL.SAbs"(%2) : (i32) -> i32
      %60 = "spirv.Constant"() <{value = 1 : i32}> : () -> i32
      %61 = "spirv.Constant"() <{value = 31 : i32}> : () -> i32
      %62 = "spirv.Constant"() <{value = 32 : i32}> : () -> i32
      %63 = "spirv.GL.FindUMsb"(%59) : (i32) -> i32
      %64 = "spirv.ISub"(%61, %63) : (i32, i32) -> i32
      %65 = "spirv.ISub"(%62, %59) : (i32, i32) -> i32
      %66 = "spirv.ULessThanEqual"(%59, %60) : (i32, i32) -> i1
      %67 = "spirv.Select"(%66, %65, %64) : (i1, i32, i32) -> i32
      %68 = "arith.sitofp"(%67) : (i32) -> f32
      %69 = "arith.addf"(%58, %68) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      %70 = "arith.sitofp"(%2) : (i32) -> f32
      %71 = "arith.addf"(%69, %70) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
      "memref.store"(%71, %arg1, %0) : (f32, memref<64xf32>, index) -> ()
      "gpu.return"() : () -> ()
    }) {gpu.kernel, spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>, sym_name = "math", workgroup_attributions = 0 : i64} : () -> ()
    "gpu.module_end"() : () -> ()
  }) : () -> ()
}) {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} : () -> ()

