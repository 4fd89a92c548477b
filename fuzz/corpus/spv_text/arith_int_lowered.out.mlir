module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int64, Int16, Float16, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @ints_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spirv.func @ints() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spirv.mlir.addressof @ints_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @ints_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @ints_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @ints_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %4 = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %5 = spirv.Load "Input" %4 : vector<3xi32>
      %6 = spirv.CompositeExtract %5[0 : i32] : vector<3xi32>
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 0 : i32
      %9 = spirv.Constant 1 : i32
      %10 = spirv.AccessChain %3[%7, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %11 = spirv.Load "StorageBuffer" %10 : i32
      %12 = spirv.Constant 0 : i32
      %13 = spirv.Constant 0 : i32
      %14 = spirv.Constant 1 : i32
      %15 = spirv.AccessChain %2[%12, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %16 = spirv.Load "StorageBuffer" %15 : i32
      %17 = spirv.IAdd %11, %16 : i32
      %18 = spirv.IMul %11, %11 : i32
      %19 = spirv.SDiv %18, %16 : i32
      %20 = spirv.UDiv %19, %16 : i32
      %21 = spirv.GL.SAbs %20 : i32
      %22 = spirv.GL.SAbs %16 : i32
      %23 = spirv.UMod %21, %22 : i32
      %24 = spirv.IEqual %20, %21 : i32
      %25 = spirv.SNegate %23 : i32
      %26 = spirv.Select %24, %23, %25 : i1, i32
      %27 = spirv.UMod %26, %16 : i32
      %28 = spirv.BitwiseAnd %27, %11 : i32
      %29 = spirv.BitwiseOr %28, %11 : i32
      %30 = spirv.BitwiseXor %29, %11 : i32
      %31 = spirv.ShiftLeftLogical %30, %16 : i32, i32
      %32 = spirv.ShiftRightArithmetic %31, %16 : i32, i32
      %33 = spirv.ShiftRightLogical %32, %16 : i32, i32
      %34 = spirv.GL.SMax %33, %11 : i32
      %35 = spirv.GL.SMin %34, %11 : i32
      %36 = spirv.GL.UMax %35, %11 : i32
      %37 = spirv.GL.UMin %36, %11 : i32
      %38 = spirv.SLessThan %37, %11 : i32
      %39 = spirv.IEqual %37, %11 : i32
      %40 = spirv.INotEqual %37, %11 : i32
      %41 = spirv.UGreaterThanEqual %37, %11 : i32
      %42 = spirv.SGreaterThan %37, %11 : i32
      %43 = spirv.ULessThanEqual %37, %11 : i32
      %44 = spirv.LogicalAnd %38, %39 : i1
      %45 = spirv.LogicalOr %44, %40 : i1
      %46 = spirv.LogicalNotEqual %45, %41 : i1
      %47 = spirv.LogicalAnd %46, %42 : i1
      %48 = spirv.LogicalOr %47, %43 : i1
      %49 = spirv.Select %48, %37, %11 : i1, i32
      %50 = spirv.SConvert %49 : i32 to i64
      %51 = spirv.SConvert %49 : i32 to i16
      %52 = spirv.UConvert %51 : i16 to i32
      %53 = spirv.ConvertSToF %52 : i32 to f32
      %54 = spirv.ConvertFToS %53 : f32 to i32
      %55 = spirv.ConvertUToF %54 : i32 to f16
      %56 = spirv.ConvertFToU %55 : f16 to i32
      %57 = spirv.Bitcast %56 : i32 to f32
      %58 = spirv.Bitcast %57 : f32 to i32
      %59 = spirv.IAddCarry %58, %16 : !spirv.struct<(i32, i32)>
      %60 = spirv.CompositeExtract %59[0 : i32] : !spirv.struct<(i32, i32)>
      %61 = spirv.CompositeExtract %59[1 : i32] : !spirv.struct<(i32, i32)>
      %62 = spirv.Constant 1 : i32
      %63 = spirv.IEqual %61, %62 : i32
      %64 = spirv.SMulExtended %60, %16 : !spirv.struct<(i32, i32)>
      %65 = spirv.CompositeExtract %64[0 : i32] : !spirv.struct<(i32, i32)>
      %66 = spirv.CompositeExtract %64[1 : i32] : !spirv.struct<(i32, i32)>
      %67 = spirv.UMulExtended %65, %16 : !spirv.struct<(i32, i32)>
      %68 = spirv.CompositeExtract %67[0 : i32] : !spirv.struct<(i32, i32)>
      %69 = spirv.CompositeExtract %67[1 : i32] : !spirv.struct<(i32, i32)>
      %70 = spirv.Constant 0 : i32
      %71 = spirv.Constant 0 : i32
      %72 = spirv.Constant 1 : i32
      %73 = spirv.AccessChain %1[%70, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %73, %69 : i32
      %74 = spirv.Constant 0 : i32
      %75 = spirv.Constant 0 : i32
      %76 = spirv.Constant 1 : i32
      %77 = spirv.AccessChain %0[%74, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %78 = spirv.Constant 0 : i8
      %79 = spirv.Constant 1 : i8
      %80 = spirv.Select %63, %79, %78 : i1, i8
      spirv.Store "StorageBuffer" %77, %80 : i8
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @ints, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @ints "LocalSize", 64, 1, 1
  }
}
