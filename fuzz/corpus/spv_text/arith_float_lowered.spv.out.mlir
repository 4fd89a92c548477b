module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spv.resource_limits<>>} {
  spv.module @__spv__kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader, StorageBuffer16BitAccess, Float64, Float16], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]> {
    spv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @floats_arg_0 bind(0, 0) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @floats_arg_1 bind(0, 1) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @floats_arg_2 bind(0, 2) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @floats_arg_3 bind(0, 3) : !spv.ptr<!spv.struct<(!spv.array<64 x f16, stride=2> [0])>, StorageBuffer>
    spv.GlobalVariable @floats_arg_4 bind(0, 4) : !spv.ptr<!spv.struct<(!spv.array<64 x f64, stride=8> [0])>, StorageBuffer>
    spv.func @floats() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spv.mlir.addressof @floats_arg_4 : !spv.ptr<!spv.struct<(!spv.array<64 x f64, stride=8> [0])>, StorageBuffer>
      %1 = spv.mlir.addressof @floats_arg_3 : !spv.ptr<!spv.struct<(!spv.array<64 x f16, stride=2> [0])>, StorageBuffer>
      %2 = spv.mlir.addressof @floats_arg_2 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spv.mlir.addressof @floats_arg_1 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %4 = spv.mlir.addressof @floats_arg_0 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %5 = spv.mlir.addressof @__builtin__GlobalInvocationId__ : !spv.ptr<vector<3xi32>, Input>
      %6 = spv.Load "Input" %5 : vector<3xi32>
      %7 = spv.CompositeExtract %6[0 : i32] : vector<3xi32>
      %8 = spv.Constant 0 : i32
      %9 = spv.Constant 0 : i32
      %10 = spv.Constant 1 : i32
      %11 = spv.AccessChain %4[%8, %7] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %12 = spv.Load "StorageBuffer" %11 : f32
      %13 = spv.Constant 0 : i32
      %14 = spv.Constant 0 : i32
      %15 = spv.Constant 1 : i32
      %16 = spv.AccessChain %3[%13, %7] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %17 = spv.Load "StorageBuffer" %16 : f32
      %18 = spv.FAdd %12, %17 : f32
      %19 = spv.FSub %18, %17 : f32
      %20 = spv.FMul %19, %12 : f32
      %21 = spv.FDiv %20, %17 : f32
      %22 = spv.FRem %21, %17 : f32
      %23 = spv.FNegate %22 : f32
      %24 = spv.GLSL.FMax %23, %12 : f32
      %25 = spv.IsNan %23 : f32
      %26 = spv.IsNan %12 : f32
      %27 = spv.Select %25, %23, %24 : i1, f32
      %28 = spv.Select %26, %12, %27 : i1, f32
      %29 = spv.GLSL.FMin %28, %12 : f32
      %30 = spv.IsNan %28 : f32
      %31 = spv.IsNan %12 : f32
      %32 = spv.Select %30, %28, %29 : i1, f32
      %33 = spv.Select %31, %12, %32 : i1, f32
      %34 = spv.GLSL.FMax %33, %12 : f32
      %35 = spv.IsNan %33 : f32
      %36 = spv.IsNan %12 : f32
      %37 = spv.Select %35, %12, %34 : i1, f32
      %38 = spv.Select %36, %33, %37 : i1, f32
      %39 = spv.GLSL.FMin %38, %12 : f32
      %40 = spv.IsNan %38 : f32
      %41 = spv.IsNan %12 : f32
      %42 = spv.Select %40, %12, %39 : i1, f32
      %43 = spv.Select %41, %38, %42 : i1, f32
      %44 = spv.FOrdLessThan %43, %12 : f32
      %45 = spv.FUnordEqual %43, %12 : f32
      %46 = spv.FOrdNotEqual %43, %12 : f32
      %47 = spv.IsNan %43 : f32
      %48 = spv.IsNan %12 : f32
      %49 = spv.LogicalOr %47, %48 : i1
      %50 = spv.LogicalNot %49 : i1
      %51 = spv.IsNan %43 : f32
      %52 = spv.IsNan %12 : f32
      %53 = spv.LogicalOr %51, %52 : i1
      %54 = spv.FOrdGreaterThanEqual %43, %12 : f32
      %55 = spv.FUnordGreaterThan %43, %12 : f32
      %56 = spv.LogicalAnd %44, %45 : i1
      %57 = spv.LogicalOr %56, %46 : i1
      %58 = spv.LogicalAnd %57, %50 : i1
      %59 = spv.LogicalOr %58, %53 : i1
      %60 = spv.LogicalAnd %59, %54 : i1
      %61 = spv.LogicalOr %60, %55 : i1
      %62 = spv.Select %61, %43, %17 : i1, f32
      %63 = spv.Constant 2.500000e+00 : f32
      %64 = spv.Constant 0x7F800000 : f32
      %65 = spv.FMul %62, %63 : f32
      %66 = spv.FConvert %65 : f32 to f16
      %67 = spv.FConvert %66 : f16 to f64
      %68 = spv.CompositeConstruct %65, %65, %65, %65 : (f32, f32, f32, f32) -> vector<4xf32>
      %69 = spv.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
      %70 = spv.FAdd %68, %69 : vector<4xf32>
      %71 = spv.FOrdGreaterThan %70, %69 : vector<4xf32>
      %72 = spv.Select %71, %70, %69 : vector<4xi1>, vector<4xf32>
      %73 = spv.CompositeExtract %72[2 : i32] : vector<4xf32>
      %74 = spv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %72, %69 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
      %75 = spv.CompositeExtract %74[1 : i32] : vector<4xf32>
      %76 = spv.CompositeInsert %75, %74[3 : i32] : f32 into vector<4xf32>
      %77 = spv.FAdd %73, %75 : f32
      %78 = spv.Constant 0 : i32
      %79 = spv.Constant 0 : i32
      %80 = spv.Constant 1 : i32
      %81 = spv.AccessChain %2[%78, %7] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %81, %77 : f32
      %82 = spv.Constant 0 : i32
      %83 = spv.Constant 0 : i32
      %84 = spv.Constant 1 : i32
      %85 = spv.AccessChain %1[%82, %7] : !spv.ptr<!spv.struct<(!spv.array<64 x f16, stride=2> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %85, %66 : f16
      %86 = spv.Constant 0 : i32
      %87 = spv.Constant 0 : i32
      %88 = spv.Constant 1 : i32
      %89 = spv.AccessChain %0[%86, %7] : !spv.ptr<!spv.struct<(!spv.array<64 x f64, stride=8> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %89, %67 : f64
      spv.Return
    }
    spv.EntryPoint "GLCompute" @floats, @__builtin__GlobalInvocationId__
    spv.ExecutionMode @floats "LocalSize", 32, 2, 1
  }
}
