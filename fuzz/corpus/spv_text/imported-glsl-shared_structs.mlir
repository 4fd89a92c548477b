spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gl_LocalInvocationID built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @spirv_var_20 bind(0, 0) : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.GlobalVariable @gl_GlobalInvocationID built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @cells : !spirv.ptr<!spirv.array<16 x !spirv.struct<Cell, (i32, f32)>>, Workgroup>
  spirv.func @main() "None" {
    %0 = spirv.Variable : !spirv.ptr<i32, Function>
    %1 = spirv.Constant 0 : i32
    %2 = spirv.mlir.addressof @gl_LocalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %3 = spirv.AccessChain %2[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %4 = spirv.Load "Input" %3 : i32
    spirv.Store "Function" %0, %4 : i32
    %5 = spirv.Variable : !spirv.ptr<i32, Function>
    %6 = spirv.Constant 0 : si32
    %7 = spirv.mlir.addressof @gl_GlobalInvocationID : !spirv.ptr<vector<3xi32>, Input>
    %8 = spirv.AccessChain %7[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %9 = spirv.Load "Input" %8 : i32
    %10 = spirv.Constant 63 : i32
    %11 = spirv.BitwiseAnd %9, %10 : i32
    %12 = spirv.mlir.addressof @spirv_var_20 : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %13 = spirv.AccessChain %12[%6, %11] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    %14 = spirv.Load "StorageBuffer" %13 : i32
    spirv.Store "Function" %5, %14 : i32
    %15 = spirv.Constant 16 : i32
    %16 = spirv.Load "Function" %0 : i32
    %17 = spirv.Load "Function" %5 : i32
    %18 = spirv.Constant 255 : i32
    %19 = spirv.BitwiseAnd %17, %18 : i32
    %20 = spirv.mlir.addressof @cells : !spirv.ptr<!spirv.array<16 x !spirv.struct<Cell, (i32, f32)>>, Workgroup>
    %21 = spirv.AccessChain %20[%16, %6] : !spirv.ptr<!spirv.array<16 x !spirv.struct<Cell, (i32, f32)>>, Workgroup>, i32, si32
    spirv.Store "Workgroup" %21, %19 : i32
    %22 = spirv.Load "Function" %0 : i32
    %23 = spirv.Constant 1 : si32
    %24 = spirv.Load "Function" %5 : i32
    %25 = spirv.Constant 15 : i32
    %26 = spirv.BitwiseAnd %24, %25 : i32
    %27 = spirv.ConvertUToF %26 : i32 to f32
    %28 = spirv.Constant 2.500000e-01 : f32
    %29 = spirv.FMul %27, %28 : f32
    %30 = spirv.AccessChain %20[%22, %23] : !spirv.ptr<!spirv.array<16 x !spirv.struct<Cell, (i32, f32)>>, Workgroup>, i32, si32
    spirv.Store "Workgroup" %30, %29 : f32
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    %31 = spirv.Constant 2 : i32
    %32 = spirv.Constant 264 : i32
    %33 = spirv.Variable : !spirv.ptr<!spirv.struct<Cell, (i32, f32)>, Function>
    %34 = spirv.Load "Function" %0 : i32
    %35 = spirv.Constant 3 : i32
    %36 = spirv.IAdd %34, %35 : i32
    %37 = spirv.BitwiseAnd %36, %25 : i32
    %38 = spirv.AccessChain %20[%37] : !spirv.ptr<!spirv.array<16 x !spirv.struct<Cell, (i32, f32)>>, Workgroup>, i32
    %39 = spirv.Load "Workgroup" %38 : !spirv.struct<Cell, (i32, f32)>
    spirv.Store "Function" %33, %39 : !spirv.struct<Cell, (i32, f32)>
    %40 = spirv.AccessChain %7[%1] : !spirv.ptr<vector<3xi32>, Input>, i32
    %41 = spirv.Load "Input" %40 : i32
    %42 = spirv.BitwiseAnd %41, %10 : i32
    %43 = spirv.AccessChain %33[%6] : !spirv.ptr<!spirv.struct<Cell, (i32, f32)>, Function>, si32
    %44 = spirv.Load "Function" %43 : i32
    %45 = spirv.AccessChain %33[%23] : !spirv.ptr<!spirv.struct<Cell, (i32, f32)>, Function>, si32
    %46 = spirv.Load "Function" %45 : f32
    %47 = spirv.Constant 8.000000e+00 : f32
    %48 = spirv.FMul %46, %47 : f32
    %49 = spirv.ConvertFToU %48 : f32 to i32
    %50 = spirv.IAdd %44, %49 : i32
    %51 = spirv.AccessChain %12[%6, %42] : !spirv.ptr<!spirv.struct<Data, (!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, si32, i32
    spirv.Store "StorageBuffer" %51, %50 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gl_LocalInvocationID, @gl_GlobalInvocationID
  spirv.ExecutionMode @main "LocalSize", 16, 1, 1
}
