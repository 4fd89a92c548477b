spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_44 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Constant 1 : i32
    %4 = spirv.Constant 2 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : i32
    %7 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %8 = spirv.AccessChain %7[%6] : !spirv.ptr<vector<3xi32>, Input>, i32
    %9 = spirv.Load "Input" %8 : i32
    %10 = spirv.Constant 63 : i32
    %11 = spirv.BitwiseAnd %9, %10 : i32
    spirv.Store "Function" %5, %11 : i32
    %12 = spirv.Variable : !spirv.ptr<i32, Function>
    %13 = spirv.Constant 0 : i32
    %14 = spirv.Load "Function" %5 : i32
    %15 = spirv.mlir.addressof @spirv_var_44 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %16 = spirv.AccessChain %15[%13, %14] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %17 = spirv.Load "StorageBuffer" %16 : i32
    spirv.Store "Function" %12, %17 : i32
    %18 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %18, %6 : i32
    %19 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %19, %6 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %25 = spirv.Load "Function" %19 : i32
      %26 = spirv.Constant 20 : i32
      %27 = spirv.ULessThan %25, %26 : i32
      spirv.BranchConditional %27, ^bb3, ^bb6
    ^bb3:  // pred: ^bb2
      %28 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %28 : i32
      spirv.mlir.selection {
        %40 = spirv.Load "Function" %19 : i32
        %41 = spirv.Constant 7 : i32
        %42 = spirv.IEqual %40, %41 : i32
        spirv.BranchConditional %42, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %43 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %43 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %29 = spirv.Load "Function" %0 : i32
      %30 = spirv.Constant 1 : i32
      %31 = spirv.IEqual %29, %30 : i32
      spirv.BranchConditional %31, ^bb5, ^bb4
    ^bb4:  // pred: ^bb3
      %32 = spirv.Load "Function" %19 : i32
      %33 = spirv.Load "Function" %18 : i32
      %34 = spirv.IAdd %33, %32 : i32
      spirv.Store "Function" %18, %34 : i32
      spirv.Branch ^bb5
    ^bb5:  // 2 preds: ^bb3, ^bb4
      %35 = spirv.Load "Function" %12 : i32
      %36 = spirv.Load "Function" %19 : i32
      %37 = spirv.IAdd %35, %36 : i32
      %38 = spirv.Load "Function" %19 : i32
      spirv.Store "Function" %1, %38 : i32
      spirv.Store "Function" %2, %37 : i32
      %39 = spirv.FunctionCall @"step(u1;u1;"(%1, %2) : (!spirv.ptr<i32, Function>, !spirv.ptr<i32, Function>) -> i32
      spirv.Store "Function" %19, %39 : i32
      spirv.Branch ^bb1
    ^bb6:  // pred: ^bb2
      spirv.mlir.merge
    }
    %20 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %20, %6 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %25 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %25 : i32
      spirv.mlir.selection {
        %37 = spirv.Load "Function" %20 : i32
        %38 = spirv.Constant 1 : i32
        %39 = spirv.IAdd %37, %38 : i32
        spirv.Store "Function" %20, %39 : i32
        %40 = spirv.Load "Function" %20 : i32
        %41 = spirv.Constant 3 : i32
        %42 = spirv.BitwiseAnd %40, %41 : i32
        %43 = spirv.Constant 0 : i32
        %44 = spirv.IEqual %42, %43 : i32
        spirv.BranchConditional %44, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %45 = spirv.Constant 2 : i32
        spirv.Store "Function" %0, %45 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %26 = spirv.Load "Function" %0 : i32
      %27 = spirv.Constant 2 : i32
      %28 = spirv.IEqual %26, %27 : i32
      spirv.BranchConditional %28, ^bb4, ^bb3
    ^bb3:  // pred: ^bb2
      %29 = spirv.Load "Function" %20 : i32
      %30 = spirv.Load "Function" %12 : i32
      %31 = spirv.IMul %29, %30 : i32
      %32 = spirv.Load "Function" %18 : i32
      %33 = spirv.BitwiseXor %32, %31 : i32
      spirv.Store "Function" %18, %33 : i32
      spirv.Branch ^bb4
    ^bb4:  // 2 preds: ^bb2, ^bb3
      %34 = spirv.Load "Function" %20 : i32
      %35 = spirv.Constant 9 : i32
      %36 = spirv.ULessThan %34, %35 : i32
      spirv.BranchConditional %36, ^bb1, ^bb5
    ^bb5:  // pred: ^bb4
      spirv.mlir.merge
    }
    %21 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %21, %6 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %25 = spirv.Load "Function" %21 : i32
      %26 = spirv.Constant 8 : i32
      %27 = spirv.ULessThan %25, %26 : i32
      spirv.BranchConditional %27, ^bb3, ^bb6
    ^bb3:  // pred: ^bb2
      %28 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %28 : i32
      spirv.mlir.selection {
        %38 = spirv.Load "Function" %21 : i32
        %39 = spirv.Constant 3 : i32
        %40 = spirv.BitwiseAnd %38, %39 : i32
        spirv.Switch %40 : i32, [
          default: ^bb1,
          1: ^bb2,
          2: ^bb3
        ]
      ^bb1:  // pred: ^bb0
        %41 = spirv.Load "Function" %18 : i32
        %42 = spirv.Constant 5 : i32
        %43 = spirv.IMul %41, %42 : i32
        %44 = spirv.Constant 3 : i32
        %45 = spirv.IAdd %43, %44 : i32
        spirv.Store "Function" %18, %45 : i32
        spirv.Branch ^bb4
      ^bb2:  // pred: ^bb0
        %46 = spirv.Constant 3 : i32
        spirv.Store "Function" %0, %46 : i32
        spirv.Branch ^bb4
      ^bb3:  // pred: ^bb0
        %47 = spirv.Load "Function" %18 : i32
        %48 = spirv.Constant 1 : i32
        %49 = spirv.IAdd %47, %48 : i32
        spirv.Store "Function" %18, %49 : i32
        spirv.Branch ^bb4
      ^bb4:  // 3 preds: ^bb1, ^bb2, ^bb3
        spirv.mlir.merge
      }
      %29 = spirv.Load "Function" %0 : i32
      %30 = spirv.Constant 3 : i32
      %31 = spirv.IEqual %29, %30 : i32
      spirv.BranchConditional %31, ^bb5, ^bb4
    ^bb4:  // pred: ^bb3
      %32 = spirv.Constant 65535 : i32
      %33 = spirv.Load "Function" %18 : i32
      %34 = spirv.BitwiseAnd %33, %32 : i32
      spirv.Store "Function" %18, %34 : i32
      spirv.Branch ^bb5
    ^bb5:  // 2 preds: ^bb3, ^bb4
      %35 = spirv.Load "Function" %21 : i32
      %36 = spirv.Constant 1 : i32
      %37 = spirv.IAdd %35, %36 : i32
      spirv.Store "Function" %21, %37 : i32
      spirv.Branch ^bb1
    ^bb6:  // pred: ^bb2
      spirv.mlir.merge
    }
    %22 = spirv.Load "Function" %5 : i32
    %23 = spirv.Load "Function" %18 : i32
    %24 = spirv.AccessChain %15[%13, %22] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %24, %23 : i32
    spirv.Return
  }
  spirv.func @"step(u1;u1;"(%arg0: !spirv.ptr<i32, Function>, %arg1: !spirv.ptr<i32, Function>) -> i32 "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %2 = spirv.Load "Function" %arg1 : i32
      %3 = spirv.Constant 1 : i32
      %4 = spirv.BitwiseAnd %2, %3 : i32
      %5 = spirv.IEqual %4, %3 : i32
      spirv.BranchConditional %5, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %6 = spirv.Load "Function" %arg0 : i32
      %7 = spirv.Constant 1 : i32
      %8 = spirv.IAdd %6, %7 : i32
      spirv.Store "Function" %0, %8 : i32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %9 = spirv.Load "Function" %arg0 : i32
      %10 = spirv.Constant 2 : i32
      %11 = spirv.IAdd %9, %10 : i32
      spirv.Store "Function" %0, %11 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %1 = spirv.Load "Function" %0 : i32
    spirv.ReturnValue %1 : i32
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
