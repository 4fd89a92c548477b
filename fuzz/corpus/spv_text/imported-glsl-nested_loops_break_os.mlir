spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_45 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_99 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<si32, Function>
    %1 = spirv.Variable : !spirv.ptr<si32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i1, Function>
    %4 = spirv.Variable : !spirv.ptr<si32, Function>
    %5 = spirv.Variable : !spirv.ptr<si32, Function>
    %6 = spirv.Constant 0 : i32
    %7 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %8 = spirv.AccessChain %7[%6] : !spirv.ptr<vector<3xi32>, Input>, i32
    %9 = spirv.Load "Input" %8 : i32
    %10 = spirv.Constant 0 : si32
    %11 = spirv.Constant false
    %12 = spirv.Constant false
    %13 = spirv.Constant 0 : si32
    %14 = spirv.Constant 0 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%12, %13, %14 : i1, si32, si32)
    ^bb1(%20: i1, %21: si32, %22: si32):  // 2 preds: ^bb0, ^bb5
      %23 = spirv.Constant 8 : si32
      %24 = spirv.Constant 63 : si32
      %25 = spirv.Constant 7 : si32
      %26 = spirv.Constant 3 : si32
      %27 = spirv.Constant true
      %28 = spirv.Constant 1 : si32
      %29 = spirv.Constant 2 : si32
      %30 = spirv.Constant 63 : i32
      %31 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      %32 = spirv.SLessThan %22, %23 : si32
      spirv.Store "Function" %1, %21 : si32
      spirv.BranchConditional %32, ^bb2, ^bb6
    ^bb2:  // pred: ^bb1
      %33 = spirv.Constant 0 : si32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%21, %33 : si32, si32)
      ^bb1(%52: si32, %53: si32):  // 2 preds: ^bb0, ^bb5
        spirv.Store "Function" %0, %52 : si32
        %54 = spirv.Constant 8 : si32
        %55 = spirv.SLessThan %53, %54 : si32
        spirv.Store "Function" %3, %20 : i1
        spirv.BranchConditional %55, ^bb2, ^bb6
      ^bb2:  // pred: ^bb1
        %56 = spirv.Constant 0 : i32
        spirv.Store "Function" %2, %56 : i32
        %57 = spirv.Bitcast %9 : i32 to si32
        %58 = spirv.Constant 8 : si32
        %59 = spirv.IMul %22, %58 : si32
        %60 = spirv.IAdd %57, %59 : si32
        %61 = spirv.IAdd %60, %53 : si32
        %62 = spirv.Constant 63 : si32
        %63 = spirv.BitwiseAnd %61, %62 : si32
        %64 = spirv.mlir.addressof @spirv_var_45 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
        %65 = spirv.Constant 0 : si32
        %66 = spirv.AccessChain %64[%65, %63] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, si32
        %67 = spirv.Load "StorageBuffer" %66 : si32
        %68 = spirv.SLessThan %67, %65 : si32
        spirv.mlir.selection {
          spirv.BranchConditional %68, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          spirv.Store "Function" %5, %52 : si32
          %82 = spirv.Constant 3 : i32
          spirv.Store "Function" %2, %82 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %69 = spirv.Load "Function" %2 : i32
        %70 = spirv.Constant 3 : i32
        %71 = spirv.IEqual %69, %70 : i32
        %72 = spirv.Load "Function" %5 : si32
        spirv.BranchConditional %71, ^bb5(%72 : si32), ^bb3
      ^bb3:  // pred: ^bb2
        %73 = spirv.Constant 0 : i32
        spirv.Store "Function" %2, %73 : i32
        spirv.mlir.selection {
          %82 = spirv.Constant 7 : si32
          %83 = spirv.SMod %67, %82 : si32
          %84 = spirv.Constant 3 : si32
          %85 = spirv.IEqual %83, %84 : si32
          spirv.BranchConditional %85, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %86 = spirv.Constant true
          spirv.Store "Function" %3, %86 : i1
          %87 = spirv.Constant 4 : i32
          spirv.Store "Function" %2, %87 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %74 = spirv.Load "Function" %2 : i32
        %75 = spirv.Constant 4 : i32
        %76 = spirv.IEqual %74, %75 : i32
        spirv.BranchConditional %76, ^bb6, ^bb4
      ^bb4:  // pred: ^bb3
        %77 = spirv.ISub %67, %53 : si32
        %78 = spirv.IAdd %52, %77 : si32
        spirv.Branch ^bb5(%78 : si32)
      ^bb5(%79: si32):  // 2 preds: ^bb2, ^bb4
        %80 = spirv.Constant 1 : si32
        %81 = spirv.IAdd %53, %80 : si32
        spirv.Branch ^bb1(%79, %81 : si32, si32)
      ^bb6:  // 2 preds: ^bb1, ^bb3
        spirv.mlir.merge
      }
      %34 = spirv.Constant 0 : i32
      spirv.Store "Function" %2, %34 : i32
      %35 = spirv.Load "Function" %3 : i1
      spirv.mlir.selection {
        spirv.BranchConditional %35, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %52 = spirv.Load "Function" %0 : si32
        spirv.Store "Function" %1, %52 : si32
        %53 = spirv.Constant 1 : i32
        spirv.Store "Function" %2, %53 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %36 = spirv.Load "Function" %2 : i32
      %37 = spirv.Constant 1 : i32
      %38 = spirv.IEqual %36, %37 : i32
      spirv.BranchConditional %38, ^bb6, ^bb3
    ^bb3:  // pred: ^bb2
      %39 = spirv.Constant 0 : i32
      spirv.Store "Function" %2, %39 : i32
      spirv.mlir.selection {
        %52 = spirv.Constant 1 : si32
        %53 = spirv.Load "Function" %0 : si32
        %54 = spirv.BitwiseAnd %53, %52 : si32
        %55 = spirv.IEqual %54, %52 : si32
        spirv.BranchConditional %55, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %56 = spirv.Load "Function" %0 : si32
        spirv.Store "Function" %4, %56 : si32
        %57 = spirv.Constant 2 : i32
        spirv.Store "Function" %2, %57 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %40 = spirv.Load "Function" %2 : i32
      %41 = spirv.Constant 2 : i32
      %42 = spirv.IEqual %40, %41 : i32
      %43 = spirv.Load "Function" %4 : si32
      spirv.BranchConditional %42, ^bb5(%43 : si32), ^bb4
    ^bb4:  // pred: ^bb3
      %44 = spirv.Constant 3 : si32
      %45 = spirv.Load "Function" %0 : si32
      %46 = spirv.IMul %45, %44 : si32
      %47 = spirv.Constant 2 : si32
      %48 = spirv.SDiv %46, %47 : si32
      spirv.Branch ^bb5(%48 : si32)
    ^bb5(%49: si32):  // 2 preds: ^bb3, ^bb4
      %50 = spirv.Constant 1 : si32
      %51 = spirv.IAdd %22, %50 : si32
      spirv.Branch ^bb1(%35, %49, %51 : i1, si32, si32)
    ^bb6:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %15 = spirv.Load "Function" %1 : si32
    %16 = spirv.Constant 63 : i32
    %17 = spirv.BitwiseAnd %9, %16 : i32
    %18 = spirv.mlir.addressof @spirv_var_99 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
    %19 = spirv.AccessChain %18[%10, %17] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %19, %15 : si32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
