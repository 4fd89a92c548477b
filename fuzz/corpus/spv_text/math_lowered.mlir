// target-env: vulkan1.0
// math-to-spirv output: GL.Exp/Log/Sqrt/InverseSqrt/Tanh/Sin/Cos/Pow/Fma/FAbs/SAbs,
// Floor/Ceil/Round/RoundEven/FindUMsb and the copysign/expm1/log1p expansions.
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @math_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @math_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @math_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.func @math() "None" attributes {workgroup_attributions = 0 : i64} {
      %math_arg_2_addr = spirv.mlir.addressof @math_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %math_arg_1_addr = spirv.mlir.addressof @math_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %math_arg_0_addr = spirv.mlir.addressof @math_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %__builtin__GlobalInvocationId___addr = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %__builtin__GlobalInvocationId___addr : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %cst0_i32 = spirv.Constant 0 : i32
      %cst0_i32_0 = spirv.Constant 0 : i32
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %math_arg_0_addr[%cst0_i32, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %3 = spirv.Load "StorageBuffer" %2 : f32
      %cst0_i32_1 = spirv.Constant 0 : i32
      %cst0_i32_2 = spirv.Constant 0 : i32
      %cst1_i32_3 = spirv.Constant 1 : i32
      %4 = spirv.AccessChain %math_arg_2_addr[%cst0_i32_1, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %5 = spirv.Load "StorageBuffer" %4 : i32
      %6 = spirv.GL.Exp %3 : f32
      %7 = spirv.GL.Log %6 : f32
      %8 = spirv.GL.Sqrt %7 : f32
      %9 = spirv.GL.InverseSqrt %8 : f32
      %10 = spirv.GL.Tanh %9 : f32
      %11 = spirv.GL.Sin %10 : f32
      %12 = spirv.GL.Cos %11 : f32
      %cst_f32 = spirv.Constant 0.000000e+00 : f32
      %13 = spirv.FOrdLessThan %12, %cst_f32 : f32
      %14 = spirv.GL.FAbs %12 : f32
      %15 = spirv.ConvertFToS %3 : f32 to i32
      %cst1_i32_4 = spirv.Constant 1 : i32
      %16 = spirv.BitwiseAnd %15, %cst1_i32_4 : i32
      %17 = spirv.IEqual %16, %cst1_i32_4 : i32
      %18 = spirv.GL.Pow %14, %3 : f32
      %19 = spirv.FNegate %18 : f32
      %20 = spirv.LogicalAnd %13, %17 : i1
      %21 = spirv.Select %20, %19, %18 : i1, f32
      %22 = spirv.GL.Fma %21, %3, %12 : f32
      %23 = spirv.GL.FAbs %22 : f32
      %24 = spirv.GL.Floor %23 : f32
      %25 = spirv.GL.Ceil %24 : f32
      %cst_f32_5 = spirv.Constant 0.000000e+00 : f32
      %cst_f32_6 = spirv.Constant 1.000000e+00 : f32
      %cst_f32_7 = spirv.Constant 5.000000e-01 : f32
      %26 = spirv.GL.FAbs %25 : f32
      %27 = spirv.GL.Floor %26 : f32
      %28 = spirv.FSub %26, %27 : f32
      %29 = spirv.FOrdGreaterThanEqual %28, %cst_f32_7 : f32
      %30 = spirv.Select %29, %cst_f32_6, %cst_f32_5 : i1, f32
      %31 = spirv.FAdd %27, %30 : f32
      %cst-2147483648_i32 = spirv.Constant -2147483648 : i32
      %cst2147483647_i32 = spirv.Constant 2147483647 : i32
      %32 = spirv.Bitcast %31 : f32 to i32
      %33 = spirv.Bitcast %25 : f32 to i32
      %34 = spirv.BitwiseAnd %32, %cst2147483647_i32 : i32
      %35 = spirv.BitwiseAnd %33, %cst-2147483648_i32 : i32
      %36 = spirv.BitwiseOr %34, %35 : i32
      %37 = spirv.Bitcast %36 : i32 to f32
      %38 = spirv.GL.RoundEven %37 : f32
      %cst-2147483648_i32_8 = spirv.Constant -2147483648 : i32
      %cst2147483647_i32_9 = spirv.Constant 2147483647 : i32
      %39 = spirv.Bitcast %38 : f32 to i32
      %40 = spirv.Bitcast %3 : f32 to i32
      %41 = spirv.BitwiseAnd %39, %cst2147483647_i32_9 : i32
      %42 = spirv.BitwiseAnd %40, %cst-2147483648_i32_8 : i32
      %43 = spirv.BitwiseOr %41, %42 : i32
      %44 = spirv.Bitcast %43 : i32 to f32
      %45 = spirv.GL.Exp %44 : f32
      %cst_f32_10 = spirv.Constant 1.000000e+00 : f32
      %46 = spirv.FSub %45, %cst_f32_10 : f32
      %cst_f32_11 = spirv.Constant 1.000000e+00 : f32
      %47 = spirv.FAdd %cst_f32_11, %46 : f32
      %48 = spirv.GL.Log %47 : f32
      %49 = spirv.IsNan %48 : f32
      %50 = spirv.IsNan %48 : f32
      %51 = spirv.LogicalOr %49, %50 : i1
      %52 = spirv.Select %51, %3, %48 : i1, f32
      %53 = spirv.GL.SAbs %5 : i32
      %cst1_i32_12 = spirv.Constant 1 : i32
      %cst31_i32 = spirv.Constant 31 : i32
      %cst32_i32 = spirv.Constant 32 : i32
      %54 = spirv.GL.FindUMsb %53 : i32
      %55 = spirv.ISub %cst31_i32, %54 : i32
      %56 = spirv.ISub %cst32_i32, %53 : i32
      %57 = spirv.ULessThanEqual %53, %cst1_i32_12 : i32
      %58 = spirv.Select %57, %56, %55 : i1, i32
      %59 = spirv.ConvertSToF %58 : i32 to f32
      %60 = spirv.FAdd %52, %59 : f32
      %61 = spirv.ConvertSToF %5 : i32 to f32
      %62 = spirv.FAdd %60, %61 : f32
      %cst0_i32_13 = spirv.Constant 0 : i32
      %cst0_i32_14 = spirv.Constant 0 : i32
      %cst1_i32_15 = spirv.Constant 1 : i32
      %63 = spirv.AccessChain %math_arg_1_addr[%cst0_i32_13, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %63, %62 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @math, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @math "LocalSize", 64, 1, 1
  }
  gpu.module @kernels {
    gpu.func @math(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %global_id_x = gpu.global_id  x
      %0 = memref.load %arg0[%global_id_x] : memref<64xf32>
      %1 = memref.load %arg2[%global_id_x] : memref<64xi32>
      %2 = spirv.GL.Exp %0 : f32
      %3 = spirv.GL.Log %2 : f32
      %4 = spirv.GL.Sqrt %3 : f32
      %5 = spirv.GL.InverseSqrt %4 : f32
      %6 = spirv.GL.Tanh %5 : f32
      %7 = spirv.GL.Sin %6 : f32
      %8 = spirv.GL.Cos %7 : f32
      %cst_f32 = spirv.Constant 0.000000e+00 : f32
      %9 = spirv.FOrdLessThan %8, %cst_f32 : f32
      %10 = spirv.GL.FAbs %8 : f32
      %11 = spirv.ConvertFToS %0 : f32 to i32
      %cst1_i32 = spirv.Constant 1 : i32
      %12 = spirv.BitwiseAnd %11, %cst1_i32 : i32
      %13 = spirv.IEqual %12, %cst1_i32 : i32
      %14 = spirv.GL.Pow %10, %0 : f32
      %15 = spirv.FNegate %14 : f32
      %16 = spirv.LogicalAnd %9, %13 : i1
      %17 = spirv.Select %16, %15, %14 : i1, f32
      %18 = spirv.GL.Fma %17, %0, %8 : f32
      %19 = spirv.GL.FAbs %18 : f32
      %20 = spirv.GL.Floor %19 : f32
      %21 = spirv.GL.Ceil %20 : f32
      %cst_f32_0 = spirv.Constant 0.000000e+00 : f32
      %cst_f32_1 = spirv.Constant 1.000000e+00 : f32
      %cst_f32_2 = spirv.Constant 5.000000e-01 : f32
      %22 = spirv.GL.FAbs %21 : f32
      %23 = spirv.GL.Floor %22 : f32
      %24 = spirv.FSub %22, %23 : f32
      %25 = spirv.FOrdGreaterThanEqual %24, %cst_f32_2 : f32
      %26 = spirv.Select %25, %cst_f32_1, %cst_f32_0 : i1, f32
      %27 = spirv.FAdd %23, %26 : f32
      %cst-2147483648_i32 = spirv.Constant -2147483648 : i32
      %cst2147483647_i32 = spirv.Constant 2147483647 : i32
      %28 = spirv.Bitcast %27 : f32 to i32
      %29 = spirv.Bitcast %21 : f32 to i32
      %30 = spirv.BitwiseAnd %28, %cst2147483647_i32 : i32
      %31 = spirv.BitwiseAnd %29, %cst-2147483648_i32 : i32
      %32 = spirv.BitwiseOr %30, %31 : i32
      %33 = spirv.Bitcast %32 : i32 to f32
      %34 = spirv.GL.RoundEven %33 : f32
      %cst-2147483648_i32_3 = spirv.Constant -2147483648 : i32
      %cst2147483647_i32_4 = spirv.Constant 2147483647 : i32
      %35 = spirv.Bitcast %34 : f32 to i32
      %36 = spirv.Bitcast %0 : f32 to i32
      %37 = spirv.BitwiseAnd %35, %cst2147483647_i32_4 : i32
      %38 = spirv.BitwiseAnd %36, %cst-2147483648_i32_3 : i32
      %39 = spirv.BitwiseOr %37, %38 : i32
      %40 = spirv.Bitcast %39 : i32 to f32
      %41 = spirv.GL.Exp %40 : f32
      %cst_f32_5 = spirv.Constant 1.000000e+00 : f32
      %42 = spirv.FSub %41, %cst_f32_5 : f32
      %cst_f32_6 = spirv.Constant 1.000000e+00 : f32
      %43 = spirv.FAdd %cst_f32_6, %42 : f32
      %44 = spirv.GL.Log %43 : f32
      %45 = arith.cmpf uno, %44, %44 : f32
      %46 = arith.select %45, %0, %44 : f32
      %47 = spirv.GL.SAbs %1 : i32
      %cst1_i32_7 = spirv.Constant 1 : i32
      %cst31_i32 = spirv.Constant 31 : i32
      %cst32_i32 = spirv.Constant 32 : i32
      %48 = spirv.GL.FindUMsb %47 : i32
      %49 = spirv.ISub %cst31_i32, %48 : i32
      %50 = spirv.ISub %cst32_i32, %47 : i32
      %51 = spirv.ULessThanEqual %47, %cst1_i32_7 : i32
      %52 = spirv.Select %51, %50, %49 : i1, i32
      %53 = arith.sitofp %52 : i32 to f32
      %54 = arith.addf %46, %53 : f32
      %55 = arith.sitofp %1 : i32 to f32
      %56 = arith.addf %54, %55 : f32
      memref.store %56, %arg1[%global_id_x] : memref<64xf32>
      gpu.return
    }
  }
}

