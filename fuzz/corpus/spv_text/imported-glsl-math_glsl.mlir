spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_25 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_87 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %2 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
    %3 = spirv.Variable : !spirv.ptr<f32, Function>
    %4 = spirv.Variable : !spirv.ptr<vector<4xf32>, Function>
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
      %18 = spirv.mlir.addressof @spirv_var_25 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
      %19 = spirv.AccessChain %18[%16, %17] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
      %20 = spirv.Load "StorageBuffer" %19 : vector<4xf32>
      spirv.Store "Function" %1, %20 : vector<4xf32>
      %21 = spirv.Load "Function" %1 : vector<4xf32>
      %22 = spirv.GL.FAbs %21 : vector<4xf32>
      %23 = spirv.Constant 5.000000e-01 : f32
      %24 = spirv.VectorTimesScalar %22, %23 : (vector<4xf32>, f32) -> vector<4xf32>
      %25 = spirv.Constant dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : vector<4xf32>
      %26 = spirv.Constant dense<[4.000000e+00, 4.000000e+00, 4.000000e+00, 4.000000e+00]> : vector<4xf32>
      %27 = spirv.GL.FClamp %24, %25, %26 : vector<4xf32>
      spirv.Store "Function" %2, %27 : vector<4xf32>
      %28 = spirv.Load "Function" %2 : vector<4xf32>
      %29 = spirv.Constant dense<[1.000000e+00, -1.000000e+00, 5.000000e-01, 2.000000e+00]> : vector<4xf32>
      %30 = spirv.Dot %28, %29 : vector<4xf32> -> f32
      spirv.Store "Function" %3, %30 : f32
      %31 = spirv.Load "Function" %2 : vector<4xf32>
      %32 = spirv.Load "Function" %2 : vector<4xf32>
      %33 = spirv.Constant 1.000000e+00 : f32
      %34 = spirv.CompositeConstruct %33, %33, %33, %33 : (f32, f32, f32, f32) -> vector<4xf32>
      %35 = spirv.FAdd %32, %34 : vector<4xf32>
      %36 = spirv.GL.Sqrt %35 : vector<4xf32>
      %37 = spirv.Constant 2.500000e-01 : f32
      %38 = spirv.CompositeConstruct %37, %37, %37, %37 : (f32, f32, f32, f32) -> vector<4xf32>
      %39 = spirv.GL.FMix %31 : vector<4xf32>, %36 : vector<4xf32>, %38 : vector<4xf32> -> vector<4xf32>
      %40 = spirv.Load "Function" %3 : f32
      %41 = spirv.GL.Floor %40 : f32
      %42 = spirv.Load "Function" %3 : f32
      %43 = spirv.GL.Fract %42 : f32
      %44 = spirv.Load "Function" %3 : f32
      %45 = spirv.Constant 4.000000e+00 : f32
      %46 = spirv.GL.FMin %44, %45 : f32
      %47 = spirv.GL.Exp2 %46 : f32
      %48 = spirv.AccessChain %1[%10] : !spirv.ptr<vector<4xf32>, Function>, i32
      %49 = spirv.Load "Function" %48 : f32
      %50 = spirv.Constant 1 : i32
      %51 = spirv.AccessChain %1[%50] : !spirv.ptr<vector<4xf32>, Function>, i32
      %52 = spirv.Load "Function" %51 : f32
      %53 = spirv.GL.FMax %49, %52 : f32
      %54 = spirv.CompositeConstruct %41, %43, %47, %53 : (f32, f32, f32, f32) -> vector<4xf32>
      %55 = spirv.FAdd %39, %54 : vector<4xf32>
      spirv.Store "Function" %4, %55 : vector<4xf32>
      %56 = spirv.Load "Function" %4 : vector<4xf32>
      %57 = spirv.GL.Length %56 : vector<4xf32> -> f32
      %58 = spirv.Constant 5.000000e+00 : f32
      %59 = spirv.FOrdGreaterThan %57, %58 : f32
      spirv.BranchConditional %59, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %60 = spirv.Load "Function" %4 : vector<4xf32>
      %61 = spirv.GL.Normalize %60 : vector<4xf32>
      %62 = spirv.Constant 5.000000e+00 : f32
      %63 = spirv.VectorTimesScalar %61, %62 : (vector<4xf32>, f32) -> vector<4xf32>
      spirv.Store "Function" %4, %63 : vector<4xf32>
      spirv.Branch ^bb2
    ^bb2:  // 2 preds: ^bb0, ^bb1
      spirv.mlir.merge
    }
    %5 = spirv.Load "Function" %0 : i32
    %6 = spirv.Load "Function" %4 : vector<4xf32>
    %7 = spirv.mlir.addressof @spirv_var_87 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>
    %8 = spirv.Constant 0 : si32
    %9 = spirv.AccessChain %7[%8, %5] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<vector<4xf32>, stride=16> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %9, %6 : vector<4xf32>
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
