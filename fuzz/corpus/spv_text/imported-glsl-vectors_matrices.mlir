spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_25 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_84 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    %5 = spirv.Constant 15 : i32
    %6 = spirv.BitwiseAnd %4, %5 : i32
    spirv.Store "Function" %0, %6 : i32
    %7 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %8 = spirv.Constant 0 : si32
    %9 = spirv.Load "Function" %0 : i32
    %10 = spirv.mlir.addressof @spirv_var_25 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%8, %9] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
    %12 = spirv.Load "StorageBuffer" %11 : vector<4xf32>
    spirv.Store "Function" %7, %12 : vector<4xf32>
    %13 = spirv.Variable : !spirv.ptr<!spirv.matrix<4 x vector<4xf32>>, Function>
    %14 = spirv.Constant 1.000000e+00 : f32
    %15 = spirv.Constant 5.000000e-01 : f32
    %16 = spirv.Constant 0.000000e+00 : f32
    %17 = spirv.Constant 2.500000e-01 : f32
    %18 = spirv.Constant 1.250000e-01 : f32
    %19 = spirv.AccessChain %7[%1] : !spirv.ptr<vector<4xf32>, Function>, i32
    %20 = spirv.Load "Function" %19 : f32
    %21 = spirv.Constant 0.00999999977 : f32
    %22 = spirv.FMul %20, %21 : f32
    %23 = spirv.CompositeConstruct %14, %15, %16, %16 : (f32, f32, f32, f32) -> vector<4xf32>
    %24 = spirv.CompositeConstruct %16, %14, %17, %16 : (f32, f32, f32, f32) -> vector<4xf32>
    %25 = spirv.CompositeConstruct %16, %16, %14, %18 : (f32, f32, f32, f32) -> vector<4xf32>
    %26 = spirv.CompositeConstruct %22, %16, %16, %14 : (f32, f32, f32, f32) -> vector<4xf32>
    %27 = spirv.CompositeConstruct %23, %24, %25, %26 : (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) -> !spirv.matrix<4 x vector<4xf32>>
    spirv.Store "Function" %13, %27 : !spirv.matrix<4 x vector<4xf32>>
    %28 = spirv.Variable : !spirv.ptr<!spirv.matrix<2 x vector<2xf32>>, Function>
    %29 = spirv.Load "Function" %7 : vector<4xf32>
    %30 = spirv.VectorShuffle [0 : i32, 1 : i32] %29, %29 : vector<4xf32>, vector<4xf32> -> vector<2xf32>
    %31 = spirv.Load "Function" %7 : vector<4xf32>
    %32 = spirv.VectorShuffle [2 : i32, 3 : i32] %31, %31 : vector<4xf32>, vector<4xf32> -> vector<2xf32>
    %33 = spirv.CompositeExtract %30[0 : i32] : vector<2xf32>
    %34 = spirv.CompositeExtract %30[1 : i32] : vector<2xf32>
    %35 = spirv.CompositeExtract %32[0 : i32] : vector<2xf32>
    %36 = spirv.CompositeExtract %32[1 : i32] : vector<2xf32>
    %37 = spirv.CompositeConstruct %33, %34 : (f32, f32) -> vector<2xf32>
    %38 = spirv.CompositeConstruct %35, %36 : (f32, f32) -> vector<2xf32>
    %39 = spirv.CompositeConstruct %37, %38 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    spirv.Store "Function" %28, %39 : !spirv.matrix<2 x vector<2xf32>>
    %40 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %41 = spirv.Load "Function" %13 : !spirv.matrix<4 x vector<4xf32>>
    %42 = spirv.Load "Function" %7 : vector<4xf32>
    %43 = spirv.MatrixTimesVector %41, %42 : !spirv.matrix<4 x vector<4xf32>>, vector<4xf32> -> vector<4xf32>
    spirv.Store "Function" %40, %43 : vector<4xf32>
    %44 = spirv.Variable : !spirv.ptr<vector<2xf32>, Function>
    %45 = spirv.Load "Function" %28 : !spirv.matrix<2 x vector<2xf32>>
    %46 = spirv.Load "Function" %7 : vector<4xf32>
    %47 = spirv.VectorShuffle [1 : i32, 0 : i32] %46, %46 : vector<4xf32>, vector<4xf32> -> vector<2xf32>
    %48 = spirv.MatrixTimesVector %45, %47 : !spirv.matrix<2 x vector<2xf32>>, vector<2xf32> -> vector<2xf32>
    %49 = spirv.Load "Function" %28 : !spirv.matrix<2 x vector<2xf32>>
    %50 = spirv.Transpose %49 : !spirv.matrix<2 x vector<2xf32>> -> !spirv.matrix<2 x vector<2xf32>>
    %51 = spirv.Constant dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>
    %52 = spirv.MatrixTimesVector %50, %51 : !spirv.matrix<2 x vector<2xf32>>, vector<2xf32> -> vector<2xf32>
    %53 = spirv.FAdd %48, %52 : vector<2xf32>
    spirv.Store "Function" %44, %53 : vector<2xf32>
    %54 = spirv.Load "Function" %0 : i32
    %55 = spirv.Load "Function" %40 : vector<4xf32>
    %56 = spirv.VectorShuffle [3 : i32, 2 : i32, 1 : i32] %55, %55 : vector<4xf32>, vector<4xf32> -> vector<3xf32>
    %57 = spirv.Load "Function" %44 : vector<2xf32>
    %58 = spirv.CompositeExtract %57[0 : i32] : vector<2xf32>
    %59 = spirv.CompositeExtract %57[1 : i32] : vector<2xf32>
    %60 = spirv.CompositeConstruct %58, %59, %14 : (f32, f32, f32) -> vector<3xf32>
    %61 = spirv.FAdd %56, %60 : vector<3xf32>
    %62 = spirv.Load "Function" %44 : vector<2xf32>
    %63 = spirv.Load "Function" %44 : vector<2xf32>
    %64 = spirv.Dot %62, %63 : vector<2xf32> -> f32
    %65 = spirv.CompositeExtract %61[0 : i32] : vector<3xf32>
    %66 = spirv.CompositeExtract %61[1 : i32] : vector<3xf32>
    %67 = spirv.CompositeExtract %61[2 : i32] : vector<3xf32>
    %68 = spirv.CompositeConstruct %65, %66, %67, %64 : (f32, f32, f32, f32) -> vector<4xf32>
    %69 = spirv.mlir.addressof @spirv_var_84 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %70 = spirv.AccessChain %69[%8, %54] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %70, %68 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
