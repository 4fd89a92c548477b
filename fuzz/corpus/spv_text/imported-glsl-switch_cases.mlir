spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_20 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_105 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %14 = spirv.Constant 0 : i32
      %15 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %16 = spirv.AccessChain %15[%14] : !spirv.ptr<vector<3xi32>, Input>, i32
      %17 = spirv.Load "Input" %16 : i32
      spirv.Store "Function" %1, %17 : i32
      %18 = spirv.Constant 0 : i32
      %19 = spirv.Load "Function" %1 : i32
      %20 = spirv.Constant 63 : i32
      %21 = spirv.BitwiseAnd %19, %20 : i32
      %22 = spirv.mlir.addressof @spirv_var_20 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %23 = spirv.AccessChain %22[%18, %21] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %24 = spirv.Load "StorageBuffer" %23 : i32
      spirv.Store "Function" %2, %24 : i32
      spirv.Store "Function" %3, %14 : i32
      %25 = spirv.Load "Function" %2 : i32
      %26 = spirv.Constant 6 : i32
      %27 = spirv.UMod %25, %26 : i32
      spirv.Switch %27 : i32, [
        default: ^bb1,
        0: ^bb3,
        1: ^bb4,
        4: ^bb2,
        5: ^bb5
      ]
    ^bb1:  // pred: ^bb0
      %28 = spirv.Constant 9 : i32
      spirv.Store "Function" %3, %28 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.selection {
        %34 = spirv.Constant 1 : i32
        %35 = spirv.Constant 2 : i32
        %36 = spirv.Constant 9 : i32
        %37 = spirv.Load "Function" %2 : i32
        %38 = spirv.Constant 3 : i32
        %39 = spirv.BitwiseAnd %37, %38 : i32
        spirv.Switch %39 : i32, [
          default: ^bb1,
          0: ^bb2,
          3: ^bb3
        ]
      ^bb1:  // 2 preds: ^bb0, ^bb3
        %40 = spirv.Constant 100 : i32
        %41 = spirv.Constant 300 : i32
        %42 = spirv.Load "Function" %3 : i32
        %43 = spirv.Constant 1 : i32
        %44 = spirv.IAdd %42, %43 : i32
        spirv.Store "Function" %3, %44 : i32
        spirv.Branch ^bb4
      ^bb2:  // pred: ^bb0
        %45 = spirv.Load "Function" %3 : i32
        %46 = spirv.Constant 100 : i32
        %47 = spirv.IAdd %45, %46 : i32
        spirv.Store "Function" %3, %47 : i32
        spirv.Branch ^bb4
      ^bb3:  // pred: ^bb0
        %48 = spirv.Load "Function" %3 : i32
        %49 = spirv.Constant 300 : i32
        %50 = spirv.IAdd %48, %49 : i32
        spirv.Store "Function" %3, %50 : i32
        spirv.Branch ^bb1
      ^bb4:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      spirv.Branch ^bb6
    ^bb3:  // pred: ^bb0
      %29 = spirv.Constant 1 : i32
      spirv.Store "Function" %3, %29 : i32
      spirv.Branch ^bb4
    ^bb4:  // 2 preds: ^bb0, ^bb3
      %30 = spirv.Load "Function" %3 : i32
      %31 = spirv.Constant 2 : i32
      %32 = spirv.IAdd %30, %31 : i32
      spirv.Store "Function" %3, %32 : i32
      spirv.Branch ^bb6
    ^bb5:  // pred: ^bb0
      %33 = spirv.Constant 55 : i32
      spirv.Store "Function" %3, %33 : i32
      spirv.Branch ^bb6
    ^bb6:  // 3 preds: ^bb2, ^bb4, ^bb5
      spirv.mlir.merge
    }
    %4 = spirv.Constant 55 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : i32
    spirv.Store "Function" %5, %6 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %14 = spirv.Load "Function" %5 : i32
      %15 = spirv.Constant 10 : i32
      %16 = spirv.ULessThan %14, %15 : i32
      spirv.BranchConditional %16, ^bb3, ^bb6
    ^bb3:  // pred: ^bb2
      %17 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %17 : i32
      spirv.mlir.selection {
        %29 = spirv.Load "Function" %2 : i32
        %30 = spirv.Load "Function" %5 : i32
        %31 = spirv.IAdd %29, %30 : i32
        %32 = spirv.Constant 3 : i32
        %33 = spirv.BitwiseAnd %31, %32 : i32
        spirv.Switch %33 : i32, [
          default: ^bb1,
          0: ^bb2,
          1: ^bb3,
          2: ^bb4
        ]
      ^bb1:  // pred: ^bb0
        %34 = spirv.Load "Function" %3 : i32
        %35 = spirv.Constant 1 : i32
        %36 = spirv.IAdd %34, %35 : i32
        spirv.Store "Function" %3, %36 : i32
        spirv.Branch ^bb5
      ^bb2:  // pred: ^bb0
        %37 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %37 : i32
        spirv.Branch ^bb5
      ^bb3:  // pred: ^bb0
        %38 = spirv.Load "Function" %5 : i32
        %39 = spirv.Load "Function" %3 : i32
        %40 = spirv.IAdd %39, %38 : i32
        spirv.Store "Function" %3, %40 : i32
        spirv.Branch ^bb5
      ^bb4:  // pred: ^bb0
        %41 = spirv.Load "Function" %5 : i32
        %42 = spirv.Load "Function" %3 : i32
        %43 = spirv.BitwiseXor %42, %41 : i32
        spirv.Store "Function" %3, %43 : i32
        spirv.Branch ^bb5
      ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
        spirv.mlir.merge
      }
      %18 = spirv.Load "Function" %0 : i32
      %19 = spirv.Constant 1 : i32
      %20 = spirv.IEqual %18, %19 : i32
      spirv.BranchConditional %20, ^bb5, ^bb4
    ^bb4:  // pred: ^bb3
      %21 = spirv.Load "Function" %3 : i32
      %22 = spirv.Constant 3 : i32
      %23 = spirv.IMul %21, %22 : i32
      %24 = spirv.Constant 1 : i32
      %25 = spirv.IAdd %23, %24 : i32
      spirv.Store "Function" %3, %25 : i32
      spirv.Branch ^bb5
    ^bb5:  // 2 preds: ^bb3, ^bb4
      %26 = spirv.Load "Function" %5 : i32
      %27 = spirv.Constant 1 : i32
      %28 = spirv.IAdd %26, %27 : i32
      spirv.Store "Function" %5, %28 : i32
      spirv.Branch ^bb1
    ^bb6:  // pred: ^bb2
      spirv.mlir.merge
    }
    %7 = spirv.Load "Function" %1 : i32
    %8 = spirv.Constant 63 : i32
    %9 = spirv.BitwiseAnd %7, %8 : i32
    %10 = spirv.Load "Function" %3 : i32
    %11 = spirv.mlir.addressof @spirv_var_105 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %12 = spirv.Constant 0 : i32
    %13 = spirv.AccessChain %11[%12, %9] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %13, %10 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
