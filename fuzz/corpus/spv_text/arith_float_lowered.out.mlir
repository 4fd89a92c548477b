module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer16BitAccess, Float64, Float16], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @floats_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>
    spirv.func @floats() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spirv.mlir.addressof @floats_arg_4 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @floats_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @floats_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @floats_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %4 = spirv.mlir.addressof @floats_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %5 = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %6 = spirv.Load "Input" %5 : vector<3xi32>
      %7 = spirv.CompositeExtract %6[0 : i32] : vector<3xi32>
      %8 = spirv.Constant 0 : i32
      %9 = spirv.Constant 0 : i32
      %10 = spirv.Constant 1 : i32
      %11 = spirv.AccessChain %4[%8, %7] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %12 = spirv.Load "StorageBuffer" %11 : f32
      %13 = spirv.Constant 0 : i32
      %14 = spirv.Constant 0 : i32
      %15 = spirv.Constant 1 : i32
      %16 = spirv.AccessChain %3[%13, %7] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %17 = spirv.Load "StorageBuffer" %16 : f32
      %18 = spirv.FAdd %12, %17 : f32
      %19 = spirv.FSub %18, %17 : f32
      %20 = spirv.FMul %19, %12 : f32
      %21 = spirv.FDiv %20, %17 : f32
      %22 = spirv.FRem %21, %17 : f32
      %23 = spirv.FNegate %22 : f32
      %24 = spirv.GL.FMax %23, %12 : f32
      %25 = spirv.IsNan %23 : f32
      %26 = spirv.IsNan %12 : f32
      %27 = spirv.Select %25, %23, %24 : i1, f32
      %28 = spirv.Select %26, %12, %27 : i1, f32
      %29 = spirv.GL.FMin %28, %12 : f32
      %30 = spirv.IsNan %28 : f32
      %31 = spirv.IsNan %12 : f32
      %32 = spirv.Select %30, %28, %29 : i1, f32
      %33 = spirv.Select %31, %12, %32 : i1, f32
      %34 = spirv.GL.FMax %33, %12 : f32
      %35 = spirv.IsNan %33 : f32
      %36 = spirv.IsNan %12 : f32
      %37 = spirv.Select %35, %12, %34 : i1, f32
      %38 = spirv.Select %36, %33, %37 : i1, f32
      %39 = spirv.GL.FMin %38, %12 : f32
      %40 = spirv.IsNan %38 : f32
      %41 = spirv.IsNan %12 : f32
      %42 = spirv.Select %40, %12, %39 : i1, f32
      %43 = spirv.Select %41, %38, %42 : i1, f32
      %44 = spirv.FOrdLessThan %43, %12 : f32
      %45 = spirv.FUnordEqual %43, %12 : f32
      %46 = spirv.FOrdNotEqual %43, %12 : f32
      %47 = spirv.IsNan %43 : f32
      %48 = spirv.IsNan %12 : f32
      %49 = spirv.LogicalOr %47, %48 : i1
      %50 = spirv.LogicalNot %49 : i1
      %51 = spirv.IsNan %43 : f32
      %52 = spirv.IsNan %12 : f32
      %53 = spirv.LogicalOr %51, %52 : i1
      %54 = spirv.FOrdGreaterThanEqual %43, %12 : f32
      %55 = spirv.FUnordGreaterThan %43, %12 : f32
      %56 = spirv.LogicalAnd %44, %45 : i1
      %57 = spirv.LogicalOr %56, %46 : i1
      %58 = spirv.LogicalAnd %57, %50 : i1
      %59 = spirv.LogicalOr %58, %53 : i1
      %60 = spirv.LogicalAnd %59, %54 : i1
      %61 = spirv.LogicalOr %60, %55 : i1
      %62 = spirv.Select %61, %43, %17 : i1, f32
      %63 = spirv.Constant 2.500000e+00 : f32
      %64 = spirv.Constant 0x7F800000 : f32
      %65 = spirv.FMul %62, %63 : f32
      %66 = spirv.FConvert %65 : f32 to f16
      %67 = spirv.FConvert %66 : f16 to f64
      %68 = spirv.CompositeConstruct %65, %65, %65, %65 : (f32, f32, f32, f32) -> vector<4xf32>
      %69 = spirv.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
      %70 = spirv.FAdd %68, %69 : vector<4xf32>
      %71 = spirv.FOrdGreaterThan %70, %69 : vector<4xf32>
      %72 = spirv.Select %71, %70, %69 : vector<4xi1>, vector<4xf32>
      %73 = spirv.CompositeExtract %72[2 : i32] : vector<4xf32>
      %74 = spirv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %72, %69 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
      %75 = spirv.CompositeExtract %74[1 : i32] : vector<4xf32>
      %76 = spirv.CompositeInsert %75, %74[3 : i32] : f32 into vector<4xf32>
      %77 = spirv.FAdd %73, %75 : f32
      %78 = spirv.Constant 0 : i32
      %79 = spirv.Constant 0 : i32
      %80 = spirv.Constant 1 : i32
      %81 = spirv.AccessChain %2[%78, %7] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %81, %77 : f32
      %82 = spirv.Constant 0 : i32
      %83 = spirv.Constant 0 : i32
      %84 = spirv.Constant 1 : i32
      %85 = spirv.AccessChain %1[%82, %7] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %85, %66 : f16
      %86 = spirv.Constant 0 : i32
      %87 = spirv.Constant 0 : i32
      %88 = spirv.Constant 1 : i32
      %89 = spirv.AccessChain %0[%86, %7] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %89, %67 : f64
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @floats, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @floats "LocalSize", 32, 2, 1
  }
}
