module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, StorageBuffer8BitAccess], [SPV_KHR_8bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @add_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spirv.func @add() "None" attributes {workgroup_attributions = 0 : i64} {
      %add_arg_3_addr = spirv.mlir.addressof @add_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %add_arg_2_addr = spirv.mlir.addressof @add_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %add_arg_1_addr = spirv.mlir.addressof @add_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %add_arg_0_addr = spirv.mlir.addressof @add_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %__builtin__GlobalInvocationId___addr = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %0 = spirv.Load "Input" %__builtin__GlobalInvocationId___addr : vector<3xi32>
      %1 = spirv.CompositeExtract %0[0 : i32] : vector<3xi32>
      %cst0_i32 = spirv.Constant 0 : i32
      %cst0_i32_0 = spirv.Constant 0 : i32
      %cst1_i32 = spirv.Constant 1 : i32
      %2 = spirv.AccessChain %add_arg_0_addr[%cst0_i32, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %3 = spirv.Load "StorageBuffer" %2 : f32
      %cst0_i32_1 = spirv.Constant 0 : i32
      %cst0_i32_2 = spirv.Constant 0 : i32
      %cst1_i32_3 = spirv.Constant 1 : i32
      %4 = spirv.AccessChain %add_arg_1_addr[%cst0_i32_1, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %5 = spirv.Load "StorageBuffer" %4 : f32
      %6 = spirv.GL.Exp %3 : f32
      %7 = spirv.FAdd %6, %5 : f32
      %cst0_i32_4 = spirv.Constant 0 : i32
      %cst4_i32 = spirv.Constant 4 : i32
      %cst1_i32_5 = spirv.Constant 1 : i32
      %8 = spirv.Variable : !spirv.ptr<f32, Function>
      spirv.mlir.loop {
        spirv.Branch ^bb1(%cst0_i32_4, %7 : i32, f32)
      ^bb1(%18: i32, %19: f32):  // 2 preds: ^bb0, ^bb2
        %20 = spirv.SLessThan %18, %cst4_i32 : i32
        spirv.BranchConditional %20, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %21 = spirv.FMul %19, %19 : f32
        spirv.Store "Function" %8, %21 : f32
        %22 = spirv.IAdd %18, %cst1_i32_5 : i32
        spirv.Branch ^bb1(%22, %21 : i32, f32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %9 = spirv.Load "Function" %8 : f32
      %10 = spirv.FOrdLessThan %9, %5 : f32
      %11 = spirv.Variable : !spirv.ptr<f32, Function>
      spirv.mlir.selection {
        spirv.BranchConditional %10, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %11, %9 : f32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %18 = spirv.FNegate %9 : f32
        spirv.Store "Function" %11, %18 : f32
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %12 = spirv.Load "Function" %11 : f32
      %cst0_i32_6 = spirv.Constant 0 : i32
      %cst0_i32_7 = spirv.Constant 0 : i32
      %cst1_i32_8 = spirv.Constant 1 : i32
      %13 = spirv.AccessChain %add_arg_3_addr[%cst0_i32_6, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %14 = spirv.Load "StorageBuffer" %13 : i8
      %15 = spirv.ConvertSToF %14 : i8 to f32
      %16 = spirv.FAdd %12, %15 : f32
      %cst0_i32_9 = spirv.Constant 0 : i32
      %cst0_i32_10 = spirv.Constant 0 : i32
      %cst1_i32_11 = spirv.Constant 1 : i32
      %17 = spirv.AccessChain %add_arg_2_addr[%cst0_i32_9, %1] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %17, %16 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @add, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @add "LocalSize", 64, 1, 1
  }
  gpu.module @kernels {
    gpu.func @add(%arg0: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %arg1: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %arg2: memref<64xf32, #spirv.storage_class<StorageBuffer>>, %arg3: memref<64xi8, #spirv.storage_class<StorageBuffer>>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %global_id_x = gpu.global_id  x
      %0 = memref.load %arg0[%global_id_x] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      %1 = memref.load %arg1[%global_id_x] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      %2 = spirv.GL.Exp %0 : f32
      %3 = arith.addf %2, %1 : f32
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c1 = arith.constant 1 : index
      %4 = scf.for %arg4 = %c0 to %c4 step %c1 iter_args(%arg5 = %3) -> (f32) {
        %10 = arith.mulf %arg5, %arg5 : f32
        scf.yield %10 : f32
      }
      %5 = arith.cmpf olt, %4, %1 : f32
      %6 = scf.if %5 -> (f32) {
        scf.yield %4 : f32
      } else {
        %10 = arith.negf %4 : f32
        scf.yield %10 : f32
      }
      %7 = memref.load %arg3[%global_id_x] : memref<64xi8, #spirv.storage_class<StorageBuffer>>
      %8 = arith.sitofp %7 : i8 to f32
      %9 = arith.addf %6, %8 : f32
      memref.store %9, %arg2[%global_id_x] : memref<64xf32, #spirv.storage_class<StorageBuffer>>
      gpu.return
    }
  }
}

