spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Float64, Int64], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_26 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.array<32 x i32, stride=4> [0], !spirv.array<32 x i32, stride=4> [128])>, StorageBuffer>
  spirv.GlobalVariable @spirv_var_56 bind(0, 1) : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    %5 = spirv.Constant 15 : i32
    %6 = spirv.BitwiseAnd %4, %5 : i32
    spirv.Store "Function" %0, %6 : i32
    %7 = spirv.Variable : !spirv.ptr<i64, Function>
    %8 = spirv.Constant 32 : i32
    %9 = spirv.Constant 1 : si32
    %10 = spirv.Load "Function" %0 : i32
    %11 = spirv.mlir.addressof @spirv_var_26 : !spirv.ptr<!spirv.struct<Data, (!spirv.array<32 x i32, stride=4> [0], !spirv.array<32 x i32, stride=4> [128])>, StorageBuffer>
    %12 = spirv.AccessChain %11[%9, %10] : !spirv.ptr<!spirv.struct<Data, (!spirv.array<32 x i32, stride=4> [0], !spirv.array<32 x i32, stride=4> [128])>, StorageBuffer>, si32, i32
    %13 = spirv.Load "StorageBuffer" %12 : i32
    %14 = spirv.Constant 65535 : i32
    %15 = spirv.BitwiseAnd %13, %14 : i32
    %16 = spirv.UConvert %15 : i32 to i64
    %17 = spirv.Constant 32 : si32
    %18 = spirv.ShiftLeftLogical %16, %17 : i64, si32
    %19 = spirv.Constant 0 : si32
    %20 = spirv.Load "Function" %0 : i32
    %21 = spirv.AccessChain %11[%19, %20] : !spirv.ptr<!spirv.struct<Data, (!spirv.array<32 x i32, stride=4> [0], !spirv.array<32 x i32, stride=4> [128])>, StorageBuffer>, si32, i32
    %22 = spirv.Load "StorageBuffer" %21 : i32
    %23 = spirv.UConvert %22 : i32 to i64
    %24 = spirv.BitwiseOr %18, %23 : i64
    spirv.Store "Function" %7, %24 : i64
    %25 = spirv.Variable : !spirv.ptr<f64, Function>
    %26 = spirv.Load "Function" %7 : i64
    %27 = spirv.Constant 1099511627775 : i64
    %28 = spirv.BitwiseAnd %26, %27 : i64
    %29 = spirv.ConvertUToF %28 : i64 to f64
    %30 = spirv.Constant 5.000000e-01 : f64
    %31 = spirv.FMul %29, %30 : f64
    spirv.Store "Function" %25, %31 : f64
    %32 = spirv.Load "Function" %0 : i32
    %33 = spirv.Load "Function" %7 : i64
    %34 = spirv.Constant 3 : i64
    %35 = spirv.IMul %33, %34 : i64
    %36 = spirv.Load "Function" %25 : f64
    %37 = spirv.ConvertFToU %36 : f64 to i64
    %38 = spirv.IAdd %35, %37 : i64
    %39 = spirv.mlir.addressof @spirv_var_56 : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>
    %40 = spirv.AccessChain %39[%19, %32] : !spirv.ptr<!spirv.struct<Out, (!spirv.rtarray<i64, stride=8> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %40, %38 : i64
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
