spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @b bind(0, 1) : !spirv.ptr<!spirv.struct<B, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @u bind(0, 0) : !spirv.ptr<!spirv.struct<U, (vector<4xi32> [0])>, Uniform>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    %5 = spirv.Constant 63 : i32
    %6 = spirv.BitwiseAnd %4, %5 : i32
    spirv.Store "Function" %0, %6 : i32
    %7 = spirv.Constant 0 : si32
    %8 = spirv.Load "Function" %0 : i32
    %9 = spirv.Load "Function" %0 : i32
    %10 = spirv.mlir.addressof @b : !spirv.ptr<!spirv.struct<B, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%7, %9] : !spirv.ptr<!spirv.struct<B, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %12 = spirv.Load "StorageBuffer" %11 : i32
    %13 = spirv.mlir.addressof @u : !spirv.ptr<!spirv.struct<U, (vector<4xi32> [0])>, Uniform>
    %14 = spirv.AccessChain %13[%7, %1] : !spirv.ptr<!spirv.struct<U, (vector<4xi32> [0])>, Uniform>, si32, i32
    %15 = spirv.Load "Uniform" %14 : i32
    %16 = spirv.Constant 7 : i32
    %17 = spirv.BitwiseAnd %15, %16 : i32
    %18 = spirv.IMul %12, %17 : i32
    %19 = spirv.Constant 1 : i32
    %20 = spirv.AccessChain %13[%7, %19] : !spirv.ptr<!spirv.struct<U, (vector<4xi32> [0])>, Uniform>, si32, i32
    %21 = spirv.Load "Uniform" %20 : i32
    %22 = spirv.IAdd %18, %21 : i32
    %23 = spirv.AccessChain %10[%7, %8] : !spirv.ptr<!spirv.struct<B, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %23, %22 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
