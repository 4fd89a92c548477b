spv.module Logical GLSL450 requires #spv.vce<v1.4, [Shader], []> {
  spv.GlobalVariable @gid built_in("GlobalInvocationId") : !spv.ptr<vector<3xi32>, Input>
  spv.GlobalVariable @ints bind(0, 0) : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
  spv.GlobalVariable @floats bind(0, 1) : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
  spv.func @main() "None" attributes {kiln.note = "decorations", kiln.priority = 2 : i32} {
    %0 = spv.mlir.addressof @gid : !spv.ptr<vector<3xi32>, Input>
    %1 = spv.Load "Input" %0 : vector<3xi32>
    %2 = spv.CompositeExtract %1[0 : i32] : vector<3xi32>
    %3 = spv.Constant 0 : i32
    %4 = spv.Constant 1 : i32
    %5 = spv.mlir.addressof @ints : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>
    %6 = spv.AccessChain %5[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<i32, stride=4> [0])>, StorageBuffer>, i32, i32
    %7 = spv.Load "StorageBuffer" %6 : i32
    %8 = spv.IAdd %7, %4 {no_signed_wrap} : i32
    %9 = spv.IMul %8, %2 {no_signed_wrap, no_unsigned_wrap} : i32
    %10 = spv.ISub %9, %4 {no_unsigned_wrap} : i32
    spv.Store "StorageBuffer" %6, %10 : i32
    %11 = spv.mlir.addressof @floats : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>
    %12 = spv.AccessChain %11[%3, %2] : !spv.ptr<!spv.struct<(!spv.rtarray<f32, stride=4> [0])>, StorageBuffer>, i32, i32
    %13 = spv.Load "StorageBuffer" %12 : f32
    %14 = spv.FMul %13, %13 {relaxed_precision} : f32
    spv.Store "StorageBuffer" %12, %14 : f32
    spv.Return
  }
  spv.EntryPoint "GLCompute" @main, @gid, @ints, @floats
  spv.ExecutionMode @main "LocalSize", 64, 1, 1
}
