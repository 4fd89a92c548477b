module attributes {gpu.container_module, spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader, GroupNonUniform, GroupNonUniformArithmetic, GroupNonUniformShuffle, GroupNonUniformBallot, GroupNonUniformVote], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
  spirv.module @__spv__kernels Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
    spirv.GlobalVariable @__builtin__LocalInvocationId__ built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
    spirv.GlobalVariable @k_arg_0 bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_1 bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    spirv.GlobalVariable @k_arg_2 bind(0, 2) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    spirv.func @k() "None" attributes {workgroup_attributions = 1 : i64} {
      %0 = spirv.mlir.addressof @k_arg_2 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %1 = spirv.mlir.addressof @k_arg_1 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %2 = spirv.mlir.addressof @k_arg_0 : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
      %3 = spirv.mlir.addressof @__builtin__LocalInvocationId__ : !spirv.ptr<vector<3xi32>, Input>
      %4 = spirv.Load "Input" %3 : vector<3xi32>
      %5 = spirv.CompositeExtract %4[0 : i32] : vector<3xi32>
      %6 = spirv.Constant 0 : i32
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 1 : i32
      %9 = spirv.AccessChain %2[%6, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
      %10 = spirv.Load "StorageBuffer" %9 : f32
      %11 = spirv.Constant 0 : i32
      %12 = spirv.Constant 1 : i32
      %13 = spirv.Constant 32 : i32
      %14 = spirv.Variable : !spirv.ptr<i32, Function>
      spirv.mlir.loop {
        spirv.Branch ^bb1(%12 : i32)
      ^bb1(%23: i32):  // 2 preds: ^bb0, ^bb2
        %24 = spirv.SLessThan %23, %13 : i32
        spirv.Store "Function" %14, %23 : i32
        spirv.BranchConditional %24, ^bb2(%23 : i32), ^bb3
      ^bb2(%25: i32):  // pred: ^bb1
        %26 = spirv.IAdd %25, %12 : i32
        spirv.Branch ^bb1(%26 : i32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %15 = spirv.Load "Function" %14 : i32
      %16 = spirv.SLessThan %15, %13 : i32
      %17 = spirv.Variable : !spirv.ptr<i32, Function>
      spirv.mlir.selection {
        spirv.BranchConditional %16, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %17, %15 : i32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %23 = spirv.ISub %12, %15 : i32
        spirv.Store "Function" %17, %23 : i32
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %18 = spirv.Load "Function" %17 : i32
      %19 = spirv.Constant 0 : i32
      %20 = spirv.Constant 0 : i32
      %21 = spirv.Constant 1 : i32
      %22 = spirv.AccessChain %0[%19, %5] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %22, %18 : i32
      spirv.Return
    }
    spirv.EntryPoint "GLCompute" @k, @__builtin__LocalInvocationId__
    spirv.ExecutionMode @k "LocalSize", 64, 1, 1
  }
}
