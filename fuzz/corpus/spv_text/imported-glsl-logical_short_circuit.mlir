spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @spirv_var_16 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_95 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i1, Function>
    %1 = spirv.Variable : !spirv.ptr<i1, Function>
    %2 = spirv.Variable : !spirv.ptr<i1, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Variable : !spirv.ptr<i1, Function>
    %6 = spirv.Variable : !spirv.ptr<i32, Function>
    %7 = spirv.Variable : !spirv.ptr<i1, Function>
    %8 = spirv.Variable : !spirv.ptr<i32, Function>
    %9 = spirv.Variable : !spirv.ptr<i32, Function>
    %10 = spirv.Variable : !spirv.ptr<i32, Function>
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    spirv.mlir.selection {
      %28 = spirv.Constant 0 : si32
      %29 = spirv.Constant 7 : i32
      %30 = spirv.Constant 63 : i32
      %31 = spirv.Constant 500 : i32
      %32 = spirv.Constant 0 : i32
      %33 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
      %34 = spirv.AccessChain %33[%32] : !spirv.ptr<vector<3xi32>, Input>, i32
      %35 = spirv.Load "Input" %34 : i32
      %36 = spirv.BitwiseAnd %35, %30 : i32
      spirv.Store "Function" %3, %36 : i32
      %37 = spirv.Load "Function" %3 : i32
      %38 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %39 = spirv.AccessChain %38[%28, %37] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %40 = spirv.Load "StorageBuffer" %39 : i32
      spirv.Store "Function" %4, %40 : i32
      %41 = spirv.Load "Function" %4 : i32
      %42 = spirv.Constant 100 : i32
      %43 = spirv.UGreaterThan %41, %42 : i32
      spirv.Store "Function" %0, %43 : i1
      spirv.BranchConditional %43, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %44 = spirv.Load "Function" %3 : i32
      spirv.Store "Function" %6, %44 : i32
      %45 = spirv.FunctionCall @"heavy(u1;"(%6) : (!spirv.ptr<i32, Function>) -> i1
      spirv.Store "Function" %0, %45 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %12 = spirv.Load "Function" %0 : i1
    spirv.mlir.selection {
      spirv.Store "Function" %5, %12 : i1
      %28 = spirv.Load "Function" %4 : i32
      %29 = spirv.Constant 50 : i32
      %30 = spirv.ULessThan %28, %29 : i32
      %31 = spirv.LogicalNot %30 : i1
      spirv.Store "Function" %1, %30 : i1
      spirv.BranchConditional %31, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %32 = spirv.Load "Function" %3 : i32
      %33 = spirv.Constant 1 : i32
      %34 = spirv.IAdd %32, %33 : i32
      spirv.Store "Function" %8, %34 : i32
      %35 = spirv.FunctionCall @"heavy(u1;"(%8) : (!spirv.ptr<i32, Function>) -> i1
      spirv.Store "Function" %1, %35 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %13 = spirv.Load "Function" %1 : i1
    spirv.mlir.selection {
      %28 = spirv.LogicalNot %13 : i1
      spirv.Store "Function" %2, %13 : i1
      spirv.BranchConditional %28, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %29 = spirv.Load "Function" %4 : i32
      %30 = spirv.Constant 4 : i32
      %31 = spirv.BitwiseAnd %29, %30 : i32
      %32 = spirv.Constant 0 : i32
      %33 = spirv.INotEqual %31, %32 : i32
      spirv.Store "Function" %2, %33 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %14 = spirv.Load "Function" %2 : i1
    spirv.mlir.selection {
      spirv.Store "Function" %7, %14 : i1
      %28 = spirv.Load "Function" %5 : i1
      spirv.BranchConditional %28, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %29 = spirv.Load "Function" %7 : i1
      %30 = spirv.Constant 3 : i32
      %31 = spirv.Constant 2 : i32
      %32 = spirv.Select %29, %30, %31 : i1, i32
      spirv.Store "Function" %10, %32 : i32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %33 = spirv.Load "Function" %3 : i32
      %34 = spirv.Constant 2 : i32
      %35 = spirv.IAdd %33, %34 : i32
      spirv.Store "Function" %11, %35 : i32
      %36 = spirv.FunctionCall @"heavy(u1;"(%11) : (!spirv.ptr<i32, Function>) -> i1
      %37 = spirv.Constant 1 : i32
      %38 = spirv.Constant 0 : i32
      %39 = spirv.Select %36, %37, %38 : i1, i32
      spirv.Store "Function" %10, %39 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %15 = spirv.Load "Function" %10 : i32
    spirv.Store "Function" %9, %15 : i32
    %16 = spirv.Load "Function" %3 : i32
    %17 = spirv.Load "Function" %9 : i32
    %18 = spirv.Load "Function" %5 : i1
    %19 = spirv.Load "Function" %7 : i1
    %20 = spirv.LogicalNotEqual %18, %19 : i1
    %21 = spirv.Constant 10 : i32
    %22 = spirv.Constant 20 : i32
    %23 = spirv.Select %20, %21, %22 : i1, i32
    %24 = spirv.IAdd %17, %23 : i32
    %25 = spirv.mlir.addressof @spirv_var_95 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %26 = spirv.Constant 0 : si32
    %27 = spirv.AccessChain %25[%26, %16] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %27, %24 : i32
    spirv.Return
  }
  spirv.func @"heavy(u1;"(%arg0: !spirv.ptr<i32, Function>) -> i1 "None" {
    %0 = spirv.Constant 0 : si32
    %1 = spirv.Load "Function" %arg0 : i32
    %2 = spirv.Constant 7 : i32
    %3 = spirv.IMul %1, %2 : i32
    %4 = spirv.Constant 63 : i32
    %5 = spirv.BitwiseAnd %3, %4 : i32
    %6 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %7 = spirv.AccessChain %6[%0, %5] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %8 = spirv.Load "StorageBuffer" %7 : i32
    %9 = spirv.Constant 500 : i32
    %10 = spirv.UGreaterThan %8, %9 : i32
    spirv.ReturnValue %10 : i1
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
