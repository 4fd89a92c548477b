module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spv.resource_limits<>>} {
  spv.module @__spv__kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int64, Int16, Float16, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @ints_arg_0 bind(0, 0) : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @ints_arg_1 bind(0, 1) : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @ints_arg_2 bind(0, 2) : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @ints_arg_3 bind(0, 3) : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spv.func @ints() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spv.mlir.addressof @ints_arg_3 : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %1 = spv.mlir.addressof @ints_arg_2 : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %2 = spv.mlir.addressof @ints_arg_1 : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %3 = spv.mlir.addressof @ints_arg_0 : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %4 = spv.mlir.addressof @__builtin__GlobalInvocationId__ : !spv.ptr<vector<3xi32>, Input>
      %5 = spv.Load "Input" %4 : vector<3xi32>
      %6 = spv.CompositeExtract %5[0 : i32] : vector<3xi32>
      %7 = spv.Constant 0 : i32
      %8 = spv.Constant 0 : i32
      %9 = spv.Constant 1 : i32
      %10 = spv.AccessChain %3[%7, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %11 = spv.Load "StorageBuffer" %10 : i32
      %12 = spv.Constant 0 : i32
      %13 = spv.Constant 0 : i32
      %14 = spv.Constant 1 : i32
      %15 = spv.AccessChain %2[%12, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %16 = spv.Load "StorageBuffer" %15 : i32
      %17 = spv.IAdd %11, %16 : i32
      %18 = spv.IMul %11, %11 : i32
      %19 = spv.SDiv %18, %16 : i32
      %20 = spv.UDiv %19, %16 : i32
      %21 = spv.GLSL.SAbs %20 : i32
      %22 = spv.GLSL.SAbs %16 : i32
      %23 = spv.UMod %21, %22 : i32
      %24 = spv.IEqual %20, %21 : i32
      %25 = spv.SNegate %23 : i32
      %26 = spv.Select %24, %23, %25 : i1, i32
      %27 = spv.UMod %26, %16 : i32
      %28 = spv.BitwiseAnd %27, %11 : i32
      %29 = spv.BitwiseOr %28, %11 : i32
      %30 = spv.BitwiseXor %29, %11 : i32
      %31 = spv.ShiftLeftLogical %30, %16 : i32, i32
      %32 = spv.ShiftRightArithmetic %31, %16 : i32, i32
      %33 = spv.ShiftRightLogical %32, %16 : i32, i32
      %34 = spv.GLSL.SMax %33, %11 : i32
      %35 = spv.GLSL.SMin %34, %11 : i32
      %36 = spv.GLSL.UMax %35, %11 : i32
      %37 = spv.GLSL.UMin %36, %11 : i32
      %38 = spv.SLessThan %37, %11 : i32
      %39 = spv.IEqual %37, %11 : i32
      %40 = spv.INotEqual %37, %11 : i32
      %41 = spv.UGreaterThanEqual %37, %11 : i32
      %42 = spv.SGreaterThan %37, %11 : i32
      %43 = spv.ULessThanEqual %37, %11 : i32
      %44 = spv.LogicalAnd %38, %39 : i1
      %45 = spv.LogicalOr %44, %40 : i1
      %46 = spv.LogicalNotEqual %45, %41 : i1
      %47 = spv.LogicalAnd %46, %42 : i1
      %48 = spv.LogicalOr %47, %43 : i1
      %49 = spv.Select %48, %37, %11 : i1, i32
      %50 = spv.SConvert %49 : i32 to i64
      %51 = spv.SConvert %49 : i32 to i16
      %52 = spv.UConvert %51 : i16 to i32
      %53 = spv.ConvertSToF %52 : i32 to f32
      %54 = spv.ConvertFToS %53 : f32 to i32
      %55 = spv.ConvertUToF %54 : i32 to f16
      %56 = spv.ConvertFToU %55 : f16 to i32
      %57 = spv.Bitcast %56 : i32 to f32
      %58 = spv.Bitcast %57 : f32 to i32
      %59 = spv.IAddCarry %58, %16 : !spv.struct<(i32, i32)>
      %60 = spv.CompositeExtract %59[0 : i32] : !spv.struct<(i32, i32)>
      %61 = spv.CompositeExtract %59[1 : i32] : !spv.struct<(i32, i32)>
      %62 = spv.Constant 1 : i32
      %63 = spv.IEqual %61, %62 : i32
      %64 = spv.SMulExtended %60, %16 : !spv.struct<(i32, i32)>
      %65 = spv.CompositeExtract %64[0 : i32] : !spv.struct<(i32, i32)>
      %66 = spv.CompositeExtract %64[1 : i32] : !spv.struct<(i32, i32)>
      %67 = spv.UMulExtended %65, %16 : !spv.struct<(i32, i32)>
      %68 = spv.CompositeExtract %67[0 : i32] : !spv.struct<(i32, i32)>
      %69 = spv.CompositeExtract %67[1 : i32] : !spv.struct<(i32, i32)>
      %70 = spv.Constant 0 : i32
      %71 = spv.Constant 0 : i32
      %72 = spv.Constant 1 : i32
      %73 = spv.AccessChain %1[%70, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %73, %69 : i32
      %74 = spv.Constant 0 : i32
      %75 = spv.Constant 0 : i32
      %76 = spv.Constant 1 : i32
      %77 = spv.AccessChain %0[%74, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %78 = spv.Constant 0 : i8
      %79 = spv.Constant 1 : i8
      %80 = spv.Select %63, %79, %78 : i1, i8
      spv.Store "StorageBuffer" %77, %80 : i8
      spv.Return
    }
    spv.EntryPoint "GLCompute" @ints, @__builtin__GlobalInvocationId__
    spv.ExecutionMode @ints "LocalSize", 64, 1, 1
  }
}
