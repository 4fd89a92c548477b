spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @spirv_var_16 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_95 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i1, Function>
    %1 = spirv.Variable : !spirv.ptr<i1, Function>
    %2 = spirv.Variable : !spirv.ptr<i1, Function>
    %3 = spirv.Variable : !spirv.ptr<i32, Function>
    %4 = spirv.Constant 0 : si32
    %5 = spirv.Constant 7 : i32
    %6 = spirv.Constant 63 : i32
    %7 = spirv.Constant 500 : i32
    %8 = spirv.Constant 0 : i32
    %9 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %10 = spirv.AccessChain %9[%8] : !spirv.ptr<vector<3xi32>, Input>, i32
    %11 = spirv.Load "Input" %10 : i32
    %12 = spirv.BitwiseAnd %11, %6 : i32
    %13 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %14 = spirv.AccessChain %13[%4, %12] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %15 = spirv.Load "StorageBuffer" %14 : i32
    %16 = spirv.Constant 100 : i32
    %17 = spirv.UGreaterThan %15, %16 : i32
    spirv.Store "Function" %0, %17 : i1
    spirv.mlir.selection {
      spirv.BranchConditional %17, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %29 = spirv.Constant 50 : i32
      %30 = spirv.Constant 1 : i32
      %31 = spirv.Constant 4 : i32
      %32 = spirv.Constant 3 : i32
      %33 = spirv.Constant 2 : i32
      %34 = spirv.Constant 10 : i32
      %35 = spirv.Constant 20 : i32
      %36 = spirv.Constant dense<[32, 1, 1]> : vector<3xi32>
      %37 = spirv.Constant 7 : i32
      %38 = spirv.IMul %12, %37 : i32
      %39 = spirv.Constant 63 : i32
      %40 = spirv.BitwiseAnd %38, %39 : i32
      %41 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %42 = spirv.Constant 0 : si32
      %43 = spirv.AccessChain %41[%42, %40] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %44 = spirv.Load "StorageBuffer" %43 : i32
      %45 = spirv.Constant 500 : i32
      %46 = spirv.UGreaterThan %44, %45 : i32
      spirv.Store "Function" %0, %46 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %18 = spirv.Load "Function" %0 : i1
    spirv.mlir.selection {
      %29 = spirv.Constant 50 : i32
      %30 = spirv.ULessThan %15, %29 : i32
      %31 = spirv.LogicalNot %30 : i1
      spirv.Store "Function" %1, %30 : i1
      spirv.BranchConditional %31, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %32 = spirv.Constant 1 : i32
      %33 = spirv.IAdd %12, %32 : i32
      %34 = spirv.Constant 7 : i32
      %35 = spirv.IMul %33, %34 : i32
      %36 = spirv.Constant 63 : i32
      %37 = spirv.BitwiseAnd %35, %36 : i32
      %38 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %39 = spirv.Constant 0 : si32
      %40 = spirv.AccessChain %38[%39, %37] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %41 = spirv.Load "StorageBuffer" %40 : i32
      %42 = spirv.Constant 500 : i32
      %43 = spirv.UGreaterThan %41, %42 : i32
      spirv.Store "Function" %1, %43 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %19 = spirv.Load "Function" %1 : i1
    spirv.mlir.selection {
      %29 = spirv.LogicalNot %19 : i1
      spirv.Store "Function" %2, %19 : i1
      spirv.BranchConditional %29, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %30 = spirv.Constant 4 : i32
      %31 = spirv.BitwiseAnd %15, %30 : i32
      %32 = spirv.Constant 0 : i32
      %33 = spirv.INotEqual %31, %32 : i32
      spirv.Store "Function" %2, %33 : i1
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %20 = spirv.Load "Function" %2 : i1
    spirv.mlir.selection {
      spirv.BranchConditional %18, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %29 = spirv.Constant 3 : i32
      %30 = spirv.Constant 2 : i32
      %31 = spirv.Select %20, %29, %30 : i1, i32
      spirv.Store "Function" %3, %31 : i32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %32 = spirv.Constant 2 : i32
      %33 = spirv.IAdd %12, %32 : i32
      %34 = spirv.Constant 7 : i32
      %35 = spirv.IMul %33, %34 : i32
      %36 = spirv.Constant 63 : i32
      %37 = spirv.BitwiseAnd %35, %36 : i32
      %38 = spirv.mlir.addressof @spirv_var_16 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
      %39 = spirv.Constant 0 : si32
      %40 = spirv.AccessChain %38[%39, %37] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
      %41 = spirv.Load "StorageBuffer" %40 : i32
      %42 = spirv.Constant 500 : i32
      %43 = spirv.UGreaterThan %41, %42 : i32
      %44 = spirv.Constant 1 : i32
      %45 = spirv.Constant 0 : i32
      %46 = spirv.Select %43, %44, %45 : i1, i32
      spirv.Store "Function" %3, %46 : i32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %21 = spirv.Load "Function" %3 : i32
    %22 = spirv.LogicalNotEqual %18, %20 : i1
    %23 = spirv.Constant 10 : i32
    %24 = spirv.Constant 20 : i32
    %25 = spirv.Select %22, %23, %24 : i1, i32
    %26 = spirv.IAdd %21, %25 : i32
    %27 = spirv.mlir.addressof @spirv_var_95 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %28 = spirv.AccessChain %27[%4, %12] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %28, %26 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
