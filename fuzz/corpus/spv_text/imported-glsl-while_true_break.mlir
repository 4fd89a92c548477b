spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_65 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_92 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.Constant true
    %3 = spirv.Constant 1 : i32
    %4 = spirv.Constant 200 : i32
    %5 = spirv.Constant 3 : i32
    %6 = spirv.Constant 2 : i32
    %7 = spirv.Constant 1 : i32
    %8 = spirv.Variable : !spirv.ptr<i32, Function>
    %9 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %10 = spirv.AccessChain %9[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %11 = spirv.Load "Input" %10 : i32
    %12 = spirv.Constant 63 : i32
    %13 = spirv.BitwiseAnd %11, %12 : i32
    spirv.Store "Function" %8, %13 : i32
    %14 = spirv.Variable : !spirv.ptr<i32, Function>
    %15 = spirv.Constant 0 : i32
    %16 = spirv.Load "Function" %8 : i32
    %17 = spirv.mlir.addressof @spirv_var_65 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %18 = spirv.AccessChain %17[%15, %16] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %19 = spirv.Load "StorageBuffer" %18 : i32
    %20 = spirv.Constant 1023 : i32
    %21 = spirv.BitwiseAnd %19, %20 : i32
    spirv.Store "Function" %14, %21 : i32
    %22 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %22, %1 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %33 = spirv.Constant true
      spirv.BranchConditional %33, ^bb3, ^bb6
    ^bb3:  // pred: ^bb2
      %34 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %34 : i32
      spirv.mlir.selection {
        %38 = spirv.Load "Function" %22 : i32
        %39 = spirv.Constant 1 : i32
        %40 = spirv.IAdd %38, %39 : i32
        spirv.Store "Function" %22, %40 : i32
        %41 = spirv.Load "Function" %22 : i32
        %42 = spirv.Load "Function" %22 : i32
        %43 = spirv.IMul %41, %42 : i32
        %44 = spirv.Load "Function" %14 : i32
        %45 = spirv.UGreaterThan %43, %44 : i32
        spirv.BranchConditional %45, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %46 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %46 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %35 = spirv.Load "Function" %0 : i32
      %36 = spirv.Constant 1 : i32
      %37 = spirv.IEqual %35, %36 : i32
      spirv.BranchConditional %37, ^bb6, ^bb4
    ^bb4:  // pred: ^bb3
      spirv.Branch ^bb5
    ^bb5:  // pred: ^bb4
      spirv.Branch ^bb1
    ^bb6:  // 2 preds: ^bb2, ^bb3
      spirv.mlir.merge
    }
    %23 = spirv.Load "Function" %8 : i32
    %24 = spirv.Variable : !spirv.ptr<i32, Function>
    %25 = spirv.Load "Function" %14 : i32
    spirv.Store "Function" %24, %25 : i32
    %26 = spirv.FunctionCall @"collatzSteps(u1;"(%24) : (!spirv.ptr<i32, Function>) -> i32
    %27 = spirv.Constant 100 : i32
    %28 = spirv.IMul %26, %27 : i32
    %29 = spirv.Load "Function" %22 : i32
    %30 = spirv.IAdd %28, %29 : i32
    %31 = spirv.mlir.addressof @spirv_var_92 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %32 = spirv.AccessChain %31[%15, %23] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %32, %30 : i32
    spirv.Return
  }
  spirv.func @"collatzSteps(u1;"(%arg0: !spirv.ptr<i32, Function>) -> i32 "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Constant 0 : i32
    spirv.Store "Function" %1, %2 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %4 = spirv.Constant true
      spirv.BranchConditional %4, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      spirv.mlir.selection {
        %9 = spirv.Constant true
        %10 = spirv.Load "Function" %arg0 : i32
        %11 = spirv.Constant 1 : i32
        %12 = spirv.ULessThanEqual %10, %11 : i32
        %13 = spirv.Load "Function" %1 : i32
        %14 = spirv.Constant 200 : i32
        %15 = spirv.UGreaterThanEqual %13, %14 : i32
        %16 = spirv.LogicalOr %12, %15 : i1
        spirv.BranchConditional %16, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %17 = spirv.Load "Function" %1 : i32
        spirv.ReturnValue %17 : i32
      ^bb2:  // pred: ^bb0
        spirv.mlir.merge
      }
      spirv.mlir.selection {
        %9 = spirv.Load "Function" %arg0 : i32
        %10 = spirv.Constant 1 : i32
        %11 = spirv.BitwiseAnd %9, %10 : i32
        %12 = spirv.IEqual %11, %10 : i32
        spirv.BranchConditional %12, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %13 = spirv.Constant 3 : i32
        %14 = spirv.Load "Function" %arg0 : i32
        %15 = spirv.IMul %13, %14 : i32
        %16 = spirv.Constant 1 : i32
        %17 = spirv.IAdd %15, %16 : i32
        spirv.Store "Function" %0, %17 : i32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %18 = spirv.Load "Function" %arg0 : i32
        %19 = spirv.Constant 2 : i32
        %20 = spirv.UDiv %18, %19 : i32
        spirv.Store "Function" %0, %20 : i32
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %5 = spirv.Load "Function" %0 : i32
      spirv.Store "Function" %arg0, %5 : i32
      %6 = spirv.Load "Function" %1 : i32
      %7 = spirv.Constant 1 : i32
      %8 = spirv.IAdd %6, %7 : i32
      spirv.Store "Function" %1, %8 : i32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %3 = spirv.Undef : i32
    spirv.ReturnValue %3 : i32
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
