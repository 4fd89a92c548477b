spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_65 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_92 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Constant 0 : i32
    %5 = spirv.Constant true
    %6 = spirv.Constant 1 : i32
    %7 = spirv.Constant 200 : i32
    %8 = spirv.Constant 3 : i32
    %9 = spirv.Constant 2 : i32
    %10 = spirv.Constant 1 : i32
    %11 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %12 = spirv.AccessChain %11[%4] : !spirv.ptr<vector<3xi32>, Input>, i32
    %13 = spirv.Load "Input" %12 : i32
    %14 = spirv.Constant 63 : i32
    %15 = spirv.BitwiseAnd %13, %14 : i32
    %16 = spirv.Constant 0 : i32
    %17 = spirv.mlir.addressof @spirv_var_65 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %18 = spirv.AccessChain %17[%16, %15] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %19 = spirv.Load "StorageBuffer" %18 : i32
    %20 = spirv.Constant 1023 : i32
    %21 = spirv.BitwiseAnd %19, %20 : i32
    %22 = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%22 : i32)
    ^bb1(%30: i32):  // 2 preds: ^bb0, ^bb4
      %31 = spirv.Constant 100 : i32
      %32 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %33 = spirv.Constant 0 : i32
      spirv.Store "Function" %2, %33 : i32
      %34 = spirv.Constant 1 : i32
      %35 = spirv.IAdd %30, %34 : i32
      spirv.Store "Function" %1, %35 : i32
      %36 = spirv.IMul %35, %35 : i32
      %37 = spirv.UGreaterThan %36, %21 : i32
      %38 = spirv.Constant 1 : i32
      %39 = spirv.Constant 0 : i32
      %40 = spirv.Select %37, %38, %39 : i1, i32
      spirv.Store "Function" %2, %40 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %37, ^bb1, ^bb1
      ^bb1:  // pred: ^bb0
        spirv.mlir.merge
      }
      %41 = spirv.Load "Function" %2 : i32
      %42 = spirv.Constant 1 : i32
      %43 = spirv.IEqual %41, %42 : i32
      spirv.BranchConditional %43, ^bb5, ^bb3
    ^bb3:  // pred: ^bb2
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      spirv.Branch ^bb1(%35 : i32)
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %30 = spirv.Constant 0 : i32
      spirv.Switch %30 : i32, [
        default: ^bb1
      ]
    ^bb1:  // pred: ^bb0
      %31 = spirv.Constant 0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%31, %21 : i32, i32)
      ^bb1(%36: i32, %37: i32):  // 2 preds: ^bb0, ^bb4
        spirv.Store "Function" %0, %36 : i32
        spirv.Branch ^bb2
      ^bb2:  // pred: ^bb1
        %38 = spirv.Constant 0 : i32
        spirv.Store "Function" %2, %38 : i32
        spirv.mlir.selection {
          %45 = spirv.Constant 1 : i32
          %46 = spirv.ULessThanEqual %37, %45 : i32
          %47 = spirv.Constant 200 : i32
          %48 = spirv.UGreaterThanEqual %36, %47 : i32
          %49 = spirv.LogicalOr %46, %48 : i1
          %50 = spirv.Constant 3 : i32
          %51 = spirv.Constant 0 : i32
          %52 = spirv.Select %49, %50, %51 : i1, i32
          spirv.Store "Function" %2, %52 : i32
          spirv.BranchConditional %49, ^bb1, ^bb1
        ^bb1:  // pred: ^bb0
          spirv.mlir.merge
        }
        %39 = spirv.Load "Function" %2 : i32
        %40 = spirv.Constant 3 : i32
        %41 = spirv.IEqual %39, %40 : i32
        spirv.BranchConditional %41, ^bb5, ^bb3
      ^bb3:  // pred: ^bb2
        spirv.mlir.selection {
          %45 = spirv.Constant 1 : i32
          %46 = spirv.BitwiseAnd %37, %45 : i32
          %47 = spirv.IEqual %46, %45 : i32
          spirv.BranchConditional %47, ^bb2, ^bb1
        ^bb1:  // pred: ^bb0
          %48 = spirv.Constant 2 : i32
          %49 = spirv.UDiv %37, %48 : i32
          spirv.Store "Function" %3, %49 : i32
          spirv.Branch ^bb3
        ^bb2:  // pred: ^bb0
          %50 = spirv.Constant 3 : i32
          %51 = spirv.IMul %50, %37 : i32
          %52 = spirv.Constant 1 : i32
          %53 = spirv.IAdd %51, %52 : i32
          spirv.Store "Function" %3, %53 : i32
          spirv.Branch ^bb3
        ^bb3:  // 2 preds: ^bb1, ^bb2
          spirv.mlir.merge
        }
        %42 = spirv.Load "Function" %3 : i32
        %43 = spirv.Constant 1 : i32
        %44 = spirv.IAdd %36, %43 : i32
        spirv.Branch ^bb4
      ^bb4:  // pred: ^bb3
        spirv.Branch ^bb1(%44, %42 : i32, i32)
      ^bb5:  // pred: ^bb2
        spirv.mlir.merge
      }
      %32 = spirv.Constant 0 : i32
      spirv.Store "Function" %2, %32 : i32
      spirv.mlir.selection {
        %36 = spirv.Constant true
        %37 = spirv.Constant 2 : i32
        %38 = spirv.Constant 0 : i32
        %39 = spirv.Select %36, %37, %38 : i1, i32
        spirv.Store "Function" %2, %39 : i32
        spirv.BranchConditional %36, ^bb1, ^bb1
      ^bb1:  // pred: ^bb0
        spirv.mlir.merge
      }
      %33 = spirv.Load "Function" %2 : i32
      %34 = spirv.Constant 2 : i32
      %35 = spirv.IEqual %33, %34 : i32
      spirv.BranchConditional %35, ^bb3, ^bb2
    ^bb2:  // pred: ^bb1
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %23 = spirv.Constant 100 : i32
    %24 = spirv.Load "Function" %0 : i32
    %25 = spirv.IMul %24, %23 : i32
    %26 = spirv.Load "Function" %1 : i32
    %27 = spirv.IAdd %25, %26 : i32
    %28 = spirv.mlir.addressof @spirv_var_92 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %29 = spirv.AccessChain %28[%16, %15] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %29, %27 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
