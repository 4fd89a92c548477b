spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_31 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_130 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %5 = spirv.AccessChain %4[%3] : !spirv.ptr<vector<3xi32>, Input>, i32
    %6 = spirv.Load "Input" %5 : i32
    spirv.Store "Function" %2, %6 : i32
    %7 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %7, %3 : i32
    %8 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %8, %3 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb7
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %15 = spirv.Load "Function" %8 : i32
      %16 = spirv.Constant 32 : i32
      %17 = spirv.ULessThan %15, %16 : i32
      spirv.BranchConditional %17, ^bb3, ^bb8
    ^bb3:  // pred: ^bb2
      %18 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %18 : i32
      spirv.mlir.selection {
        %34 = spirv.Constant 0 : i32
        %35 = spirv.Load "Function" %2 : i32
        %36 = spirv.Load "Function" %8 : i32
        %37 = spirv.IAdd %35, %36 : i32
        %38 = spirv.Constant 63 : i32
        %39 = spirv.BitwiseAnd %37, %38 : i32
        %40 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        %41 = spirv.AccessChain %40[%34, %39] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
        %42 = spirv.Load "StorageBuffer" %41 : i32
        spirv.Store "Function" %1, %42 : i32
        %43 = spirv.Load "Function" %1 : i32
        %44 = spirv.Constant 3 : i32
        %45 = spirv.BitwiseAnd %43, %44 : i32
        %46 = spirv.Constant 0 : i32
        %47 = spirv.IEqual %45, %46 : i32
        spirv.BranchConditional %47, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %48 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %48 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %19 = spirv.Load "Function" %0 : i32
      %20 = spirv.Constant 1 : i32
      %21 = spirv.IEqual %19, %20 : i32
      spirv.BranchConditional %21, ^bb7, ^bb4
    ^bb4:  // pred: ^bb3
      %22 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %22 : i32
      spirv.mlir.selection {
        %34 = spirv.Load "Function" %1 : i32
        %35 = spirv.Constant 900 : i32
        %36 = spirv.UGreaterThan %34, %35 : i32
        spirv.BranchConditional %36, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %37 = spirv.Constant 2 : i32
        spirv.Store "Function" %0, %37 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %23 = spirv.Load "Function" %0 : i32
      %24 = spirv.Constant 2 : i32
      %25 = spirv.IEqual %23, %24 : i32
      spirv.BranchConditional %25, ^bb8, ^bb5
    ^bb5:  // pred: ^bb4
      %26 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %26 : i32
      spirv.mlir.selection {
        %34 = spirv.Load "Function" %1 : i32
        %35 = spirv.Load "Function" %8 : i32
        %36 = spirv.IMul %34, %35 : i32
        %37 = spirv.Load "Function" %7 : i32
        %38 = spirv.IAdd %37, %36 : i32
        spirv.Store "Function" %7, %38 : i32
        %39 = spirv.Load "Function" %7 : i32
        %40 = spirv.Constant 100000 : i32
        %41 = spirv.UGreaterThan %39, %40 : i32
        spirv.BranchConditional %41, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %42 = spirv.Constant 7 : i32
        spirv.Store "Function" %7, %42 : i32
        %43 = spirv.Constant 2 : i32
        spirv.Store "Function" %0, %43 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %27 = spirv.Load "Function" %0 : i32
      %28 = spirv.Constant 2 : i32
      %29 = spirv.IEqual %27, %28 : i32
      spirv.BranchConditional %29, ^bb8, ^bb6
    ^bb6:  // pred: ^bb5
      spirv.Branch ^bb7
    ^bb7:  // 2 preds: ^bb3, ^bb6
      %30 = spirv.Constant 7 : i32
      %31 = spirv.Load "Function" %8 : i32
      %32 = spirv.Constant 1 : i32
      %33 = spirv.IAdd %31, %32 : i32
      spirv.Store "Function" %8, %33 : i32
      spirv.Branch ^bb1
    ^bb8:  // 3 preds: ^bb2, ^bb4, ^bb5
      spirv.mlir.merge
    }
    %9 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %9, %3 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %15 = spirv.Load "Function" %9 : i32
      %16 = spirv.Load "Function" %2 : i32
      %17 = spirv.Constant 63 : i32
      %18 = spirv.BitwiseAnd %16, %17 : i32
      %19 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %20 = spirv.Constant 0 : i32
      %21 = spirv.AccessChain %19[%20, %18] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %22 = spirv.Load "StorageBuffer" %21 : i32
      %23 = spirv.Constant 7 : i32
      %24 = spirv.BitwiseAnd %22, %23 : i32
      %25 = spirv.ULessThan %15, %24 : i32
      spirv.BranchConditional %25, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      %26 = spirv.Load "Function" %9 : i32
      %27 = spirv.Load "Function" %7 : i32
      %28 = spirv.BitwiseXor %27, %26 : i32
      spirv.Store "Function" %7, %28 : i32
      %29 = spirv.Load "Function" %9 : i32
      %30 = spirv.Constant 1 : i32
      %31 = spirv.IAdd %29, %30 : i32
      spirv.Store "Function" %9, %31 : i32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb3
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %15 = spirv.Constant 1 : i32
      %16 = spirv.Load "Function" %7 : i32
      %17 = spirv.IAdd %16, %15 : i32
      spirv.Store "Function" %7, %17 : i32
      spirv.Branch ^bb3
    ^bb3:  // pred: ^bb2
      %18 = spirv.Load "Function" %7 : i32
      %19 = spirv.Constant 1 : i32
      %20 = spirv.BitwiseAnd %18, %19 : i32
      %21 = spirv.Constant 0 : i32
      %22 = spirv.INotEqual %20, %21 : i32
      %23 = spirv.Load "Function" %7 : i32
      %24 = spirv.Constant 50 : i32
      %25 = spirv.ULessThan %23, %24 : i32
      %26 = spirv.LogicalAnd %22, %25 : i1
      spirv.BranchConditional %26, ^bb1, ^bb4
    ^bb4:  // pred: ^bb3
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %15 = spirv.Load "Function" %7 : i32
      %16 = spirv.Constant 3 : i32
      %17 = spirv.BitwiseAnd %15, %16 : i32
      spirv.Switch %17 : i32, [
        default: ^bb1,
        0: ^bb2,
        1: ^bb3,
        2: ^bb4
      ]
    ^bb1:  // pred: ^bb0
      %18 = spirv.Constant 0 : i32
      spirv.Store "Function" %7, %18 : i32
      spirv.Branch ^bb5
    ^bb2:  // pred: ^bb0
      %19 = spirv.Constant 10 : i32
      %20 = spirv.Load "Function" %7 : i32
      %21 = spirv.IAdd %20, %19 : i32
      spirv.Store "Function" %7, %21 : i32
      spirv.Branch ^bb5
    ^bb3:  // pred: ^bb0
      %22 = spirv.Constant 20 : i32
      %23 = spirv.Load "Function" %7 : i32
      %24 = spirv.IAdd %23, %22 : i32
      spirv.Store "Function" %7, %24 : i32
      spirv.Branch ^bb4
    ^bb4:  // 2 preds: ^bb0, ^bb3
      %25 = spirv.Constant 30 : i32
      %26 = spirv.Load "Function" %7 : i32
      %27 = spirv.IAdd %26, %25 : i32
      spirv.Store "Function" %7, %27 : i32
      spirv.Branch ^bb5
    ^bb5:  // 3 preds: ^bb1, ^bb2, ^bb4
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %15 = spirv.Load "Function" %2 : i32
      %16 = spirv.Constant 64 : i32
      %17 = spirv.UGreaterThanEqual %15, %16 : i32
      spirv.BranchConditional %17, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      spirv.Return
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    %10 = spirv.Load "Function" %2 : i32
    %11 = spirv.Load "Function" %7 : i32
    %12 = spirv.mlir.addressof @spirv_var_130 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spirv.Constant 0 : i32
    %14 = spirv.AccessChain %12[%13, %10] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %14, %11 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
