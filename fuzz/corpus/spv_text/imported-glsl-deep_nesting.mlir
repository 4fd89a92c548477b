spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_41 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_117 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Constant 0 : i32
    %5 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %6 = spirv.AccessChain %5[%4] : !spirv.ptr<vector<3xi32>, Input>, i32
    %7 = spirv.Load "Input" %6 : i32
    %8 = spirv.Constant 63 : i32
    %9 = spirv.BitwiseAnd %7, %8 : i32
    spirv.Store "Function" %3, %9 : i32
    %10 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %10, %4 : i32
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.Store "Function" %11, %4 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %17 = spirv.Load "Function" %11 : i32
      %18 = spirv.Constant 6 : i32
      %19 = spirv.ULessThan %17, %18 : i32
      spirv.BranchConditional %19, ^bb3, ^bb6
    ^bb3:  // pred: ^bb2
      %20 = spirv.Constant 0 : i32
      spirv.Store "Function" %1, %20 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1
      ^bb1:  // 2 preds: ^bb0, ^bb6
        spirv.Branch ^bb2
      ^bb2:  // pred: ^bb1
        %28 = spirv.Load "Function" %1 : i32
        %29 = spirv.Constant 6 : i32
        %30 = spirv.ULessThan %28, %29 : i32
        spirv.BranchConditional %30, ^bb3, ^bb7
      ^bb3:  // pred: ^bb2
        %31 = spirv.Constant 0 : i32
        spirv.Store "Function" %0, %31 : i32
        spirv.mlir.selection {
          %43 = spirv.Constant 0 : i32
          %44 = spirv.Load "Function" %3 : i32
          %45 = spirv.Load "Function" %11 : i32
          %46 = spirv.Constant 6 : i32
          %47 = spirv.IMul %45, %46 : i32
          %48 = spirv.IAdd %44, %47 : i32
          %49 = spirv.Load "Function" %1 : i32
          %50 = spirv.IAdd %48, %49 : i32
          %51 = spirv.Constant 63 : i32
          %52 = spirv.BitwiseAnd %50, %51 : i32
          %53 = spirv.mlir.addressof @spirv_var_41 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %54 = spirv.AccessChain %53[%43, %52] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
          %55 = spirv.Load "StorageBuffer" %54 : i32
          spirv.Store "Function" %2, %55 : i32
          %56 = spirv.Load "Function" %2 : i32
          %57 = spirv.Constant 10 : i32
          %58 = spirv.UGreaterThan %56, %57 : i32
          spirv.BranchConditional %58, ^bb1, ^bb3
        ^bb1:  // pred: ^bb0
          %59 = spirv.Constant 0 : i32
          spirv.Store "Function" %0, %59 : i32
          spirv.mlir.selection {
            %69 = spirv.Load "Function" %2 : i32
            %70 = spirv.Constant 100 : i32
            %71 = spirv.UGreaterThan %69, %70 : i32
            spirv.BranchConditional %71, ^bb1, ^bb3
          ^bb1:  // pred: ^bb0
            %72 = spirv.Constant 0 : i32
            spirv.Store "Function" %0, %72 : i32
            spirv.mlir.selection {
              %79 = spirv.Load "Function" %2 : i32
              %80 = spirv.Constant 1 : i32
              %81 = spirv.BitwiseAnd %79, %80 : i32
              %82 = spirv.IEqual %81, %80 : i32
              spirv.BranchConditional %82, ^bb1, ^bb2
            ^bb1:  // pred: ^bb0
              %83 = spirv.Constant 0 : i32
              spirv.Store "Function" %0, %83 : i32
              spirv.mlir.selection {
                %97 = spirv.Load "Function" %2 : i32
                %98 = spirv.Constant 2 : i32
                %99 = spirv.BitwiseAnd %97, %98 : i32
                %100 = spirv.IEqual %99, %98 : i32
                spirv.BranchConditional %100, ^bb1, ^bb3
              ^bb1:  // pred: ^bb0
                %101 = spirv.Constant 0 : i32
                spirv.Store "Function" %0, %101 : i32
                spirv.mlir.selection {
                  %109 = spirv.Load "Function" %2 : i32
                  %110 = spirv.Constant 700 : i32
                  %111 = spirv.UGreaterThan %109, %110 : i32
                  spirv.BranchConditional %111, ^bb1, ^bb2
                ^bb1:  // pred: ^bb0
                  %112 = spirv.Constant 3 : i32
                  spirv.Store "Function" %0, %112 : i32
                  spirv.Branch ^bb2
                ^bb2:  // 2 preds: ^bb0, ^bb1
                  spirv.mlir.merge
                }
                %102 = spirv.Load "Function" %0 : i32
                %103 = spirv.Constant 3 : i32
                %104 = spirv.IEqual %102, %103 : i32
                spirv.BranchConditional %104, ^bb3, ^bb2
              ^bb2:  // pred: ^bb1
                %105 = spirv.Constant 5 : i32
                %106 = spirv.Load "Function" %10 : i32
                %107 = spirv.IAdd %106, %105 : i32
                spirv.Store "Function" %10, %107 : i32
                %108 = spirv.Constant 2 : i32
                spirv.Store "Function" %0, %108 : i32
                spirv.Branch ^bb3
              ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
                spirv.mlir.merge
              }
              %84 = spirv.Load "Function" %0 : i32
              %85 = spirv.Constant 2 : i32
              %86 = spirv.IEqual %84, %85 : i32
              %87 = spirv.Constant 3 : i32
              %88 = spirv.IEqual %84, %87 : i32
              %89 = spirv.LogicalOr %86, %88 : i1
              spirv.BranchConditional %89, ^bb5, ^bb3
            ^bb2:  // pred: ^bb0
              %90 = spirv.Constant 0 : i32
              spirv.Store "Function" %0, %90 : i32
              spirv.mlir.selection {
                %97 = spirv.Load "Function" %2 : i32
                %98 = spirv.Constant 900 : i32
                %99 = spirv.UGreaterThan %97, %98 : i32
                spirv.BranchConditional %99, ^bb1, ^bb2
              ^bb1:  // pred: ^bb0
                %100 = spirv.Load "Function" %10 : i32
                %101 = spirv.Constant 100 : i32
                %102 = spirv.IAdd %100, %101 : i32
                spirv.Store "Function" %10, %102 : i32
                %103 = spirv.Constant 3 : i32
                spirv.Store "Function" %0, %103 : i32
                spirv.Branch ^bb2
              ^bb2:  // 2 preds: ^bb0, ^bb1
                spirv.mlir.merge
              }
              %91 = spirv.Load "Function" %0 : i32
              %92 = spirv.Constant 3 : i32
              %93 = spirv.IEqual %91, %92 : i32
              spirv.BranchConditional %93, ^bb5, ^bb4
            ^bb3:  // pred: ^bb1
              %94 = spirv.Constant 3 : i32
              %95 = spirv.Load "Function" %10 : i32
              %96 = spirv.IAdd %95, %94 : i32
              spirv.Store "Function" %10, %96 : i32
              spirv.Branch ^bb5
            ^bb4:  // pred: ^bb2
              spirv.Branch ^bb5
            ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
              spirv.mlir.merge
            }
            %73 = spirv.Load "Function" %0 : i32
            %74 = spirv.Constant 2 : i32
            %75 = spirv.IEqual %73, %74 : i32
            %76 = spirv.Constant 3 : i32
            %77 = spirv.IEqual %73, %76 : i32
            %78 = spirv.LogicalOr %75, %77 : i1
            spirv.BranchConditional %78, ^bb3, ^bb2
          ^bb2:  // pred: ^bb1
            spirv.Branch ^bb3
          ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
            spirv.mlir.merge
          }
          %60 = spirv.Load "Function" %0 : i32
          %61 = spirv.Constant 2 : i32
          %62 = spirv.IEqual %60, %61 : i32
          %63 = spirv.Constant 3 : i32
          %64 = spirv.IEqual %60, %63 : i32
          %65 = spirv.LogicalOr %62, %64 : i1
          spirv.BranchConditional %65, ^bb3, ^bb2
        ^bb2:  // pred: ^bb1
          %66 = spirv.Load "Function" %10 : i32
          %67 = spirv.Constant 1 : i32
          %68 = spirv.IAdd %66, %67 : i32
          spirv.Store "Function" %10, %68 : i32
          spirv.Branch ^bb3
        ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
          spirv.mlir.merge
        }
        %32 = spirv.Load "Function" %0 : i32
        %33 = spirv.Constant 2 : i32
        %34 = spirv.IEqual %32, %33 : i32
        %35 = spirv.Constant 3 : i32
        %36 = spirv.IEqual %32, %35 : i32
        spirv.BranchConditional %34, ^bb6, ^bb4
      ^bb4:  // pred: ^bb3
        spirv.BranchConditional %36, ^bb7, ^bb5
      ^bb5:  // pred: ^bb4
        %37 = spirv.Load "Function" %1 : i32
        %38 = spirv.Load "Function" %10 : i32
        %39 = spirv.BitwiseXor %38, %37 : i32
        spirv.Store "Function" %10, %39 : i32
        spirv.Branch ^bb6
      ^bb6:  // 2 preds: ^bb3, ^bb5
        %40 = spirv.Load "Function" %1 : i32
        %41 = spirv.Constant 1 : i32
        %42 = spirv.IAdd %40, %41 : i32
        spirv.Store "Function" %1, %42 : i32
        spirv.Branch ^bb1
      ^bb7:  // 2 preds: ^bb2, ^bb4
        spirv.mlir.merge
      }
      %21 = spirv.Constant 0 : i32
      spirv.Store "Function" %0, %21 : i32
      spirv.mlir.selection {
        %28 = spirv.Load "Function" %10 : i32
        %29 = spirv.Constant 5000 : i32
        %30 = spirv.UGreaterThan %28, %29 : i32
        spirv.BranchConditional %30, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %31 = spirv.Constant 1 : i32
        spirv.Store "Function" %0, %31 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %22 = spirv.Load "Function" %0 : i32
      %23 = spirv.Constant 1 : i32
      %24 = spirv.IEqual %22, %23 : i32
      spirv.BranchConditional %24, ^bb6, ^bb4
    ^bb4:  // pred: ^bb3
      spirv.Branch ^bb5
    ^bb5:  // pred: ^bb4
      %25 = spirv.Load "Function" %11 : i32
      %26 = spirv.Constant 1 : i32
      %27 = spirv.IAdd %25, %26 : i32
      spirv.Store "Function" %11, %27 : i32
      spirv.Branch ^bb1
    ^bb6:  // 2 preds: ^bb2, ^bb3
      spirv.mlir.merge
    }
    %12 = spirv.Load "Function" %3 : i32
    %13 = spirv.Load "Function" %10 : i32
    %14 = spirv.mlir.addressof @spirv_var_117 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %15 = spirv.Constant 0 : i32
    %16 = spirv.AccessChain %14[%15, %12] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %16, %13 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
