spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_31 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_130 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %7 = spirv.Constant 0 : i32
      %8 = spirv.Constant 32 : i32
      %9 = spirv.Constant 0 : i32
      %10 = spirv.Constant 63 : i32
      %11 = spirv.Constant 3 : i32
      %12 = spirv.Constant 900 : i32
      %13 = spirv.Constant 100000 : i32
      %14 = spirv.Constant 7 : i32
      %15 = spirv.Constant 1 : i32
      %16 = spirv.Constant 1 : i32
      %17 = spirv.Constant 50 : i32
      %18 = spirv.Constant 30 : i32
      %19 = spirv.Constant 64 : i32
      %20 = spirv.Constant dense<[16, 1, 1]> : vector<3xi32>
      spirv.Switch %7 : i32, [
        default: ^bb1
      ]
    ^bb1:  // pred: ^bb0
      %21 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %22 = spirv.Constant 0 : i32
      %23 = spirv.AccessChain %21[%22] : !spirv.ptr<vector<3xi32>, Input>, i32
      %24 = spirv.Load "Input" %23 : i32
      %25 = spirv.Constant 0 : i32
      %26 = spirv.Constant 0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%25, %26 : i32, i32)
      ^bb1(%38: i32, %39: i32):  // 2 preds: ^bb0, ^bb6
        %40 = spirv.Constant 32 : i32
        %41 = spirv.ULessThan %39, %40 : i32
        spirv.Store "Function" %3, %38 : i32
        spirv.BranchConditional %41, ^bb2, ^bb7
      ^bb2:  // pred: ^bb1
        %42 = spirv.Constant 0 : i32
        spirv.Store "Function" %4, %42 : i32
        %43 = spirv.IAdd %24, %39 : i32
        %44 = spirv.Constant 63 : i32
        %45 = spirv.BitwiseAnd %43, %44 : i32
        %46 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        %47 = spirv.Constant 0 : i32
        %48 = spirv.AccessChain %46[%47, %45] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
        %49 = spirv.Load "StorageBuffer" %48 : i32
        %50 = spirv.Constant 3 : i32
        %51 = spirv.BitwiseAnd %49, %50 : i32
        %52 = spirv.Constant 0 : i32
        %53 = spirv.IEqual %51, %52 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %53, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          spirv.Store "Function" %6, %38 : i32
          %73 = spirv.Constant 2 : i32
          spirv.Store "Function" %4, %73 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %54 = spirv.Load "Function" %4 : i32
        %55 = spirv.Constant 2 : i32
        %56 = spirv.IEqual %54, %55 : i32
        %57 = spirv.Load "Function" %6 : i32
        spirv.BranchConditional %56, ^bb6(%57 : i32), ^bb3
      ^bb3:  // pred: ^bb2
        %58 = spirv.Constant 0 : i32
        spirv.Store "Function" %4, %58 : i32
        spirv.mlir.selection {
          %73 = spirv.Constant 900 : i32
          %74 = spirv.UGreaterThan %49, %73 : i32
          spirv.BranchConditional %74, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          spirv.Store "Function" %3, %38 : i32
          %75 = spirv.Constant 3 : i32
          spirv.Store "Function" %4, %75 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %59 = spirv.Load "Function" %4 : i32
        %60 = spirv.Constant 3 : i32
        %61 = spirv.IEqual %59, %60 : i32
        spirv.BranchConditional %61, ^bb7, ^bb4
      ^bb4:  // pred: ^bb3
        %62 = spirv.Constant 0 : i32
        spirv.Store "Function" %4, %62 : i32
        %63 = spirv.IMul %49, %39 : i32
        %64 = spirv.IAdd %38, %63 : i32
        %65 = spirv.Constant 100000 : i32
        %66 = spirv.UGreaterThan %64, %65 : i32
        spirv.mlir.selection {
          spirv.BranchConditional %66, ^bb1, ^bb2
        ^bb1:  // pred: ^bb0
          %73 = spirv.Constant 7 : i32
          spirv.Store "Function" %3, %73 : i32
          %74 = spirv.Constant 3 : i32
          spirv.Store "Function" %4, %74 : i32
          spirv.Branch ^bb2
        ^bb2:  // 2 preds: ^bb0, ^bb1
          spirv.mlir.merge
        }
        %67 = spirv.Load "Function" %4 : i32
        %68 = spirv.Constant 3 : i32
        %69 = spirv.IEqual %67, %68 : i32
        spirv.BranchConditional %69, ^bb7, ^bb5
      ^bb5:  // pred: ^bb4
        spirv.Branch ^bb6(%64 : i32)
      ^bb6(%70: i32):  // 2 preds: ^bb2, ^bb5
        %71 = spirv.Constant 1 : i32
        %72 = spirv.IAdd %39, %71 : i32
        spirv.Branch ^bb1(%70, %72 : i32, i32)
      ^bb7:  // 3 preds: ^bb1, ^bb3, ^bb4
        spirv.mlir.merge
      }
      %27 = spirv.Load "Function" %3 : i32
      %28 = spirv.Constant 0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%27, %28 : i32, i32)
      ^bb1(%38: i32, %39: i32):  // 2 preds: ^bb0, ^bb2
        spirv.Store "Function" %0, %38 : i32
        %40 = spirv.Constant 63 : i32
        %41 = spirv.BitwiseAnd %24, %40 : i32
        %42 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
        %43 = spirv.Constant 0 : i32
        %44 = spirv.AccessChain %42[%43, %41] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
        %45 = spirv.Load "StorageBuffer" %44 : i32
        %46 = spirv.Constant 7 : i32
        %47 = spirv.BitwiseAnd %45, %46 : i32
        %48 = spirv.ULessThan %39, %47 : i32
        spirv.BranchConditional %48, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %49 = spirv.BitwiseXor %38, %39 : i32
        %50 = spirv.Constant 1 : i32
        %51 = spirv.IAdd %39, %50 : i32
        spirv.Branch ^bb1(%49, %51 : i32, i32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      %29 = spirv.Load "Function" %0 : i32
      spirv.mlir.loop {
        spirv.Branch ^bb1(%29 : i32)
      ^bb1(%38: i32):  // 2 preds: ^bb0, ^bb2
        spirv.Store "Function" %2, %38 : i32
        %39 = spirv.Constant 1 : i32
        %40 = spirv.IAdd %38, %39 : i32
        spirv.Store "Function" %1, %40 : i32
        %41 = spirv.BitwiseAnd %40, %39 : i32
        %42 = spirv.Constant 0 : i32
        %43 = spirv.INotEqual %41, %42 : i32
        %44 = spirv.Constant 50 : i32
        %45 = spirv.ULessThan %40, %44 : i32
        %46 = spirv.LogicalAnd %43, %45 : i1
        spirv.BranchConditional %46, ^bb2(%40 : i32), ^bb3
      ^bb2(%47: i32):  // pred: ^bb1
        spirv.Branch ^bb1(%47 : i32)
      ^bb3:  // pred: ^bb1
        spirv.mlir.merge
      }
      spirv.mlir.selection {
        %38 = spirv.Constant 3 : i32
        %39 = spirv.Load "Function" %1 : i32
        %40 = spirv.BitwiseAnd %39, %38 : i32
        %41 = spirv.Load "Function" %1 : i32
        spirv.Switch %40 : i32, [
          default: ^bb1,
          0: ^bb2,
          1: ^bb3,
          2: ^bb4(%41 : i32)
        ]
      ^bb1:  // pred: ^bb0
        %42 = spirv.Constant 0 : i32
        spirv.Store "Function" %5, %42 : i32
        spirv.Branch ^bb5
      ^bb2:  // pred: ^bb0
        %43 = spirv.Constant 11 : i32
        %44 = spirv.Load "Function" %2 : i32
        %45 = spirv.IAdd %44, %43 : i32
        spirv.Store "Function" %5, %45 : i32
        spirv.Branch ^bb5
      ^bb3:  // pred: ^bb0
        %46 = spirv.Constant 21 : i32
        %47 = spirv.Load "Function" %2 : i32
        %48 = spirv.IAdd %47, %46 : i32
        spirv.Branch ^bb4(%48 : i32)
      ^bb4(%49: i32):  // 2 preds: ^bb0, ^bb3
        %50 = spirv.Constant 30 : i32
        %51 = spirv.IAdd %49, %50 : i32
        spirv.Store "Function" %5, %51 : i32
        spirv.Branch ^bb5
      ^bb5:  // 3 preds: ^bb1, ^bb2, ^bb4
        spirv.mlir.merge
      }
      %30 = spirv.Constant 0 : i32
      spirv.Store "Function" %4, %30 : i32
      %31 = spirv.Load "Function" %5 : i32
      spirv.mlir.selection {
        %38 = spirv.Constant 64 : i32
        %39 = spirv.UGreaterThanEqual %24, %38 : i32
        spirv.BranchConditional %39, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %40 = spirv.Constant 1 : i32
        spirv.Store "Function" %4, %40 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %32 = spirv.Load "Function" %4 : i32
      %33 = spirv.Constant 1 : i32
      %34 = spirv.IEqual %32, %33 : i32
      spirv.BranchConditional %34, ^bb3, ^bb2
    ^bb2:  // pred: ^bb1
      %35 = spirv.mlir.addressof @spirv_var_130 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %36 = spirv.Constant 0 : i32
      %37 = spirv.AccessChain %35[%36, %24] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      spirv.Store "StorageBuffer" %37, %31 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
