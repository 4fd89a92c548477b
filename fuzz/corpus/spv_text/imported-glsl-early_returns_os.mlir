spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_53 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_74 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i1, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %4 = spirv.Constant 100 : i32
      %5 = spirv.Constant 0 : i32
      %6 = spirv.Constant 500 : i32
      %7 = spirv.Constant 1 : i32
      %8 = spirv.Constant 2 : i32
      %9 = spirv.Constant 3 : i32
      %10 = spirv.Constant 64 : i32
      spirv.Switch %5 : i32, [
        default: ^bb1
      ]
    ^bb1:  // pred: ^bb0
      %11 = spirv.Constant 0 : i32
      spirv.Store "Function" %1, %11 : i32
      %12 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %13 = spirv.Constant 0 : i32
      %14 = spirv.AccessChain %12[%13] : !spirv.ptr<vector<3xi32>, Input>, i32
      %15 = spirv.Load "Input" %14 : i32
      %16 = spirv.Constant 64 : i32
      %17 = spirv.UGreaterThanEqual %15, %16 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %17, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %35 = spirv.Constant 1 : i32
        spirv.Store "Function" %1, %35 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %18 = spirv.Load "Function" %1 : i32
      %19 = spirv.Constant 1 : i32
      %20 = spirv.IEqual %18, %19 : i32
      spirv.BranchConditional %20, ^bb4, ^bb2
    ^bb2:  // pred: ^bb1
      %21 = spirv.Constant 0 : i32
      %22 = spirv.Constant 1000 : i32
      %23 = spirv.mlir.addressof @spirv_var_53 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %24 = spirv.AccessChain %23[%21, %15] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %24, %22 : i32
      %25 = spirv.Constant 0 : i32
      %26 = spirv.Constant 0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%25, %26 : i32, i32)
      ^bb1(%35: i32, %36: i32):  // 2 preds: ^bb0, ^bb4
        spirv.Store "Function" %0, %35 : i32
        %37 = spirv.Constant 16 : i32
        %38 = spirv.Constant 63 : i32
        %39 = spirv.Constant 10 : i32
        %40 = spirv.Constant 1 : i32
        %41 = spirv.Constant 7 : i32
        %42 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
        %43 = spirv.Constant false
        %44 = spirv.Constant true
        %45 = spirv.ULessThan %36, %37 : i32
        spirv.Store "Function" %2, %43 : i1
        spirv.BranchConditional %45, ^bb2, ^bb5
      ^bb2:  // pred: ^bb1
        spirv.mlir.selection {
          %54 = spirv.Constant 3 : i32
          %55 = spirv.IMul %15, %54 : i32
          %56 = spirv.IAdd %55, %36 : i32
          %57 = spirv.Constant 63 : i32
          %58 = spirv.BitwiseAnd %56, %57 : i32
          %59 = spirv.mlir.addressof @spirv_var_74 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %60 = spirv.Constant 0 : i32
          %61 = spirv.AccessChain %59[%60, %58] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
          %62 = spirv.Load "StorageBuffer" %61 : i32
          %63 = spirv.Constant 0 : i32
          spirv.Switch %63 : i32, [
            default: ^bb1
          ]
        ^bb1:  // pred: ^bb0
          %64 = spirv.Constant 0 : i32
          spirv.Store "Function" %1, %64 : i32
          spirv.mlir.selection {
            %73 = spirv.Constant 100 : i32
            %74 = spirv.ULessThan %62, %73 : i32
            spirv.BranchConditional %74, ^bb1, ^bb2
          ^bb1:  // pred: ^bb0
            %75 = spirv.Constant 0 : i32
            spirv.Store "Function" %3, %75 : i32
            %76 = spirv.Constant 3 : i32
            spirv.Store "Function" %1, %76 : i32
            spirv.Branch ^bb2
          ^bb2:  // 2 preds: ^bb0, ^bb1
            spirv.mlir.merge
          }
          %65 = spirv.Load "Function" %1 : i32
          %66 = spirv.Constant 3 : i32
          %67 = spirv.IEqual %65, %66 : i32
          spirv.BranchConditional %67, ^bb4, ^bb2
        ^bb2:  // pred: ^bb1
          %68 = spirv.Constant 0 : i32
          spirv.Store "Function" %1, %68 : i32
          spirv.mlir.selection {
            %73 = spirv.Constant 500 : i32
            %74 = spirv.ULessThan %62, %73 : i32
            spirv.BranchConditional %74, ^bb1, ^bb3
          ^bb1:  // pred: ^bb0
            %75 = spirv.Constant 0 : i32
            spirv.Store "Function" %1, %75 : i32
            spirv.mlir.selection {
              %81 = spirv.Constant 1 : i32
              %82 = spirv.BitwiseAnd %62, %81 : i32
              %83 = spirv.Constant 0 : i32
              %84 = spirv.IEqual %82, %83 : i32
              spirv.BranchConditional %84, ^bb1, ^bb2
            ^bb1:  // pred: ^bb0
              %85 = spirv.Constant 1 : i32
              spirv.Store "Function" %3, %85 : i32
              %86 = spirv.Constant 3 : i32
              spirv.Store "Function" %1, %86 : i32
              spirv.Branch ^bb2
            ^bb2:  // 2 preds: ^bb0, ^bb1
              spirv.mlir.merge
            }
            %76 = spirv.Load "Function" %1 : i32
            %77 = spirv.Constant 3 : i32
            %78 = spirv.IEqual %76, %77 : i32
            spirv.BranchConditional %78, ^bb3, ^bb2
          ^bb2:  // pred: ^bb1
            %79 = spirv.Constant 2 : i32
            spirv.Store "Function" %3, %79 : i32
            %80 = spirv.Constant 3 : i32
            spirv.Store "Function" %1, %80 : i32
            spirv.Branch ^bb3
          ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
            spirv.mlir.merge
          }
          %69 = spirv.Load "Function" %1 : i32
          %70 = spirv.Constant 3 : i32
          %71 = spirv.IEqual %69, %70 : i32
          spirv.BranchConditional %71, ^bb4, ^bb3
        ^bb3:  // pred: ^bb2
          %72 = spirv.Constant 3 : i32
          spirv.Store "Function" %3, %72 : i32
          spirv.Branch ^bb4
        ^bb4:  // 3 preds: ^bb1, ^bb2, ^bb3
          spirv.mlir.merge
        }
        %46 = spirv.Constant 0 : i32
        spirv.Store "Function" %1, %46 : i32
        %47 = spirv.Load "Function" %3 : i32
        spirv.mlir.selection {
          %54 = spirv.Constant 3 : i32
          %55 = spirv.IEqual %47, %54 : i32
          spirv.BranchConditional %55, ^bb1, ^bb3
        ^bb1:  // pred: ^bb0
          %56 = spirv.Constant 0 : i32
          spirv.Store "Function" %1, %56 : i32
          spirv.mlir.selection {
            %60 = spirv.Constant 10 : i32
            %61 = spirv.UGreaterThan %36, %60 : i32
            spirv.BranchConditional %61, ^bb1, ^bb2
          ^bb1:  // pred: ^bb0
            spirv.Store "StorageBuffer" %24, %35 : i32
            %62 = spirv.Constant true
            spirv.Store "Function" %2, %62 : i1
            %63 = spirv.Constant 2 : i32
            spirv.Store "Function" %1, %63 : i32
            spirv.Branch ^bb2
          ^bb2:  // 2 preds: ^bb0, ^bb1
            spirv.mlir.merge
          }
          %57 = spirv.Load "Function" %1 : i32
          %58 = spirv.Constant 2 : i32
          %59 = spirv.IEqual %57, %58 : i32
          spirv.BranchConditional %59, ^bb3, ^bb2
        ^bb2:  // pred: ^bb1
          spirv.Branch ^bb3
        ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
          spirv.mlir.merge
        }
        %48 = spirv.Load "Function" %1 : i32
        %49 = spirv.Constant 2 : i32
        %50 = spirv.IEqual %48, %49 : i32
        spirv.BranchConditional %50, ^bb5, ^bb3
      ^bb3:  // pred: ^bb2
        %51 = spirv.IAdd %35, %47 : i32
        spirv.Branch ^bb4
      ^bb4:  // pred: ^bb3
        %52 = spirv.Constant 1 : i32
        %53 = spirv.IAdd %36, %52 : i32
        spirv.Branch ^bb1(%51, %53 : i32, i32)
      ^bb5:  // 2 preds: ^bb1, ^bb2
        spirv.mlir.merge
      }
      %27 = spirv.Constant 0 : i32
      spirv.Store "Function" %1, %27 : i32
      %28 = spirv.Load "Function" %2 : i1
      spirv.mlir.selection {
        %35 = spirv.Constant 1 : i32
        %36 = spirv.Constant 0 : i32
        %37 = spirv.Select %28, %35, %36 : i1, i32
        spirv.Store "Function" %1, %37 : i32
        spirv.BranchConditional %28, ^bb1, ^bb1
      ^bb1:  // pred: ^bb0
        spirv.mlir.merge
      }
      %29 = spirv.Load "Function" %1 : i32
      %30 = spirv.Constant 1 : i32
      %31 = spirv.IEqual %29, %30 : i32
      spirv.BranchConditional %31, ^bb4, ^bb3
    ^bb3:  // pred: ^bb2
      %32 = spirv.Constant 7 : i32
      %33 = spirv.Load "Function" %0 : i32
      %34 = spirv.IAdd %33, %32 : i32
      spirv.Store "StorageBuffer" %24, %34 : i32
      spirv.Branch ^bb4
    ^bb4:  // 3 preds: ^bb1, ^bb2, ^bb3
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
