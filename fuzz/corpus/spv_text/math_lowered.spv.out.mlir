module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spv.resource_limits<>>} {
  spv.module @__spv__kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @math_arg_0 bind(0, 0) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @math_arg_1 bind(0, 1) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @math_arg_2 bind(0, 2) : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spv.func @math() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spv.mlir.addressof @math_arg_2 : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %1 = spv.mlir.addressof @math_arg_1 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %2 = spv.mlir.addressof @math_arg_0 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spv.mlir.addressof @__builtin__GlobalInvocationId__ : !spv.ptr<vector<3xi32>, Input>
      %4 = spv.Load "Input" %3 : vector<3xi32>
      %5 = spv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spv.Constant 0 : i32
      %7 = spv.Constant 0 : i32
      %8 = spv.Constant 1 : i32
      %9 = spv.AccessChain %2[%6, %5] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %10 = spv.Load "StorageBuffer" %9 : f32
      %11 = spv.Constant 0 : i32
      %12 = spv.Constant 0 : i32
      %13 = spv.Constant 1 : i32
      %14 = spv.AccessChain %0[%11, %5] : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %15 = spv.Load "StorageBuffer" %14 : i32
      %16 = spv.GLSL.Exp %10 : f32
      %17 = spv.GLSL.Log %16 : f32
      %18 = spv.GLSL.Sqrt %17 : f32
      %19 = spv.GLSL.InverseSqrt %18 : f32
      %20 = spv.GLSL.Tanh %19 : f32
      %21 = spv.GLSL.Sin %20 : f32
      %22 = spv.GLSL.Cos %21 : f32
      %23 = spv.Constant 0.000000e+00 : f32
      %24 = spv.FOrdLessThan %22, %23 : f32
      %25 = spv.GLSL.FAbs %22 : f32
      %26 = spv.ConvertFToS %10 : f32 to i32
      %27 = spv.Constant 1 : i32
      %28 = spv.BitwiseAnd %26, %27 : i32
      %29 = spv.IEqual %28, %27 : i32
      %30 = spv.GLSL.Pow %25, %10 : f32
      %31 = spv.FNegate %30 : f32
      %32 = spv.LogicalAnd %24, %29 : i1
      %33 = spv.Select %32, %31, %30 : i1, f32
      %34 = spv.GLSL.Fma %33, %10, %22 : f32
      %35 = spv.GLSL.FAbs %34 : f32
      %36 = spv.GLSL.Floor %35 : f32
      %37 = spv.GLSL.Ceil %36 : f32
      %38 = spv.Constant 0.000000e+00 : f32
      %39 = spv.Constant 1.000000e+00 : f32
      %40 = spv.Constant 5.000000e-01 : f32
      %41 = spv.GLSL.FAbs %37 : f32
      %42 = spv.GLSL.Floor %41 : f32
      %43 = spv.FSub %41, %42 : f32
      %44 = spv.FOrdGreaterThanEqual %43, %40 : f32
      %45 = spv.Select %44, %39, %38 : i1, f32
      %46 = spv.FAdd %42, %45 : f32
      %47 = spv.Constant -2147483648 : i32
      %48 = spv.Constant 2147483647 : i32
      %49 = spv.Bitcast %46 : f32 to i32
      %50 = spv.Bitcast %37 : f32 to i32
      %51 = spv.BitwiseAnd %49, %48 : i32
      %52 = spv.BitwiseAnd %50, %47 : i32
      %53 = spv.BitwiseOr %51, %52 : i32
      %54 = spv.Bitcast %53 : i32 to f32
      %55 = spv.GLSL.RoundEven %54 : f32
      %56 = spv.Constant -2147483648 : i32
      %57 = spv.Constant 2147483647 : i32
      %58 = spv.Bitcast %55 : f32 to i32
      %59 = spv.Bitcast %10 : f32 to i32
      %60 = spv.BitwiseAnd %58, %57 : i32
      %61 = spv.BitwiseAnd %59, %56 : i32
      %62 = spv.BitwiseOr %60, %61 : i32
      %63 = spv.Bitcast %62 : i32 to f32
      %64 = spv.GLSL.Exp %63 : f32
      %65 = spv.Constant 1.000000e+00 : f32
      %66 = spv.FSub %64, %65 : f32
      %67 = spv.Constant 1.000000e+00 : f32
      %68 = spv.FAdd %67, %66 : f32
      %69 = spv.GLSL.Log %68 : f32
      %70 = spv.IsNan %69 : f32
      %71 = spv.IsNan %69 : f32
      %72 = spv.LogicalOr %70, %71 : i1
      %73 = spv.Select %72, %10, %69 : i1, f32
      %74 = spv.GLSL.SAbs %15 : i32
      %75 = spv.Constant 1 : i32
      %76 = spv.Constant 31 : i32
      %77 = spv.Constant 32 : i32
      %78 = spv.GLSL.FindUMsb %74 : i32
      %79 = spv.ISub %76, %78 : i32
      %80 = spv.ISub %77, %74 : i32
      %81 = spv.ULessThanEqual %74, %75 : i32
      %82 = spv.Select %81, %80, %79 : i1, i32
      %83 = spv.ConvertSToF %82 : i32 to f32
      %84 = spv.FAdd %73, %83 : f32
      %85 = spv.ConvertSToF %15 : i32 to f32
      %86 = spv.FAdd %84, %85 : f32
      %87 = spv.Constant 0 : i32
      %88 = spv.Constant 0 : i32
      %89 = spv.Constant 1 : i32
      %90 = spv.AccessChain %1[%87, %5] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %90, %86 : f32
      spv.Return
    }
    spv.EntryPoint "GLCompute" @math, @__builtin__GlobalInvocationId__
    spv.ExecutionMode @math "LocalSize", 64, 1, 1
  }
}
