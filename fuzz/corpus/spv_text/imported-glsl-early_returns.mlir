spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_53 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_74 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %17 = spirv.Constant 100 : i32
      %18 = spirv.Constant 0 : i32
      %19 = spirv.Constant 500 : i32
      %20 = spirv.Constant 1 : i32
      %21 = spirv.Constant 2 : i32
      %22 = spirv.Constant 3 : i32
      %23 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %24 = spirv.AccessChain %23[%18] : !spirv.ptr<vector<3xi32>, Input>, i32
      %25 = spirv.Load "Input" %24 : i32
      spirv.Store "Function" %0, %25 : i32
      %26 = spirv.Load "Function" %0 : i32
      %27 = spirv.Constant 64 : i32
      %28 = spirv.UGreaterThanEqual %26, %27 : i32
      spirv.BranchConditional %28, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spirv.Return
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    %4 = spirv.Constant 0 : i32
    %5 = spirv.Load "Function" %0 : i32
    %6 = spirv.Constant 1000 : i32
    %7 = spirv.mlir.addressof @spirv_var_53 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spirv.AccessChain %7[%4, %5] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %8, %6 : i32
    %9 = spirv.Variable : !spirv.ptr<i32, Function>
    %10 = spirv.Constant 0 : i32
    spirv.Store "Function" %9, %10 : i32
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %11, %10 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %17 = spirv.Load "Function" %11 : i32
      %18 = spirv.Constant 16 : i32
      %19 = spirv.ULessThan %17, %18 : i32
      spirv.BranchConditional %19, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      spirv.mlir.selection {
        %26 = spirv.Load "Function" %0 : i32
        %27 = spirv.Constant 3 : i32
        %28 = spirv.IMul %26, %27 : i32
        %29 = spirv.Load "Function" %11 : i32
        %30 = spirv.IAdd %28, %29 : i32
        %31 = spirv.Constant 63 : i32
        %32 = spirv.BitwiseAnd %30, %31 : i32
        %33 = spirv.mlir.addressof @spirv_var_74 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        %34 = spirv.Constant 0 : i32
        %35 = spirv.AccessChain %33[%34, %32] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
        %36 = spirv.Load "StorageBuffer" %35 : i32
        spirv.Store "Function" %1, %36 : i32
        %37 = spirv.Load "Function" %1 : i32
        spirv.Store "Function" %3, %37 : i32
        %38 = spirv.FunctionCall @"classify(u1;"(%3) : (!spirv.ptr<i32, Function>) -> i32
        spirv.Store "Function" %2, %38 : i32
        %39 = spirv.Load "Function" %2 : i32
        %40 = spirv.IEqual %39, %27 : i32
        spirv.BranchConditional %40, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.mlir.selection {
          %41 = spirv.Load "Function" %11 : i32
          %42 = spirv.Constant 10 : i32
          %43 = spirv.UGreaterThan %41, %42 : i32
          spirv.BranchConditional %43, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %44 = spirv.Load "Function" %0 : i32
          %45 = spirv.Load "Function" %9 : i32
          %46 = spirv.mlir.addressof @spirv_var_53 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %47 = spirv.Constant 0 : i32
          %48 = spirv.AccessChain %46[%47, %44] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
          spirv.Store "StorageBuffer" %48, %45 : i32
          spirv.Return
        ^bb2:  // pred: ^bb0
          spirv.mlir.merge
        }
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %20 = spirv.Load "Function" %2 : i32
      %21 = spirv.Load "Function" %9 : i32
      %22 = spirv.IAdd %21, %20 : i32
      spirv.Store "Function" %9, %22 : i32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %23 = spirv.Load "Function" %11 : i32
      %24 = spirv.Constant 1 : i32
      %25 = spirv.IAdd %23, %24 : i32
      spirv.Store "Function" %11, %25 : i32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %12 = spirv.Load "Function" %0 : i32
    %13 = spirv.Load "Function" %9 : i32
    %14 = spirv.Constant 7 : i32
    %15 = spirv.IAdd %13, %14 : i32
    %16 = spirv.AccessChain %7[%4, %12] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %16, %15 : i32
    spirv.Return
  }
  spirv.func @"classify(u1;"(%arg0: !spirv.ptr<i32, Function>) -> i32 "None" {
    spirv.mlir.selection {
      %1 = spirv.Load "Function" %arg0 : i32
      %2 = spirv.Constant 100 : i32
      %3 = spirv.ULessThan %1, %2 : i32
      spirv.BranchConditional %3, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %4 = spirv.Constant 0 : i32
      spirv.ReturnValue %4 : i32
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %1 = spirv.Constant 0 : i32
      %2 = spirv.Load "Function" %arg0 : i32
      %3 = spirv.Constant 500 : i32
      %4 = spirv.ULessThan %2, %3 : i32
      spirv.BranchConditional %4, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spirv.mlir.selection {
        %6 = spirv.Load "Function" %arg0 : i32
        %7 = spirv.Constant 1 : i32
        %8 = spirv.BitwiseAnd %6, %7 : i32
        %9 = spirv.Constant 0 : i32
        %10 = spirv.IEqual %8, %9 : i32
        spirv.BranchConditional %10, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %11 = spirv.Constant 1 : i32
        spirv.ReturnValue %11 : i32
      ^bb2:  // pred: ^bb0
        spirv.mlir.merge
      }
      %5 = spirv.Constant 2 : i32
      spirv.ReturnValue %5 : i32
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    %0 = spirv.Constant 3 : i32
    spirv.ReturnValue %0 : i32
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
