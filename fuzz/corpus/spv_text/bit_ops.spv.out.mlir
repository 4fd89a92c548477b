spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ints bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 4 : i32
    %5 = spv.Constant 8 : i32
    %6 = spv.Constant 255 : i32
    %7 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %8 = spv.AccessChain %7[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %9 = spv.Load "StorageBuffer" %8 : i32
    %10 = spv.BitwiseAnd %9, %6 : i32
    %11 = spv.BitwiseOr %10, %2 : i32
    %12 = spv.BitwiseXor %11, %9 : i32
    %13 = spv.Not %12 : i32
    %14 = spv.ShiftLeftLogical %13, %4 : i32, i32
    %15 = spv.ShiftRightLogical %14, %5 : i32, i32
    %16 = spv.ShiftRightArithmetic %15, %4 : i32, i32
    %17 = spv.BitFieldInsert %16, %9, %4, %5 : i32, i32, i32
    %18 = spv.BitFieldSExtract %17, %4, %5 : i32, i32, i32
    %19 = spv.BitFieldUExtract %18, %4, %5 : i32, i32, i32
    %20 = spv.BitCount %19 : i32
    %21 = spv.BitReverse %20 : i32
    %22 = spv.SNegate %21 : i32
    %23 = spv.GLSL.FindUMsb %9 : i32
    %24 = spv.IAdd %22, %23 : i32
    %25 = spv.CompositeConstruct %24, %9 : (i32, i32) -> vector<2xi32>
    %26 = spv.ShiftLeftLogical %25, %25 : vector<2xi32>, vector<2xi32>
    %27 = spv.Not %26 : vector<2xi32>
    %28 = spv.CompositeExtract %27[0 : i32] : vector<2xi32>
    spv.Store "StorageBuffer" %8, %28 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
