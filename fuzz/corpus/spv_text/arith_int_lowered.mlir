// target-env: vulkan1.0
// arith-to-spirv output (integers): arithmetic, min/max, comparisons, logical
// ops, shifts, select, conversions, extended add/multiply (mlir-opt-19).
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int64, Int16, Float16, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @ints_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @ints_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spirv.func @ints() "None" attributes {workgroup_attributions = 0 : i64} {
      %ints_arg_3_addr = spirv.mlir.addressof @ints_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %ints_arg_2_addr = spirv.mlir.addressof @ints_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %ints_arg_1_addr = spirv.mlir.addressof @ints_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %ints_arg_0_addr = spirv.mlir.addressof @ints_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>
      %__builtin__GlobalInvocationId___addr = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %__builtin__GlobalInvocationId___addr : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %cst0_i32 = spirv.Constant 0 : i32
      %cst0_i32_0 = spirv.Constant 0 : i32
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %ints_arg_0_addr[%cst0_i32, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %3 = spirv.Load "StorageBuffer" %2 : i32
      %cst0_i32_1 = spirv.Constant 0 : i32
      %cst0_i32_2 = spirv.Constant 0 : i32
      %cst1_i32_3 = spirv.Constant 1 : i32
      %4 = spirv.AccessChain %ints_arg_1_addr[%cst0_i32_1, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %5 = spirv.Load "StorageBuffer" %4 : i32
      %6 = spirv.IAdd %3, %5 : i32
      %7 = spirv.IMul %3, %3 : i32
      %8 = spirv.SDiv %7, %5 : i32
      %9 = spirv.UDiv %8, %5 : i32
      %10 = spirv.GL.SAbs %9 : i32
      %11 = spirv.GL.SAbs %5 : i32
      %12 = spirv.UMod %10, %11 : i32
      %13 = spirv.IEqual %9, %10 : i32
      %14 = spirv.SNegate %12 : i32
      %15 = spirv.Select %13, %12, %14 : i1, i32
      %16 = spirv.UMod %15, %5 : i32
      %17 = spirv.BitwiseAnd %16, %3 : i32
      %18 = spirv.BitwiseOr %17, %3 : i32
      %19 = spirv.BitwiseXor %18, %3 : i32
      %20 = spirv.ShiftLeftLogical %19, %5 : i32, i32
      %21 = spirv.ShiftRightArithmetic %20, %5 : i32, i32
      %22 = spirv.ShiftRightLogical %21, %5 : i32, i32
      %23 = spirv.GL.SMax %22, %3 : i32
      %24 = spirv.GL.SMin %23, %3 : i32
      %25 = spirv.GL.UMax %24, %3 : i32
      %26 = spirv.GL.UMin %25, %3 : i32
      %27 = spirv.SLessThan %26, %3 : i32
      %28 = spirv.IEqual %26, %3 : i32
      %29 = spirv.INotEqual %26, %3 : i32
      %30 = spirv.UGreaterThanEqual %26, %3 : i32
      %31 = spirv.SGreaterThan %26, %3 : i32
      %32 = spirv.ULessThanEqual %26, %3 : i32
      %33 = spirv.LogicalAnd %27, %28 : i1
      %34 = spirv.LogicalOr %33, %29 : i1
      %35 = spirv.LogicalNotEqual %34, %30 : i1
      %36 = spirv.LogicalAnd %35, %31 : i1
      %37 = spirv.LogicalOr %36, %32 : i1
      %38 = spirv.Select %37, %26, %3 : i1, i32
      %39 = spirv.SConvert %38 : i32 to i64
      %40 = spirv.SConvert %38 : i32 to i16
      %41 = spirv.UConvert %40 : i16 to i32
      %42 = spirv.ConvertSToF %41 : i32 to f32
      %43 = spirv.ConvertFToS %42 : f32 to i32
      %44 = spirv.ConvertUToF %43 : i32 to f16
      %45 = spirv.ConvertFToU %44 : f16 to i32
      %46 = spirv.Bitcast %45 : i32 to f32
      %47 = spirv.Bitcast %46 : f32 to i32
      %48 = spirv.IAddCarry %47, %5 : !spirv.struct<(i32, i32)>
      %49 = spirv.CompositeExtract %48[0 : i32] : !spirv.struct<(i32, i32)>
      %50 = spirv.CompositeExtract %48[1 : i32] : !spirv.struct<(i32, i32)>
      %cst1_i32_4 = spirv.Constant 1 : i32
      %51 = spirv.IEqual %50, %cst1_i32_4 : i32
      %52 = spirv.SMulExtended %49, %5 : !spirv.struct<(i32, i32)>
      %53 = spirv.CompositeExtract %52[0 : i32] : !spirv.struct<(i32, i32)>
      %54 = spirv.CompositeExtract %52[1 : i32] : !spirv.struct<(i32, i32)>
      %55 = spirv.UMulExtended %53, %5 : !spirv.struct<(i32, i32)>
      %56 = spirv.CompositeExtract %55[0 : i32] : !spirv.struct<(i32, i32)>
      %57 = spirv.CompositeExtract %55[1 : i32] : !spirv.struct<(i32, i32)>
      %cst0_i32_5 = spirv.Constant 0 : i32
      %cst0_i32_6 = spirv.Constant 0 : i32
      %cst1_i32_7 = spirv.Constant 1 : i32
      %58 = spirv.AccessChain %ints_arg_2_addr[%cst0_i32_5, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %58, %57 : i32
      %cst0_i32_8 = spirv.Constant 0 : i32
      %cst0_i32_9 = spirv.Constant 0 : i32
      %cst1_i32_10 = spirv.Constant 1 : i32
      %59 = spirv.AccessChain %ints_arg_3_addr[%cst0_i32_8, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %cst0_i8 = spirv.Constant 0 : i8
      %cst1_i8 = spirv.Constant 1 : i8
      %60 = spirv.Select %51, %cst1_i8, %cst0_i8 : i1, i8
      spirv.Store "StorageBuffer" %59, %60 : i8
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @ints, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @ints "LocalSize", 64, 1, 1
  }
  gpu.module @kernels {
    gpu.func @ints(%arg0: memref<64xi32>, %arg1: memref<64xi32>, %arg2: memref<64xi32>, %arg3: memref<64xi1>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %global_id_x = gpu.global_id  x
      %0 = memref.load %arg0[%global_id_x] : memref<64xi32>
      %1 = memref.load %arg1[%global_id_x] : memref<64xi32>
      %2 = arith.addi %0, %1 : i32
      %3 = arith.muli %0, %0 : i32
      %4 = arith.divsi %3, %1 : i32
      %5 = arith.divui %4, %1 : i32
      %6 = arith.remsi %5, %1 : i32
      %7 = arith.remui %6, %1 : i32
      %8 = arith.andi %7, %0 : i32
      %9 = arith.ori %8, %0 : i32
      %10 = arith.xori %9, %0 : i32
      %11 = arith.shli %10, %1 : i32
      %12 = arith.shrsi %11, %1 : i32
      %13 = arith.shrui %12, %1 : i32
      %14 = arith.maxsi %13, %0 : i32
      %15 = arith.minsi %14, %0 : i32
      %16 = arith.maxui %15, %0 : i32
      %17 = arith.minui %16, %0 : i32
      %18 = arith.cmpi slt, %17, %0 : i32
      %19 = arith.cmpi eq, %17, %0 : i32
      %20 = arith.cmpi ne, %17, %0 : i32
      %21 = arith.cmpi uge, %17, %0 : i32
      %22 = arith.cmpi sgt, %17, %0 : i32
      %23 = arith.cmpi ule, %17, %0 : i32
      %24 = arith.andi %18, %19 : i1
      %25 = arith.ori %24, %20 : i1
      %26 = arith.xori %25, %21 : i1
      %27 = arith.andi %26, %22 : i1
      %28 = arith.ori %27, %23 : i1
      %29 = arith.select %28, %17, %0 : i32
      %30 = arith.extsi %29 : i32 to i64
      %31 = arith.trunci %29 : i32 to i16
      %32 = arith.extui %31 : i16 to i32
      %33 = arith.sitofp %32 : i32 to f32
      %34 = arith.fptosi %33 : f32 to i32
      %35 = arith.uitofp %34 : i32 to f16
      %36 = arith.fptoui %35 : f16 to i32
      %37 = arith.bitcast %36 : i32 to f32
      %38 = arith.bitcast %37 : f32 to i32
      %sum, %overflow = arith.addui_extended %38, %1 : i32, i1
      %low, %high = arith.mulsi_extended %sum, %1 : i32
      %low_0, %high_1 = arith.mului_extended %low, %1 : i32
      %39 = arith.index_cast %high_1 : i32 to index
      %40 = arith.index_cast %39 : index to i32
      memref.store %40, %arg2[%global_id_x] : memref<64xi32>
      memref.store %overflow, %arg3[%global_id_x] : memref<64xi1>
      gpu.return
    }
  }
}

