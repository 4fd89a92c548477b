module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @math_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @math_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @math_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.func @math() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spirv.mlir.addressof @math_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @math_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @math_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %4 = spirv.Load "Input" %3 : vector<3xi32>
      %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spirv.Constant 0 : i32
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 1 : i32
      %9 = spirv.AccessChain %2[%6, %5] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %10 = spirv.Load "StorageBuffer" %9 : f32
      %11 = spirv.Constant 0 : i32
      %12 = spirv.Constant 0 : i32
      %13 = spirv.Constant 1 : i32
      %14 = spirv.AccessChain %0[%11, %5] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %15 = spirv.Load "StorageBuffer" %14 : i32
      %16 = spirv.GL.Exp %10 : f32
      %17 = spirv.GL.Log %16 : f32
      %18 = spirv.GL.Sqrt %17 : f32
      %19 = spirv.GL.InverseSqrt %18 : f32
      %20 = spirv.GL.Tanh %19 : f32
      %21 = spirv.GL.Sin %20 : f32
      %22 = spirv.GL.Cos %21 : f32
      %23 = spirv.Constant 0.000000e+00 : f32
      %24 = spirv.FOrdLessThan %22, %23 : f32
      %25 = spirv.GL.FAbs %22 : f32
      %26 = spirv.ConvertFToS %10 : f32 to i32
      %27 = spirv.Constant 1 : i32
      %28 = spirv.BitwiseAnd %26, %27 : i32
      %29 = spirv.IEqual %28, %27 : i32
      %30 = spirv.GL.Pow %25, %10 : f32
      %31 = spirv.FNegate %30 : f32
      %32 = spirv.LogicalAnd %24, %29 : i1
      %33 = spirv.Select %32, %31, %30 : i1, f32
      %34 = spirv.GL.Fma %33, %10, %22 : f32
      %35 = spirv.GL.FAbs %34 : f32
      %36 = spirv.GL.Floor %35 : f32
      %37 = spirv.GL.Ceil %36 : f32
      %38 = spirv.Constant 0.000000e+00 : f32
      %39 = spirv.Constant 1.000000e+00 : f32
      %40 = spirv.Constant 5.000000e-01 : f32
      %41 = spirv.GL.FAbs %37 : f32
      %42 = spirv.GL.Floor %41 : f32
      %43 = spirv.FSub %41, %42 : f32
      %44 = spirv.FOrdGreaterThanEqual %43, %40 : f32
      %45 = spirv.Select %44, %39, %38 : i1, f32
      %46 = spirv.FAdd %42, %45 : f32
      %47 = spirv.Constant -2147483648 : i32
      %48 = spirv.Constant 2147483647 : i32
      %49 = spirv.Bitcast %46 : f32 to i32
      %50 = spirv.Bitcast %37 : f32 to i32
      %51 = spirv.BitwiseAnd %49, %48 : i32
      %52 = spirv.BitwiseAnd %50, %47 : i32
      %53 = spirv.BitwiseOr %51, %52 : i32
      %54 = spirv.Bitcast %53 : i32 to f32
      %55 = spirv.GL.RoundEven %54 : f32
      %56 = spirv.Constant -2147483648 : i32
      %57 = spirv.Constant 2147483647 : i32
      %58 = spirv.Bitcast %55 : f32 to i32
      %59 = spirv.Bitcast %10 : f32 to i32
      %60 = spirv.BitwiseAnd %58, %57 : i32
      %61 = spirv.BitwiseAnd %59, %56 : i32
      %62 = spirv.BitwiseOr %60, %61 : i32
      %63 = spirv.Bitcast %62 : i32 to f32
      %64 = spirv.GL.Exp %63 : f32
      %65 = spirv.Constant 1.000000e+00 : f32
      %66 = spirv.FSub %64, %65 : f32
      %67 = spirv.Constant 1.000000e+00 : f32
      %68 = spirv.FAdd %67, %66 : f32
      %69 = spirv.GL.Log %68 : f32
      %70 = spirv.IsNan %69 : f32
      %71 = spirv.IsNan %69 : f32
      %72 = spirv.LogicalOr %70, %71 : i1
      %73 = spirv.Select %72, %10, %69 : i1, f32
      %74 = spirv.GL.SAbs %15 : i32
      %75 = spirv.Constant 1 : i32
      %76 = spirv.Constant 31 : i32
      %77 = spirv.Constant 32 : i32
      %78 = spirv.GL.FindUMsb %74 : i32
      %79 = spirv.ISub %76, %78 : i32
      %80 = spirv.ISub %77, %74 : i32
      %81 = spirv.ULessThanEqual %74, %75 : i32
      %82 = spirv.Select %81, %80, %79 : i1, i32
      %83 = spirv.ConvertSToF %82 : i32 to f32
      %84 = spirv.FAdd %73, %83 : f32
      %85 = spirv.ConvertSToF %15 : i32 to f32
      %86 = spirv.FAdd %84, %85 : f32
      %87 = spirv.Constant 0 : i32
      %88 = spirv.Constant 0 : i32
      %89 = spirv.Constant 1 : i32
      %90 = spirv.AccessChain %1[%87, %5] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %90, %86 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @math, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @math "LocalSize", 64, 1, 1
  }
}
