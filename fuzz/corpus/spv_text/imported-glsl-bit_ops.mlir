spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_22 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_51 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.array<64 x i32, stride=4> [0], !spirv.rtarray<si32, stride=4> [256])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    %5 = spirv.Constant 31 : i32
    %6 = spirv.BitwiseAnd %4, %5 : i32
    spirv.Store "Function" %0, %6 : i32
    %7 = spirv.Variable : !spirv.ptr<i32, Function>
    %8 = spirv.Constant 0 : si32
    %9 = spirv.Load "Function" %0 : i32
    %10 = spirv.mlir.addressof @spirv_var_22 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %11 = spirv.AccessChain %10[%8, %9] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %12 = spirv.Load "StorageBuffer" %11 : i32
    spirv.Store "Function" %7, %12 : i32
    %13 = spirv.Variable : !spirv.ptr<i32, Function>
    %14 = spirv.Load "Function" %7 : i32
    %15 = spirv.Constant 3 : si32
    %16 = spirv.ShiftLeftLogical %14, %15 : i32, si32
    %17 = spirv.Load "Function" %7 : i32
    %18 = spirv.Constant 2 : si32
    %19 = spirv.ShiftRightLogical %17, %18 : i32, si32
    %20 = spirv.BitwiseXor %16, %19 : i32
    spirv.Store "Function" %13, %20 : i32
    %21 = spirv.Variable : !spirv.ptr<i32, Function>
    %22 = spirv.Load "Function" %7 : i32
    %23 = spirv.Constant 4 : si32
    %24 = spirv.Constant 8 : si32
    %25 = spirv.BitFieldUExtract %22, %23, %24 : i32, si32, si32
    %26 = spirv.Load "Function" %13 : i32
    %27 = spirv.Load "Function" %7 : i32
    %28 = spirv.BitFieldInsert %26, %27, %24, %23 : i32, si32, si32
    %29 = spirv.IAdd %25, %28 : i32
    spirv.Store "Function" %21, %29 : i32
    %30 = spirv.Constant 64 : i32
    %31 = spirv.Constant 1 : si32
    %32 = spirv.Load "Function" %0 : i32
    %33 = spirv.Load "Function" %7 : i32
    %34 = spirv.Bitcast %33 : i32 to si32
    %35 = spirv.Constant 5 : si32
    %36 = spirv.BitFieldSExtract %34, %18, %35 : si32, si32, si32
    %37 = spirv.mlir.addressof @spirv_var_51 : !spirv.ptr<!spirv.struct<Out, (!spirv.array<64 x i32, stride=4> [0], !spirv.rtarray<si32, stride=4> [256])>, StorageBuffer>
    %38 = spirv.AccessChain %37[%31, %32] : !spirv.ptr<!spirv.struct<Out, (!spirv.array<64 x i32, stride=4> [0], !spirv.rtarray<si32, stride=4> [256])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %38, %36 : si32
    %39 = spirv.Load "Function" %0 : i32
    %40 = spirv.Load "Function" %21 : i32
    %41 = spirv.Load "Function" %7 : i32
    %42 = "spirv.BitCount"(%41) : (i32) -> si32
    %43 = spirv.Bitcast %42 : si32 to i32
    %44 = spirv.IAdd %40, %43 : i32
    %45 = spirv.Load "Function" %7 : i32
    %46 = spirv.Constant 1 : i32
    %47 = spirv.BitwiseOr %45, %46 : i32
    %48 = "spirv.GL.FindUMsb"(%47) : (i32) -> si32
    %49 = spirv.Bitcast %48 : si32 to i32
    %50 = spirv.IAdd %44, %49 : i32
    %51 = spirv.Load "Function" %7 : i32
    %52 = spirv.Constant 255 : i32
    %53 = spirv.BitwiseAnd %51, %52 : i32
    %54 = spirv.BitReverse %53 : i32
    %55 = spirv.IAdd %50, %54 : i32
    %56 = spirv.AccessChain %37[%8, %39] : !spirv.ptr<!spirv.struct<Out, (!spirv.array<64 x i32, stride=4> [0], !spirv.rtarray<si32, stride=4> [256])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %56, %55 : i32
    %57 = spirv.Load "Function" %0 : i32
    %58 = spirv.Constant 32 : i32
    %59 = spirv.IAdd %57, %58 : i32
    %60 = spirv.Load "Function" %7 : i32
    %61 = spirv.Constant 256 : i32
    %62 = spirv.BitwiseOr %60, %61 : i32
    %63 = "spirv.GL.FindILsb"(%62) : (i32) -> si32
    %64 = spirv.Bitcast %63 : si32 to i32
    %65 = spirv.AccessChain %37[%8, %59] : !spirv.ptr<!spirv.struct<Out, (!spirv.array<64 x i32, stride=4> [0], !spirv.rtarray<si32, stride=4> [256])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %65, %64 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 32, 1, 1
}
