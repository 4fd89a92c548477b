module attributes {gpu.container_module, spv.target_env = #spv.target_env<#spv.vce<v1.0, [Shader, Int8, StorageBuffer8BitAccess], [SPV_KHR_8bit_storage, SPV_KHR_storage_buffer_storage_class]>, #spv.resource_limits<>>} {
  spv.module @__spv__kernels Logical GLSL450 requires #spv.vce<v1.0, [Shader, StorageBuffer8BitAccess, Int8], [SPV_KHR_storage_buffer_storage_class, SPV_KHR_8bit_storage]> {
    spv.GlobalVariable @__builtin__GlobalInvocationId__ built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
    spv.GlobalVariable @add_arg_0 bind(0, 0) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @add_arg_1 bind(0, 1) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @add_arg_2 bind(0, 2) : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
    spv.GlobalVariable @add_arg_3 bind(0, 3) : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>
    spv.func @add() "None" attributes {workgroup_attributions = 0 : i64} {
      %0 = spv.mlir.addressof @add_arg_3 : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>
      %1 = spv.mlir.addressof @add_arg_2 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %2 = spv.mlir.addressof @add_arg_1 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %3 = spv.mlir.addressof @add_arg_0 : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>
      %4 = spv.mlir.addressof @__builtin__GlobalInvocationId__ : !spv.ptr<vector<3xi32>, Input>
      %5 = spv.Load "Input" %4 : vector<3xi32>
      %6 = spv.CompositeExtract %5[0 : i32] : vector<3xi32>
      %7 = spv.Constant 0 : i32
      %8 = spv.Constant 0 : i32
      %9 = spv.Constant 1 : i32
      %10 = spv.AccessChain %3[%7, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %11 = spv.Load "StorageBuffer" %10 : f32
      %12 = spv.Constant 0 : i32
      %13 = spv.Constant 0 : i32
      %14 = spv.Constant 1 : i32
      %15 = spv.AccessChain %2[%12, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %16 = spv.Load "StorageBuffer" %15 : f32
      %17 = spv.GLSL.Exp %11 : f32
      %18 = spv.FAdd %17, %16 : f32
      %19 = spv.Constant 0 : i32
      %20 = spv.Constant 4 : i32
      %21 = spv.Constant 1 : i32
      %22 = spv.Variable : !spv.ptr<f32, Function>
      spv.mlir.loop {
        spv.Branch ^bb1(%19, %18 : i32, f32)
      ^bb1(%38: i32, %39: f32):  // 2 preds: ^bb0, ^bb2
        %40 = spv.SLessThan %38, %20 : i32
        spv.BranchConditional %40, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %41 = spv.FMul %39, %39 : f32
        spv.Store "Function" %22, %41 : f32
        %42 = spv.IAdd %38, %21 : i32
        spv.Branch ^bb1(%42, %41 : i32, f32)
      ^bb3:  // pred: ^bb1
        spv.mlir.merge
      }
      %23 = spv.Load "Function" %22 : f32
      %24 = spv.FOrdLessThan %23, %16 : f32
      %25 = spv.Variable : !spv.ptr<f32, Function>
      spv.mlir.selection {
        spv.BranchConditional %24, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spv.Store "Function" %25, %23 : f32
        spv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %38 = spv.FNegate %23 : f32
        spv.Store "Function" %25, %38 : f32
        spv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spv.mlir.merge
      }
      %26 = spv.Load "Function" %25 : f32
      %27 = spv.Constant 0 : i32
      %28 = spv.Constant 0 : i32
      %29 = spv.Constant 1 : i32
      %30 = spv.AccessChain %0[%27, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x i8, stride=1> [0])>, StorageBuffer>, i32, i32
      %31 = spv.Load "StorageBuffer" %30 : i8
      %32 = spv.ConvertSToF %31 : i8 to f32
      %33 = spv.FAdd %26, %32 : f32
      %34 = spv.Constant 0 : i32
      %35 = spv.Constant 0 : i32
      %36 = spv.Constant 1 : i32
      %37 = spv.AccessChain %1[%34, %6] : !spv.ptr<!spv.struct<(!spv.array<64 x f32, stride=4> [0])>, StorageBuffer>, i32, i32
      spv.Store "StorageBuffer" %37, %33 : f32
      spv.Return
    }
    spv.EntryPoint "GLCompute" @add, @__builtin__GlobalInvocationId__
    spv.ExecutionMode @add "LocalSize", 64, 1, 1
  }
}
