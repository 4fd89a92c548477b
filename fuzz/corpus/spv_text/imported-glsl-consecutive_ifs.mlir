spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_22 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i1, Function>
    spirv.mlir.selection {
      %10 = spirv.Constant 0 : i32
      %11 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %12 = spirv.AccessChain %11[%10] : !spirv.ptr<vector<3xi32>, Input>, i32
      %13 = spirv.Load "Input" %12 : i32
      %14 = spirv.Constant 63 : i32
      %15 = spirv.BitwiseAnd %13, %14 : i32
      spirv.Store "Function" %0, %15 : i32
      %16 = spirv.Constant 0 : si32
      %17 = spirv.Load "Function" %0 : i32
      %18 = spirv.mlir.addressof @spirv_var_22 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %19 = spirv.AccessChain %18[%16, %17] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %20 = spirv.Load "StorageBuffer" %19 : i32
      spirv.Store "Function" %1, %20 : i32
      %21 = spirv.Load "Function" %1 : i32
      %22 = spirv.Constant 500 : i32
      %23 = spirv.UGreaterThan %21, %22 : i32
      spirv.Store "Function" %2, %23 : i1
      %24 = spirv.Load "Function" %2 : i1
      spirv.BranchConditional %24, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %25 = spirv.Load "Function" %1 : i32
      %26 = spirv.Constant 500 : i32
      %27 = spirv.ISub %25, %26 : i32
      spirv.Store "Function" %1, %27 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %10 = spirv.Load "Function" %1 : i32
      %11 = spirv.Constant 1 : i32
      %12 = spirv.BitwiseAnd %10, %11 : i32
      %13 = spirv.IEqual %12, %11 : i32
      spirv.BranchConditional %13, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %14 = spirv.Load "Function" %1 : i32
      %15 = spirv.Constant 3 : i32
      %16 = spirv.IMul %14, %15 : i32
      %17 = spirv.Constant 1 : i32
      %18 = spirv.IAdd %16, %17 : i32
      spirv.Store "Function" %1, %18 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %10 = spirv.Load "Function" %1 : i32
      %11 = spirv.Constant 2 : i32
      %12 = spirv.BitwiseAnd %10, %11 : i32
      %13 = spirv.IEqual %12, %11 : i32
      spirv.BranchConditional %13, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %14 = spirv.Constant 85 : i32
      %15 = spirv.Load "Function" %1 : i32
      %16 = spirv.BitwiseXor %15, %14 : i32
      spirv.Store "Function" %1, %16 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %10 = spirv.Load "Function" %1 : i32
      %11 = spirv.Constant 100 : i32
      %12 = spirv.UGreaterThan %10, %11 : i32
      spirv.BranchConditional %12, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %13 = spirv.Load "Function" %1 : i32
      %14 = spirv.Constant 3 : i32
      %15 = spirv.UDiv %13, %14 : i32
      spirv.Store "Function" %1, %15 : i32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %16 = spirv.Constant 7 : i32
      %17 = spirv.Load "Function" %1 : i32
      %18 = spirv.IAdd %17, %16 : i32
      spirv.Store "Function" %1, %18 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %3 = spirv.Load "Function" %0 : i32
    %4 = spirv.Load "Function" %2 : i1
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %4, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %10 = spirv.Load "Function" %1 : i32
      %11 = spirv.Constant 1 : i32
      %12 = spirv.IAdd %10, %11 : i32
      spirv.Store "Function" %5, %12 : i32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %13 = spirv.Load "Function" %1 : i32
      spirv.Store "Function" %5, %13 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %6 = spirv.Load "Function" %5 : i32
    %7 = spirv.mlir.addressof @spirv_var_22 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spirv.Constant 0 : si32
    %9 = spirv.AccessChain %7[%8, %3] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %9, %6 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
