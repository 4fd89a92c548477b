spv.module Logical GLSL450 requires #spv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ints bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant -1 : i32
    %5 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : i32
    %8 = spv.IAddCarry %7, %4 : !spv.struct<(i32, i32)>
    %9 = spv.CompositeExtract %8[0 : i32] : !spv.struct<(i32, i32)>
    %10 = spv.CompositeExtract %8[1 : i32] : !spv.struct<(i32, i32)>
    %11 = spv.ISubBorrow %9, %2 : !spv.struct<(i32, i32)>
    %12 = spv.CompositeExtract %11[0 : i32] : !spv.struct<(i32, i32)>
    %13 = spv.UMulExtended %12, %7 : !spv.struct<(i32, i32)>
    %14 = spv.CompositeExtract %13[1 : i32] : !spv.struct<(i32, i32)>
    %15 = spv.SMulExtended %14, %10 : !spv.struct<(i32, i32)>
    %16 = spv.CompositeExtract %15[0 : i32] : !spv.struct<(i32, i32)>
    %17 = spv.CompositeConstruct %7, %2 : (i32, i32) -> vector<2xi32>
    %18 = spv.IAddCarry %17, %17 : !spv.struct<(vector<2xi32>, vector<2xi32>)>
    %19 = spv.CompositeExtract %18[0 : i32] : !spv.struct<(vector<2xi32>, vector<2xi32>)>
    %20 = spv.CompositeExtract %18[1 : i32, 0 : i32] : !spv.struct<(vector<2xi32>, vector<2xi32>)>
    %21 = spv.CompositeExtract %19[1 : i32] : vector<2xi32>
    %22 = spv.IAdd %16, %20 : i32
    %23 = spv.IAdd %22, %21 : i32
    spv.Store "StorageBuffer" %6, %23 : i32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
