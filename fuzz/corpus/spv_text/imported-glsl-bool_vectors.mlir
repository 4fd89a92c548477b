spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_25 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_85 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    %5 = spirv.Constant 63 : i32
    %6 = spirv.BitwiseAnd %4, %5 : i32
    spirv.Store "Function" %0, %6 : i32
    %7 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %8 = spirv.Constant 0 : si32
    %9 = spirv.Load "Function" %0 : i32
    %10 = spirv.mlir.addressof @spirv_var_25 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%8, %9] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
    %12 = spirv.Load "StorageBuffer" %11 : vector<4xf32>
    spirv.Store "Function" %7, %12 : vector<4xf32>
    %13 = spirv.Variable : !spirv.ptr<vector<4xi1>, Function>
    %14 = spirv.Load "Function" %7 : vector<4xf32>
    %15 = spirv.Constant dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : vector<4xf32>
    %16 = spirv.FOrdGreaterThan %14, %15 : vector<4xf32>
    spirv.Store "Function" %13, %16 : vector<4xi1>
    %17 = spirv.Variable : !spirv.ptr<vector<4xi1>, Function>
    %18 = spirv.Load "Function" %7 : vector<4xf32>
    %19 = spirv.GL.FAbs %18 : vector<4xf32>
    %20 = spirv.Constant dense<[2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00]> : vector<4xf32>
    %21 = spirv.FOrdLessThan %19, %20 : vector<4xf32>
    spirv.Store "Function" %17, %21 : vector<4xi1>
    %22 = spirv.Variable : !spirv.ptr<vector<4xi1>, Function>
    %23 = spirv.Load "Function" %13 : vector<4xi1>
    %24 = spirv.Constant 1 : i32
    %25 = spirv.Constant dense<[0, 0, 0, 0]> : vector<4xi32>
    %26 = spirv.Constant dense<[1, 1, 1, 1]> : vector<4xi32>
    %27 = spirv.Select %23, %26, %25 : vector<4xi1>, vector<4xi32>
    %28 = spirv.Load "Function" %17 : vector<4xi1>
    %29 = spirv.Select %28, %26, %25 : vector<4xi1>, vector<4xi32>
    %30 = spirv.BitwiseAnd %27, %29 : vector<4xi32>
    %31 = spirv.INotEqual %30, %25 : vector<4xi32>
    spirv.Store "Function" %22, %31 : vector<4xi1>
    %32 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %33 = spirv.Load "Function" %7 : vector<4xf32>
    %34 = spirv.Load "Function" %7 : vector<4xf32>
    %35 = spirv.FNegate %34 : vector<4xf32>
    %36 = spirv.Load "Function" %13 : vector<4xi1>
    %37 = spirv.LogicalNot %36 : vector<4xi1>
    %38 = spirv.Select %37, %35, %33 : vector<4xi1>, vector<4xf32>
    spirv.Store "Function" %32, %38 : vector<4xf32>
    %39 = spirv.Variable : !spirv.ptr<i32, Function>
    %40 = spirv.Load "Function" %22 : vector<4xi1>
    %41 = spirv.Any %40 : vector<4xi1>
    %42 = spirv.Select %41, %24, %1 : i1, i32
    %43 = spirv.Load "Function" %13 : vector<4xi1>
    %44 = spirv.All %43 : vector<4xi1>
    %45 = spirv.Constant 2 : i32
    %46 = spirv.Select %44, %45, %1 : i1, i32
    %47 = spirv.BitwiseOr %42, %46 : i32
    %48 = spirv.AccessChain %32[%1] : !spirv.ptr<vector<4xf32>, Function>, i32
    %49 = spirv.Load "Function" %48 : f32
    %50 = spirv.Constant 1.000000e+00 : f32
    %51 = spirv.FOrdGreaterThan %49, %50 : f32
    %52 = spirv.Select %51, %24, %1 : i1, i32
    %53 = spirv.Constant 2 : si32
    %54 = spirv.ShiftLeftLogical %52, %53 : i32, si32
    %55 = spirv.BitwiseOr %47, %54 : i32
    spirv.Store "Function" %39, %55 : i32
    %56 = spirv.Load "Function" %0 : i32
    %57 = spirv.Load "Function" %39 : i32
    %58 = spirv.Load "Function" %22 : vector<4xi1>
    %59 = spirv.Constant dense<[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : vector<4xf32>
    %60 = spirv.Select %58, %59, %15 : vector<4xi1>, vector<4xf32>
    %61 = spirv.Dot %60, %59 : vector<4xf32> -> f32
    %62 = spirv.ConvertFToU %61 : f32 to i32
    %63 = spirv.IAdd %57, %62 : i32
    %64 = spirv.mlir.addressof @spirv_var_85 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %65 = spirv.AccessChain %64[%8, %56] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %65, %63 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
