spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @ints bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spirv.func @main() "None" {
    %0 = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %1 = spirv.Load "Input" %0 : vector<3xi32>
    %2 = spirv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spirv.Constant 0 : i32
    %4 = spirv.Constant -1 : i32
    %5 = spirv.mlir.addressof @ints : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spirv.AccessChain %5[%3, %2] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spirv.Load "StorageBuffer" %6 : i32
    %8 = spirv.IAddCarry %7, %4 : !spirv.struct<(i32, i32)>
    %9 = spirv.CompositeExtract %8[0 : i32] : !spirv.struct<(i32, i32)>
    %10 = spirv.CompositeExtract %8[1 : i32] : !spirv.struct<(i32, i32)>
    %11 = spirv.ISubBorrow %9, %2 : !spirv.struct<(i32, i32)>
    %12 = spirv.CompositeExtract %11[0 : i32] : !spirv.struct<(i32, i32)>
    %13 = spirv.UMulExtended %12, %7 : !spirv.struct<(i32, i32)>
    %14 = spirv.CompositeExtract %13[1 : i32] : !spirv.struct<(i32, i32)>
    %15 = spirv.SMulExtended %14, %10 : !spirv.struct<(i32, i32)>
    %16 = spirv.CompositeExtract %15[0 : i32] : !spirv.struct<(i32, i32)>
    %17 = spirv.CompositeConstruct %7, %2 : (i32, i32) -> vector<2xi32>
    %18 = spirv.IAddCarry %17, %17 : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %19 = spirv.CompositeExtract %18[0 : i32] : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %20 = spirv.CompositeExtract %18[1 : i32, 0 : i32] : !spirv.struct<(vector<2xi32>, vector<2xi32>)>
    %21 = spirv.CompositeExtract %19[1 : i32] : vector<2xi32>
    %22 = spirv.IAdd %16, %20 : i32
    %23 = spirv.IAdd %22, %21 : i32
    spirv.Store "StorageBuffer" %6, %23 : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main, @gid
  spirv.ExecutionMode @main "LocalSize", 64, 1, 1
}
