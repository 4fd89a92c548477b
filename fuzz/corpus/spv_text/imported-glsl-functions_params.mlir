spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @spirv_var_66 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<si32, Function>
    %1 = spirv.Variable : !spirv.ptr<si32, Function>
    %2 = spirv.Constant 2 : si32
    %3 = spirv.Constant 1 : si32
    %4 = spirv.Constant false
    %5 = spirv.Constant 1000 : si32
    %6 = spirv.Constant true
    %7 = spirv.Constant -1000 : si32
    %8 = spirv.Constant 0 : si32
    %9 = spirv.Constant 64 : si32
    %10 = spirv.Constant -1 : si32
    %11 = spirv.Variable : !spirv.ptr<i32, Function>
    %12 = spirv.Constant 0 : i32
    %13 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %14 = spirv.AccessChain %13[%12] : !spirv.ptr<vector<3xi32>, Input>, i32
    %15 = spirv.Load "Input" %14 : i32
    spirv.Store "Function" %11, %15 : i32
    %16 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %16, %8 : si32
    %17 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %17, %8 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %42 = spirv.Load "Function" %17 : si32
      %43 = spirv.Constant 4 : si32
      %44 = spirv.SLessThan %42, %43 : si32
      spirv.BranchConditional %44, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      %45 = spirv.Load "Function" %11 : i32
      %46 = spirv.Bitcast %45 : i32 to si32
      %47 = spirv.Load "Function" %17 : si32
      %48 = spirv.IAdd %46, %47 : si32
      %49 = spirv.Constant 63 : si32
      %50 = spirv.BitwiseAnd %48, %49 : si32
      %51 = spirv.Load "Function" %16 : si32
      spirv.Store "Function" %0, %51 : si32
      %52 = spirv.mlir.addressof @spirv_var_66 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
      %53 = spirv.Constant 0 : si32
      %54 = spirv.AccessChain %52[%53, %50] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, si32
      %55 = spirv.Load "StorageBuffer" %54 : si32
      spirv.Store "Function" %1, %55 : si32
      spirv.FunctionCall @"accumulate(i1;i1;"(%0, %1) : (!spirv.ptr<si32, Function>, !spirv.ptr<si32, Function>) -> ()
      %56 = spirv.Load "Function" %0 : si32
      spirv.Store "Function" %16, %56 : si32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %57 = spirv.Load "Function" %17 : si32
      %58 = spirv.Constant 1 : si32
      %59 = spirv.IAdd %57, %58 : si32
      spirv.Store "Function" %17, %59 : si32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %18 = spirv.Variable : !spirv.ptr<si32, Function>
    %19 = spirv.Load "Function" %11 : i32
    %20 = spirv.Constant 63 : i32
    %21 = spirv.BitwiseAnd %19, %20 : i32
    %22 = spirv.mlir.addressof @spirv_var_66 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
    %23 = spirv.AccessChain %22[%8, %21] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    %24 = spirv.Load "StorageBuffer" %23 : si32
    %25 = spirv.Constant 7 : si32
    %26 = spirv.BitwiseAnd %24, %25 : si32
    %27 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %27, %26 : si32
    %28 = spirv.FunctionCall @"findFirst(i1;"(%27) : (!spirv.ptr<si32, Function>) -> si32
    %29 = spirv.Variable : !spirv.ptr<i1, Function>
    %30 = spirv.Variable : !spirv.ptr<si32, Function>
    %31 = spirv.Load "Function" %16 : si32
    spirv.Store "Function" %30, %31 : si32
    %32 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %32, %28 : si32
    %33 = spirv.Variable : !spirv.ptr<i1, Function>
    %34 = spirv.FunctionCall @"clampedSum(i1;i1;b1;"(%30, %32, %33) : (!spirv.ptr<si32, Function>, !spirv.ptr<si32, Function>, !spirv.ptr<i1, Function>) -> si32
    %35 = spirv.Load "Function" %33 : i1
    spirv.Store "Function" %29, %35 : i1
    spirv.Store "Function" %18, %34 : si32
    %36 = spirv.Load "Function" %11 : i32
    %37 = spirv.BitwiseAnd %36, %20 : i32
    %38 = spirv.Load "Function" %29 : i1
    %39 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.mlir.selection {
      spirv.BranchConditional %38, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %42 = spirv.Load "Function" %18 : si32
      %43 = spirv.SNegate %42 : si32
      spirv.Store "Function" %39, %43 : si32
      spirv.Branch ^bb3
    ^bb2:  // pred: ^bb0
      %44 = spirv.Load "Function" %18 : si32
      spirv.Store "Function" %39, %44 : si32
      spirv.Branch ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      spirv.mlir.merge
    }
    %40 = spirv.Load "Function" %39 : si32
    %41 = spirv.AccessChain %22[%8, %37] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %41, %40 : si32
    spirv.Return
  }
  spirv.func @"accumulate(i1;i1;"(%arg0: !spirv.ptr<si32, Function>, %arg1: !spirv.ptr<si32, Function>) "None" {
    %0 = spirv.Load "Function" %arg1 : si32
    %1 = spirv.Constant 2 : si32
    %2 = spirv.IMul %0, %1 : si32
    %3 = spirv.Constant 1 : si32
    %4 = spirv.ISub %2, %3 : si32
    %5 = spirv.Load "Function" %arg0 : si32
    %6 = spirv.IAdd %5, %4 : si32
    spirv.Store "Function" %arg0, %6 : si32
    spirv.Return
  }
  spirv.func @"clampedSum(i1;i1;b1;"(%arg0: !spirv.ptr<si32, Function>, %arg1: !spirv.ptr<si32, Function>, %arg2: !spirv.ptr<i1, Function>) -> si32 "None" {
    %0 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.mlir.selection {
      %2 = spirv.Constant 2 : si32
      %3 = spirv.Constant 1 : si32
      %4 = spirv.Load "Function" %arg0 : si32
      %5 = spirv.Load "Function" %arg1 : si32
      %6 = spirv.IAdd %4, %5 : si32
      spirv.Store "Function" %0, %6 : si32
      %7 = spirv.Constant false
      spirv.Store "Function" %arg2, %7 : i1
      %8 = spirv.Load "Function" %0 : si32
      %9 = spirv.Constant 1000 : si32
      %10 = spirv.SGreaterThan %8, %9 : si32
      spirv.BranchConditional %10, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %11 = spirv.Constant true
      spirv.Store "Function" %arg2, %11 : i1
      %12 = spirv.Constant 1000 : si32
      spirv.ReturnValue %12 : si32
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    spirv.mlir.selection {
      %2 = spirv.Constant true
      %3 = spirv.Load "Function" %0 : si32
      %4 = spirv.Constant -1000 : si32
      %5 = spirv.SLessThan %3, %4 : si32
      spirv.BranchConditional %5, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %6 = spirv.Constant true
      spirv.Store "Function" %arg2, %6 : i1
      %7 = spirv.Constant -1000 : si32
      spirv.ReturnValue %7 : si32
    ^bb2:  // pred: ^bb0
      spirv.mlir.merge
    }
    %1 = spirv.Load "Function" %0 : si32
    spirv.ReturnValue %1 : si32
  }
  spirv.func @"findFirst(i1;"(%arg0: !spirv.ptr<si32, Function>) -> si32 "None" {
    %0 = spirv.Constant 2 : si32
    %1 = spirv.Constant 1 : si32
    %2 = spirv.Constant false
    %3 = spirv.Constant 1000 : si32
    %4 = spirv.Constant true
    %5 = spirv.Constant -1000 : si32
    %6 = spirv.Variable : !spirv.ptr<si32, Function>
    %7 = spirv.Constant 0 : si32
    spirv.Store "Function" %6, %7 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %9 = spirv.Load "Function" %6 : si32
      %10 = spirv.Constant 64 : si32
      %11 = spirv.SLessThan %9, %10 : si32
      spirv.BranchConditional %11, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      spirv.mlir.selection {
        %15 = spirv.Load "Function" %6 : si32
        %16 = spirv.mlir.addressof @spirv_var_66 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>
        %17 = spirv.Constant 0 : si32
        %18 = spirv.AccessChain %16[%17, %15] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<si32, stride=4> [0])>, StorageBuffer>, si32, si32
        %19 = spirv.Load "StorageBuffer" %18 : si32
        %20 = spirv.Load "Function" %arg0 : si32
        %21 = spirv.IEqual %19, %20 : si32
        spirv.BranchConditional %21, ^bb1, ^bb2
      ^bb1:  // pred: ^bb0
        %22 = spirv.Load "Function" %6 : si32
        spirv.ReturnValue %22 : si32
      ^bb2:  // pred: ^bb0
        spirv.mlir.merge
      }
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %12 = spirv.Load "Function" %6 : si32
      %13 = spirv.Constant 1 : si32
      %14 = spirv.IAdd %12, %13 : si32
      spirv.Store "Function" %6, %14 : si32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %8 = spirv.Constant -1 : si32
    spirv.ReturnValue %8 : si32
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
