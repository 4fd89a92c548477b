spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_20 bind(0, 1) : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<i32, stride=4> [0, NonWritable])>, StorageBuffer>
  spirv.GlobalVariable @pc : !spirv.ptr<!spirv.struct<Push, (i32 [0], i32 [4])>, PushConstant>
  spirv.GlobalVariable @spirv_var_41 bind(1, 0) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @params bind(0, 0) : !spirv.ptr<!spirv.struct<Params, (vector<4xi32> [0], vector<4xf32> [16])>, Uniform>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    spirv.Store "Function" %0, %4 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : si32
    %7 = spirv.Load "Function" %0 : i32
    %8 = spirv.mlir.addressof @pc : !spirv.ptr<!spirv.struct<Push, (i32 [0], i32 [4])>, PushConstant>
    %9 = spirv.AccessChain %8[%6] : !spirv.ptr<!spirv.struct<Push, (i32 [0], i32 [4])>, PushConstant>, si32
    %10 = spirv.Load "PushConstant" %9 : i32
    %11 = spirv.Constant 7 : i32
    %12 = spirv.BitwiseAnd %10, %11 : i32
    %13 = spirv.IAdd %7, %12 : i32
    %14 = spirv.Constant 63 : i32
    %15 = spirv.BitwiseAnd %13, %14 : i32
    %16 = spirv.mlir.addressof @spirv_var_20 : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<i32, stride=4> [0, NonWritable])>, StorageBuffer>
    %17 = spirv.AccessChain %16[%6, %15] : !spirv.ptr<!spirv.struct<In, (!spirv.rtarray<i32, stride=4> [0, NonWritable])>, StorageBuffer>, si32, i32
    %18 = spirv.Load "StorageBuffer" %17 : i32
    spirv.Store "Function" %5, %18 : i32
    %19 = spirv.Load "Function" %0 : i32
    %20 = spirv.BitwiseAnd %19, %14 : i32
    %21 = spirv.Load "Function" %5 : i32
    %22 = spirv.mlir.addressof @params : !spirv.ptr<!spirv.struct<Params, (vector<4xi32> [0], vector<4xf32> [16])>, Uniform>
    %23 = spirv.AccessChain %22[%6, %1] : !spirv.ptr<!spirv.struct<Params, (vector<4xi32> [0], vector<4xf32> [16])>, Uniform>, si32, i32
    %24 = spirv.Load "Uniform" %23 : i32
    %25 = spirv.Constant 15 : i32
    %26 = spirv.BitwiseAnd %24, %25 : i32
    %27 = spirv.IMul %21, %26 : i32
    %28 = spirv.Constant 1 : si32
    %29 = spirv.Constant 1 : i32
    %30 = spirv.AccessChain %22[%28, %29] : !spirv.ptr<!spirv.struct<Params, (vector<4xi32> [0], vector<4xf32> [16])>, Uniform>, si32, i32
    %31 = spirv.Load "Uniform" %30 : f32
    %32 = spirv.Constant 0.000000e+00 : f32
    %33 = spirv.FUnordNotEqual %31, %32 : f32
    %34 = spirv.Select %33, %29, %1 : i1, i32
    %35 = spirv.IAdd %27, %34 : i32
    %36 = spirv.AccessChain %8[%28] : !spirv.ptr<!spirv.struct<Push, (i32 [0], i32 [4])>, PushConstant>, si32
    %37 = spirv.Load "PushConstant" %36 : i32
    %38 = spirv.Constant 255 : i32
    %39 = spirv.BitwiseOr %37, %38 : i32
    %40 = spirv.BitwiseAnd %35, %39 : i32
    %41 = spirv.mlir.addressof @spirv_var_41 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %42 = spirv.AccessChain %41[%6, %20] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %42, %40 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
