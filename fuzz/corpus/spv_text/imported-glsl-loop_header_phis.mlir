spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_31 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_75 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<i32, Function>
    %2 = spirv.Variable : !spirv.ptr<i32, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Variable : !spirv.ptr<i32, Function>
    %5 = spirv.Constant 0 : i32
    %6 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %7 = spirv.AccessChain %6[%5] : !spirv.ptr<vector<3xi32>, Input>, i32
    %8 = spirv.Load "Input" %7 : i32
    %9 = spirv.Constant 63 : i32
    %10 = spirv.BitwiseAnd %8, %9 : i32
    %11 = spirv.Constant 1 : i32
    %12 = spirv.Constant 1 : i32
    %13 = spirv.Constant 1 : i32
    %14 = spirv.Constant 0 : i32
    spirv.mlir.loop {
      spirv.Branch ^bb1(%12, %13, %14 : i32, i32, i32)
    ^bb1(%38: i32, %39: i32, %40: i32):  // 2 preds: ^bb0, ^bb4
      spirv.Store "Function" %0, %40 : i32
      %41 = spirv.Constant 0 : i32
      %42 = spirv.Constant 15 : i32
      %43 = spirv.Constant 1000 : i32
      %44 = spirv.Constant 1 : i32
      %45 = spirv.Constant 3 : i32
      %46 = spirv.Constant 50 : i32
      %47 = spirv.Constant 2 : i32
      %48 = spirv.Constant 5 : i32
      %49 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      %50 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %51 = spirv.AccessChain %50[%41, %10] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
      %52 = spirv.Load "StorageBuffer" %51 : i32
      %53 = spirv.BitwiseAnd %52, %42 : i32
      %54 = spirv.ULessThan %40, %53 : i32
      spirv.Store "Function" %1, %38 : i32
      spirv.Store "Function" %2, %39 : i32
      spirv.BranchConditional %54, ^bb2, ^bb5
    ^bb2:  // pred: ^bb1
      %55 = spirv.Constant 0 : i32
      spirv.Store "Function" %4, %55 : i32
      %56 = spirv.IAdd %39, %38 : i32
      %57 = spirv.Constant 1000 : i32
      %58 = spirv.UGreaterThan %56, %57 : i32
      spirv.mlir.selection {
        spirv.BranchConditional %58, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        spirv.Store "Function" %1, %56 : i32
        spirv.Store "Function" %2, %38 : i32
        %64 = spirv.Constant 1 : i32
        spirv.Store "Function" %4, %64 : i32
        spirv.Branch ^bb2
      ^bb2:  // 2 preds: ^bb0, ^bb1
        spirv.mlir.merge
      }
      %59 = spirv.Load "Function" %4 : i32
      %60 = spirv.Constant 1 : i32
      %61 = spirv.IEqual %59, %60 : i32
      spirv.BranchConditional %61, ^bb5, ^bb3
    ^bb3:  // pred: ^bb2
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %62 = spirv.Constant 1 : i32
      %63 = spirv.IAdd %40, %62 : i32
      spirv.Branch ^bb1(%56, %38, %63 : i32, i32, i32)
    ^bb5:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %15 = spirv.Load "Function" %1 : i32
    %16 = spirv.Load "Function" %2 : i32
    %17 = spirv.IAdd %10, %11 : i32
    %18 = spirv.BitwiseAnd %17, %9 : i32
    %19 = spirv.mlir.addressof @spirv_var_31 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %20 = spirv.Constant 0 : i32
    %21 = spirv.AccessChain %19[%20, %18] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %22 = spirv.Load "StorageBuffer" %21 : i32
    %23 = spirv.Constant 3 : i32
    %24 = spirv.IMul %22, %23 : i32
    %25 = spirv.Constant 50 : i32
    %26 = spirv.UGreaterThan %24, %25 : i32
    spirv.Store "Function" %3, %16 : i32
    spirv.mlir.selection {
      spirv.BranchConditional %26, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %38 = spirv.Constant 1 : i32
      %39 = spirv.IAdd %16, %38 : i32
      spirv.Store "Function" %3, %39 : i32
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %27 = spirv.Load "Function" %3 : i32
    %28 = spirv.Constant 2 : i32
    %29 = spirv.IMul %15, %28 : i32
    %30 = spirv.IAdd %27, %29 : i32
    %31 = spirv.Constant 5 : i32
    %32 = spirv.Load "Function" %0 : i32
    %33 = spirv.IMul %32, %31 : i32
    %34 = spirv.IAdd %30, %33 : i32
    %35 = spirv.IAdd %34, %24 : i32
    %36 = spirv.mlir.addressof @spirv_var_75 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %37 = spirv.AccessChain %36[%20, %10] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    spirv.Store "StorageBuffer" %37, %35 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
