// target-env: vulkan1.0
// arith-to-spirv output (floats): arithmetic, NaN-aware min/max expansions,
// ordered/unordered comparisons, f16/f64 conversions, vector ops (mlir-opt-19).
module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int16, Int8, Float16, Float64, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, StorageBuffer8BitAccess, StorageBuffer16BitAccess], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer16BitAccess, Float64, Float16], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_16bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @floats_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>
    spirv.GlobalVariable @floats_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>
    spirv.func @floats() "None" attributes {workgroup_attributions = 0 : i64} {
      %floats_arg_4_addr = spirv.mlir.addressof @floats_arg_4 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>
      %floats_arg_3_addr = spirv.mlir.addressof @floats_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>
      %floats_arg_2_addr = spirv.mlir.addressof @floats_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %floats_arg_1_addr = spirv.mlir.addressof @floats_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %floats_arg_0_addr = spirv.mlir.addressof @floats_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %__builtin__GlobalInvocationId___addr = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %__builtin__GlobalInvocationId___addr : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %cst0_i32 = spirv.Constant 0 : i32
      %cst0_i32_0 = spirv.Constant 0 : i32
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %floats_arg_0_addr[%cst0_i32, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %3 = spirv.Load "StorageBuffer" %2 : f32
      %cst0_i32_1 = spirv.Constant 0 : i32
      %cst0_i32_2 = spirv.Constant 0 : i32
      %cst1_i32_3 = spirv.Constant 1 : i32
      %4 = spirv.AccessChain %floats_arg_1_addr[%cst0_i32_1, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %5 = spirv.Load "StorageBuffer" %4 : f32
      %6 = spirv.FAdd %3, %5 : f32
      %7 = spirv.FSub %6, %5 : f32
      %8 = spirv.FMul %7, %3 : f32
      %9 = spirv.FDiv %8, %5 : f32
      %10 = spirv.FRem %9, %5 : f32
      %11 = spirv.FNegate %10 : f32
      %12 = spirv.GL.FMax %11, %3 : f32
      %13 = spirv.IsNan %11 : f32
      %14 = spirv.IsNan %3 : f32
      %15 = spirv.Select %13, %11, %12 : i1, f32
      %16 = spirv.Select %14, %3, %15 : i1, f32
      %17 = spirv.GL.FMin %16, %3 : f32
      %18 = spirv.IsNan %16 : f32
      %19 = spirv.IsNan %3 : f32
      %20 = spirv.Select %18, %16, %17 : i1, f32
      %21 = spirv.Select %19, %3, %20 : i1, f32
      %22 = spirv.GL.FMax %21, %3 : f32
      %23 = spirv.IsNan %21 : f32
      %24 = spirv.IsNan %3 : f32
      %25 = spirv.Select %23, %3, %22 : i1, f32
      %26 = spirv.Select %24, %21, %25 : i1, f32
      %27 = spirv.GL.FMin %26, %3 : f32
      %28 = spirv.IsNan %26 : f32
      %29 = spirv.IsNan %3 : f32
      %30 = spirv.Select %28, %3, %27 : i1, f32
      %31 = spirv.Select %29, %26, %30 : i1, f32
      %32 = spirv.FOrdLessThan %31, %3 : f32
      %33 = spirv.FUnordEqual %31, %3 : f32
      %34 = spirv.FOrdNotEqual %31, %3 : f32
      %35 = spirv.IsNan %31 : f32
      %36 = spirv.IsNan %3 : f32
      %37 = spirv.LogicalOr %35, %36 : i1
      %38 = spirv.LogicalNot %37 : i1
      %39 = spirv.IsNan %31 : f32
      %40 = spirv.IsNan %3 : f32
      %41 = spirv.LogicalOr %39, %40 : i1
      %42 = spirv.FOrdGreaterThanEqual %31, %3 : f32
      %43 = spirv.FUnordGreaterThan %31, %3 : f32
      %44 = spirv.LogicalAnd %32, %33 : i1
      %45 = spirv.LogicalOr %44, %34 : i1
      %46 = spirv.LogicalAnd %45, %38 : i1
      %47 = spirv.LogicalOr %46, %41 : i1
      %48 = spirv.LogicalAnd %47, %42 : i1
      %49 = spirv.LogicalOr %48, %43 : i1
      %50 = spirv.Select %49, %31, %5 : i1, f32
      %cst_f32 = spirv.Constant 2.500000e+00 : f32
      %cst_f32_4 = spirv.Constant 0x7F800000 : f32
      %51 = spirv.FMul %50, %cst_f32 : f32
      %52 = spirv.FConvert %51 : f32 to f16
      %53 = spirv.FConvert %52 : f16 to f64
      %54 = spirv.CompositeConstruct %51, %51, %51, %51 : (f32, f32, f32, f32) -> vector<4xf32>
      %cst_vec_4xf32 = spirv.Constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
      %55 = spirv.FAdd %54, %cst_vec_4xf32 : vector<4xf32>
      %56 = spirv.FOrdGreaterThan %55, %cst_vec_4xf32 : vector<4xf32>
      %57 = spirv.Select %56, %55, %cst_vec_4xf32 : vector<4xi1>, vector<4xf32>
      %58 = spirv.CompositeExtract %57[2 : i32] : vector<4xf32>
      %59 = spirv.VectorShuffle [0 : i32, 5 : i32, 2 : i32, 7 : i32] %57, %cst_vec_4xf32 : vector<4xf32>, vector<4xf32> -> vector<4xf32>
      %60 = spirv.CompositeExtract %59[1 : i32] : vector<4xf32>
      %61 = spirv.CompositeInsert %60, %59[3 : i32] : f32 into vector<4xf32>
      %62 = spirv.FAdd %58, %60 : f32
      %cst0_i32_5 = spirv.Constant 0 : i32
      %cst0_i32_6 = spirv.Constant 0 : i32
      %cst1_i32_7 = spirv.Constant 1 : i32
      %63 = spirv.AccessChain %floats_arg_2_addr[%cst0_i32_5, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %63, %62 : f32
      %cst0_i32_8 = spirv.Constant 0 : i32
      %cst0_i32_9 = spirv.Constant 0 : i32
      %cst1_i32_10 = spirv.Constant 1 : i32
      %64 = spirv.AccessChain %floats_arg_3_addr[%cst0_i32_8, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f16, stride=2> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %64, %52 : f16
      %cst0_i32_11 = spirv.Constant 0 : i32
      %cst0_i32_12 = spirv.Constant 0 : i32
      %cst1_i32_13 = spirv.Constant 1 : i32
      %65 = spirv.AccessChain %floats_arg_4_addr[%cst0_i32_11, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f64, stride=8> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %65, %53 : f64
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @floats, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @floats "LocalSize", 32, 2, 1
  }
  gpu.module @kernels {
    gpu.func @floats(%arg0: memref<64xf32>, %arg1: memref<64xf32>, %arg2: memref<64xf32>, %arg3: memref<64xf16>, %arg4: memref<64xf64>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 2, 1]>} {
      %global_id_x = gpu.global_id  x
      %0 = memref.load %arg0[%global_id_x] : memref<64xf32>
      %1 = memref.load %arg1[%global_id_x] : memref<64xf32>
      %2 = arith.addf %0, %1 : f32
      %3 = arith.subf %2, %1 : f32
      %4 = arith.mulf %3, %0 : f32
      %5 = arith.divf %4, %1 : f32
      %6 = arith.remf %5, %1 : f32
      %7 = arith.negf %6 : f32
      %8 = arith.maximumf %7, %0 : f32
      %9 = arith.minimumf %8, %0 : f32
      %10 = arith.maxnumf %9, %0 : f32
      %11 = arith.minnumf %10, %0 : f32
      %12 = arith.cmpf olt, %11, %0 : f32
      %13 = arith.cmpf ueq, %11, %0 : f32
      %14 = arith.cmpf one, %11, %0 : f32
      %15 = arith.cmpf ord, %11, %0 : f32
      %16 = arith.cmpf uno, %11, %0 : f32
      %17 = arith.cmpf oge, %11, %0 : f32
      %18 = arith.cmpf ugt, %11, %0 : f32
      %19 = arith.andi %12, %13 : i1
      %20 = arith.ori %19, %14 : i1
      %21 = arith.andi %20, %15 : i1
      %22 = arith.ori %21, %16 : i1
      %23 = arith.andi %22, %17 : i1
      %24 = arith.ori %23, %18 : i1
      %25 = arith.select %24, %11, %1 : f32
      %cst = arith.constant 2.500000e+00 : f32
      %cst_0 = arith.constant 0x7F800000 : f32
      %26 = arith.mulf %25, %cst : f32
      %27 = arith.truncf %26 : f32 to f16
      %28 = arith.extf %27 : f16 to f64
      %29 = vector.broadcast %26 : f32 to vector<4xf32>
      %cst_1 = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : vector<4xf32>
      %30 = arith.addf %29, %cst_1 : vector<4xf32>
      %31 = arith.cmpf ogt, %30, %cst_1 : vector<4xf32>
      %32 = arith.select %31, %30, %cst_1 : vector<4xi1>, vector<4xf32>
      %33 = vector.extract %32[2] : f32 from vector<4xf32>
      %34 = vector.shuffle %32, %cst_1 [0, 5, 2, 7] : vector<4xf32>, vector<4xf32>
      %35 = vector.extract %34[1] : f32 from vector<4xf32>
      %36 = vector.insert %35, %34 [3] : f32 into vector<4xf32>
      %37 = arith.addf %33, %35 : f32
      memref.store %37, %arg2[%global_id_x] : memref<64xf32>
      memref.store %27, %arg3[%global_id_x] : memref<64xf16>
      memref.store %28, %arg4[%global_id_x] : memref<64xf64>
      gpu.return
    }
  }
}

