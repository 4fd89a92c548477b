module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Shader, Int8, StorageBuffer8BitAccess], [SPV_KHR_8bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spirv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @add_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @add_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spirv.func @add() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spirv.mlir.addressof @add_arg_3 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @add_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @add_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @add_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %4 = spirv.mlir.addressof @__builtin__GlobalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %5 = spirv.Load "Input" %4 : vector<3xi32>
      %6 = spirv.CompositeExtract %5[0 : i32] : vector<3xi32>
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 0 : i32
      %9 = spirv.Constant 1 : i32
      %10 = spirv.AccessChain %3[%7, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %11 = spirv.Load "StorageBuffer" %10 : f32
      %12 = spirv.Constant 0 : i32
      %13 = spirv.Constant 0 : i32
      %14 = spirv.Constant 1 : i32
      %15 = spirv.AccessChain %2[%12, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %16 = spirv.Load "StorageBuffer" %15 : f32
      %17 = spirv.GL.Exp %11 : f32
      %18 = spirv.FAdd %17, %16 : f32
      %19 = spirv.Constant 0 : i32
      %20 = spirv.Constant 4 : i32
      %21 = spirv.Constant 1 : i32
      %22 = spirv.Variable : !spirv.ptr<f32, Function>
      spirv.mlir.loop {
        spirv.Branch ^bb1(%19, %18 : i32, f32)
      ^bb1(%38: i32, %39: f32):  // 2 preds: ^bb0, ^bb2
        %40 = spirv.SLessThan %38, %20 : i32
        spirv.BranchConditional %40, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %41 = spirv.FMul %39, %39 : f32
        spirv.Store "Function" %22, %41 : f32
        %42 = spirv.IAdd %38, %21 : i32
        spirv.Branch ^bb1(%42, %41 : i32, f32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %23 = spirv.Load "Function" %22 : f32
      %24 = spirv.FOrdLessThan %23, %16 : f32
      %25 = spirv.Variable : !spirv.ptr<f32, Function>
      spirv.mlir.selection {
        spirv.BranchConditional %24, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %25, %23 : f32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %38 = spirv.FNegate %23 : f32
        spirv.Store "Function" %25, %38 : f32
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %26 = spirv.Load "Function" %25 : f32
      %27 = spirv.Constant 0 : i32
      %28 = spirv.Constant 0 : i32
      %29 = spirv.Constant 1 : i32
      %30 = spirv.AccessChain %0[%27, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %31 = spirv.Load "StorageBuffer" %30 : i8
      %32 = spirv.ConvertSToF %31 : i8 to f32
      %33 = spirv.FAdd %26, %32 : f32
      %34 = spirv.Constant 0 : i32
      %35 = spirv.Constant 0 : i32
      %36 = spirv.Constant 1 : i32
      %37 = spirv.AccessChain %1[%34, %6] : !spirv.ptr<!spirv.struct<(!spirv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %37, %33 : f32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @add, @__builtin__GlobalInvocationId__
    spirv.ExecutionMode @add "LocalSize", 64, 1, 1
  }
}
