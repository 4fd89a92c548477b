spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant 4 : i32
    %5 = spirv.Constant 8 : i32
    %6 = spirv.Constant 255 : i32
    %7 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spirv.AccessChain %7[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spirv.Load "StorageBuffer" %8 : i32
    %10 = spirv.BitwiseAnd %9, %6 : i32
    %11 = spirv.BitwiseOr %10, %2 : i32
    %12 = spirv.BitwiseXor %11, %9 : i32
    %13 = spirv.Not %12 : i32
    %14 = spirv.ShiftLeftLogical %13, %4 : i32, i32
    %15 = spirv.ShiftRightLogical %14, %5 : i32, i32
    %16 = spirv.ShiftRightArithmetic %15, %4 : i32, i32
    %17 = spirv.BitFieldInsert %16, %9, %4, %5 : i32, i32, i32
    %18 = spirv.BitFieldSExtract %17, %4, %5 : i32, i32, i32
    %19 = spirv.BitFieldUExtract %18, %4, %5 : i32, i32, i32
    %20 = spirv.BitCount %19 : i32
    %21 = spirv.BitReverse %20 : i32
    %22 = spirv.SNegate %21 : i32
    %23 = spirv.GL.FindUMsb %9 : i32
    %24 = spirv.IAdd %22, %23 : i32
    %25 = spirv.CompositeConstruct %24, %9 : (i32, i32) -> vector<2xi32>
    %26 = spirv.ShiftLeftLogical %25, %25 : vector<2xi32>, vector<2xi32>
    %27 = spirv.Not %26 : vector<2xi32>
    %28 = spirv.CompositeExtract %27[0 : i32] : vector<2xi32>
    spirv.Store "StorageBuffer" %8, %28 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
