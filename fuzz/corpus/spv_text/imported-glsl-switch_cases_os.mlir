spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_20 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_105 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : i32
    %7 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %8 = spirv.AccessChain %7[%6] : !spirv.ptr<vector<3xi32>, Input>, i32
    %9 = spirv.Load "Input" %8 : i32
    %10 = spirv.Constant 0 : i32
    %11 = spirv.Constant 63 : i32
    %12 = spirv.BitwiseAnd %9, %11 : i32
    %13 = spirv.mlir.addressof @spirv_var_20 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %14 = spirv.AccessChain %13[%10, %12] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %15 = spirv.Load "StorageBuffer" %14 : i32
    %16 = spirv.Constant 6 : i32
    %17 = spirv.UMod %15, %16 : i32
    spirv.mlir.selection {
      %23 = spirv.Constant 0 : i32
      %24 = spirv.Constant 0 : i32
      spirv.Switch %17 : i32, [
        default: ^bb1,
        0: ^bb3,
        1: ^bb4(%23 : i32),
        4: ^bb2(%24 : i32),
        5: ^bb5
      ]
    ^bb1:  // pred: ^bb0
      %25 = spirv.Constant 9 : i32
      spirv.Branch ^bb2(%25 : i32)
    ^bb2(%26: i32):  // 2 preds: ^bb0, ^bb1
      spirv.mlir.selection {
        %33 = spirv.Constant 1 : i32
        %34 = spirv.Constant 2 : i32
        %35 = spirv.Constant 9 : i32
        %36 = spirv.Constant 3 : i32
        %37 = spirv.Constant 100 : i32
        %38 = spirv.Constant 300 : i32
        %39 = spirv.Constant 55 : i32
        %40 = spirv.Constant 10 : i32
        %41 = spirv.Constant 1 : i32
        %42 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
        %43 = spirv.BitwiseAnd %15, %36 : i32
        spirv.Switch %43 : i32, [
          default: ^bb1(%26 : i32),
          0: ^bb2,
          3: ^bb3
        ]
      ^bb1(%44: i32):  // 2 preds: ^bb0, ^bb3
        %45 = spirv.Constant 1 : i32
        %46 = spirv.IAdd %44, %45 : i32
        spirv.Store "Function" %2, %46 : i32
        spirv.Branch ^bb4
      ^bb2:  // pred: ^bb0
        %47 = spirv.Constant 100 : i32
        %48 = spirv.IAdd %26, %47 : i32
        spirv.Store "Function" %2, %48 : i32
        spirv.Branch ^bb4
      ^bb3:  // pred: ^bb0
        %49 = spirv.Constant 300 : i32
        %50 = spirv.IAdd %26, %49 : i32
        spirv.Branch ^bb1(%50 : i32)
      ^bb4:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %27 = spirv.Load "Function" %2 : i32
      spirv.Store "Function" %1, %27 : i32
      spirv.Branch ^bb6
    ^bb3:  // pred: ^bb0
      %28 = spirv.Constant 1 : i32
      spirv.Branch ^bb4(%28 : i32)
    ^bb4(%29: i32):  // 2 preds: ^bb0, ^bb3
      %30 = spirv.Constant 2 : i32
      %31 = spirv.IAdd %29, %30 : i32
      spirv.Store "Function" %1, %31 : i32
      spirv.Branch ^bb6
    ^bb5:  // pred: ^bb0
      %32 = spirv.Constant 55 : i32
      spirv.Store "Function" %1, %32 : i32
      spirv.Branch ^bb6
    ^bb6:  // 3 preds: ^bb2, ^bb4, ^bb5
      spirv.mlir.merge
    }
    %18 = spirv.Load "Function" %1 : i32
    %19 = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%18, %19 : i32, i32)
    ^bb1(%23: i32, %24: i32):  // 2 preds: ^bb0, ^bb4
      spirv.Store "Function" %0, %23 : i32
      %25 = spirv.Constant 10 : i32
      %26 = spirv.ULessThan %24, %25 : i32
      spirv.BranchConditional %26, ^bb2, ^bb5
    ^bb2:  // pred: ^bb1
      %27 = spirv.Constant 0 : i32
      spirv.Store "Function" %3, %27 : i32
      spirv.mlir.selection {
        %40 = spirv.IAdd %15, %24 : i32
        %41 = spirv.Constant 3 : i32
        %42 = spirv.BitwiseAnd %40, %41 : i32
        spirv.Switch %42 : i32, [
          default: ^bb1,
          0: ^bb2,
          1: ^bb3,
          2: ^bb4
        ]
      ^bb1:  // pred: ^bb0
        %43 = spirv.Constant 1 : i32
        %44 = spirv.IAdd %23, %43 : i32
        spirv.Store "Function" %5, %44 : i32
        spirv.Branch ^bb5
      ^bb2:  // pred: ^bb0
        spirv.Store "Function" %4, %23 : i32
        %45 = spirv.Constant 1 : i32
        spirv.Store "Function" %3, %45 : i32
        spirv.Branch ^bb5
      ^bb3:  // pred: ^bb0
        %46 = spirv.IAdd %23, %24 : i32
        spirv.Store "Function" %5, %46 : i32
        spirv.Branch ^bb5
      ^bb4:  // pred: ^bb0
        %47 = spirv.BitwiseXor %23, %24 : i32
        spirv.Store "Function" %5, %47 : i32
        spirv.Branch ^bb5
      ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
        spirv.mlir.merge
      }
      %28 = spirv.Load "Function" %3 : i32
      %29 = spirv.Constant 1 : i32
      %30 = spirv.IEqual %28, %29 : i32
      %31 = spirv.Load "Function" %4 : i32
      spirv.BranchConditional %30, ^bb4(%31 : i32), ^bb3
    ^bb3:  // pred: ^bb2
      %32 = spirv.Load "Function" %5 : i32
      %33 = spirv.Constant 3 : i32
      %34 = spirv.IMul %32, %33 : i32
      %35 = spirv.Constant 1 : i32
      %36 = spirv.IAdd %34, %35 : i32
      spirv.Branch ^bb4(%36 : i32)
    ^bb4(%37: i32):  // 2 preds: ^bb2, ^bb3
      %38 = spirv.Constant 1 : i32
      %39 = spirv.IAdd %24, %38 : i32
      spirv.Branch ^bb1(%37, %39 : i32, i32)
    ^bb5:  // pred: ^bb1
      spirv.mlir.merge
    }
    %20 = spirv.mlir.addressof @spirv_var_105 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %21 = spirv.AccessChain %20[%10, %12] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %22 = spirv.Load "Function" %0 : i32
    spirv.Store "StorageBuffer" %21, %22 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
