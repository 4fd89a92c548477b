spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_41 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_117 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Variable : !spirv.ptr<i32, Function>
    %7 = spirv.Constant 0 : i32
    %8 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %9 = spirv.AccessChain %8[%7] : !spirv.ptr<vector<3xi32>, Input>, i32
    %10 = spirv.Load "Input" %9 : i32
    %11 = spirv.Constant 63 : i32
    %12 = spirv.BitwiseAnd %10, %11 : i32
    %13 = spirv.Constant 0 : i32
    %14 = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%13, %14 : i32, i32)
    ^bb1(%19: i32, %20: i32):  // 2 preds: ^bb0, ^bb4
      %21 = spirv.Constant 6 : i32
      %22 = spirv.Constant 0 : i32
      %23 = spirv.Constant 10 : i32
      %24 = spirv.Constant 100 : i32
      %25 = spirv.Constant 1 : i32
      %26 = spirv.Constant 2 : i32
      %27 = spirv.Constant 700 : i32
      %28 = spirv.Constant 5 : i32
      %29 = spirv.Constant 3 : i32
      %30 = spirv.Constant 900 : i32
      %31 = spirv.Constant 1 : i32
      %32 = spirv.Constant 5000 : i32
      %33 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      %34 = spirv.ULessThan %20, %21 : i32
      spirv.Store "Function" %0, %19 : i32
      spirv.BranchConditional %34, ^bb2, ^bb5
    ^bb2:  // pred: ^bb1
      %35 = spirv.Constant 0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%19, %35 : i32, i32)
      ^bb1(%43: i32, %44: i32):  // 2 preds: ^bb0, ^bb5
        %45 = spirv.Constant 6 : i32
        %46 = spirv.ULessThan %44, %45 : i32
        spirv.Store "Function" %2, %43 : i32
        spirv.BranchConditional %46, ^bb2, ^bb6
      ^bb2:  // pred: ^bb1
        %47 = spirv.Constant 0 : i32
        spirv.Store "Function" %1, %47 : i32
        spirv.mlir.selection {
          %59 = spirv.Constant 6 : i32
          %60 = spirv.IMul %20, %59 : i32
          %61 = spirv.IAdd %12, %60 : i32
          %62 = spirv.IAdd %61, %44 : i32
          %63 = spirv.Constant 63 : i32
          %64 = spirv.BitwiseAnd %62, %63 : i32
          %65 = spirv.mlir.addressof @spirv_var_41 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
          %66 = spirv.Constant 0 : i32
          %67 = spirv.AccessChain %65[%66, %64] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
          %68 = spirv.Load "StorageBuffer" %67 : i32
          %69 = spirv.Constant 10 : i32
          %70 = spirv.UGreaterThan %68, %69 : i32
          spirv.Store "Function" %4, %43 : i32
          spirv.BranchConditional %70, ^bb1, ^bb3
        ^bb1:  // pred: ^bb0
          %71 = spirv.Constant 0 : i32
          spirv.Store "Function" %1, %71 : i32
          spirv.mlir.selection {
            %81 = spirv.Constant 100 : i32
            %82 = spirv.UGreaterThan %68, %81 : i32
            spirv.Store "Function" %5, %43 : i32
            spirv.BranchConditional %82, ^bb1, ^bb3
          ^bb1:  // pred: ^bb0
            %83 = spirv.Constant 0 : i32
            spirv.Store "Function" %1, %83 : i32
            spirv.mlir.selection {
              %91 = spirv.Constant 1 : i32
              %92 = spirv.BitwiseAnd %68, %91 : i32
              %93 = spirv.IEqual %92, %91 : i32
              spirv.BranchConditional %93, ^bb1, ^bb2
            ^bb1:  // pred: ^bb0
              %94 = spirv.Constant 0 : i32
              spirv.Store "Function" %1, %94 : i32
              spirv.mlir.selection {
                %107 = spirv.Constant 2 : i32
                %108 = spirv.BitwiseAnd %68, %107 : i32
                %109 = spirv.IEqual %108, %107 : i32
                spirv.BranchConditional %109, ^bb1, ^bb3
              ^bb1:  // pred: ^bb0
                %110 = spirv.Constant 0 : i32
                spirv.Store "Function" %1, %110 : i32
                spirv.mlir.selection {
                  %117 = spirv.Constant 700 : i32
                  %118 = spirv.UGreaterThan %68, %117 : i32
                  spirv.BranchConditional %118, ^bb1, ^bb2
                ^bb1:  // pred: ^bb0
                  spirv.Store "Function" %2, %43 : i32
                  %119 = spirv.Constant 3 : i32
                  spirv.Store "Function" %1, %119 : i32
                  spirv.Branch ^bb2
                ^bb2:  // 2 preds: ^bb0, ^bb1
                  spirv.mlir.merge
                }
                %111 = spirv.Load "Function" %1 : i32
                %112 = spirv.Constant 3 : i32
                %113 = spirv.IEqual %111, %112 : i32
                spirv.BranchConditional %113, ^bb3, ^bb2
              ^bb2:  // pred: ^bb1
                %114 = spirv.Constant 5 : i32
                %115 = spirv.IAdd %43, %114 : i32
                spirv.Store "Function" %3, %115 : i32
                %116 = spirv.Constant 2 : i32
                spirv.Store "Function" %1, %116 : i32
                spirv.Branch ^bb3
              ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
                spirv.mlir.merge
              }
              %95 = spirv.Load "Function" %1 : i32
              %96 = spirv.Constant 2 : i32
              %97 = spirv.IEqual %95, %96 : i32
              %98 = spirv.Constant 3 : i32
              %99 = spirv.IEqual %95, %98 : i32
              %100 = spirv.LogicalOr %97, %99 : i1
              spirv.BranchConditional %100, ^bb5, ^bb3
            ^bb2:  // pred: ^bb0
              %101 = spirv.Constant 0 : i32
              spirv.Store "Function" %1, %101 : i32
              spirv.mlir.selection {
                %107 = spirv.Constant 900 : i32
                %108 = spirv.UGreaterThan %68, %107 : i32
                spirv.BranchConditional %108, ^bb1, ^bb2
              ^bb1:  // pred: ^bb0
                %109 = spirv.Constant 100 : i32
                %110 = spirv.IAdd %43, %109 : i32
                spirv.Store "Function" %2, %110 : i32
                %111 = spirv.Constant 3 : i32
                spirv.Store "Function" %1, %111 : i32
                spirv.Branch ^bb2
              ^bb2:  // 2 preds: ^bb0, ^bb1
                spirv.mlir.merge
              }
              %102 = spirv.Load "Function" %1 : i32
              %103 = spirv.Constant 3 : i32
              %104 = spirv.IEqual %102, %103 : i32
              spirv.BranchConditional %104, ^bb5, ^bb4
            ^bb3:  // pred: ^bb1
              %105 = spirv.Constant 3 : i32
              %106 = spirv.IAdd %43, %105 : i32
              spirv.Store "Function" %6, %106 : i32
              spirv.Branch ^bb5
            ^bb4:  // pred: ^bb2
              spirv.Store "Function" %6, %43 : i32
              spirv.Branch ^bb5
            ^bb5:  // 4 preds: ^bb1, ^bb2, ^bb3, ^bb4
              spirv.mlir.merge
            }
            %84 = spirv.Load "Function" %1 : i32
            %85 = spirv.Constant 2 : i32
            %86 = spirv.IEqual %84, %85 : i32
            %87 = spirv.Constant 3 : i32
            %88 = spirv.IEqual %84, %87 : i32
            %89 = spirv.LogicalOr %86, %88 : i1
            spirv.BranchConditional %89, ^bb3, ^bb2
          ^bb2:  // pred: ^bb1
            %90 = spirv.Load "Function" %6 : i32
            spirv.Store "Function" %5, %90 : i32
            spirv.Branch ^bb3
          ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
            spirv.mlir.merge
          }
          %72 = spirv.Load "Function" %1 : i32
          %73 = spirv.Constant 2 : i32
          %74 = spirv.IEqual %72, %73 : i32
          %75 = spirv.Constant 3 : i32
          %76 = spirv.IEqual %72, %75 : i32
          %77 = spirv.LogicalOr %74, %76 : i1
          spirv.BranchConditional %77, ^bb3, ^bb2
        ^bb2:  // pred: ^bb1
          %78 = spirv.Load "Function" %5 : i32
          %79 = spirv.Constant 1 : i32
          %80 = spirv.IAdd %78, %79 : i32
          spirv.Store "Function" %4, %80 : i32
          spirv.Branch ^bb3
        ^bb3:  // 3 preds: ^bb0, ^bb1, ^bb2
          spirv.mlir.merge
        }
        %48 = spirv.Load "Function" %1 : i32
        %49 = spirv.Constant 2 : i32
        %50 = spirv.IEqual %48, %49 : i32
        %51 = spirv.Constant 3 : i32
        %52 = spirv.IEqual %48, %51 : i32
        %53 = spirv.Load "Function" %3 : i32
        spirv.BranchConditional %50, ^bb5(%53 : i32), ^bb3
      ^bb3:  // pred: ^bb2
        spirv.BranchConditional %52, ^bb6, ^bb4
      ^bb4:  // pred: ^bb3
        %54 = spirv.Load "Function" %4 : i32
        %55 = spirv.BitwiseXor %54, %44 : i32
        spirv.Branch ^bb5(%55 : i32)
      ^bb5(%56: i32):  // 2 preds: ^bb2, ^bb4
        %57 = spirv.Constant 1 : i32
        %58 = spirv.IAdd %44, %57 : i32
        spirv.Branch ^bb1(%56, %58 : i32, i32)
      ^bb6:  // 2 preds: ^bb1, ^bb3
        spirv.mlir.merge
      }
      %36 = spirv.Constant 0 : i32
      spirv.Store "Function" %1, %36 : i32
      %37 = spirv.Load "Function" %2 : i32
      spirv.mlir.selection {
        %43 = spirv.Constant 5000 : i32
        %44 = spirv.UGreaterThan %37, %43 : i32
        spirv.BranchConditional %44, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %0, %37 : i32
        %45 = spirv.Constant 1 : i32
        spirv.Store "Function" %1, %45 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %38 = spirv.Load "Function" %1 : i32
      %39 = spirv.Constant 1 : i32
      %40 = spirv.IEqual %38, %39 : i32
      spirv.BranchConditional %40, ^bb5, ^bb3
    ^bb3:  // pred: ^bb2
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %41 = spirv.Constant 1 : i32
      %42 = spirv.IAdd %20, %41 : i32
      spirv.Branch ^bb1(%37, %42 : i32, i32)
    ^bb5:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %15 = spirv.Load "Function" %0 : i32
    %16 = spirv.mlir.addressof @spirv_var_117 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %17 = spirv.Constant 0 : i32
    %18 = spirv.AccessChain %16[%17, %12] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %18, %15 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
