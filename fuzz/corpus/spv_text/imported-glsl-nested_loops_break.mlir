spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_45 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_99 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<si32, Function>
    %2 = spirv.Variable : !spirv.ptr<si32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Constant 0 : i32
    %5 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %6 = spirv.AccessChain %5[%4] : !spirv.ptr<vector<3xi32>, Input>, i32
    %7 = spirv.Load "Input" %6 : i32
    spirv.Store "Function" %3, %7 : i32
    %8 = spirv.Variable : !spirv.ptr<si32, Function>
    %9 = spirv.Constant 0 : si32
    spirv.Store "Function" %8, %9 : si32
    %10 = spirv.Variable : !spirv.ptr<i1, Function>
    %11 = spirv.Constant false
    spirv.Store "Function" %10, %11 : i1
    %12 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %12, %9 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb6
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %19 = spirv.Load "Function" %12 : si32
      %20 = spirv.Constant 8 : si32
      %21 = spirv.SLessThan %19, %20 : si32
      spirv.BranchConditional %21, ^bb3, ^bb7
    ^bb3:  // pred: ^bb2
      %22 = spirv.Constant 0 : si32
      spirv.Store "Function" %1, %22 : si32
      spirv.mlir.loop {
        spirv.Branch ^bb1
      ^bb1:  // 2 preds: ^bb0, ^bb6
        spirv.Branch ^bb2
      ^bb2:  // pred: ^bb1
        %39 = spirv.Load "Function" %1 : si32
        %40 = spirv.Constant 8 : si32
        %41 = spirv.SLessThan %39, %40 : si32
        spirv.BranchConditional %41, ^bb3, ^bb7
      ^bb3:  // pred: ^bb2
        %42 = spirv.Constant 0 : i32
        spirv.Store "Function" %0, %42 : i32
        spirv.mlir.selection {
          %59 = spirv.Load "Function" %3 : i32
          %60 = spirv.Bitcast %59 : i32 to si32
          %61 = spirv.Load "Function" %12 : si32
          %62 = spirv.Constant 8 : si32
          %63 = spirv.IMul %61, %62 : si32
          %64 = spirv.IAdd %60, %63 : si32
          %65 = spirv.Load "Function" %1 : si32
          %66 = spirv.IAdd %64, %65 : si32
          %67 = spirv.Constant 63 : si32
          %68 = spirv.BitwiseAnd %66, %67 : si32
          %69 = spirv.mlir.addressof @spirv_var_45 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
          %70 = spirv.Constant 0 : si32
          %71 = spirv.AccessChain %69[%70, %68] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, si32
          %72 = spirv.Load "StorageBuffer" %71 : si32
          spirv.Store "Function" %2, %72 : si32
          %73 = spirv.Load "Function" %2 : si32
          %74 = spirv.SLessThan %73, %70 : si32
          spirv.BranchConditional %74, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %75 = spirv.Constant 3 : i32
          spirv.Store "Function" %0, %75 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %43 = spirv.Load "Function" %0 : i32
        %44 = spirv.Constant 3 : i32
        %45 = spirv.IEqual %43, %44 : i32
        spirv.BranchConditional %45, ^bb6, ^bb4
      ^bb4:  // pred: ^bb3
        %46 = spirv.Constant 0 : i32
        spirv.Store "Function" %0, %46 : i32
        spirv.mlir.selection {
          %59 = spirv.Load "Function" %2 : si32
          %60 = spirv.Constant 7 : si32
          %61 = spirv.SMod %59, %60 : si32
          %62 = spirv.Constant 3 : si32
          %63 = spirv.IEqual %61, %62 : si32
          spirv.BranchConditional %63, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %64 = spirv.Constant true
          spirv.Store "Function" %10, %64 : i1
          %65 = spirv.Constant 4 : i32
          spirv.Store "Function" %0, %65 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %47 = spirv.Load "Function" %0 : i32
        %48 = spirv.Constant 4 : i32
        %49 = spirv.IEqual %47, %48 : i32
        spirv.BranchConditional %49, ^bb7, ^bb5
      ^bb5:  // pred: ^bb4
        %50 = spirv.Constant true
        %51 = spirv.Load "Function" %2 : si32
        %52 = spirv.Load "Function" %1 : si32
        %53 = spirv.ISub %51, %52 : si32
        %54 = spirv.Load "Function" %8 : si32
        %55 = spirv.IAdd %54, %53 : si32
        spirv.Store "Function" %8, %55 : si32
        spirv.Branch ^bb6
      ^bb6:  // 2 preds: ^bb3, ^bb5
        %56 = spirv.Load "Function" %1 : si32
        %57 = spirv.Constant 1 : si32
        %58 = spirv.IAdd %56, %57 : si32
        spirv.Store "Function" %1, %58 : si32
        spirv.Branch ^bb1
      ^bb7:  // 2 preds: ^bb2, ^bb4
        spirv.mlir.merge
      }
      %23 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %23 : i32
      spirv.mlir.selection {
        %39 = spirv.Load "Function" %10 : i1
        spirv.BranchConditional %39, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %40 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %40 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %24 = spirv.Load "Function" %0 : i32
      %25 = spirv.Constant 1 : i32
      %26 = spirv.IEqual %24, %25 : i32
      spirv.BranchConditional %26, ^bb7, ^bb4
    ^bb4:  // pred: ^bb3
      %27 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %27 : i32
      spirv.mlir.selection {
        %39 = spirv.Load "Function" %8 : si32
        %40 = spirv.Constant 1 : si32
        %41 = spirv.BitwiseAnd %39, %40 : si32
        %42 = spirv.IEqual %41, %40 : si32
        spirv.BranchConditional %42, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %43 = spirv.Constant 2 : i32
        spirv.Store "Function" %0, %43 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %28 = spirv.Load "Function" %0 : i32
      %29 = spirv.Constant 2 : i32
      %30 = spirv.IEqual %28, %29 : i32
      spirv.BranchConditional %30, ^bb6, ^bb5
    ^bb5:  // pred: ^bb4
      %31 = spirv.Load "Function" %8 : si32
      %32 = spirv.Constant 3 : si32
      %33 = spirv.IMul %31, %32 : si32
      %34 = spirv.Constant 2 : si32
      %35 = spirv.SDiv %33, %34 : si32
      spirv.Store "Function" %8, %35 : si32
      spirv.Branch ^bb6
    ^bb6:  // 2 preds: ^bb4, ^bb5
      %36 = spirv.Load "Function" %12 : si32
      %37 = spirv.Constant 1 : si32
      %38 = spirv.IAdd %36, %37 : si32
      spirv.Store "Function" %12, %38 : si32
      spirv.Branch ^bb1
    ^bb7:  // 2 preds: ^bb2, ^bb3
      spirv.mlir.merge
    }
    %13 = spirv.Load "Function" %3 : i32
    %14 = spirv.Constant 63 : i32
    %15 = spirv.BitwiseAnd %13, %14 : i32
    %16 = spirv.Load "Function" %8 : si32
    %17 = spirv.mlir.addressof @spirv_var_99 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
    %18 = spirv.AccessChain %17[%9, %15] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %18, %16 : si32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
