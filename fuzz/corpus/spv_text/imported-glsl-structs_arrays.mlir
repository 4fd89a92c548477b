spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_27 bind(0, 0) : !spirv.ptr<!spirv.struct<Items, (!spirv.rtarray<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, stride=20> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_123 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    spirv.Store "Function" %0, %4 : i32
    %5 = spirv.Constant 3 : i32
    %6 = spirv.Variable : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>
    %7 = spirv.Constant 0 : si32
    %8 = spirv.Load "Function" %0 : i32
    %9 = spirv.Constant 15 : i32
    %10 = spirv.BitwiseAnd %8, %9 : i32
    %11 = spirv.mlir.addressof @spirv_var_27 : !spirv.ptr<!spirv.struct<Items, (!spirv.rtarray<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, stride=20> [0])>, StorageBuffer>
    %12 = spirv.AccessChain %11[%7, %10] : !spirv.ptr<!spirv.struct<Items, (!spirv.rtarray<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, stride=20> [0])>, StorageBuffer>, si32, i32
    %13 = spirv.Load "StorageBuffer" %12 : !spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>
    %14 = spirv.CompositeExtract %13[0 : i32] : !spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>
    %15 = spirv.AccessChain %6[%7] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    spirv.Store "Function" %15, %14 : i32
    %16 = spirv.CompositeExtract %13[1 : i32] : !spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>
    %17 = spirv.Constant 1 : si32
    %18 = spirv.AccessChain %6[%17] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    spirv.Store "Function" %18, %16 : f32
    %19 = spirv.CompositeExtract %13[2 : i32] : !spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>
    %20 = spirv.Constant 2 : si32
    %21 = spirv.AccessChain %6[%20] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    %22 = spirv.CompositeExtract %19[0 : i32] : !spirv.array<3 x i32, stride=4>
    %23 = spirv.AccessChain %21[%7] : !spirv.ptr<!spirv.array<3 x i32>, Function>, si32
    spirv.Store "Function" %23, %22 : i32
    %24 = spirv.CompositeExtract %19[1 : i32] : !spirv.array<3 x i32, stride=4>
    %25 = spirv.AccessChain %21[%17] : !spirv.ptr<!spirv.array<3 x i32>, Function>, si32
    spirv.Store "Function" %25, %24 : i32
    %26 = spirv.CompositeExtract %19[2 : i32] : !spirv.array<3 x i32, stride=4>
    %27 = spirv.AccessChain %21[%20] : !spirv.ptr<!spirv.array<3 x i32>, Function>, si32
    spirv.Store "Function" %27, %26 : i32
    %28 = spirv.Constant 4 : i32
    %29 = spirv.Variable : !spirv.ptr<!spirv.array<4 x f32>, Function>
    %30 = spirv.Constant [1.000000e+00 : f32, 2.000000e+00 : f32, 5.000000e-01 : f32, -1.000000e+00 : f32] : !spirv.array<4 x f32>
    spirv.Store "Function" %29, %30 : !spirv.array<4 x f32>
    %31 = spirv.Variable : !spirv.ptr<f32, Function>
    %32 = spirv.AccessChain %6[%17] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    %33 = spirv.Load "Function" %32 : f32
    %34 = spirv.AccessChain %6[%7] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    %35 = spirv.Load "Function" %34 : i32
    %36 = spirv.BitwiseAnd %35, %5 : i32
    %37 = spirv.AccessChain %29[%36] : !spirv.ptr<!spirv.array<4 x f32>, Function>, i32
    %38 = spirv.Load "Function" %37 : f32
    %39 = spirv.FMul %33, %38 : f32
    spirv.Store "Function" %31, %39 : f32
    %40 = spirv.Variable : !spirv.ptr<si32, Function>
    spirv.Store "Function" %40, %7 : si32
    spirv.mlir.loop {
      spirv.Branch ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb4
      spirv.Branch ^bb2
    ^bb2:  // pred: ^bb1
      %69 = spirv.Load "Function" %40 : si32
      %70 = spirv.Constant 3 : si32
      %71 = spirv.SLessThan %69, %70 : si32
      spirv.BranchConditional %71, ^bb3, ^bb5
    ^bb3:  // pred: ^bb2
      %72 = spirv.Load "Function" %40 : si32
      %73 = spirv.Constant 2 : si32
      %74 = spirv.AccessChain %6[%73, %72] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32, si32
      %75 = spirv.Load "Function" %74 : i32
      %76 = spirv.Constant 15 : i32
      %77 = spirv.BitwiseAnd %75, %76 : i32
      %78 = spirv.ConvertUToF %77 : i32 to f32
      %79 = spirv.Load "Function" %40 : si32
      %80 = spirv.AccessChain %29[%79] : !spirv.ptr<!spirv.array<4 x f32>, Function>, si32
      %81 = spirv.Load "Function" %80 : f32
      %82 = spirv.FMul %78, %81 : f32
      %83 = spirv.Load "Function" %31 : f32
      %84 = spirv.FAdd %83, %82 : f32
      spirv.Store "Function" %31, %84 : f32
      spirv.Branch ^bb4
    ^bb4:  // pred: ^bb3
      %85 = spirv.Load "Function" %40 : si32
      %86 = spirv.Constant 1 : si32
      %87 = spirv.IAdd %85, %86 : si32
      spirv.Store "Function" %40, %87 : si32
      spirv.Branch ^bb1
    ^bb5:  // pred: ^bb2
      spirv.mlir.merge
    }
    %41 = spirv.Load "Function" %31 : f32
    %42 = spirv.AccessChain %6[%17] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    spirv.Store "Function" %42, %41 : f32
    %43 = spirv.AccessChain %6[%7] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32
    %44 = spirv.Load "Function" %43 : i32
    %45 = spirv.Constant 5 : i32
    %46 = spirv.BitwiseXor %44, %45 : i32
    %47 = spirv.AccessChain %6[%20, %17] : !spirv.ptr<!spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>, Function>, si32, si32
    spirv.Store "Function" %47, %46 : i32
    %48 = spirv.Load "Function" %0 : i32
    %49 = spirv.BitwiseAnd %48, %9 : i32
    %50 = spirv.Load "Function" %6 : !spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>
    %51 = spirv.AccessChain %11[%7, %49] : !spirv.ptr<!spirv.struct<Items, (!spirv.rtarray<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, stride=20> [0])>, StorageBuffer>, si32, i32
    %52 = spirv.CompositeExtract %50[0 : i32] : !spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>
    %53 = spirv.AccessChain %51[%7] : !spirv.ptr<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, StorageBuffer>, si32
    spirv.Store "StorageBuffer" %53, %52 : i32
    %54 = spirv.CompositeExtract %50[1 : i32] : !spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>
    %55 = spirv.AccessChain %51[%17] : !spirv.ptr<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, StorageBuffer>, si32
    spirv.Store "StorageBuffer" %55, %54 : f32
    %56 = spirv.CompositeExtract %50[2 : i32] : !spirv.struct<Item, (i32, f32, !spirv.array<3 x i32>)>
    %57 = spirv.AccessChain %51[%20] : !spirv.ptr<!spirv.struct<Item_1, (i32 [0], f32 [4], !spirv.array<3 x i32, stride=4> [8])>, StorageBuffer>, si32
    %58 = spirv.CompositeExtract %56[0 : i32] : !spirv.array<3 x i32>
    %59 = spirv.AccessChain %57[%7] : !spirv.ptr<!spirv.array<3 x i32, stride=4>, StorageBuffer>, si32
    spirv.Store "StorageBuffer" %59, %58 : i32
    %60 = spirv.CompositeExtract %56[1 : i32] : !spirv.array<3 x i32>
    %61 = spirv.AccessChain %57[%17] : !spirv.ptr<!spirv.array<3 x i32, stride=4>, StorageBuffer>, si32
    spirv.Store "StorageBuffer" %61, %60 : i32
    %62 = spirv.CompositeExtract %56[2 : i32] : !spirv.array<3 x i32>
    %63 = spirv.AccessChain %57[%20] : !spirv.ptr<!spirv.array<3 x i32, stride=4>, StorageBuffer>, si32
    spirv.Store "StorageBuffer" %63, %62 : i32
    %64 = spirv.Load "Function" %0 : i32
    %65 = spirv.BitwiseAnd %64, %9 : i32
    %66 = spirv.Load "Function" %31 : f32
    %67 = spirv.mlir.addressof @spirv_var_123 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %68 = spirv.AccessChain %67[%7, %65] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<f32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %68, %66 : f32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
