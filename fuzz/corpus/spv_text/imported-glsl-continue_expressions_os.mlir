spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_44 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Variable : !spirv.ptr<i32, Function>
    %7 = spirv.Variable : !spirv.ptr<i32, Function>
    %8 = spirv.Variable : !spirv.ptr<i32, Function>
    %9 = spirv.Constant 1 : i32
    %10 = spirv.Constant 2 : i32
    %11 = spirv.Constant 0 : i32
    %12 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %13 = spirv.AccessChain %12[%11] : !spirv.ptr<vector<3xi32>, Input>, i32
    %14 = spirv.Load "Input" %13 : i32
    %15 = spirv.Constant 63 : i32
    %16 = spirv.BitwiseAnd %14, %15 : i32
    %17 = spirv.Constant 0 : i32
    %18 = spirv.mlir.addressof @spirv_var_44 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %19 = spirv.AccessChain %18[%17, %16] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %20 = spirv.Load "StorageBuffer" %19 : i32
    %21 = spirv.Constant 0 : i32
    %22 = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%21, %22 : i32, i32)
    ^bb1(%28: i32, %29: i32):  // 2 preds: ^bb0, ^bb4
      spirv.Store "Function" %0, %28 : i32
      %30 = spirv.Constant 20 : i32
      %31 = spirv.Constant 7 : i32
      %32 = spirv.Constant 1 : i32
      %33 = spirv.Constant 3 : i32
      %34 = spirv.Constant 9 : i32
      %35 = spirv.Constant 8 : i32
      %36 = spirv.Constant 5 : i32
      %37 = spirv.Constant 65535 : i32
      %38 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      %39 = spirv.ULessThan %29, %30 : i32
      spirv.BranchConditional %39, ^bb2, ^bb5
    ^bb2:  // pred: ^bb1
      %40 = spirv.Constant 0 : i32
      spirv.Store "Function" %4, %40 : i32
      spirv.mlir.selection {
        %48 = spirv.Constant 7 : i32
        %49 = spirv.IEqual %29, %48 : i32
        spirv.BranchConditional %49, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %5, %28 : i32
        %50 = spirv.Constant 1 : i32
        spirv.Store "Function" %4, %50 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %41 = spirv.Load "Function" %4 : i32
      %42 = spirv.Constant 1 : i32
      %43 = spirv.IEqual %41, %42 : i32
      %44 = spirv.Load "Function" %5 : i32
      spirv.BranchConditional %43, ^bb4(%44 : i32), ^bb3
    ^bb3:  // pred: ^bb2
      %45 = spirv.IAdd %28, %29 : i32
      spirv.Branch ^bb4(%45 : i32)
    ^bb4(%46: i32):  // 2 preds: ^bb2, ^bb3
      spirv.mlir.selection {
        %48 = spirv.IAdd %20, %29 : i32
        %49 = spirv.Constant 1 : i32
        %50 = spirv.BitwiseAnd %48, %49 : i32
        %51 = spirv.IEqual %50, %49 : i32
        spirv.BranchConditional %51, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %52 = spirv.Constant 1 : i32
        %53 = spirv.IAdd %29, %52 : i32
        spirv.Store "Function" %3, %53 : i32
        spirv.Branch ^bb3
      ^bb2:  // pred: ^bb0
        %54 = spirv.Constant 2 : i32
        %55 = spirv.IAdd %29, %54 : i32
        spirv.Store "Function" %3, %55 : i32
        spirv.Branch ^bb3
      ^bb3:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %47 = spirv.Load "Function" %3 : i32
      spirv.Branch ^bb1(%46, %47 : i32, i32)
    ^bb5:  // pred: ^bb1
      spirv.mlir.merge
    }
    %23 = spirv.Constant 0 : i32
    %24 = spirv.Load "Function" %0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%24, %23 : i32, i32)
    ^bb1(%28: i32, %29: i32):  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %30 = spirv.Constant 0 : i32
      spirv.Store "Function" %4, %30 : i32
      %31 = spirv.Constant 1 : i32
      %32 = spirv.IAdd %29, %31 : i32
      %33 = spirv.Constant 3 : i32
      %34 = spirv.BitwiseAnd %32, %33 : i32
      %35 = spirv.Constant 0 : i32
      %36 = spirv.IEqual %34, %35 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %36, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %6, %28 : i32
        %46 = spirv.Constant 2 : i32
        spirv.Store "Function" %4, %46 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %37 = spirv.Load "Function" %4 : i32
      %38 = spirv.Constant 2 : i32
      %39 = spirv.IEqual %37, %38 : i32
      %40 = spirv.Load "Function" %6 : i32
      spirv.BranchConditional %39, ^bb4(%40 : i32), ^bb3
    ^bb3:  // pred: ^bb2
      %41 = spirv.IMul %32, %20 : i32
      %42 = spirv.BitwiseXor %28, %41 : i32
      spirv.Branch ^bb4(%42 : i32)
    ^bb4(%43: i32):  // 2 preds: ^bb2, ^bb3
      spirv.Store "Function" %1, %43 : i32
      %44 = spirv.Constant 9 : i32
      %45 = spirv.ULessThan %32, %44 : i32
      spirv.BranchConditional %45, ^bb1(%43, %32 : i32, i32), ^bb5
    ^bb5:  // pred: ^bb4
      spirv.mlir.merge
    }
    %25 = spirv.Constant 0 : i32
    %26 = spirv.Load "Function" %1 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%26, %25 : i32, i32)
    ^bb1(%28: i32, %29: i32):  // 2 preds: ^bb0, ^bb4
      spirv.Store "Function" %2, %28 : i32
      %30 = spirv.Constant 8 : i32
      %31 = spirv.ULessThan %29, %30 : i32
      spirv.BranchConditional %31, ^bb2, ^bb5
    ^bb2:  // pred: ^bb1
      %32 = spirv.Constant 0 : i32
      spirv.Store "Function" %4, %32 : i32
      spirv.mlir.selection {
        %43 = spirv.Constant 3 : i32
        %44 = spirv.BitwiseAnd %29, %43 : i32
        spirv.Switch %44 : i32, [
          default: ^bb1,
          1: ^bb2,
          2: ^bb3
        ]
      ^bb1:  // pred: ^bb0
        %45 = spirv.Constant 5 : i32
        %46 = spirv.IMul %28, %45 : i32
        %47 = spirv.Constant 3 : i32
        %48 = spirv.IAdd %46, %47 : i32
        spirv.Store "Function" %8, %48 : i32
        spirv.Branch ^bb4
      ^bb2:  // pred: ^bb0
        spirv.Store "Function" %7, %28 : i32
        %49 = spirv.Constant 3 : i32
        spirv.Store "Function" %4, %49 : i32
        spirv.Branch ^bb4
      ^bb3:  // pred: ^bb0
        %50 = spirv.Constant 1 : i32
        %51 = spirv.IAdd %28, %50 : i32
        spirv.Store "Function" %8, %51 : i32
        spirv.Branch ^bb4
      ^bb4:  // 3 preds: ^bb1, ^bb2, ^bb3
        spirv.mlir.merge
      }
      %33 = spirv.Load "Function" %4 : i32
      %34 = spirv.Constant 3 : i32
      %35 = spirv.IEqual %33, %34 : i32
      %36 = spirv.Load "Function" %7 : i32
      spirv.BranchConditional %35, ^bb4(%36 : i32), ^bb3
    ^bb3:  // pred: ^bb2
      %37 = spirv.Load "Function" %8 : i32
      %38 = spirv.Constant 65535 : i32
      %39 = spirv.BitwiseAnd %37, %38 : i32
      spirv.Branch ^bb4(%39 : i32)
    ^bb4(%40: i32):  // 2 preds: ^bb2, ^bb3
      %41 = spirv.Constant 1 : i32
      %42 = spirv.IAdd %29, %41 : i32
      spirv.Branch ^bb1(%40, %42 : i32, i32)
    ^bb5:  // pred: ^bb1
      spirv.mlir.merge
    }
    %27 = spirv.Load "Function" %2 : i32
    spirv.Store "StorageBuffer" %19, %27 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
